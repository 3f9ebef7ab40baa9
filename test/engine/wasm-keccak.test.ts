/**
 * The Keccak WebAssembly kernel (src/engine/wasm/assembly/keccak.ts) behind KMAC and keyed's Keccak
 * sponge: equal to the JavaScript kernels and to independent implementations (@noble/hashes,
 * node:crypto) at every length around the rate, the input area and the output area, one-shot,
 * prepared and streamed; equal across KEYED_BACKEND=js, wasm and native; and leaving neither the
 * key nor a key-derived state in the module's memory after destroy().
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash, createHmac } from "node:crypto";
import { describe, it } from "node:test";
import {
  cshake128 as nobleCshake128,
  kmac128 as nobleKmac128,
  kmac128xof as nobleKmac128xof,
  kmac256 as nobleKmac256,
  kmac256xof as nobleKmac256xof,
  tuplehash256 as nobleTupleHash256,
} from "@noble/hashes/sha3-addons.js";
import { FORCED_BACKEND } from "../../src/engine/native.js";
import { KECCAK_STATE_BYTES, wasmKeccak } from "../../src/engine/wasm-keccak.js";
import { cshake, HASH_FUNCTIONS, keccakF1600, kmac, shake, tupleHash } from "../../src/hazmat.js";
import { hmac, kmac128, kmac256, type Mac } from "../../src/index.js";
import { toHex } from "../helpers.js";

const wasm = wasmKeccak();
const noWasm = wasm === undefined ? "no WebAssembly kernel under this backend" : false;
/** The kernel's input area; 64 KiB in the module, assumed so when it is not loaded. */
const MSG_CAPACITY = wasm?.msgCapacity ?? 65536;
const OUT_CAPACITY = wasm?.exports.OUT_CAPACITY.value ?? 4096;

/** A small deterministic generator (xorshift32), so a failure names its inputs by seed. */
function generator(seed: number) {
  let x = seed >>> 0 || 1;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
  return {
    below: (n: number) => next() % n,
    bytes: (n: number) => {
      const out = new Uint8Array(n);
      for (let i = 0; i < n; i++) out[i] = next() & 255;
      return out;
    },
  };
}

/** `message` fed to `update` in random pieces (empty ones and ones over MSG_CAPACITY included). */
function inPieces(
  message: Uint8Array,
  below: (n: number) => number,
  update: (chunk: Uint8Array) => void,
): void {
  for (let at = 0; at <= message.length; ) {
    const n = below(4) === 0 ? 0 : below(Math.max(1, Math.min(message.length - at, 70000)) + 1);
    update(message.subarray(at, at + n));
    at += n;
    if (at === message.length) break;
  }
}

const RATES = { 128: 168, 256: 136 } as const;
const KMAC = {
  128: { ours: kmac128, noble: nobleKmac128, xof: nobleKmac128xof },
  256: { ours: kmac256, noble: nobleKmac256, xof: nobleKmac256xof },
} as const;

/** Lengths around the places where the kernel changes course. */
function interestingLengths(rate: number): number[] {
  const lengths = Array.from({ length: 3 * rate + 2 }, (_, i) => i);
  // Around MSG_CAPACITY for X ‖ right_encode(L), with and without the two prefix blocks in front.
  for (const edge of [MSG_CAPACITY - 3, MSG_CAPACITY - 3 - 2 * rate]) {
    for (let d = -2; d <= 2; d++) lengths.push(edge + d);
  }
  lengths.push(2 * MSG_CAPACITY + 7, 200001);
  return lengths;
}

describe("Keccak-f[1600] in WebAssembly", () => {
  it("equals keccakF1600 (JavaScript) on random states", { skip: noWasm }, () => {
    const kernels = wasm!;
    const state = kernels.exports.STATE.value;
    const g = generator(1600);
    for (let i = 0; i < 200; i++) {
      const words = new Int32Array(g.bytes(KECCAK_STATE_BYTES).buffer);
      const view = new Int32Array(kernels.bytes().buffer, state, 50);
      view.set(words);
      kernels.exports.permute(state);
      keccakF1600(words);
      assert.deepEqual(Array.from(view), Array.from(words), `state ${i}`);
      view.fill(0);
    }
  });
});

describe("KMAC through the kernel, against @noble/hashes", () => {
  for (const strength of [128, 256] as const) {
    const rate = RATES[strength];
    const { ours, noble } = KMAC[strength];
    it(`KMAC${strength}: every length 0..3×rate+1 and around MSG_CAPACITY; first use, prepared, streamed`, () => {
      const g = generator(strength);
      const key = g.bytes(32 + g.below(40));
      const prepared = ours(key);
      prepared.tag(new Uint8Array(1)); // the slot is set up from the second use on
      for (const length of interestingLengths(rate)) {
        const message = g.bytes(length);
        const expected = noble(key, message, { dkLen: strength / 4 });
        const id = `length ${length}`;
        assert.deepEqual(ours(key).tag(message), expected, `${id}: first use`);
        assert.deepEqual(prepared.tag(message), expected, `${id}: prepared`);
        const stream = prepared.stream();
        inPieces(message, g.below, (chunk) => stream.update(chunk));
        assert.deepEqual(stream.digest(), expected, `${id}: streamed`);
        const fresh = ours(key).stream();
        inPieces(message, g.below, (chunk) => fresh.update(chunk));
        assert.equal(fresh.verify(expected), true, `${id}: streamed on first use`);
      }
      prepared.destroy();
    });
    it(`KMAC${strength}: random keys, customization strings and tag lengths (past OUT_CAPACITY too)`, () => {
      const g = generator(strength + 1);
      for (let i = 0; i < 120; i++) {
        // Case 7: a key whose prefix blocks alone overflow MSG.
        const key = g.bytes(i === 7 ? MSG_CAPACITY + 100 : strength / 8 + g.below(300));
        const customization = g.bytes(g.below(4) === 0 ? 0 : g.below(400));
        const tagLength = i % 20 === 0 ? OUT_CAPACITY + 1 + g.below(3000) : 10 + g.below(300);
        const message = g.bytes(g.below(4) === 0 ? g.below(MSG_CAPACITY + 500) : g.below(600));
        const expected = noble(key, message, { dkLen: tagLength, personalization: customization });
        const m = ours(key, { tagLength, customization });
        const id = `case ${i} (key ${key.length} B, S ${customization.length} B, L ${tagLength} B, X ${message.length} B)`;
        assert.deepEqual(m.tag(message), expected, `${id}: first use`);
        assert.deepEqual(m.tag(message), expected, `${id}: prepared`);
        const stream = m.stream();
        inPieces(message, g.below, (chunk) => stream.update(chunk));
        assert.deepEqual(stream.digest(), expected, `${id}: streamed`);
        m.destroy();
      }
    });
    it(`KMACXOF${strength}: outputs across OUT_CAPACITY`, () => {
      const g = generator(strength + 2);
      for (const length of [0, 1, rate - 1, rate, rate + 1, OUT_CAPACITY, OUT_CAPACITY + 1, 9001]) {
        const key = g.bytes(32);
        const message = g.bytes(g.below(2 * rate));
        const customization = g.bytes(g.below(20));
        assert.deepEqual(
          kmac(strength, key, message, length, { xof: true, customization }),
          KMAC[strength].xof(key, message, { dkLen: length, personalization: customization }),
          `length ${length}`,
        );
      }
    });
  }
});

describe("SHA-3, SHAKE, cSHAKE, TupleHash and HMAC-SHA3 through the kernel", () => {
  for (const name of ["sha3-224", "sha3-256", "sha3-384", "sha3-512"] as const) {
    it(`${name}: every length 0..3×rate+1 and past MSG_CAPACITY, whole and in pieces, vs node:crypto`, () => {
      const fn = HASH_FUNCTIONS[name];
      const g = generator(fn.blockLength);
      for (const length of interestingLengths(fn.blockLength)) {
        const message = g.bytes(length);
        const expected = toHex(createHash(name).update(message).digest());
        assert.equal(toHex(fn.create().update(message).digest()), expected, `length ${length}`);
        const h = fn.create();
        inPieces(message, g.below, (chunk) => h.update(chunk));
        assert.equal(toHex(h.digest()), expected, `length ${length}, in pieces`);
      }
    });
  }
  it("SHAKE128/256 with long outputs, vs node:crypto", () => {
    const g = generator(7);
    for (const strength of [128, 256] as const) {
      for (const [length, outputLength] of [
        [0, 1000],
        [RATES[strength], 3 * RATES[strength] + 1],
        [MSG_CAPACITY + 1, 64],
      ]) {
        const message = g.bytes(length);
        assert.equal(
          toHex(shake(strength, message, outputLength)),
          toHex(createHash(`shake${strength}`, { outputLength }).update(message).digest()),
        );
      }
    }
  });
  it("cSHAKE128 and TupleHash256 with customization, vs @noble/hashes", () => {
    const g = generator(8);
    for (let i = 0; i < 60; i++) {
      const message = g.bytes(g.below(700));
      const customization = g.bytes(g.below(200));
      const dkLen = 1 + g.below(400);
      assert.deepEqual(
        cshake(128, message, dkLen, { customization }),
        nobleCshake128(message, { dkLen, personalization: customization }),
      );
      const items = [message.subarray(0, g.below(message.length + 1)), g.bytes(g.below(300))];
      assert.deepEqual(
        tupleHash(256, items, dkLen, { customization }),
        nobleTupleHash256(items, { dkLen, personalization: customization }),
      );
    }
  });
  it("HMAC-SHA3-256 and -512 at lengths around the rate, vs node:crypto", () => {
    const g = generator(9);
    for (const hash of ["sha3-256", "sha3-512"] as const) {
      for (const keyLength of [16, 200]) {
        const key = g.bytes(keyLength);
        const m = hmac(hash, key);
        for (let length = 0; length < 300; length += 1 + g.below(7)) {
          const message = g.bytes(length);
          const expected = toHex(createHmac(hash, key).update(message).digest());
          assert.equal(toHex(m.tag(message)), expected, `${hash} key ${keyLength} B, ${length} B`);
        }
        m.destroy();
      }
    }
  });
});

/** Outputs of every path, computed under one backend in a child process. */
const SCRIPT = `
import { cshake, kmac, sha3_256, shake, tupleHash } from "./src/hazmat.ts";
import { hmac, kmac128, kmac256 } from "./src/index.ts";
let x = 12345;
const next = () => { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; return x >>> 0; };
const bytes = (n) => Uint8Array.from({ length: n }, () => next() & 255);
const hex = (b) => Buffer.from(b).toString("hex");
const out = [];
for (const length of [0, 1, 135, 136, 167, 168, 169, 500, 65200, 65533, 65536, 140000]) {
  const message = bytes(length);
  for (const make of [kmac128, kmac256]) {
    const m = make(bytes(32), { customization: bytes(length % 7) });
    const s = m.stream();
    for (let at = 0; at < length; at += 1 + (next() % 9000)) s.update(message.subarray(at, at + 1 + (next() % 9000)));
    out.push(hex(m.tag(message)), hex(m.tag(message)), hex(s.digest()));
  }
  out.push(hex(kmac(256, bytes(40), message, 5000, { xof: true })));
  out.push(hex(sha3_256(message)), hex(shake(128, message, 300)), hex(cshake(256, message, 70, { customization: "c" })));
  out.push(hex(tupleHash(128, [message, bytes(3)], 32)), hex(hmac("sha3-256", bytes(32)).tag(message)));
}
console.log(JSON.stringify(out));
`;

describe("KEYED_BACKEND=js, wasm and native", () => {
  // Run once, unforced (npm run test:all): it starts one process per backend itself.
  const forced = FORCED_BACKEND === undefined ? false : "compares all backends when none is forced";
  it("give byte-identical KMAC, SHA-3, SHAKE, cSHAKE, TupleHash and HMAC-SHA3 outputs", {
    skip: forced,
  }, () => {
    const run = (backend: string): string[] =>
      JSON.parse(
        execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", SCRIPT], {
          env: { ...process.env, KEYED_BACKEND: backend },
          encoding: "utf8",
          maxBuffer: 1 << 26,
        }),
      );
    const js = run("js");
    assert.equal(js.length, 12 * 12);
    assert.deepEqual(run("wasm"), js, "wasm");
    assert.deepEqual(run("native"), js, "native");
  });
});

describe("wiping the kernel's memory", () => {
  /** Where `needle` occurs in the module's memory, or -1. */
  const find = (needle: Uint8Array) => Buffer.from(wasm!.bytes()).indexOf(Buffer.from(needle));
  /** The slots whose bytes differ between two copies of the memory. */
  const changedSlots = (before: Uint8Array, after: Uint8Array): number[] => {
    const slots: number[] = [];
    for (let at = wasm!.exports.SLOTS.value; at < after.length; at += KECCAK_STATE_BYTES) {
      const a = before.subarray(at, at + KECCAK_STATE_BYTES);
      if (!Buffer.from(a).equals(after.subarray(at, at + KECCAK_STATE_BYTES))) slots.push(at);
    }
    return slots;
  };
  /** Every 16-byte window of a state, at a few places: none may survive. */
  const windows = (state: Uint8Array) => [0, 64, 128, 184].map((at) => state.slice(at, at + 16));
  const scratchIsZero = () => {
    const { STATE, OUT, OUT_CAPACITY, MSG } = wasm!.exports;
    const memory = wasm!.bytes();
    const areas = [
      [STATE.value, KECCAK_STATE_BYTES],
      [OUT.value, OUT_CAPACITY.value],
      [MSG.value, MSG_CAPACITY],
    ];
    for (const [at, length] of areas) {
      assert.ok(
        memory.subarray(at, at + length).every((b) => b === 0),
        `scratch at ${at}`,
      );
    }
  };

  it("finds neither the key nor the keyed states after destroy()", { skip: noWasm }, () => {
    const key = generator(77).bytes(48);
    const m: Mac = kmac128(key, { customization: "wipe test" });
    // First use: one call from the zero state, no slot.
    m.tag(new Uint8Array(16));
    assert.equal(find(key), -1, "the key is not left in MSG after the first use");
    // Second use: the key slot is set up.
    m.tag(new Uint8Array(16));
    const slot = (m as unknown as { kernel: { core: { slot: number } } }).kernel.core.slot;
    assert.ok(slot >= wasm!.exports.SLOTS.value);
    const keyed = wasm!.bytes().slice(slot, slot + KECCAK_STATE_BYTES);
    assert.ok(
      keyed.some((b) => b !== 0),
      "the slot holds the keyed state",
    );
    assert.equal(find(keyed), slot, "the scan finds what is there");
    // An open stream and the long paths, on the scratch state.
    const before = wasm!.bytes().slice();
    const stream = m.stream().update(new Uint8Array(1000).fill(1));
    const [streamSlot] = changedSlots(before, wasm!.bytes());
    const streamed = wasm!.bytes().slice(streamSlot, streamSlot + KECCAK_STATE_BYTES);
    assert.notEqual(find(streamed), -1);
    m.tag(new Uint8Array(MSG_CAPACITY + 1000));
    kmac(128, key, new Uint8Array(10), OUT_CAPACITY + 10, { xof: true });
    scratchIsZero();

    m.destroy();
    const memory = wasm!.bytes();
    assert.ok(memory.subarray(slot, slot + KECCAK_STATE_BYTES).every((b) => b === 0));
    assert.ok(memory.subarray(streamSlot, streamSlot + KECCAK_STATE_BYTES).every((b) => b === 0));
    assert.equal(find(key), -1, "key");
    for (const w of [...windows(keyed), ...windows(streamed)]) assert.equal(find(w), -1);
    scratchIsZero();
    assert.throws(() => stream.update(new Uint8Array(1)), /destroyed/);
  });

  it("leaves the scratch areas zero after hashing and HMAC-SHA3", { skip: noWasm }, () => {
    const key = generator(78).bytes(32);
    const m = hmac("sha3-256", key);
    for (const length of [0, 100, 136, 1000, MSG_CAPACITY + 1]) {
      m.tag(new Uint8Array(length));
      HASH_FUNCTIONS["sha3-512"].create().update(new Uint8Array(length)).digest();
      scratchIsZero();
    }
    m.destroy();
    assert.equal(find(key), -1, "key");
  });
});
