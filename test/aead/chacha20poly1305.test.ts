import assert from "node:assert/strict";
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import {
  chacha20poly1305 as nobleChaCha,
  xchacha20poly1305 as nobleXChaCha,
} from "@noble/ciphers/chacha.js";
import fc from "fast-check";
import { NATIVE_CROSSOVER } from "../../src/engine/select.js";
import {
  type AeadKey,
  chacha20,
  chacha20poly1305,
  chacha20poly1305Key,
  hchacha20,
  xchacha20poly1305,
  xchacha20poly1305Key,
} from "../../src/hazmat.js";
import { KeyedError, mac } from "../../src/index.js";
import { ascii, atOffset, hex, notBytes, throwsKeyed, toHex } from "../helpers.js";
import { hexBlocks, rfcSection } from "../rfc-text.js";
import {
  type AeadTestGroup,
  readVectorJson,
  skipUnless,
  vectorPath,
  type WycheproofFile,
} from "../vectors.js";

const RFC = "rfc/rfc8439_test_vectors.txt";
const SUNSCREEN = ascii(
  "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.",
);

function nodeSeal(
  key: Uint8Array,
  nonce: Uint8Array,
  aad: Uint8Array,
  plaintext: Uint8Array,
): Uint8Array {
  const c = createCipheriv("chacha20-poly1305", key, nonce, { authTagLength: 16 });
  c.setAAD(aad, { plaintextLength: plaintext.length });
  return Uint8Array.from(Buffer.concat([c.update(plaintext), c.final(), c.getAuthTag()]));
}

describe("ChaCha20 and ChaCha20-Poly1305 known answers (RFC 8439)", () => {
  it("2.6.2: the Poly1305 key is the first 32 keystream bytes", () => {
    const key = hex("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f");
    const nonce = hex("000000000001020304050607");
    assert.equal(
      toHex(chacha20(key, nonce, new Uint8Array(32))),
      "8ad5a08b905f81cc815040274ab29471a833b637e3fd0da508dbb8e2fdd1a646",
    );
  });
  it("2.8.2: AEAD_CHACHA20_POLY1305 example", () => {
    const key = hex("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f");
    const nonce = hex("070000004041424344454647");
    const aad = hex("50515253c0c1c2c3c4c5c6c7");
    const sealed = chacha20poly1305(key, nonce, aad).seal(SUNSCREEN);
    assert.equal(
      toHex(sealed),
      "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b" +
        "1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc" +
        "3ff4def08e4b7a9de576d26586cec64b6116" +
        "1ae10b594f09e26a7e902ecbd0600691",
    );
    assert.deepEqual(chacha20poly1305(key, nonce, aad).open(sealed), SUNSCREEN);
  });
  it("2.8.2 and A.5, read from the RFC text", { skip: skipUnless(RFC) }, () => {
    const path = vectorPath(RFC) as string;
    const example = new Map(hexBlocks(rfcSection(path, "2.8.2")).map((b) => [b.label, b.bytes]));
    const nonce = Uint8Array.of(
      ...(example.get("32-bit fixed-common part:") as Uint8Array),
      ...(example.get("IV:") as Uint8Array),
    );
    const sealed = chacha20poly1305(
      example.get("Key:") as Uint8Array,
      nonce,
      example.get("AAD:"),
    ).seal(example.get("Plaintext:") as Uint8Array);
    assert.equal(
      toHex(sealed),
      toHex(
        Uint8Array.of(
          ...(example.get("Ciphertext:") as Uint8Array),
          ...(example.get("Tag:") as Uint8Array),
        ),
      ),
    );
    const a5 = new Map(hexBlocks(rfcSection(path, "A.5")).map((b) => [b.label, b.bytes]));
    const received = Uint8Array.of(
      ...(a5.get("Ciphertext:") as Uint8Array),
      ...(a5.get("Received Tag:") as Uint8Array),
    );
    const opened = chacha20poly1305(
      a5.get("The ChaCha20 Key") as Uint8Array,
      a5.get("The nonce:") as Uint8Array,
      a5.get("The AAD:"),
    ).open(received);
    assert.equal(toHex(opened), toHex(a5.get("Plaintext::") as Uint8Array));
    assert.match(new TextDecoder().decode(opened), /^Internet-Drafts are draft documents/);
  });
  it("XChaCha20-Poly1305 and HChaCha20 (draft-irtf-cfrg-xchacha-03 2.2.1 and A.3.1)", () => {
    assert.equal(
      toHex(
        hchacha20(
          hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
          hex("000000090000004a0000000031415927"),
        ),
      ),
      "82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc",
    );
    const key = hex("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f");
    const nonce = hex("404142434445464748494a4b4c4d4e4f5051525354555657");
    const aad = hex("50515253c0c1c2c3c4c5c6c7");
    const sealed = xchacha20poly1305(key, nonce, aad).seal(SUNSCREEN);
    assert.equal(
      toHex(sealed),
      "bd6d179d3e83d43b9576579493c0e939572a1700252bfaccbed2902c21396cbb731c7f1b0b4aa6440bf3a82f4eda7e39" +
        "ae64c6708c54c216cb96b72e1213b4522f8c9ba40db5d945b11b69b982c1bb9e3f3fac2bc369488f76b2383565d3fff9" +
        "21f9664c97637da9768812f615c68b13b52e" +
        "c0875924c1c7987947deafd8780acf49",
    );
    assert.deepEqual(xchacha20poly1305(key, nonce, aad).open(sealed), SUNSCREEN);
  });
});

describe("Wycheproof ChaCha20-Poly1305 and XChaCha20-Poly1305", () => {
  const files: [string, number, typeof chacha20poly1305, (key: Uint8Array) => AeadKey][] = [
    ["chacha20_poly1305_test.json", 12, chacha20poly1305, chacha20poly1305Key],
    ["xchacha20_poly1305_test.json", 24, xchacha20poly1305, xchacha20poly1305Key],
  ];
  for (const [file, nonceLength, aead, prepare] of files) {
    const path = `wycheproof/${file}`;
    it(`${file}: every case`, { skip: skipUnless(path) }, () => {
      const data = readVectorJson<WycheproofFile<AeadTestGroup>>(path);
      let count = 0;
      for (const group of data.testGroups) {
        for (const t of group.tests) {
          const id = `tcId ${t.tcId} (${t.comment})`;
          count++;
          const [key, iv, aad, msg, ct, tag] = [t.key, t.iv, t.aad, t.msg, t.ct, t.tag].map(hex);
          // The prepared key serves each case twice: its second call takes node:crypto's KeyObject
          // path where a message is past the crossover.
          const prepared = prepare(key);
          if (iv.length !== nonceLength) {
            assert.equal(t.result, "invalid", id);
            throwsKeyed(() => aead(key, iv, aad), "BAD_INPUT", /nonce/);
            throwsKeyed(() => prepared.seal(iv, msg, aad), "BAD_INPUT", /nonce/);
            continue;
          }
          const sealed = Uint8Array.of(...ct, ...tag);
          if (t.result === "valid") {
            assert.equal(toHex(aead(key, iv, aad).seal(msg)), toHex(sealed), id);
            assert.equal(toHex(aead(key, iv, aad).open(sealed)), t.msg, id);
            assert.equal(toHex(prepared.seal(iv, msg, aad)), toHex(sealed), `${id}, prepared`);
            assert.equal(toHex(prepared.open(iv, sealed, aad)), t.msg, `${id}, prepared`);
          } else {
            throwsKeyed(() => aead(key, iv, aad).open(sealed), "TAG_INVALID");
            throwsKeyed(() => prepared.open(iv, sealed, aad), "TAG_INVALID");
            throwsKeyed(() => prepared.open(iv, sealed, aad), "TAG_INVALID");
          }
        }
      }
      assert.equal(count, data.numberOfTests);
    });
  }
});

describe("ChaCha20-Poly1305 against node:crypto and @noble/ciphers (property tests)", () => {
  it("the AEAD seals like node:crypto and opens its output (1,000 cases)", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ minLength: 12, maxLength: 12 }),
        fc.uint8Array({ maxLength: 300 }),
        fc.uint8Array({ maxLength: 5000 }),
        (key, nonce, aad, plaintext) => {
          const expected = nodeSeal(key, nonce, aad, plaintext);
          const aead = chacha20poly1305(atOffset(key), atOffset(nonce), atOffset(aad));
          assert.deepEqual(aead.seal(plaintext), expected);
          assert.deepEqual(aead.open(expected), plaintext);
        },
      ),
      { numRuns: 1000 },
    );
  });
  it("seals and opens like node:crypto on both sides of the AEAD's crossover, into outputs of their own", () => {
    const key = new Uint8Array(randomBytes(32));
    const nonce = new Uint8Array(randomBytes(12));
    const crossover = NATIVE_CROSSOVER["chacha20-poly1305-aead"];
    for (const n of [
      crossover - 17,
      crossover - 16,
      crossover - 1,
      crossover,
      65536,
      196615,
      1 << 20,
    ]) {
      // Associated data of 1 to 64 bytes reaches node:crypto as a copy in an off-heap scratch
      // (engine/native.ts lend), longer as it is: both sides of that limit, and none.
      for (const aadLength of [65, 64, 16, 1, 0]) {
        const aad = new Uint8Array(randomBytes(aadLength));
        const plaintext = new Uint8Array(randomBytes(n));
        const aead = chacha20poly1305(key, nonce, aad);
        const sealed = aead.seal(plaintext);
        assert.deepEqual(sealed, nodeSeal(key, nonce, aad, plaintext), `${n} B`);
        const opened = aead.open(sealed);
        assert.deepEqual(opened, plaintext, `${n} B opens`);
        // Plain Uint8Arrays, each over a buffer that holds nothing else (never Buffer's pool).
        for (const out of [sealed, opened]) {
          assert.equal(Object.getPrototypeOf(out), Uint8Array.prototype);
          assert.equal(out.buffer.byteLength, out.length);
        }
        sealed[n >> 1] ^= 1;
        throwsKeyed(() => aead.open(sealed), "TAG_INVALID");
      }
    }
  });
  it("XChaCha20-Poly1305 matches @noble/ciphers (1,000 cases)", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ minLength: 24, maxLength: 24 }),
        fc.uint8Array({ maxLength: 300 }),
        fc.uint8Array({ maxLength: 5000 }),
        (key, nonce, aad, plaintext) => {
          assert.deepEqual(
            xchacha20poly1305(key, nonce, aad).seal(plaintext),
            nobleXChaCha(key, nonce, aad).encrypt(plaintext),
          );
        },
      ),
      { numRuns: 1000 },
    );
  });
  it("the chacha20-poly1305 MAC is checked by node:crypto (empty ciphertext, message as AAD) (1,000 cases)", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ maxLength: 5000 }),
        fc.array(fc.nat(), { maxLength: 4 }),
        (key, message, cuts) => {
          const m = mac("chacha20-poly1305", key);
          const tagged = m.tag(message);
          assert.equal(tagged.length, 28);
          const d = createDecipheriv("chacha20-poly1305", key, tagged.subarray(0, 12), {
            authTagLength: 16,
          });
          d.setAAD(message, { plaintextLength: 0 });
          d.setAuthTag(tagged.subarray(12));
          d.final(); // throws if node rejects the tag
          assert.equal(m.verify(message, tagged), true);
          const s = m.stream();
          let last = 0;
          for (const p of cuts.map((c) => c % (message.length + 1)).sort((x, y) => x - y)) {
            s.update(message.subarray(last, p));
            last = p;
          }
          assert.equal(s.update(message.subarray(last)).verify(tagged), true);
        },
      ),
      { numRuns: 1000 },
    );
  });
  it("both MACs equal @noble/ciphers' AEAD tag at every length to 300 B and around the module's input area", () => {
    for (const [name, aead, nonceLength] of [
      ["chacha20-poly1305", nobleChaCha, 12],
      ["xchacha20-poly1305", nobleXChaCha, 24],
    ] as const) {
      const key = new Uint8Array(randomBytes(32));
      const m = mac(name, key);
      const lengths = [...Array.from({ length: 301 }, (_, n) => n), 16383, 65535, 65536, 65537];
      for (const n of lengths) {
        const message = new Uint8Array(randomBytes(n));
        const tagged = m.tag(message);
        const nonce = tagged.subarray(0, nonceLength);
        const want = aead(key, nonce, message).encrypt(new Uint8Array(0));
        assert.deepEqual(tagged.subarray(nonceLength), want, `${name}, ${n} B`);
        assert.equal(m.verify(message, tagged), true, `${name}, ${n} B verifies`);
      }
    }
  });
  it("the xchacha20-poly1305 MAC equals the AEAD's tag over an empty plaintext", () => {
    const key = new Uint8Array(32).fill(5);
    const m = mac("xchacha20-poly1305", key);
    const message = ascii("webhook body");
    const tagged = m.tag(message);
    assert.equal(tagged.length, 40);
    assert.deepEqual(
      tagged.subarray(24),
      nobleXChaCha(key, tagged.subarray(0, 24), message).encrypt(new Uint8Array(0)),
    );
    assert.equal(m.verify(message, tagged), true);
    tagged[30] ^= 1;
    assert.equal(m.verify(message, tagged), false);
  });
});

describe("AEAD refusals", () => {
  const key = new Uint8Array(32).fill(1);
  const nonce = new Uint8Array(12).fill(2);
  it("open releases no plaintext on a wrong tag, ciphertext, AAD or nonce", () => {
    const sealed = chacha20poly1305(key, nonce, ascii("aad")).seal(ascii("secret message"));
    const attempts: [string, () => unknown][] = [
      [
        "tag",
        () =>
          chacha20poly1305(key, nonce, ascii("aad")).open(
            Uint8Array.of(...sealed.subarray(0, -1), sealed[sealed.length - 1] ^ 1),
          ),
      ],
      [
        "ciphertext",
        () =>
          chacha20poly1305(key, nonce, ascii("aad")).open(
            Uint8Array.of(sealed[0] ^ 1, ...sealed.subarray(1)),
          ),
      ],
      ["aad", () => chacha20poly1305(key, nonce, ascii("aae")).open(sealed)],
      ["nonce", () => chacha20poly1305(key, new Uint8Array(12), ascii("aad")).open(sealed)],
      ["truncated", () => chacha20poly1305(key, nonce, ascii("aad")).open(sealed.subarray(0, 15))],
    ];
    for (const [what, attempt] of attempts) {
      let result: unknown;
      try {
        result = attempt();
      } catch (error) {
        assert.ok(error instanceof KeyedError, what);
        assert.equal(error.code, "TAG_INVALID", what);
      }
      assert.equal(result, undefined, `${what}: plaintext released`);
    }
  });
  it("checks key, nonce and argument types", () => {
    throwsKeyed(() => chacha20poly1305(new Uint8Array(16), nonce), "KEY_LENGTH", /32-byte/);
    throwsKeyed(() => chacha20poly1305(key, new Uint8Array(24)), "BAD_INPUT", /12-byte nonce/);
    throwsKeyed(() => xchacha20poly1305(key, nonce), "BAD_INPUT", /24-byte nonce/);
    for (const [, value] of notBytes()) {
      throwsKeyed(() => chacha20poly1305(value as Uint8Array, nonce), "BAD_INPUT", /^key /);
      throwsKeyed(() => chacha20poly1305(key, value as Uint8Array), "BAD_INPUT", /^nonce /);
      if (value !== undefined)
        throwsKeyed(() => chacha20poly1305(key, nonce, value as Uint8Array), "BAD_INPUT", /^aad /);
      throwsKeyed(
        () => chacha20poly1305(key, nonce).seal(value as Uint8Array),
        "BAD_INPUT",
        /^plaintext /,
      );
      throwsKeyed(
        () => chacha20poly1305(key, nonce).open(value as Uint8Array),
        "BAD_INPUT",
        /^sealed /,
      );
    }
    throwsKeyed(() => chacha20(key, nonce, new Uint8Array(1), 2 ** 32), "BAD_INPUT", /counter/);
    throwsKeyed(() => chacha20(key, nonce, new Uint8Array(65), 2 ** 32 - 1), "LENGTH", /counter/);
    assert.equal(chacha20(key, nonce, new Uint8Array(64), 2 ** 32 - 1).length, 64);
  });
});

describe("Prepared AEAD keys: chacha20poly1305Key and xchacha20poly1305Key", () => {
  it("2.8.2's example under a prepared key, the nonce per call", () => {
    const key = hex("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f");
    const nonce = hex("070000004041424344454647");
    const aad = hex("50515253c0c1c2c3c4c5c6c7");
    const k = chacha20poly1305Key(key);
    const sealed = k.seal(nonce, SUNSCREEN, aad);
    assert.equal(toHex(sealed.subarray(SUNSCREEN.length)), "1ae10b594f09e26a7e902ecbd0600691");
    assert.deepEqual(sealed, chacha20poly1305(key, nonce, aad).seal(SUNSCREEN));
    assert.deepEqual(k.open(nonce, sealed, aad), SUNSCREEN);
  });
  it("many messages under one key equal the one-nonce AEAD and node:crypto, on both sides of the crossover", () => {
    const key = new Uint8Array(randomBytes(32));
    const k = chacha20poly1305Key(atOffset(key));
    const xk = xchacha20poly1305Key(key);
    const crossover = NATIVE_CROSSOVER["chacha20-poly1305-aead"];
    // Each size twice and more: a prepared key's first call lends its bytes to node:crypto, the
    // later ones its KeyObject.
    for (const n of [0, 1, 63, 64, crossover - 1, crossover, crossover + 1, 70_000, 0, crossover]) {
      for (const aadLength of [0, 1, 64, 65]) {
        const nonce = new Uint8Array(randomBytes(12));
        const nonce24 = new Uint8Array(randomBytes(24));
        const aad = new Uint8Array(randomBytes(aadLength));
        const plaintext = new Uint8Array(randomBytes(n));
        const label = `${n} B, ${aadLength} B of associated data`;
        const sealed = k.seal(atOffset(nonce), atOffset(plaintext), aadLength ? aad : undefined);
        assert.deepEqual(sealed, nodeSeal(key, nonce, aad, plaintext), label);
        assert.deepEqual(sealed, chacha20poly1305(key, nonce, aad).seal(plaintext), label);
        assert.deepEqual(k.open(nonce, sealed, aad), plaintext, `${label} opens`);
        assert.equal(Object.getPrototypeOf(sealed), Uint8Array.prototype);
        const xsealed = xk.seal(nonce24, plaintext, aad);
        assert.deepEqual(xsealed, nobleXChaCha(key, nonce24, aad).encrypt(plaintext), `X ${label}`);
        assert.deepEqual(xk.open(nonce24, xsealed, aad), plaintext, `X ${label} opens`);
        for (const [prepared, nonceUsed, box] of [
          [k, nonce, sealed],
          [xk, nonce24, xsealed],
        ] as const) {
          const bad = box.slice();
          bad[bad.length - 1] ^= 1;
          throwsKeyed(() => prepared.open(nonceUsed, bad, aad), "TAG_INVALID");
          throwsKeyed(() => prepared.open(nonceUsed, box, Uint8Array.of(...aad, 0)), "TAG_INVALID");
        }
      }
    }
  });
  it("keeps its own copy of the key, and none of the caller's nonce or associated data", () => {
    const key = new Uint8Array(32).fill(9);
    const nonce = new Uint8Array(12).fill(3);
    const aad = new Uint8Array(20).fill(4);
    const want = chacha20poly1305(key, nonce, aad).seal(ascii("message"));
    const k = chacha20poly1305Key(key);
    key.fill(0);
    assert.deepEqual(k.seal(nonce, ascii("message"), aad), want);
    nonce[0] ^= 1;
    aad[0] ^= 1;
    assert.notDeepEqual(k.seal(nonce, ascii("message"), aad), want);
  });
  it("destroy() wipes the key: every later call is DESTROYED", () => {
    for (const [prepare, nonceLength] of [
      [chacha20poly1305Key, 12],
      [xchacha20poly1305Key, 24],
    ] as const) {
      const k = prepare(new Uint8Array(32).fill(7));
      const nonce = new Uint8Array(nonceLength);
      const sealed = k.seal(nonce, ascii("x"));
      k.seal(new Uint8Array(nonceLength).fill(1), new Uint8Array(9000)); // the KeyObject path
      k.destroy();
      throwsKeyed(() => k.seal(nonce, ascii("x")), "DESTROYED", /destroyed/);
      throwsKeyed(() => k.open(nonce, sealed), "DESTROYED", /destroyed/);
      k.destroy(); // twice is harmless
    }
  });
  it("checks the key once and each call's nonce, associated data and input", () => {
    const nonce = new Uint8Array(12);
    throwsKeyed(() => chacha20poly1305Key(new Uint8Array(16)), "KEY_LENGTH", /32-byte/);
    throwsKeyed(() => xchacha20poly1305Key(new Uint8Array(33)), "KEY_LENGTH", /32-byte/);
    const k = chacha20poly1305Key(new Uint8Array(32));
    const xk = xchacha20poly1305Key(new Uint8Array(32));
    throwsKeyed(() => k.seal(new Uint8Array(24), ascii("x")), "BAD_INPUT", /12-byte nonce/);
    throwsKeyed(() => xk.seal(nonce, ascii("x")), "BAD_INPUT", /24-byte nonce/);
    throwsKeyed(() => k.open(new Uint8Array(11), new Uint8Array(16)), "BAD_INPUT", /12-byte nonce/);
    for (const [, value] of notBytes()) {
      throwsKeyed(() => chacha20poly1305Key(value as Uint8Array), "BAD_INPUT", /^key /);
      throwsKeyed(() => k.seal(value as Uint8Array, ascii("x")), "BAD_INPUT", /^nonce /);
      throwsKeyed(() => k.seal(nonce, value as Uint8Array), "BAD_INPUT", /^plaintext /);
      throwsKeyed(() => k.open(nonce, value as Uint8Array), "BAD_INPUT", /^sealed /);
      if (value !== undefined)
        throwsKeyed(() => k.seal(nonce, ascii("x"), value as Uint8Array), "BAD_INPUT", /^aad /);
    }
    throwsKeyed(() => k.open(nonce, new Uint8Array(15)), "TAG_INVALID", /shorter than/);
  });
});
