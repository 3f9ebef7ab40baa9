/**
 * The WebAssembly HMAC kernels (src/engine/wasm/assembly/hmac.ts): the one-message kernels and
 * the batch path (messages queued in MSG together; SIMD lanes, four messages at a time for SHA-1
 * and SHA-256, the one-message kernel for the rest and for SHA-384/512) against
 * node:crypto, at every length to 300 bytes and across the block-count boundaries the lanes are
 * grouped by, with groups of every size (a lone message, spare lanes, batches past the queue and
 * past MSG, messages too long to share MSG or past it); and a scan of the module's memory after
 * batches and destroy() for the key, the prepared states, the messages and the tags.
 */
import assert from "node:assert/strict";
import { createHash, createHmac, randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import fc from "fast-check";
import { FORCED_BACKEND } from "../../src/engine/native.js";
import { HMAC_SLOT_SIZE, wasmHmac } from "../../src/engine/wasm-hmac.js";
import { mac } from "../../src/index.js";
import { HMAC_HASHES } from "../../src/mac/hmac.js";

/** The HMACs over SHA-1 and SHA-2: the ones with WebAssembly kernels (SHA-3's are TypeScript). */
const NAMES = (Object.keys(HMAC_HASHES) as (keyof typeof HMAC_HASHES)[]).filter(
  (name) => !name.startsWith("hmac-sha3"),
);
type Name = (typeof NAMES)[number];
const HASHES = HMAC_HASHES;

const bytes = (n: number): Uint8Array => new Uint8Array(randomBytes(n));
const oracle = (name: Name, key: Uint8Array, message: Uint8Array): Uint8Array =>
  new Uint8Array(createHmac(HASHES[name], key).update(message).digest());
const concat = (parts: Uint8Array[]): Uint8Array => new Uint8Array(Buffer.concat(parts));

describe("HMAC kernels, one message and SIMD lanes, against node:crypto", () => {
  for (const name of NAMES) {
    it(`${name}: every length to 300 B, one by one and in batches of 1 to 9`, () => {
      const key = bytes(name.includes("512") || name.includes("384") ? 100 : 40);
      const m = mac(name, key);
      const messages = Array.from({ length: 301 }, (_, n) => bytes(n));
      const expected = messages.map((x) => oracle(name, key, x));
      for (let n = 0; n <= 300; n++) assert.deepEqual(m.tag(messages[n]), expected[n], `${n} B`);
      // Batches of consecutive lengths: groups of equal block counts of every size, and batches
      // whose messages straddle a block-count boundary.
      for (let size = 1; size <= 9; size++) {
        for (let from = 0; from + size <= 301; from += size) {
          const batch = messages.slice(from, from + size);
          assert.deepEqual(
            m.tagMany(batch),
            concat(expected.slice(from, from + size)),
            `${size} messages from ${from} B`,
          );
        }
      }
    });
  }

  it("random batches: mixed lengths, repeats, lengths near and past MSG's size", () => {
    const long = [0, 1, 16383, 16384, 16385, 32700, 65535, 65536, 70000];
    fc.assert(
      fc.property(
        fc.constantFrom(...NAMES),
        fc.array(
          fc.oneof(
            fc.integer({ min: 0, max: 400 }),
            fc.constantFrom(55, 56, 64, 111, 112, 119, 120, 128),
            fc.constantFrom(...long),
          ),
          { minLength: 0, maxLength: 14 },
        ),
        fc.integer({ min: 1, max: 130 }),
        (name, lengths, keyLength) => {
          const key = bytes(keyLength);
          const messages = lengths.map((n) => bytes(n));
          // The same array twice in one batch: lanes must not disturb each other's input.
          if (messages.length > 2) messages[messages.length - 1] = messages[0];
          const got = mac(name, key, { allowShortKeys: true }).tagMany(messages);
          assert.deepEqual(got, concat(messages.map((x) => oracle(name, key, x))));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("batches of one length: a padding-only last block shared by the lanes, its schedule kept per length", () => {
    // Lengths whose last block is padding alone (len mod 64 = 0 or 56-63 for SHA-1/SHA-2-256,
    // mod 128 = 0 or 112-127 for SHA-512), beside ones whose is not, in an order that changes
    // the kept schedule at every batch and comes back to earlier lengths; then groups whose lanes
    // share a block count but not a length (one length differs: no shared block).
    const lengths = [64, 56, 64, 0, 128, 120, 63, 55, 256, 192, 248, 112, 240, 111, 0, 256, 128];
    for (const name of NAMES) {
      const key = bytes(40);
      const m = mac(name, key);
      for (const length of lengths) {
        for (const size of [2, 3, 4, 5, 8]) {
          const batch = Array.from({ length: size }, () => bytes(length));
          assert.deepEqual(
            m.tagMany(batch),
            concat(batch.map((x) => oracle(name, key, x))),
            `${name}: ${size} × ${length} B`,
          );
        }
      }
      for (const group of [
        [56, 64, 64, 64],
        [64, 64, 64, 56],
        [64, 63, 64, 64],
        [128, 128, 120, 128],
        [256, 256, 256, 255],
      ]) {
        const batch = group.map((n) => bytes(n));
        assert.deepEqual(
          m.tagMany(batch),
          concat(batch.map((x) => oracle(name, key, x))),
          `${name}: ${group.join(", ")} B`,
        );
      }
    }
  });

  it("batches longer than the module's queue (256 messages) and larger than MSG (64 KiB)", () => {
    for (const name of NAMES) {
      const key = bytes(32);
      const m = mac(name, key);
      // 300 equal short messages: more than one queue's worth, in order (one copy of the tags out
      // per call); then 600 mixed lengths to 3 KiB (several MSG loads, sorted by block count for
      // the lanes of SHA-1 and SHA-256, and past the crossover some go to node:crypto, so the
      // module's share is not contiguous).
      const short = Array.from({ length: 300 }, () => bytes(16));
      const mixed = Array.from({ length: 600 }, (_, i) => bytes((i * 379) % 3000));
      for (const messages of [short, mixed]) {
        const tags = m.tagMany(messages);
        assert.deepEqual(tags, concat(messages.map((x) => oracle(name, key, x))), name);
        const split = messages.map((_, i) => tags.slice(i * m.tagLength, (i + 1) * m.tagLength));
        split[257][3] ^= 0x40;
        const results = m.verifyMany(messages, split);
        assert.deepEqual(
          results,
          messages.map((_, i) => i !== 257),
          name,
        );
      }
    }
  });

  it("truncated tags from the lanes: the tagLength option", () => {
    for (const name of NAMES) {
      const key = bytes(32);
      const m = mac(name, key, { tagLength: 12, allowShortTags: true });
      const messages = [3, 30, 60, 90, 3, 33].map((n) => bytes(n));
      assert.deepEqual(
        m.tagMany(messages),
        concat(messages.map((x) => oracle(name, key, x).subarray(0, 12))),
        name,
      );
    }
  });
});

const noWasm =
  wasmHmac() === undefined || FORCED_BACKEND === "native"
    ? "no WebAssembly HMAC in this run (KEYED_BACKEND=js or native)"
    : false;

/** W[t] + K[t] (FIPS 180-4 6.2.2) of the padding-only block closing a `length`-byte message after the key block. */
function paddingBlockSchedule(length: number): number[] {
  // K (FIPS 180-4 4.2.2) from its definition: the first 32 bits of the fractional parts of the
  // cube roots of the first 64 primes (exact in doubles here), not copied from a table.
  const primes: number[] = [];
  for (let n = 2; primes.length < 64; n++) if (primes.every((p) => n % p !== 0)) primes.push(n);
  const K = primes.map((p) => Math.floor((Math.cbrt(p) % 1) * 2 ** 32));
  const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));
  const bits = (64 + length) * 8;
  const w = new Array<number>(64).fill(0);
  if (length % 64 === 0) w[0] = 0x80000000;
  w[14] = Math.floor(bits / 2 ** 32);
  w[15] = bits >>> 0;
  for (let t = 16; t < 64; t++) {
    const s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >>> 3);
    const s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >>> 10);
    w[t] = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
  }
  return w.map((x, t) => (x + K[t]) | 0);
}

describe("wasm HMAC: the lanes' shared padding block", { skip: noWasm }, () => {
  it("takes the path for four lanes of one length ending in padding alone, and only then", () => {
    const wasm = wasmHmac();
    assert.ok(wasm);
    const kept = () => {
      const at = wasm.exports.PAD_WK.value as number;
      return Array.from(wasm.words().subarray(at >> 2, (at >> 2) + 64));
    };
    const m = mac("hmac-sha256", bytes(32));
    for (const length of [64, 120, 0, 56, 128, 63, 248]) {
      m.tagMany(Array.from({ length: 4 }, () => bytes(length)));
      assert.deepEqual(kept(), paddingBlockSchedule(length), `4 × ${length} B`);
    }
    // Neither a last block with message bytes in it, nor lanes of different lengths, nor SHA-1
    // changes the kept schedule (still 248 B's).
    m.tagMany(Array.from({ length: 4 }, () => bytes(100)));
    m.tagMany([bytes(56), bytes(64), bytes(64), bytes(64)]);
    mac("hmac-sha1", bytes(32)).tagMany(Array.from({ length: 4 }, () => bytes(64)));
    assert.deepEqual(kept(), paddingBlockSchedule(248));
  });
});

describe("wasm HMAC memory after batches", { skip: noWasm }, () => {
  it("holds no key, prepared state, message or tag after tagMany, verifyMany and destroy()", () => {
    const wasm = wasmHmac();
    assert.ok(wasm);
    // SHA-224 and SHA-384 too: the lanes and the one-message kernel hold whole states, longer
    // than the tag.
    for (const name of [
      "hmac-sha1",
      "hmac-sha224",
      "hmac-sha256",
      "hmac-sha384",
      "hmac-sha512",
    ] as const) {
      const key = new Uint8Array(32).map((_, i) => 0x90 + i);
      const m = mac(name, key);
      // A distinctive 40-byte pattern in every message, and messages across two block counts.
      const pattern = new Uint8Array(40).map((_, i) => 0x31 ^ (i * 11));
      const messages = [0, 10, 20, 30, 100, 150].map((extra) =>
        concat([pattern, new Uint8Array(extra).fill(0x77)]),
      );
      const tags = m.tagMany(messages);
      const tagLength = m.tagLength;
      // A batch past the queue's 256 entries, in several loads of MSG, and checked back.
      const bulk = Array.from({ length: 300 }, (_, i) =>
        concat([pattern, new Uint8Array((i * 13) % 700).fill(0x66)]),
      );
      const bulkTags = m.tagMany(bulk);
      const bulkSplit = bulk.map((_, i) => bulkTags.slice(i * tagLength, (i + 1) * tagLength));
      assert.ok(
        m.verifyMany(bulk, bulkSplit).every((ok) => ok),
        `${name}: the bulk batch verifies`,
      );
      // Past the crossover: node:crypto's inner hash, then the outer one in the module (hmac_outer),
      // whose inner digest, state and tag must not stay behind either.
      const long = concat([pattern, new Uint8Array(4000).fill(0x55)]);
      const longTag = m.tag(long);
      assert.deepEqual(longTag, oracle(name, key, long), `${name}: past the crossover`);
      const split = messages.map((_, i) => tags.slice(i * tagLength, (i + 1) * tagLength));
      split[2][0] ^= 1;
      assert.deepEqual(m.verifyMany(messages, split), [true, true, false, true, true, true]);
      const kernel = (m as unknown as { kernel: { core: { ownSlot: number } } }).kernel;
      const slot = kernel.core.ownSlot;
      assert.ok(slot >= wasm.exports.SLOTS.value, `${name}: the batch key has a slot`);
      const states = wasm.bytes().slice(slot, slot + HMAC_SLOT_SIZE);
      m.destroy();
      const memory: Buffer = Buffer.from(wasm.bytes());
      assert.ok(
        memory.subarray(slot, slot + HMAC_SLOT_SIZE).every((b) => b === 0),
        `${name}: the slot is zeroed`,
      );
      const half = name === "hmac-sha512" || name === "hmac-sha384" ? 64 : 32;
      const needles: Record<string, Uint8Array> = {
        key,
        "message pattern": pattern,
        "inner state": states.subarray(0, name === "hmac-sha1" ? 20 : half),
        "outer state": states.subarray(half, half + (name === "hmac-sha1" ? 20 : half)),
      };
      for (let i = 0; i < messages.length; i++)
        needles[`tag ${i}`] = tags.subarray(i * tagLength, i * tagLength + 16);
      for (const i of [0, 150, 299])
        needles[`bulk tag ${i}`] = bulkTags.subarray(i * tagLength, i * tagLength + 16);
      needles["the long message's tag"] = longTag.subarray(0, 16);
      needles["the long message's inner digest"] = new Uint8Array(
        createHash(HASHES[name])
          .update(key.map((b) => b ^ 0x36))
          .update(
            new Uint8Array((name === "hmac-sha384" || name === "hmac-sha512" ? 128 : 64) - 32).fill(
              0x36,
            ),
          )
          .update(long)
          .digest(),
      ).subarray(0, 16);
      for (const [what, needle] of Object.entries(needles))
        assert.equal(memory.indexOf(Buffer.from(needle)), -1, `${name}: ${what}`);
      // Scratch, lanes' state, the output and the message area are all zero between calls.
      const from = 4096;
      const to = wasm.msg + wasm.msgCapacity + 256;
      assert.ok(
        memory.subarray(from, to).every((b) => b === 0),
        `${name}: scratch and MSG zero`,
      );
    }
  });
});
