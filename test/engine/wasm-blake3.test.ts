/**
 * BLAKE3 on the WebAssembly backend (src/engine/wasm/assembly/blake3.ts): key material gone from
 * module memory after destroy, and output byte-identical with keyed's TypeScript kernel (`Blake3`)
 * and with @noble/hashes, blake3-wasm (the BLAKE3 team's Rust crate) and hash-wasm, at the lengths
 * where the kernel changes path: block and chunk edges, four-chunk batches, 16-chunk subtrees, the
 * MSG_CAPACITY pieces, split streams and long extended output.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { blake3 as nobleBlake3 } from "@noble/hashes/blake3.js";
import {
  create_derive,
  create_hasher,
  create_keyed,
} from "blake3-wasm/dist/wasm/nodejs/blake3_js.js";
import fc from "fast-check";
import { createBLAKE3 } from "hash-wasm";
import { FORCED_BACKEND } from "../../src/engine/native.js";
import { wasmBlake3 } from "../../src/engine/wasm-blake3.js";
import {
  DERIVE_KEY_CONTEXT,
  DERIVE_KEY_MATERIAL,
  KEYED_HASH,
  keyWords,
} from "../../src/hash/blake3.js";
import { Blake3, blake3 } from "../../src/hazmat.js";
import { blake3Keyed, deriveKey, mac } from "../../src/index.js";
import { ascii, toHex } from "../helpers.js";

const wasm = wasmBlake3();
const CONTEXT = "keyed wasm-blake3 test 2026-12-01";

/** A message whose bytes depend on its length and a seed. */
const message = (n: number, seed = 0) =>
  Uint8Array.from({ length: n }, (_, i) => (i * 131 + seed * 7 + (i >> 8)) & 255);

/** The TypeScript kernel, driven directly: the reference every backend must match. */
function reference(
  key: Int32Array | undefined,
  flags: number,
  m: Uint8Array,
  length: number,
): Uint8Array {
  const h = new Blake3(key, flags);
  h.absorb(m, 0, m.length);
  const out = new Uint8Array(length);
  h.finishInto(out, 0, length);
  return out;
}

function contextWords(context: string): Int32Array {
  return keyWords(reference(undefined, DERIVE_KEY_CONTEXT, ascii(context), 32));
}

/** blake3-wasm (Rust), extended output of `length` bytes. */
function rust(mode: "hash" | "keyed" | "derive", m: Uint8Array, length: number, key?: Uint8Array) {
  const h =
    mode === "keyed"
      ? create_keyed(key as Uint8Array)
      : mode === "derive"
        ? create_derive(CONTEXT)
        : create_hasher();
  h.update(m);
  const out = new Uint8Array(length);
  h.digest(out);
  h.free();
  return out;
}

/** Lengths at every path change: blocks, chunks, batches of 2-4 chunks, subtrees, MSG pieces. */
const EDGES = [
  0, 1, 63, 64, 65, 1023, 1024, 1025, 2047, 2048, 2049, 3071, 3072, 3073, 4095, 4096, 4097, 5120,
  8191, 8192, 8193, 15359, 16383, 16384, 16385, 17408, 17409, 32767, 32768, 32769, 65535, 65536,
  65537, 66560, 81920, 131071, 131072, 131073,
];

describe("BLAKE3 WebAssembly backend: selection", () => {
  it("loads unless KEYED_BACKEND=js, so the suites under KEYED_BACKEND=wasm test it", () => {
    if (FORCED_BACKEND === "js") assert.equal(wasm, undefined);
    else assert.ok(wasm, "Node 20 has WebAssembly SIMD: the BLAKE3 module must load");
  });
});

describe("BLAKE3 WebAssembly backend: key material", () => {
  it("leaves no key, state or output in module memory after destroy", () => {
    if (wasm === undefined) return;
    const key = new Uint8Array(32).map((_, i) => 0xc0 + i);
    const m = blake3Keyed(key);
    const long = message(200_000, 3);
    // First message: the transient state; then the key's own slot; then a stream's slot.
    const tags = [m.tag(message(16)), m.tag(long), m.tag(message(3000))];
    const kernel = (m as unknown as { kernel: { core: { slot: number } } }).kernel.core;
    const memory = wasm.kernels.bytes();
    const slotKey = memory.slice(kernel.slot, kernel.slot + 32);
    assert.deepEqual(slotKey, key, "the slot holds the key words (little-endian: the key)");
    const s = m.stream();
    s.update(long.subarray(0, 70_001));
    const stream = (s as unknown as { state: { slot: number } }).state;
    assert.deepEqual(memory.slice(stream.slot, stream.slot + 32), key, "the stream's own state");
    s.update(long.subarray(70_001));
    assert.equal(s.verify(tags[1]), true);
    // One-shots through the transient state, keyed and derive_key.
    assert.deepEqual(mac("blake3", key).tag(long), tags[1]);
    deriveKey(CONTEXT, key);
    blake3(long, { key, length: 2000 });
    m.destroy();
    const after = wasm.kernels.bytes();
    // Every state is released or cleared, every scratch area zeroed: nothing but zeros is left.
    const firstNonZero = after.findIndex((b) => b !== 0);
    assert.equal(firstNonZero, -1, `memory is all zeros (first other byte at ${firstNonZero})`);
    const find = (needle: Uint8Array) => Buffer.from(after).indexOf(Buffer.from(needle));
    for (let i = 0; i < 32; i += 8) assert.equal(find(key.subarray(i, i + 8)), -1, "no key part");
    for (const tag of tags) assert.equal(find(tag), -1, "no tag");
  });
});

describe("BLAKE3 WebAssembly backend: the same bytes as the TypeScript kernel and the peers", () => {
  const key = new Uint8Array(32).map((_, i) => (i * 29 + 5) & 255);
  const words = keyWords(key);
  const derived = contextWords(CONTEXT);

  it("keyed_hash, hash and derive_key at every path edge, against Blake3, noble and blake3-wasm", () => {
    for (const n of EDGES) {
      const m = message(n, n);
      const keyed = reference(words, KEYED_HASH, m, 32);
      assert.equal(toHex(mac("blake3", key).tag(m)), toHex(keyed), `keyed one-shot ${n}`);
      const prepared = blake3Keyed(key);
      prepared.tag(m);
      assert.equal(toHex(prepared.tag(m)), toHex(keyed), `keyed prepared ${n}`);
      prepared.destroy();
      assert.equal(toHex(nobleBlake3(m, { key })), toHex(keyed), `noble keyed ${n}`);
      assert.equal(toHex(rust("keyed", m, 32, key)), toHex(keyed), `blake3-wasm keyed ${n}`);
      const hash = reference(undefined, 0, m, 32);
      assert.equal(toHex(blake3(m)), toHex(hash), `hash ${n}`);
      assert.equal(toHex(rust("hash", m, 32)), toHex(hash), `blake3-wasm hash ${n}`);
      const material = reference(derived, DERIVE_KEY_MATERIAL, m, 32);
      assert.equal(toHex(deriveKey(CONTEXT, m)), toHex(material), `derive_key ${n}`);
      assert.equal(toHex(rust("derive", m, 32)), toHex(material), `blake3-wasm derive ${n}`);
    }
  });

  it("over a MiB and beyond: many MSG_CAPACITY pieces and a deep stack", () => {
    for (const n of [(1 << 20) + 1, 3 * 65536 + 16 * 1024 + 1023]) {
      const m = message(n, 9);
      const expected = reference(words, KEYED_HASH, m, 64);
      assert.equal(toHex(blake3Keyed(key, { tagLength: 64 }).tag(m)), toHex(expected), `${n}`);
      assert.equal(toHex(rust("keyed", m, 64, key)), toHex(expected), `blake3-wasm ${n}`);
    }
  });

  it("random lengths up to 18 KiB, against hash-wasm too (300 cases)", async () => {
    const hashWasm = await createBLAKE3(256, key);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 18 * 1024 }), fc.nat(255), (n, seed) => {
        const m = message(n, seed);
        const expected = toHex(reference(words, KEYED_HASH, m, 32));
        assert.equal(toHex(mac("blake3", key).tag(m)), expected);
        assert.equal(toHex(hashWasm.init().update(m).digest("binary")), expected);
        assert.equal(toHex(nobleBlake3(m, { key })), expected);
      }),
      { numRuns: 300 },
    );
  });

  it("streams split anywhere give the one-shot tag (300 cases, up to 150 KiB)", () => {
    const prepared = blake3Keyed(key);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 150 * 1024 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        (n, cuts) => {
          const m = message(n, cuts.length);
          const s = prepared.stream();
          let last = 0;
          for (const p of cuts.map((c) => c % (n + 1)).sort((x, y) => x - y)) {
            s.update(m.subarray(last, p));
            last = p;
          }
          s.update(m.subarray(last));
          assert.equal(toHex(s.digest()), toHex(reference(words, KEYED_HASH, m, 32)));
        },
      ),
      { numRuns: 300 },
    );
    prepared.destroy();
  });

  it("tiny updates: byte by byte across chunk and batch edges", () => {
    const m = message(5 * 1024 + 3, 1);
    const s = blake3Keyed(key).stream();
    for (let i = 0; i < m.length; i++) s.update(m.subarray(i, i + 1));
    assert.equal(toHex(s.digest()), toHex(nobleBlake3(m, { key })));
  });

  it("long extended output: across OUT_CAPACITY, from one chunk and from a tree", () => {
    for (const n of [0, 100, 5000]) {
      const m = message(n, 2);
      for (const length of [63, 64, 1023, 1024, 1025, 4099, 100_000]) {
        const expected = toHex(nobleBlake3(m, { key, dkLen: length }));
        assert.equal(toHex(blake3(m, { key, length })), expected, `keyed ${n} → ${length}`);
        assert.equal(toHex(reference(words, KEYED_HASH, m, length)), expected, `js ${n}`);
        const material = toHex(deriveKey(CONTEXT, m, length));
        assert.equal(material, toHex(rust("derive", m, length)), `derive ${n} → ${length}`);
      }
    }
  });

  it("tags of every length up to 64 bytes are prefixes of one output", () => {
    const m = message(3000, 4);
    const full = nobleBlake3(m, { key, dkLen: 64 });
    for (let length = 4; length <= 64; length++) {
      const prepared = blake3Keyed(key, { tagLength: length, allowShortTags: true });
      assert.deepEqual(prepared.tag(m), full.subarray(0, length), `tagLength ${length}`);
      assert.deepEqual(prepared.tag(m), full.subarray(0, length), `tagLength ${length}, slot`);
      prepared.destroy();
    }
  });
});
