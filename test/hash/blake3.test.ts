import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { blake3 as nobleBlake3 } from "@noble/hashes/blake3.js";
import fc from "fast-check";
import { Blake3, blake3 } from "../../src/hazmat.js";
import { blake3Keyed, deriveKey, mac } from "../../src/index.js";
import { ascii, notBytes, throwsKeyed, toHex } from "../helpers.js";

/** The official test vectors' input: byte i is i mod 251. */
const input = (n: number) => Uint8Array.from({ length: n }, (_, i) => i % 251);
const KEY = ascii("whats the Elvish word for friend");
const CONTEXT = "BLAKE3 2019-12-27 16:29:52 test vectors context";

describe("BLAKE3 known answers (the BLAKE3 team's test_vectors.json, input_len 0)", () => {
  it("hash, keyed_hash and derive_key, 131 bytes of extended output", () => {
    assert.equal(
      toHex(blake3(new Uint8Array(0), { length: 131 })).slice(0, 64),
      "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262",
    );
    assert.equal(
      toHex(blake3(new Uint8Array(0), { key: KEY, length: 131 })),
      "92b2b75604ed3c761f9d6f62392c8a9227ad0ea3f09573e783f1498a4ed60d26b18171a2f22a4b94822c701f107153dba24918c4bae4d2945c20ece13387627d3b73cbf97b797d5e59948c7ef788f54372df45e45e4293c7dc18c1d41144a9758be58960856be1eabbe22c2653190de560ca3b2ac4aa692a9210694254c371e851bc8f",
    );
    assert.equal(
      toHex(blake3(new Uint8Array(0), { context: CONTEXT, length: 131 })),
      "2cc39783c223154fea8dfb7c1b1660f2ac2dcbd1c1de8277b0b0dd39b7e50d7d905630c8be290dfcf3e6842f13bddd573c098c3f17361f1f206b8cad9d088aa4a3f746752c6b0ce6a83b0da81d59649257cdf8eb3e9f7d4998e41021fac119deefb896224ac99f860011f73609e6e0e4540f93b273e56547dfd3aa1a035ba6689d89a0",
    );
  });
  it("the official input lengths, against @noble/hashes", () => {
    const lengths = [
      0, 1, 1023, 1024, 1025, 2048, 2049, 3072, 3073, 4096, 4097, 5120, 5121, 6144, 6145, 7168,
      7169, 8192, 8193, 16384, 31744, 102400,
    ];
    for (const n of lengths) {
      const m = input(n);
      assert.deepEqual(blake3(m, { length: 131 }), nobleBlake3(m, { dkLen: 131 }), `hash ${n}`);
      assert.deepEqual(
        blake3(m, { key: KEY, length: 131 }),
        nobleBlake3(m, { key: KEY, dkLen: 131 }),
        `keyed ${n}`,
      );
      assert.deepEqual(
        blake3(m, { context: CONTEXT, length: 131 }),
        nobleBlake3(m, { context: ascii(CONTEXT), dkLen: 131 }),
        `derive ${n}`,
      );
    }
  });
});

describe("BLAKE3 against @noble/hashes (property tests)", () => {
  it("keyed, derive_key and XOF over 0-20 KiB with split points (1,000 cases)", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.integer({ min: 0, max: 20480 }),
        fc.integer({ min: 1, max: 300 }),
        fc.array(fc.nat(), { maxLength: 5 }),
        (key, n, length, cuts) => {
          const m = input(n).map((b) => b ^ key[0]);
          const expected = nobleBlake3(m, { key, dkLen: length });
          assert.deepEqual(blake3(m, { key, length }), expected);
          const h = new Blake3(undefined, 0);
          let last = 0;
          for (const p of cuts.map((c) => c % (n + 1)).sort((x, y) => x - y)) {
            h.update(m.subarray(last, p));
            last = p;
          }
          h.update(m.subarray(last));
          const out = new Uint8Array(length);
          h.finishInto(out, 0, length);
          assert.deepEqual(out, nobleBlake3(m, { dkLen: length }));
          assert.deepEqual(
            deriveKey("ctx", m, 40),
            nobleBlake3(m, { context: ascii("ctx"), dkLen: 40 }),
          );
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe("blake3 in the safe API", () => {
  const key = new Uint8Array(32).fill(9);
  it("keyed hashing with a 32-byte key and tag, streaming across chunk boundaries", () => {
    const m = blake3Keyed(key);
    const message = input(5000);
    const t = m.tag(message);
    assert.deepEqual(t, nobleBlake3(message, { key }));
    assert.deepEqual(mac("blake3", key).tag(message), t);
    const s = m.stream();
    for (let i = 0; i < 5000; i += 333) s.update(message.subarray(i, i + 333));
    assert.equal(s.verify(t), true);
    assert.equal(m.verify(message.subarray(1), t), false);
  });
  it("tag lengths are prefixes of the extended output, up to 64 bytes", () => {
    const long = blake3Keyed(key, { tagLength: 64 }).tag(ascii("x"));
    assert.deepEqual(blake3Keyed(key, { tagLength: 16 }).tag(ascii("x")), long.subarray(0, 16));
    throwsKeyed(() => blake3Keyed(key, { tagLength: 65 }), "TAG_LENGTH");
    throwsKeyed(() => blake3Keyed(new Uint8Array(16)), "KEY_LENGTH", /32/);
  });
  it("hazmat and deriveKey refuse bad input", () => {
    throwsKeyed(() => blake3(new Uint8Array(1), { key: new Uint8Array(31) }), "KEY_LENGTH");
    throwsKeyed(() => blake3(new Uint8Array(1), { key, context: "x" }), "BAD_INPUT", /not both/);
    throwsKeyed(
      () => blake3(new Uint8Array(1), { context: 5 as unknown as string }),
      "BAD_INPUT",
      /context/,
    );
    throwsKeyed(() => deriveKey(ascii("ctx") as unknown as string, key), "BAD_INPUT", /context/);
    for (const [, value] of notBytes()) {
      throwsKeyed(() => blake3(value as Uint8Array), "BAD_INPUT", /^message /);
      throwsKeyed(() => deriveKey("ctx", value as Uint8Array), "BAD_INPUT", /^material /);
    }
  });
});
