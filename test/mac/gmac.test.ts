import assert from "node:assert/strict";
import { type CipherGCMTypes, createCipheriv, createDecipheriv } from "node:crypto";
import { describe, it } from "node:test";
import fc from "fast-check";
import { gmac as gmacHazmat } from "../../src/hazmat.js";
import { gmac, type MacName, mac } from "../../src/index.js";
import { atOffset, hex, notBytes, throwsKeyed, toHex } from "../helpers.js";
import {
  type AeadTestGroup,
  type MacWithIvTestGroup,
  readVectorJson,
  skipUnless,
  type WycheproofFile,
} from "../vectors.js";

/** The oracle: node:crypto AES-GCM with the message as associated data and no plaintext. */
function gcmTag(key: Uint8Array, nonce: Uint8Array, message: Uint8Array): Uint8Array {
  const c = createCipheriv(`aes-${key.length * 8}-gcm` as CipherGCMTypes, key, nonce);
  c.setAAD(message);
  c.final();
  return new Uint8Array(c.getAuthTag());
}

const NAMES: Record<number, MacName> = { 16: "gmac-aes128", 24: "gmac-aes192", 32: "gmac-aes256" };

describe("GMAC known answers", () => {
  // The GCM specification's test cases with an empty plaintext and empty AAD (McGrew and Viega,
  // "The Galois/Counter Mode of Operation", test cases 1, 7 and 13): all-zero key and 96-bit IV.
  const cases: [number, string][] = [
    [16, "58e2fccefa7e3061367f1d57a4e7455a"],
    [24, "cd33b28ac773f74ba00ed1f312572435"],
    [32, "530f8afbc74536b9a963b4f1c4cb738b"],
  ];
  for (const [size, tag] of cases) {
    it(`GCM spec, zero key of ${size * 8} bits, empty message`, () => {
      assert.equal(
        toHex(gmacHazmat(new Uint8Array(size), new Uint8Array(12), new Uint8Array(0))),
        tag,
      );
    });
  }
});

describe("Wycheproof AES-GMAC and AES-GCM with an empty plaintext", () => {
  const gmacFile = "wycheproof/aes_gmac_test.json";
  it("aes_gmac_test.json: every case", { skip: skipUnless(gmacFile) }, () => {
    const data = readVectorJson<WycheproofFile<MacWithIvTestGroup>>(gmacFile);
    let count = 0;
    for (const group of data.testGroups) {
      for (const t of group.tests) {
        const id = `tcId ${t.tcId} (${t.comment})`;
        const key = hex(t.key);
        const expected = toHex(
          gmacHazmat(key, hex(t.iv), hex(t.msg)).subarray(0, group.tagSize / 8),
        );
        assert.equal(expected === t.tag, t.result === "valid", id);
        if (group.ivSize === 96) {
          // The safe API carries the nonce in front of the tag, so these cases verify there too.
          const m = mac(NAMES[key.length], key);
          const candidate = hex(t.iv + t.tag);
          assert.equal(m.verify(hex(t.msg), candidate), t.result === "valid", id);
          assert.equal(m.stream().update(hex(t.msg)).verify(candidate), t.result === "valid", id);
        }
        count++;
      }
    }
    assert.equal(count, data.numberOfTests);
  });
  const gcmFile = "wycheproof/aes_gcm_test.json";
  it("aes_gcm_test.json: every case with an empty plaintext (the tag over the AAD)", {
    skip: skipUnless(gcmFile),
  }, () => {
    const data = readVectorJson<WycheproofFile<AeadTestGroup>>(gcmFile);
    let count = 0;
    for (const group of data.testGroups) {
      for (const t of group.tests) {
        if (t.msg !== "") continue;
        const id = `tcId ${t.tcId} (${t.comment})`;
        count++;
        if (t.iv === "") {
          // A zero-length IV is invalid in GCM (SP 800-38D 5.2.1.1): refused, not computed.
          assert.equal(t.result, "invalid", id);
          throwsKeyed(() => gmacHazmat(hex(t.key), hex(t.iv), hex(t.aad)), "BAD_INPUT", /nonce/);
          continue;
        }
        const tag = toHex(
          gmacHazmat(hex(t.key), hex(t.iv), hex(t.aad)).subarray(0, group.tagSize / 8),
        );
        assert.equal(tag === t.tag, t.result === "valid", id);
      }
    }
    assert.equal(count, 28, "empty-plaintext cases in the file");
  });
});

describe("GMAC against node:crypto AES-GCM (property tests)", () => {
  for (const size of [16, 24, 32]) {
    it(`hazmat gmac, AES-${size * 8}: random keys, nonces of 1-64 B, messages 0-5000 B (1,000 cases)`, () => {
      fc.assert(
        fc.property(
          fc.uint8Array({ minLength: size, maxLength: size }),
          fc.uint8Array({ minLength: 1, maxLength: 64 }),
          fc.uint8Array({ maxLength: 5000 }),
          (key, nonce, message) => {
            assert.deepEqual(gmacHazmat(key, nonce, message), gcmTag(key, nonce, message));
          },
        ),
        { numRuns: 1000 },
      );
    });
    it(`gmac-aes${size * 8}: nonce ‖ tag checks with node:crypto, streams with split points (1,000 cases)`, () => {
      fc.assert(
        fc.property(
          fc.uint8Array({ minLength: size, maxLength: size }),
          fc.uint8Array({ maxLength: 5000 }),
          fc.array(fc.nat(), { maxLength: 5 }),
          (key, message, cuts) => {
            const m = gmac(atOffset(key));
            const tagged = m.tag(message);
            assert.equal(tagged.length, 28);
            const nonce = tagged.subarray(0, 12);
            assert.deepEqual(tagged.subarray(12), gcmTag(key, nonce, message));
            // Anyone with AES-GCM can check it: decrypt an empty ciphertext with the message as AAD.
            const d = createDecipheriv(`aes-${size * 8}-gcm` as CipherGCMTypes, key, nonce);
            d.setAAD(message);
            d.setAuthTag(tagged.subarray(12));
            d.final();
            const s = m.stream();
            let last = 0;
            for (const p of cuts.map((c) => c % (message.length + 1)).sort((x, y) => x - y)) {
              s.update(message.subarray(last, p));
              last = p;
            }
            s.update(message.subarray(last));
            const streamed = s.digest();
            assert.deepEqual(streamed.subarray(12), gcmTag(key, streamed.subarray(0, 12), message));
            assert.equal(m.verify(message, streamed), true);
          },
        ),
        { numRuns: 1000 },
      );
    });
  }
});

describe("GMAC in the safe API", () => {
  const key = new Uint8Array(16).fill(3);
  const message = new Uint8Array(50).fill(7);
  it("draws a fresh nonce for every tag", () => {
    const m = gmac(key);
    const nonces = new Set<string>();
    for (let i = 0; i < 1000; i++) nonces.add(toHex(m.tag(message).subarray(0, 12)));
    assert.equal(nonces.size, 1000);
  });
  it("refuses tampering with the message, the nonce or the tag, and wrong lengths", () => {
    const m = gmac(key);
    const t = m.tag(message);
    assert.equal(m.verify(message, t), true);
    for (const i of [0, 11, 12, 27]) {
      const bad = t.slice();
      bad[i] ^= 1;
      assert.equal(m.verify(message, bad), false, `byte ${i}`);
    }
    assert.equal(m.verify(message.subarray(1), t), false);
    assert.equal(m.verify(message, t.subarray(0, 27)), false);
    assert.equal(m.verify(message, t.subarray(0, 5)), false);
    assert.equal(m.verify(message, new Uint8Array(0)), false);
    assert.equal(m.verify(message, Uint8Array.of(...t, 0)), false);
  });
  it("truncates the tag part to GCM's allowed lengths", () => {
    const m = gmac(key, { tagLength: 12 });
    assert.equal(m.tagLength, 24);
    const t = m.tag(message);
    assert.deepEqual(t.subarray(12), gcmTag(key, t.subarray(0, 12), message).subarray(0, 12));
    assert.equal(m.verify(message, t), true);
    throwsKeyed(
      () => gmac(key, { tagLength: 10 }),
      "TAG_LENGTH",
      /16, 15, 14, 13, 12, 8, 4|4, 8, 12/,
    );
    throwsKeyed(() => gmac(key, { tagLength: 8 }), "TAG_LENGTH", /allowShortTags/);
    assert.equal(gmac(key, { tagLength: 8, allowShortTags: true }).tagLength, 20);
  });
  it("needs an AES key of the right size", () => {
    throwsKeyed(() => mac("gmac-aes128", new Uint8Array(24)), "KEY_LENGTH", /exactly 16/);
    throwsKeyed(() => gmac(new Uint8Array(17)), "KEY_LENGTH", /16, 24 or 32/);
  });
  it("hazmat gmac refuses bad arguments", () => {
    throwsKeyed(() => gmacHazmat(key, new Uint8Array(0), message), "BAD_INPUT", /nonce/);
    for (const [, value] of notBytes()) {
      throwsKeyed(
        () => gmacHazmat(value as Uint8Array, new Uint8Array(12), message),
        "BAD_INPUT",
        /^key /,
      );
      throwsKeyed(() => gmacHazmat(key, value as Uint8Array, message), "BAD_INPUT", /^nonce /);
      throwsKeyed(
        () => gmacHazmat(key, new Uint8Array(12), value as Uint8Array),
        "BAD_INPUT",
        /^message /,
      );
    }
  });
});
