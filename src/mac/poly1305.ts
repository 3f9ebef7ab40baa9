/**
 * Poly1305 (RFC 8439 section 2.5): tag = ((Σ (m_i + 2^(8·len_i)) · r^(n-i+1)) mod 2^130-5) + s
 * mod 2^128, with r clamped. The key is one-time: two messages under one key reveal it.
 *
 * Two kernels give the same bytes. The WebAssembly one (src/engine/wasm/assembly/poly1305.ts:
 * 26-bit limbs, 64-bit products, SIMD for long inputs) serves wherever WebAssembly with SIMD is
 * available, since it is faster at every length; the TypeScript one below is the reference and
 * the fallback (and what KEYED_BACKEND=js runs).
 *
 * TypeScript technique: the accumulator and r are six limbs of 22 bits held in IEEE doubles.
 * Every product is below 2^49.4 and every column sum below 2^52, so all arithmetic is exact
 * integer arithmetic (doubles are exact below 2^53); carries are taken with Math.floor.
 * 2^132 ≡ 20 (mod 2^130 - 5) folds the high columns back. No BigInt (not constant time), no
 * branch or index on secret data; the final reduction selects with a mask.
 */
import { assertBytes, type Bytes } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import type { MacAlgorithm, MacKernel, MacKernelState } from "../core/mac.js";
import { redactKeyMaterial } from "../core/redact.js";
import { WASM_BASE64 as POLY1305_WASM } from "../engine/wasm/generated/poly1305.js";
import {
  type KernelExports,
  kernelLoader,
  type WasmKernels,
  wrappedLoader,
} from "../engine/wasm.js";

const LIMB = 4194304; // 2^22
const INV_LIMB = 1 / LIMB; // exact: a power of two
const MASK22 = 0x3fffff;

function le32(b: Uint8Array, o: number): number {
  return (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;
}

/** The TypeScript kernel: the reference, and the fallback where WebAssembly cannot serve. */
export class Poly1305Js {
  /** r in limbs, then 20·r (for the columns that wrap past 2^132). */
  private readonly r = new Float64Array(12);
  private readonly h = new Float64Array(6);
  /** s, the second key half, as four little-endian words. */
  private readonly s = new Uint32Array(4);
  private readonly pending = new Uint8Array(16);
  private pendingLength = 0;
  /** Scratch for the final reduction. */
  private readonly limbs = new Int32Array(6);
  private readonly limbsG = new Int32Array(6);

  /** `key` is 32 bytes: r ‖ s. */
  constructor(key: Uint8Array, offset = 0) {
    // Clamp r (RFC 8439 2.5.1): r &= 0x0ffffffc0ffffffc0ffffffc0fffffff.
    const t0 = le32(key, offset) & 0x0fffffff;
    const t1 = le32(key, offset + 4) & 0x0ffffffc;
    const t2 = le32(key, offset + 8) & 0x0ffffffc;
    const t3 = le32(key, offset + 12) & 0x0ffffffc;
    const r = this.r;
    splitLimbs(t0, t1, t2, t3, r);
    for (let i = 0; i < 6; i++) r[6 + i] = 20 * r[i];
    for (let i = 0; i < 4; i++) this.s[i] = le32(key, offset + 16 + 4 * i);
  }

  /** True when the clamped r or s is zero (a key that authenticates nothing). */
  isWeak(): boolean {
    let rBits = 0;
    for (let i = 0; i < 6; i++) rBits |= this.r[i];
    const sBits = this.s[0] | this.s[1] | this.s[2] | this.s[3];
    return rBits === 0 || sBits === 0;
  }

  update(data: Uint8Array, offset = 0, end = data.length): this {
    const pending = this.pending;
    if (this.pendingLength > 0) {
      while (this.pendingLength < 16 && offset < end)
        pending[this.pendingLength++] = data[offset++];
      if (this.pendingLength < 16) return this;
      this.block(pending, 0, 1);
      this.pendingLength = 0;
    }
    for (; end - offset >= 16; offset += 16) this.block(data, offset, 1);
    while (offset < end) pending[this.pendingLength++] = data[offset++];
    return this;
  }

  /** Absorbs zero bytes up to the next 16-byte boundary (the AEAD's pad16). */
  padToBlock(): this {
    if (this.pendingLength > 0) {
      this.pending.fill(0, this.pendingLength);
      this.block(this.pending, 0, 1);
      this.pendingLength = 0;
    }
    return this;
  }

  /** h = (h + m + hibit·2^128) · r mod 2^130 - 5 (partially reduced). */
  private block(m: Uint8Array, o: number, hibit: number): void {
    const t0 = le32(m, o);
    const t1 = le32(m, o + 4);
    const t2 = le32(m, o + 8);
    const t3 = le32(m, o + 12);
    const h = this.h;
    const r = this.r;
    const h0 = h[0] + (t0 & MASK22);
    const h1 = h[1] + (((t0 >>> 22) | (t1 << 10)) & MASK22);
    const h2 = h[2] + (((t1 >>> 12) | (t2 << 20)) & MASK22);
    const h3 = h[3] + ((t2 >>> 2) & MASK22);
    const h4 = h[4] + (((t2 >>> 24) | (t3 << 8)) & MASK22);
    const h5 = h[5] + ((t3 >>> 14) | (hibit << 18));
    const r0 = r[0];
    const r1 = r[1];
    const r2 = r[2];
    const r3 = r[3];
    const r4 = r[4];
    const r5 = r[5];
    const v1 = r[7];
    const v2 = r[8];
    const v3 = r[9];
    const v4 = r[10];
    const v5 = r[11];
    let d0 = h0 * r0 + h1 * v5 + h2 * v4 + h3 * v3 + h4 * v2 + h5 * v1;
    let d1 = h0 * r1 + h1 * r0 + h2 * v5 + h3 * v4 + h4 * v3 + h5 * v2;
    let d2 = h0 * r2 + h1 * r1 + h2 * r0 + h3 * v5 + h4 * v4 + h5 * v3;
    let d3 = h0 * r3 + h1 * r2 + h2 * r1 + h3 * r0 + h4 * v5 + h5 * v4;
    let d4 = h0 * r4 + h1 * r3 + h2 * r2 + h3 * r1 + h4 * r0 + h5 * v5;
    let d5 = h0 * r5 + h1 * r4 + h2 * r3 + h3 * r2 + h4 * r1 + h5 * r0;
    let c = Math.floor(d0 * INV_LIMB);
    d0 -= c * LIMB;
    d1 += c;
    c = Math.floor(d1 * INV_LIMB);
    d1 -= c * LIMB;
    d2 += c;
    c = Math.floor(d2 * INV_LIMB);
    d2 -= c * LIMB;
    d3 += c;
    c = Math.floor(d3 * INV_LIMB);
    d3 -= c * LIMB;
    d4 += c;
    c = Math.floor(d4 * INV_LIMB);
    d4 -= c * LIMB;
    d5 += c;
    c = Math.floor(d5 * INV_LIMB);
    d5 -= c * LIMB;
    d0 += 20 * c;
    c = Math.floor(d0 * INV_LIMB);
    d0 -= c * LIMB;
    h[0] = d0;
    h[1] = d1 + c;
    h[2] = d2;
    h[3] = d3;
    h[4] = d4;
    h[5] = d5;
  }

  /** Writes the 16-byte tag to out[offset] and wipes the state. */
  finish(out: Uint8Array, offset = 0): void {
    if (this.pendingLength > 0) {
      // The last partial block: its 0x01 byte stands in for the 2^128 bit.
      const pending = this.pending;
      pending[this.pendingLength] = 1;
      pending.fill(0, this.pendingLength + 1);
      this.block(pending, 0, 0);
    }
    // Full carry into 22-bit integer limbs, folding the bits at 2^130 and above back (×5). Two
    // rounds: after the first, h < 2^130 + 2^15; after the second, h < 2^130.
    const t = this.limbs;
    for (let i = 0; i < 6; i++) t[i] = this.h[i];
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 5; i++) {
        t[i + 1] += t[i] >>> 22;
        t[i] &= MASK22;
      }
      const c = t[5] >>> 20;
      t[5] &= 0xfffff;
      t[0] += 5 * c;
    }
    for (let i = 0; i < 5; i++) {
      t[i + 1] += t[i] >>> 22;
      t[i] &= MASK22;
    }
    // g = h + 5 - 2^130; keep g if it is non-negative (h ≥ p), else h. Selected with a mask.
    const g = this.limbsG;
    let c = 5;
    for (let i = 0; i < 5; i++) {
      const v = t[i] + c;
      g[i] = v & MASK22;
      c = v >>> 22;
    }
    g[5] = t[5] + c;
    const useG = -(g[5] >>> 20); // all ones when g ≥ 2^130, i.e. h ≥ p
    g[5] &= 0xfffff;
    for (let i = 0; i < 6; i++) t[i] = (t[i] & ~useG) | (g[i] & useG);
    const h0 = t[0];
    const h1 = t[1];
    const h2 = t[2];
    const h3 = t[3];
    const h4 = t[4];
    const h5 = t[5];
    t.fill(0);
    g.fill(0);
    // h mod 2^128 as four words, plus s, little-endian.
    const s = this.s;
    let f = (h0 | (h1 << 22)) >>> 0;
    let sum = f + s[0];
    writeLe32(out, offset, sum);
    f = ((h1 >>> 10) | (h2 << 12)) >>> 0;
    sum = f + s[1] + Math.floor(sum / 0x100000000);
    writeLe32(out, offset + 4, sum);
    f = ((h2 >>> 20) | (h3 << 2) | (h4 << 24)) >>> 0;
    sum = f + s[2] + Math.floor(sum / 0x100000000);
    writeLe32(out, offset + 8, sum);
    f = ((h4 >>> 8) | (h5 << 14)) >>> 0;
    sum = f + s[3] + Math.floor(sum / 0x100000000);
    writeLe32(out, offset + 12, sum);
    this.wipe();
  }

  wipe(): void {
    this.r.fill(0);
    this.h.fill(0);
    this.s.fill(0);
    this.pending.fill(0);
    this.pendingLength = 0;
  }
}

redactKeyMaterial(Poly1305Js);

function splitLimbs(t0: number, t1: number, t2: number, t3: number, out: Float64Array): void {
  out[0] = t0 & MASK22;
  out[1] = ((t0 >>> 22) | (t1 << 10)) & MASK22;
  out[2] = ((t1 >>> 12) | (t2 << 20)) & MASK22;
  out[3] = (t2 >>> 2) & MASK22;
  out[4] = ((t2 >>> 24) | (t3 << 8)) & MASK22;
  out[5] = t3 >>> 14;
}

function writeLe32(out: Uint8Array, o: number, v: number): void {
  out[o] = v;
  out[o + 1] = v >>> 8;
  out[o + 2] = v >>> 16;
  out[o + 3] = v >>> 24;
}

// --- the WebAssembly kernel -----------------------------------------------------------------------

/** The exports of src/engine/wasm/assembly/poly1305.ts. Each takes a state area's offset. */
export interface Poly1305Exports extends KernelExports {
  /** A state area for computations that start and finish within one call from JavaScript. */
  ONE_SHOT: WebAssembly.Global;
  STATE_SIZE: WebAssembly.Global;
  /** Sets the state up from the 32-byte key r ‖ s written at its start. */
  init(state: number): void;
  /**
   * Absorbs MSG[0..length) and zeroes it. MSG is all zeros between calls, so `update` with
   * nothing written absorbs zero bytes (RFC 8439 2.8's pad16).
   */
  update(state: number, length: number): void;
  /** Writes the tag to OUT and zeroes the state. */
  finish(state: number): void;
  /** init, update over MSG[0..length), finish: the whole tag in one call. MSG is zeroed. */
  mac(state: number, length: number): void;
}

type WasmPoly1305 = WasmKernels<Poly1305Exports>;

/** Bytes per key slot: the kernel's STATE_SIZE (test/engine/wasm-poly1305.test.ts checks it). */
export const POLY1305_SLOT_SIZE = 560;

/** The WebAssembly kernel, or undefined where it cannot serve or KEYED_BACKEND=js. */
export const wasmPoly1305 = kernelLoader<Poly1305Exports>(POLY1305_WASM, POLY1305_SLOT_SIZE);

/**
 * The WebAssembly kernel with what the hot paths need read once (a Global's `value` and the
 * memory's `buffer` are getters that cost a good part of a short tag).
 */
class Poly1305Wasm {
  readonly kernels: WasmPoly1305;
  readonly exports: Poly1305Exports;
  /** The state area for computations that finish within one call from here. */
  readonly oneShot: number;
  private readonly msg: number;
  private readonly out: number;
  private readonly capacity: number;
  private view: Uint8Array;

  constructor(kernels: WasmPoly1305) {
    this.kernels = kernels;
    this.exports = kernels.exports;
    this.oneShot = kernels.exports.ONE_SHOT.value;
    this.msg = kernels.msg;
    this.out = kernels.out;
    this.capacity = kernels.msgCapacity;
    this.view = kernels.bytes();
  }

  memory(): Uint8Array {
    // A new key slot can grow the memory, which detaches the old buffer: its view has length 0.
    if (this.view.length === 0) this.view = this.kernels.bytes();
    return this.view;
  }

  /** Writes the 32-byte key at key[offset] to the start of a state area and sets the state up. */
  loadKey(state: number, key: Uint8Array, offset: number): void {
    const memory = this.memory();
    for (let i = 0; i < 32; i++) memory[state + i] = key[offset + i];
    this.exports.init(state);
  }

  /** Copies data[offset..offset+length) to MSG (length at most its capacity). */
  private copyIn(data: Uint8Array, offset: number, length: number): void {
    if (offset === 0 && length === data.length) this.memory().set(data, this.msg);
    else this.memory().set(data.subarray(offset, offset + length), this.msg);
  }

  /** Absorbs data[offset..end) into a state area, through MSG, a chunk at a time. */
  feed(state: number, data: Uint8Array, offset: number, end: number): void {
    while (offset < end) {
      const length = Math.min(end - offset, this.capacity);
      this.copyIn(data, offset, length);
      this.exports.update(state, length);
      offset += length;
    }
  }

  /** Absorbs zero bytes up to a multiple of 16 after `length` bytes (RFC 8439 2.8's pad16). */
  pad16(state: number, length: number): void {
    const zeros = -length & 15;
    if (zeros !== 0) this.exports.update(state, zeros);
  }

  /** Copies the tag from OUT to out[offset..], then zeroes OUT (the kernel zeroed MSG). */
  takeTag(out: Uint8Array, offset: number): void {
    const memory = this.memory();
    const at = this.out;
    for (let i = 0; i < 16; i++) {
      out[offset + i] = memory[at + i];
      memory[at + i] = 0;
    }
  }

  /** Poly1305 of `message` under a 32-byte key, into out[0..16), in the one-shot state area. */
  tag(key: Uint8Array, message: Uint8Array, out: Uint8Array): void {
    const state = this.oneShot;
    const length = message.length;
    if (length <= this.capacity) {
      // One call: init, update and finish.
      this.memory().set(key, state);
      this.copyIn(message, 0, length);
      this.exports.mac(state, length);
    } else {
      this.loadKey(state, key, 0);
      this.feed(state, message, 0, length);
      this.exports.finish(state);
    }
    this.takeTag(out, 0);
  }
}

redactKeyMaterial(Poly1305Wasm);

/** The WebAssembly kernel, loaded on first use; undefined where the TypeScript one serves. */
const poly1305Wasm = wrappedLoader(wasmPoly1305, (kernels) => new Poly1305Wasm(kernels));

/** Poly1305 of `message` under the 32-byte key, into out[0..16). */
function tagInto(key: Uint8Array, message: Uint8Array, out: Uint8Array): void {
  const wasm = poly1305Wasm();
  if (wasm === undefined) new Poly1305Js(key).update(message).finish(out);
  else wasm.tag(key, message, out);
}

/** Poly1305 of `message` under a 32-byte one-time key (hazmat: no reuse check, no weak-key check). */
export function poly1305(key: Bytes, message: Bytes): Bytes {
  assertBytes(key, "key");
  assertBytes(message, "message");
  if (key.length !== 32) {
    throw new KeyedError("KEY_LENGTH", `Poly1305 takes a 32-byte one-time key; got ${key.length}.`);
  }
  const out = new Uint8Array(16);
  tagInto(key, message, out);
  return out;
}

/**
 * Poly1305 over `parts` in order, each followed by zero bytes up to a multiple of 16 (RFC 8439
 * 2.8's pad16), under the 32-byte key at key[0..32), into out[outOffset..+16). The AEAD's tag.
 */
export function poly1305Padded(
  key: Uint8Array,
  parts: readonly Uint8Array[],
  out: Uint8Array,
  outOffset: number,
): void {
  const wasm = poly1305Wasm();
  if (wasm === undefined) {
    const state = new Poly1305Js(key);
    for (const part of parts) state.update(part).padToBlock();
    state.finish(out, outOffset);
    return;
  }
  // All within this call, so the one-shot state area serves.
  const state = wasm.oneShot;
  wasm.loadKey(state, key, 0);
  for (const part of parts) {
    wasm.feed(state, part, 0, part.length);
    wasm.pad16(state, part.length);
  }
  wasm.exports.finish(state);
  wasm.takeTag(out, outOffset);
}

/**
 * The running state of one Poly1305 computation (hazmat: no reuse or weak-key check). Once
 * `finish` or `wipe` has run, any other call throws FINISHED.
 */
export class Poly1305State {
  private readonly js: Poly1305Js | undefined;
  private readonly wasm: Poly1305Wasm | undefined;
  /** The state's key slot in the WebAssembly memory, and the bytes absorbed there. */
  private readonly slot: number = 0;
  private length = 0;
  private done = false;

  /** `key` is 32 bytes: r ‖ s. */
  constructor(key: Uint8Array, offset = 0) {
    const wasm = poly1305Wasm();
    // No module, or every slot taken (MAX_LIVE_SLOTS): the TypeScript kernel serves.
    const slot = wasm === undefined ? 0 : wasm.kernels.allocate(this);
    if (wasm === undefined || slot === 0) {
      this.js = new Poly1305Js(key, offset);
      return;
    }
    this.wasm = wasm;
    this.slot = slot;
    wasm.loadKey(slot, key, offset);
  }

  private check(): void {
    if (this.done) {
      throw new KeyedError("FINISHED", "this Poly1305 state was finished or wiped.");
    }
  }

  /** True when the clamped r or s is zero (a key that authenticates nothing). */
  isWeak(): boolean {
    if (this.wasm === undefined) return (this.js as Poly1305Js).isWeak();
    if (this.done) return true;
    // The kernel's state layout: s's four words at +16, then r's five limbs.
    const words = new Int32Array(this.wasm.memory().buffer, this.slot + 16, 9);
    const s = words[0] | words[1] | words[2] | words[3];
    const r = words[4] | words[5] | words[6] | words[7] | words[8];
    return r === 0 || s === 0;
  }

  /** Absorbs `data[offset .. end)`; chainable. */
  update(data: Uint8Array, offset = 0, end = data.length): this {
    this.check();
    if (this.wasm === undefined) {
      (this.js as Poly1305Js).update(data, offset, end);
    } else if (end > offset) {
      this.wasm.feed(this.slot, data, offset, end);
      this.length += end - offset;
    }
    return this;
  }

  /** Absorbs zero bytes up to the next 16-byte boundary (the AEAD's pad16). */
  padToBlock(): this {
    this.check();
    if (this.wasm === undefined) {
      (this.js as Poly1305Js).padToBlock();
    } else {
      this.wasm.pad16(this.slot, this.length);
      this.length += -this.length & 15;
    }
    return this;
  }

  /** Writes the 16-byte tag to out[offset] and wipes the state. */
  finish(out: Uint8Array, offset = 0): void {
    this.check();
    if (this.wasm === undefined) {
      (this.js as Poly1305Js).finish(out, offset);
    } else {
      this.wasm.exports.finish(this.slot);
      this.wasm.takeTag(out, offset);
    }
    this.wipe();
  }

  /** Overwrites r, s and the accumulator with zeros; the state is then finished. */
  wipe(): void {
    if (this.done) return;
    this.done = true;
    if (this.wasm === undefined) (this.js as Poly1305Js).wipe();
    else this.wasm.kernels.release(this.slot, this);
  }
}

redactKeyMaterial(Poly1305State);

/** Bits of r that clamping keeps (RFC 8439 2.5.1), byte by byte. */
const R_CLAMP = [
  0xff, 0xff, 0xff, 0x0f, 0xfc, 0xff, 0xff, 0x0f, 0xfc, 0xff, 0xff, 0x0f, 0xfc, 0xff, 0xff, 0x0f,
];

/** The safe-API kernel: one message per key, enforced by the Mac contract (`oneTime`). */
class Poly1305Kernel implements MacKernel {
  readonly outputLength = 16;
  private readonly key: Uint8Array;
  /** The one stream, if the key's one use is a stream: wiped with the key. */
  private stream: Poly1305State | undefined;

  constructor(key: Bytes) {
    // The weak-key check reads the key bytes: clamped r or s all zero.
    let r = 0;
    let s = 0;
    for (let i = 0; i < 16; i++) {
      r |= key[i] & R_CLAMP[i];
      s |= key[16 + i];
    }
    if (r === 0 || s === 0) {
      throw new KeyedError(
        "KEY_WEAK",
        "this Poly1305 key has an all-zero r or s half (after clamping): it would authenticate nothing.",
      );
    }
    // A copy in a plain Uint8Array: Buffer#slice would give a view of the caller's bytes.
    this.key = new Uint8Array(key);
  }

  compute(message: Bytes, out: Bytes): void {
    tagInto(this.key, message, out);
    // The key's one use is over.
    this.key.fill(0);
  }

  start(): MacKernelState {
    const state = new Poly1305State(this.key);
    this.key.fill(0);
    this.stream = state;
    return {
      update: (chunk) => {
        state.update(chunk);
      },
      finish: (out) => state.finish(out),
      wipe: () => state.wipe(),
    };
  }

  wipe(): void {
    this.key.fill(0);
    this.stream?.wipe();
    this.stream = undefined;
  }
}

redactKeyMaterial(Poly1305Kernel);

export const POLY1305_ALGORITHM: MacAlgorithm = {
  name: "poly1305",
  key: { kind: "fixed", length: 32 },
  oneTime: true,
  tag: {
    full: 16,
    safeMinimum: 10,
    maximum: 16,
    basis: "RFC 2104 section 5: at least 80 bits",
  },
  createKernel: (key) => new Poly1305Kernel(key),
};
