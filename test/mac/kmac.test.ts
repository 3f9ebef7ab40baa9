import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { kmac128 as nobleKmac128, kmac256 as nobleKmac256 } from "@noble/hashes/sha3-addons.js";
import fc from "fast-check";
import { kmac } from "../../src/hazmat.js";
import { kmac128, kmac256, mac } from "../../src/index.js";
import { ascii, hex, throwsKeyed, toHex } from "../helpers.js";
import { type MacTestGroup, readVectorJson, skipUnless, type WycheproofFile } from "../vectors.js";

interface KmacSample {
  name: string;
  securityStrength: 128 | 256;
  xof: boolean;
  key: string;
  data: string;
  customization: string;
  outputBits: number;
  output: string;
}

describe("KMAC and KMACXOF (SP 800-185 sample values)", () => {
  const file = "rfc/nist_sp800-185_kmac_samples.json";
  it("every KMAC128/256 and KMACXOF128/256 sample", { skip: skipUnless(file) }, () => {
    const { tests } = readVectorJson<{ tests: KmacSample[] }>(file);
    assert.equal(tests.length, 12);
    for (const t of tests) {
      const out = kmac(t.securityStrength, hex(t.key), hex(t.data), t.outputBits / 8, {
        customization: t.customization,
        xof: t.xof,
      });
      assert.equal(toHex(out), t.output, t.name);
      if (!t.xof) {
        const m = mac(t.securityStrength === 128 ? "kmac128" : "kmac256", hex(t.key), {
          customization: t.customization,
          tagLength: t.outputBits / 8,
        });
        assert.equal(toHex(m.tag(hex(t.data))), t.output, t.name);
      }
    }
  });
  it("KMAC128 sample #1, written in", () => {
    const key = hex("404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f");
    assert.equal(
      toHex(kmac128(key).tag(hex("00010203"))),
      "e5780b0d3ea6f7d3a429c5706aa43a00fadbd7d49628839e3187243f456ee14e",
    );
  });
});

describe("Wycheproof KMAC (no customization)", () => {
  for (const [file, name] of [
    ["kmac128_no_customization_test.json", "kmac128"],
    ["kmac256_no_customization_test.json", "kmac256"],
  ] as const) {
    const path = `wycheproof/${file}`;
    it(`${file}: every case`, { skip: skipUnless(path) }, () => {
      const data = readVectorJson<WycheproofFile<MacTestGroup>>(path);
      let count = 0;
      for (const group of data.testGroups) {
        for (const t of group.tests) {
          const id = `tcId ${t.tcId} (${t.comment})`;
          const m = mac(name, hex(t.key), { tagLength: group.tagSize / 8, allowShortKeys: true });
          if (t.result === "valid") {
            assert.equal(toHex(m.tag(hex(t.msg))), t.tag, id);
            assert.equal(m.verify(hex(t.msg), hex(t.tag)), true, id);
          } else {
            assert.equal(m.verify(hex(t.msg), hex(t.tag)), false, id);
          }
          count++;
        }
      }
      assert.equal(count, data.numberOfTests);
    });
  }
});

describe("KMAC against @noble/hashes (property tests)", () => {
  for (const [strength, ours, theirs] of [
    [128, kmac128, nobleKmac128],
    [256, kmac256, nobleKmac256],
  ] as const) {
    it(`KMAC${strength}: random keys, messages, customization, L and split points (1,000 cases)`, () => {
      fc.assert(
        fc.property(
          fc.uint8Array({ minLength: strength / 8, maxLength: 300 }),
          fc.uint8Array({ maxLength: 5000 }),
          fc.string({ maxLength: 40 }),
          fc.integer({ min: 10, max: 200 }),
          fc.nat(),
          (key, message, customization, tagLength, cut) => {
            const expected = theirs(key, message, {
              dkLen: tagLength,
              personalization: ascii(customization),
            });
            const m = ours(key, { tagLength, customization });
            assert.deepEqual(m.tag(message), expected);
            const p = cut % (message.length + 1);
            assert.deepEqual(
              m.stream().update(message.subarray(0, p)).update(message.subarray(p)).digest(),
              expected,
            );
            assert.equal(m.verify(message, expected), true);
          },
        ),
        { numRuns: 1000 },
      );
    });
  }
});

describe("KMAC policy", () => {
  const key = new Uint8Array(32).fill(7);
  const message = ascii("message");
  it("L is an input: a shorter tag is a different tag, not a prefix", () => {
    const t16 = kmac128(key, { tagLength: 16 }).tag(message);
    const t32 = kmac128(key).tag(message);
    assert.equal(t32.length, 32);
    assert.notDeepEqual(t16, t32.subarray(0, 16));
    assert.equal(kmac128(key).verify(message, t16), false);
    assert.equal(kmac128(key, { tagLength: 16 }).verify(message, t32.subarray(0, 16)), false);
    assert.equal(kmac128(key, { tagLength: 16 }).verify(message, t16), true);
    assert.equal(kmac256(key).tagLength, 64);
  });
  it("customization separates tags, and bytes equal their UTF-8 text", () => {
    assert.notDeepEqual(
      kmac128(key, { customization: "a" }).tag(message),
      kmac128(key, { customization: "b" }).tag(message),
    );
    assert.deepEqual(
      kmac128(key, { customization: "a" }).tag(message),
      kmac128(key, { customization: ascii("a") }).tag(message),
    );
    throwsKeyed(
      () => kmac128(key, { customization: 5 as unknown as string }),
      "BAD_INPUT",
      /customization/,
    );
  });
  it("key lengths follow the security strength", () => {
    throwsKeyed(() => kmac128(new Uint8Array(15)), "KEY_TOO_SHORT", /16 bytes/);
    throwsKeyed(() => kmac256(new Uint8Array(31)), "KEY_TOO_SHORT", /32 bytes/);
    assert.equal(kmac256(new Uint8Array(31), { allowShortKeys: true }).tagLength, 64);
  });
  it("tag lengths from 10 bytes up, longer than the default too", () => {
    assert.equal(kmac128(key, { tagLength: 100 }).tag(message).length, 100);
    throwsKeyed(() => kmac128(key, { tagLength: 8 }), "TAG_LENGTH", /allowShortTags/);
  });
});
