import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { describe, it } from "node:test";
import fc from "fast-check";
import { siphash } from "../../src/hazmat.js";
import { type MacName, mac, siphash13, siphash24, siphash24_128 } from "../../src/index.js";
import { hex, throwsKeyed, toHex } from "../helpers.js";
import { type MacTestGroup, readVectorJson, skipUnless, type WycheproofFile } from "../vectors.js";

// An independent implementation: Frank Denis's siphash package (SipHash-2-4, -1-3 and the
// 128-bit "double" variants), CommonJS.
type Pair = { h: number; l: number };
type SipModule = {
  hash(key: number[], m: Uint8Array): Pair | { h: number; l: number; h2?: number };
};
const require = createRequire(import.meta.url);
const reference = {
  "siphash-2-4": require("siphash/lib/siphash.js") as SipModule,
  "siphash-1-3": require("siphash/lib/siphash13.js") as SipModule,
};
const keyWords = (key: Uint8Array) => [0, 4, 8, 12].map((o) => Buffer.from(key).readUInt32LE(o));
const le64 = ({ h, l }: Pair) => {
  const b = Buffer.alloc(8);
  b.writeUInt32LE(l >>> 0, 0);
  b.writeUInt32LE(h >>> 0, 4);
  return toHex(b);
};

describe("Wycheproof SipHash", () => {
  const files: [string, MacName][] = [
    ["siphash_2_4_test.json", "siphash-2-4"],
    ["siphash_1_3_test.json", "siphash-1-3"],
    ["siphashx_2_4_test.json", "siphash-2-4-128"],
  ];
  for (const [file, name] of files) {
    const path = `wycheproof/${file}`;
    it(`${file}: every case`, { skip: skipUnless(path) }, () => {
      const data = readVectorJson<WycheproofFile<MacTestGroup>>(path);
      let count = 0;
      for (const group of data.testGroups) {
        for (const t of group.tests) {
          const m = mac(name, hex(t.key), { allowShortTags: true });
          assert.equal(toHex(m.tag(hex(t.msg))), t.tag, `tcId ${t.tcId}`);
          assert.equal(m.verify(hex(t.msg), hex(t.tag)), t.result === "valid");
          count++;
        }
      }
      assert.equal(count, data.numberOfTests);
    });
  }
  it("the SipHash paper's appendix A vector (SipHash-2-4, key 00..0f, message 00..0e)", () => {
    const key = hex("000102030405060708090a0b0c0d0e0f");
    // The paper prints the 64-bit value a129ca6149be45e5; the tag is its little-endian bytes.
    assert.equal(
      toHex(siphash24(key).tag(hex("000102030405060708090a0b0c0d0e"))),
      "e545be4961ca29a1",
    );
  });
});

describe("SipHash against the siphash package (property tests)", () => {
  for (const name of ["siphash-2-4", "siphash-1-3"] as const) {
    it(`${name}: random keys, messages 0-1000 B, split points (1,000 cases)`, () => {
      fc.assert(
        fc.property(
          fc.uint8Array({ minLength: 16, maxLength: 16 }),
          fc.uint8Array({ maxLength: 1000 }),
          fc.nat(),
          (key, message, cut) => {
            const expected = le64(reference[name].hash(keyWords(key), message) as Pair);
            const m = mac(name, key);
            assert.equal(toHex(m.tag(message)), expected);
            const p = cut % (message.length + 1);
            assert.equal(
              toHex(m.stream().update(message.subarray(0, p)).update(message.subarray(p)).digest()),
              expected,
            );
          },
        ),
        { numRuns: 1000 },
      );
    });
  }
});

describe("SipHash in the safe API", () => {
  const key = hex("000102030405060708090a0b0c0d0e0f");
  const message = hex("000102030405060708090a0b0c0d0e");
  it("64-bit tags are made freely but verified only with allowShortTags", () => {
    const m = siphash24(key);
    const t = m.tag(message);
    throwsKeyed(() => m.verify(message, t), "TAG_LENGTH", /hash-table keys and other local uses/);
    throwsKeyed(() => m.stream().update(message).verify(t), "TAG_LENGTH", /attacker can retry/);
    assert.equal(siphash24(key, { allowShortTags: true }).verify(message, t), true);
    assert.equal(siphash24_128(key).verify(message, siphash24_128(key).tag(message)), true);
  });
  it("the hash-table fast path: a bigint or two 32-bit halves, no allocation with out", () => {
    const m = siphash24(key);
    assert.equal(m.hash64(message), 0xa129ca6149be45e5n);
    const out = new Uint32Array(2);
    assert.equal(m.hashHalves(message, out), out);
    assert.deepEqual([...out], [0x49be45e5, 0xa129ca61]);
    assert.equal(
      siphash13(key).hash64(message),
      BigInt(`0x${Buffer.from(siphash13(key).tag(message)).reverse().toString("hex")}`),
    );
    throwsKeyed(() => siphash24_128(key).hash64(message), "BAD_INPUT", /128-bit/);
    m.destroy();
    throwsKeyed(() => m.hash64(message), "DESTROYED");
  });
  it("hazmat siphash takes c, d and the output length", () => {
    assert.equal(toHex(siphash(key, message)), "e545be4961ca29a1");
    assert.deepEqual(siphash(key, message, { c: 1, d: 3 }), siphash13(key).tag(message));
    assert.deepEqual(siphash(key, message, { outLength: 16 }), siphash24_128(key).tag(message));
    throwsKeyed(() => siphash(new Uint8Array(8), message), "KEY_LENGTH", /16-byte/);
    throwsKeyed(() => siphash(key, message, { c: 0 }), "BAD_INPUT", /round count/);
    throwsKeyed(() => siphash(key, message, { outLength: 4 as 8 }), "BAD_INPUT", /8 or 16/);
    throwsKeyed(() => mac("siphash-2-4", new Uint8Array(32)), "KEY_LENGTH", /exactly 16/);
  });
});
