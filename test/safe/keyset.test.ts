/**
 * Keysets: the API, Tink's tag format and selection rules (checked against an independent oracle
 * on node:crypto), rotation end to end, destruction down to the memory, policy refusals, redaction
 * and the never-throws property of verify. Tink's published vectors are in keyset-tink.test.ts.
 */
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { describe, it } from "node:test";
import { inspect } from "node:util";
import fc from "fast-check";
import { FORCED_BACKEND } from "../../src/engine/native.js";
import {
  bytesToBase64,
  bytesToHex,
  encodeFields,
  Keyset,
  type MacName,
  mac,
  utf8ToBytes,
} from "../../src/index.js";
import {
  keysetKeyBuffer,
  keysetKeyBytes,
  keysetMac,
  keysetPrimary,
} from "../../src/safe/keyset.js";
import { ascii, hex, throwsKeyed, toHex } from "../helpers.js";

const message = ascii("attack at dawn");
const key32 = Uint8Array.from({ length: 32 }, (_, i) => i + 1);

/** Tink's tag of `message` under an HMAC-SHA256 key, computed with node:crypto (the oracle). */
function oracle(
  key: Uint8Array,
  msg: Uint8Array,
  prefix: "tink" | "legacy" | "crunchy" | "raw",
  id: number,
  tagLength = 32,
): string {
  const input = prefix === "legacy" ? Buffer.concat([msg, Buffer.of(0)]) : msg;
  const body = createHmac("sha256", key).update(input).digest().subarray(0, tagLength);
  const idHex = id.toString(16).padStart(8, "0");
  const head = prefix === "raw" ? "" : `${prefix === "tink" ? "01" : "00"}${idHex}`;
  return head + body.toString("hex");
}

describe("Keyset: tags in Tink's format", () => {
  for (const prefix of ["tink", "legacy", "crunchy", "raw"] as const) {
    it(`${prefix}: tag, verify, tagFields and streams match the node:crypto oracle`, () => {
      const ks = Keyset.fromKey("hmac-sha256", key32, { prefix, id: 0x01020304, tagLength: 16 });
      const expected = oracle(key32, message, prefix, 0x01020304, 16);
      assert.equal(toHex(ks.tag(message)), expected);
      assert.equal(ks.tagLength, expected.length / 2);
      assert.equal(ks.verify(message, hex(expected)), true);
      const out = new Uint8Array(ks.tagLength);
      assert.equal(ks.tag(message, out), out);
      assert.equal(toHex(out), expected);
      // Streams: tagging and verifying, in two chunks.
      const stream = ks.stream().update(message.subarray(0, 5)).update(message.subarray(5));
      assert.equal(toHex(stream.digest()), expected);
      assert.equal(ks.verifyingStream(hex(expected)).update(message).verify(), true);
      assert.equal(ks.verifyingStream(hex(expected)).update(ascii("other")).verify(), false);
      // Fields: the same as tagging their canonical encoding.
      const encoded = encodeFields("purpose", ["a", "bc"]);
      const fieldsTag = ks.tagFields("purpose", ["a", "bc"]);
      assert.equal(toHex(fieldsTag), oracle(key32, encoded, prefix, 0x01020304, 16));
      assert.equal(ks.verifyFields("purpose", ["a", "bc"], fieldsTag), true);
      assert.equal(ks.verifyFields("purpose", ["ab", "c"], fieldsTag), false);
    });
  }

  it("KMAC keys encode fields with TupleHash in a keyset too", () => {
    const ks = Keyset.fromKey("kmac256", key32, { prefix: "raw" });
    const direct = mac("kmac256", key32).tagFields("p", ["x", "y"]);
    assert.equal(toHex(ks.tagFields("p", ["x", "y"])), toHex(direct));
    assert.equal(ks.verifyFields("p", ["x", "y"], direct), true);
  });

  it("verify follows Tink: prefix match first, then raw keys; short tags are false", () => {
    const ks = Keyset.fromKey("hmac-sha256", key32, { prefix: "raw", id: 7 });
    // A message whose raw tag starts with 0x01, like a TINK prefix.
    let counter = 0;
    let msg = message;
    let rawTag = ks.tag(msg);
    while (rawTag[0] !== 1) {
      msg = ascii(`attack at dawn ${++counter}`);
      rawTag = ks.tag(msg);
    }
    // A TINK key whose prefix equals the raw tag's first five bytes: Tink tries it, it fails,
    // and the raw key must still be tried on the whole tag (tink-java MacWrapperTest:257).
    const lookalike = ((rawTag[1] << 24) | (rawTag[2] << 16) | (rawTag[3] << 8) | rawTag[4]) >>> 0;
    ks.add("hmac-sha256", { prefix: "tink", id: lookalike });
    assert.equal(ks.verify(msg, rawTag), true);
    assert.equal(ks.verifyingStream(rawTag).update(msg).verify(), true);
    for (const length of [0, 1, 4, 5])
      assert.equal(ks.verify(message, rawTag.subarray(0, length)), false);
    assert.equal(ks.verify(message, rawTag.subarray(0, 31)), false);
    assert.equal(ks.verify(message, new Uint8Array(64)), false);
  });

  it("a prefix names the key: a tag under one key's prefix but another key's MAC fails", () => {
    const ks = Keyset.fromKey("hmac-sha256", key32, { id: 1 });
    const other = ks.add("hmac-sha256", { id: 2 });
    const tag = ks.tag(message);
    const moved = tag.slice();
    moved[4] = 2; // same MAC, now claiming key 2
    assert.equal(ks.verify(message, moved), false);
    ks.setPrimary(other);
    const tag2 = ks.tag(message);
    assert.equal(tag2[4], 2);
    assert.equal(ks.verify(message, tag), true);
    assert.equal(ks.verify(message, tag2), true);
  });

  it("generate: one fresh primary key with a random non-zero id; ids stay unique", () => {
    const ks = Keyset.generate("blake3");
    assert.equal(ks.keys().length, 1);
    const [first] = ks.keys();
    assert.deepEqual(
      { ...first, id: 0, kid: "" },
      {
        id: 0,
        kid: "",
        algorithm: "blake3",
        tagLength: 32,
        prefix: "tink",
        status: "enabled",
        primary: true,
      },
    );
    assert.ok(first.id > 0 && first.id <= 0xffffffff);
    assert.equal(first.kid, String(first.id));
    assert.equal(ks.primaryId, first.id);
    for (let i = 0; i < 200; i++) ks.add("blake3", { prefix: "raw" });
    const ids = ks.keys().map((k) => k.id);
    assert.equal(new Set(ids).size, ids.length);
    assert.ok(ids.every((id) => Number.isInteger(id) && id > 0 && id <= 0xffffffff));
    const tag = ks.tag(message);
    assert.equal(tag[0], 1);
    assert.equal(((tag[1] << 24) | (tag[2] << 16) | (tag[3] << 8) | tag[4]) >>> 0, ks.primaryId);
    assert.equal(Keyset.generate("hmac-sha256", { prefix: "raw" }).tagLength, 32);
    assert.equal(Keyset.generate("hmac-sha512", { tagLength: 32 }).tagLength, 37);
  });
});

describe("Keyset: rotation", () => {
  it("tag with A; add B; promote B; disable A; destroy A", () => {
    const ks = Keyset.generate("hmac-sha256");
    const a = ks.primaryId;
    const tagA = ks.tag(message);
    const b = ks.add("hmac-sha256");
    assert.notEqual(a, b);
    assert.equal(ks.primaryId, a, "add does not promote");
    assert.equal(ks.verify(message, tagA), true);
    ks.setPrimary(b);
    const tagB = ks.tag(message);
    assert.equal(
      toHex(tagB.subarray(1, 5)),
      b.toString(16).padStart(8, "0"),
      "new tags carry B's id",
    );
    assert.equal(ks.verify(message, tagA), true, "old tags still verify");
    assert.equal(ks.verify(message, tagB), true);
    ks.disable(a);
    assert.equal(ks.verify(message, tagA), false, "a disabled key's tags are refused");
    assert.equal(ks.verify(message, tagB), true);
    assert.equal(ks.get(a)?.status, "disabled");
    ks.enable(a);
    assert.equal(ks.verify(message, tagA), true, "enabled again");
    ks.disable(a);
    const before = keysetKeyBytes(ks, b);
    assert.ok(before !== undefined);
    const aBytes = keysetKeyBuffer(ks, a)!;
    const aCopy = aBytes.slice();
    assert.ok(aCopy.some((x) => x !== 0));
    ks.destroy(a);
    assert.ok(
      aBytes.every((x) => x === 0),
      "keyed's copy of A is zeroed",
    );
    assert.equal(keysetKeyBuffer(ks, a), undefined);
    assert.equal(ks.verify(message, tagA), false);
    assert.deepEqual(
      ks.keys().map((k) => [k.id, k.status, k.primary]),
      [
        [a, "destroyed", false],
        [b, "enabled", true],
      ],
    );
    const json = ks.toKeyedJson();
    assert.equal(json.includes(bytesToBase64(aCopy)), false, "no trace of A's bytes");
    const reloaded = Keyset.fromKeyedJson(json);
    assert.equal(reloaded.get(a)?.status, "destroyed");
    assert.equal(reloaded.verify(message, tagB), true);
    throwsKeyed(() => ks.enable(a), "DESTROYED");
    throwsKeyed(() => ks.setPrimary(a), "KEYSET_PRIMARY");
  });

  it("the rules of change: the primary can't be disabled or destroyed, unknown ids are refused", () => {
    const ks = Keyset.generate("hmac-sha256");
    const b = ks.add("hmac-sha256");
    throwsKeyed(() => ks.disable(ks.primaryId), "KEYSET_PRIMARY", /promote another key/);
    throwsKeyed(() => ks.destroy(ks.primaryId), "KEYSET_PRIMARY");
    ks.disable(b);
    throwsKeyed(() => ks.setPrimary(b), "KEYSET_PRIMARY", /enable it first/);
    throwsKeyed(() => ks.setPrimary(12345), "KEY_NOT_FOUND");
    throwsKeyed(() => ks.disable(-1), "KEY_NOT_FOUND");
    throwsKeyed(() => ks.destroy("1" as unknown as number), "KEY_NOT_FOUND");
    throwsKeyed(() => ks.add("hmac-sha256", { id: b }), "BAD_INPUT", /already/);
    throwsKeyed(() => ks.add("hmac-sha256", { id: 2 ** 32 }), "BAD_INPUT");
    throwsKeyed(() => ks.add("hmac-sha256", { kid: String(b) }), "BAD_INPUT", /already/);
    throwsKeyed(
      () => ks.add("hmac-sha256", { prefix: "tinc" as "tink" }),
      "BAD_INPUT",
      /did you mean "tink"/,
    );
    throwsKeyed(
      () => ks.add("hmac-sha256", { prefx: "raw" } as never),
      "BAD_INPUT",
      /did you mean/,
    );
  });

  it("destroy wipes the key from WebAssembly memory and from keyed's JavaScript copies", async (t) => {
    const { wasmHmac, HMAC_SLOT_SIZE: SLOT_SIZE } = await import("../../src/engine/wasm-hmac.js");
    const wasm = wasmHmac();
    if (wasm === undefined || FORCED_BACKEND === "native") {
      t.skip("no WebAssembly key slots in this backend");
      return;
    }
    const key = Uint8Array.from({ length: 32 }, (_, i) => 0xb0 + i);
    const ks = Keyset.fromKey("hmac-sha256", key, { id: 10 });
    const victim = ks.add("hmac-sha256", { key: key.map((x) => x ^ 0x5a), id: 11 });
    ks.setPrimary(victim);
    for (let i = 0; i < 3; i++) ks.tag(new Uint8Array(16)); // the slot is set up from the second tag
    ks.setPrimary(10);
    // The kernel's shared key material (mac/hmac.ts HmacKey) and its WebAssembly slot.
    const m = keysetMac(ks, victim) as unknown as {
      kernel: {
        material: { padded?: { inner: Uint8Array; outer: Uint8Array } };
        core: { slot?: { slot: number } };
      };
    };
    const slot = m.kernel.core.slot?.slot ?? 0;
    assert.ok(slot > 0, "the victim key has a wasm slot");
    const slotBytes = wasm.bytes().slice(slot, slot + 64);
    assert.ok(slotBytes.some((b) => b !== 0));
    const jsCopy = keysetKeyBuffer(ks, victim)!;
    const victimKey = key.map((x) => x ^ 0x5a);
    ks.destroy(victim);
    const after = Buffer.from(wasm.bytes());
    assert.ok(
      after.subarray(slot, slot + SLOT_SIZE).every((b) => b === 0),
      "the slot is zeroed",
    );
    assert.equal(after.indexOf(Buffer.from(slotBytes.subarray(0, 32))), -1, "inner state");
    assert.equal(after.indexOf(Buffer.from(slotBytes.subarray(32, 64))), -1, "outer state");
    assert.equal(after.indexOf(Buffer.from(victimKey)), -1, "key");
    assert.ok(
      jsCopy.every((b) => b === 0),
      "the keyset's copy",
    );
    for (const pad of [m.kernel.material.padded?.inner, m.kernel.material.padded?.outer]) {
      assert.ok(pad === undefined || pad.every((b) => b === 0), "the kernel's pad blocks");
    }
    assert.equal(keysetMac(ks, victim), undefined);
  });
});

describe("Keyset: policy", () => {
  it("mac()'s key and tag policy applies to every key", () => {
    throwsKeyed(() => Keyset.fromKey("hmac-sha256", new Uint8Array(15)), "KEY_TOO_SHORT");
    throwsKeyed(() => Keyset.fromKey("blake3", new Uint8Array(31)), "KEY_LENGTH");
    throwsKeyed(() => Keyset.generate("hmac-sha256", { tagLength: 9 }), "TAG_LENGTH");
    throwsKeyed(() => Keyset.generate("hmac-sha256", { tagLength: 33 }), "TAG_LENGTH");
    const ks = Keyset.generate("blake3");
    throwsKeyed(() => ks.add("cmac-aes128", { key: new Uint8Array(24) }), "KEY_LENGTH");
    throwsKeyed(() => ks.add("nope" as MacName), "UNKNOWN_ALGORITHM");
    throwsKeyed(
      () => Keyset.fromKey("hmac-sha256", key32, { allowShortKeys: true } as never),
      "BAD_INPUT",
    );
  });

  it("Poly1305, the nonce MACs and 64-bit SipHash are refused with a reason", () => {
    throwsKeyed(() => Keyset.generate("poly1305"), "KEY_UNSUPPORTED", /one-time/);
    for (const name of ["gmac-aes128", "gmac-aes256", "chacha20-poly1305", "xchacha20-poly1305"]) {
      throwsKeyed(() => Keyset.generate(name as MacName), "KEY_UNSUPPORTED", /nonce/);
    }
    throwsKeyed(() => Keyset.generate("siphash-2-4"), "TAG_LENGTH", /siphash-2-4-128/);
    assert.equal(Keyset.generate("siphash-2-4-128").tagLength, 21);
  });

  it("every MAC a keyset can hold tags and verifies, with every prefix", () => {
    const names: MacName[] = [
      "hmac-sha1",
      "hmac-sha224",
      "hmac-sha512-256",
      "hmac-sha3-256",
      "cmac-aes128",
      "cmac-aes192",
      "cmac-aes256",
      "kmac128",
      "kmac256",
      "blake3",
      "siphash-1-3-128",
    ];
    for (const name of names) {
      for (const prefix of ["tink", "legacy", "crunchy", "raw"] as const) {
        const ks = Keyset.generate(name, { prefix });
        const tag = ks.tag(message);
        assert.equal(ks.verify(message, tag), true, `${name} ${prefix}`);
        tag[tag.length - 1] ^= 1;
        assert.equal(ks.verify(message, tag), false, `${name} ${prefix} flipped`);
      }
    }
  });
});

describe("Keyset: never an exception for a tag", () => {
  it("any bytes as a tag against any keyset give a boolean", () => {
    const keysets = [
      Keyset.fromKey("hmac-sha256", key32, { id: 0x01020304 }),
      Keyset.fromKey("cmac-aes256", key32, { prefix: "legacy", id: 1 }),
      Keyset.fromKey("blake3", key32, { prefix: "raw" }),
    ];
    keysets[0].add("hmac-sha256", { prefix: "raw" });
    keysets[0].add("kmac128", { prefix: "crunchy", id: 0x01020305 });
    const disabled = keysets[0].add("hmac-sha512", { id: 9 });
    keysets[0].disable(disabled);
    const destroyed = keysets[0].add("hmac-sha1", { prefix: "raw" });
    keysets[0].destroy(destroyed);
    const prefixLike = fc
      .tuple(
        fc.constantFrom(0, 1, 2),
        fc.constantFrom(0x01020304, 1, 9, 0x01020305),
        fc.uint8Array({ maxLength: 80 }),
      )
      .map(([first, id, rest]) =>
        Uint8Array.of(first, id >>> 24, id >>> 16, id >>> 8, id, ...rest),
      );
    fc.assert(
      fc.property(
        fc.nat(keysets.length - 1),
        fc.uint8Array({ maxLength: 100 }),
        fc.oneof(fc.uint8Array({ maxLength: 100 }), prefixLike),
        (which, msg, tag) => {
          const ks = keysets[which];
          assert.equal(typeof ks.verify(msg, tag), "boolean");
          assert.equal(typeof ks.verifyFields("p", [msg], tag), "boolean");
          assert.equal(typeof ks.verifyingStream(tag).update(msg).verify(), "boolean");
          // And a tag the keyset made always verifies.
          assert.equal(ks.verify(msg, ks.tag(msg)), true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("tag and message arguments that are not bytes are BAD_INPUT, as on a Mac", () => {
    const ks = Keyset.generate("hmac-sha256");
    throwsKeyed(() => ks.verify(message, "01ab" as never), "BAD_INPUT");
    throwsKeyed(() => ks.tag("text" as never), "BAD_INPUT");
    throwsKeyed(() => ks.tag(message, new Uint8Array(3)), "BAD_INPUT", /tagLength/);
  });
});

describe("Keyset: redaction and the internal accessors", () => {
  it("printing a keyset shows ids and states, never key bytes", () => {
    const ks = Keyset.fromKey("hmac-sha256", key32, { id: 42 });
    ks.add("blake3", { key: key32.map((x) => x + 100), prefix: "raw", id: 43 });
    for (const text of [
      inspect(ks, { depth: 10 }),
      JSON.stringify(ks),
      String(ks),
      inspect(ks.stream()),
    ]) {
      for (const secret of [key32, key32.map((x) => x + 100)]) {
        assert.equal(text.includes(bytesToHex(secret)), false);
        assert.equal(text.includes(bytesToBase64(secret)), false);
        assert.equal(text.includes(Array.from(secret).join(", ")), false);
      }
    }
    assert.match(inspect(ks), /Keyset \{[\s\S]*primaryId: 42[\s\S]*\[redacted\]/);
    assert.deepEqual(Object.keys(ks), []);
  });

  it("protocol code finds enabled keys by id or kid, and gets copies of their bytes", () => {
    const ks = Keyset.fromKey("hmac-sha256", key32, { id: 5, kid: "2026-01" });
    const other = ks.add("hmac-sha384", { prefix: "raw", id: 6 });
    assert.equal(ks.get("2026-01")?.id, 5);
    assert.equal(ks.get(6)?.kid, "6");
    assert.equal(ks.get("6")?.id, 6);
    assert.equal(ks.get("7"), undefined);
    const m = keysetMac(ks, "2026-01")!;
    assert.equal(m.algorithm, "hmac-sha256");
    assert.equal(toHex(m.tag(message)), createHmac("sha256", key32).update(message).digest("hex"));
    const primary = keysetPrimary(ks);
    assert.equal(primary.info.kid, "2026-01");
    assert.equal(primary.mac, m);
    const copy = keysetKeyBytes(ks, 5)!;
    assert.deepEqual(copy, key32);
    copy.fill(0);
    assert.deepEqual(keysetKeyBytes(ks, 5), key32, "the caller's copy is its own");
    ks.disable(other);
    assert.equal(keysetMac(ks, other), undefined);
    assert.equal(keysetKeyBytes(ks, other), undefined);
    assert.equal(keysetMac(ks, "nope"), undefined);
  });

  it("the raw-key accessors are not exported from the package", async () => {
    const index = await import("../../src/index.js");
    for (const name of [
      "keysetMac",
      "keysetPrimary",
      "keysetKeyBytes",
      "keysetRecord",
      "wipeKeyset",
    ]) {
      assert.equal(name in index, false, name);
    }
  });

  it("utf8 text is not bytes: the keyset takes only Uint8Array messages", () => {
    const ks = Keyset.fromKey("hmac-sha256", key32, { prefix: "raw" });
    assert.equal(
      toHex(ks.tag(utf8ToBytes("héllo"))),
      createHmac("sha256", key32).update("héllo").digest("hex"),
    );
  });
});
