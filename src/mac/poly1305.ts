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
import { assertBytes, type Bytes, readWordLE as le32 } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import type { MacAlgorithm, MacKernel, MacKernelState } from "../core/mac.js";
import { redactKeyMaterial } from "../core/redact.js";
import { wasmFamily } from "../engine/wasm-families.js";
import type { Poly1305Wasm } from "../engine/wasm-poly1305.js";

/** The WebAssembly kernel, or undefined where this build carries none or it does not load. */
export const loadPoly1305Wasm = (): Poly1305Wasm | undefined =>
  wasmFamily("poly1305")?.loadPoly1305Wasm();

const LIMB = 4194304; // 2^22
const INV_LIMB = 1 / LIMB; // exact: a power of two
const MASK22 = 0x3fffff;

/** One Poly1305 computation on one backend. */
interface Poly1305Core {
  /** True when the clamped r or s is zero (a key that authenticates nothing). */
  isWeak(): boolean;
  update(data: Uint8Array, offset: number, end: number): void;
  /** Absorbs zero bytes up to the next 16-byte boundary (the AEAD's pad16). */
  padToBlock(): void;
  /** Writes the 16-byte tag to out[offset] and wipes the state. */
  finish(out: Uint8Array, offset: number): void;
  wipe(): void;
}

/** The TypeScript kernel: the reference, and the fallback where WebAssembly cannot serve. */
export class Poly1305Js implements Poly1305Core {
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

/** Poly1305 of `message` under the 32-byte key, into out[0..16). */
function tagInto(key: Uint8Array, message: Uint8Array, out: Uint8Array): void {
  const wasm = loadPoly1305Wasm();
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
  const wasm = loadPoly1305Wasm();
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

/** The WebAssembly kernel on a key slot of its own (a state spans calls). */
class WasmPoly1305State implements Poly1305Core {
  private readonly wasm: Poly1305Wasm;
  /** The key slot in the module's memory (0 once released), and the bytes absorbed there. */
  slot: number;
  private length = 0;

  private constructor(wasm: Poly1305Wasm, slot: number) {
    this.wasm = wasm;
    this.slot = slot;
  }

  /** A state for the key at key[offset..+32), or undefined when every slot is taken. */
  static create(
    wasm: Poly1305Wasm,
    key: Uint8Array,
    offset: number,
  ): WasmPoly1305State | undefined {
    const state = new WasmPoly1305State(wasm, 0);
    const slot = wasm.kernels.allocate(state);
    if (slot === 0) return undefined;
    state.slot = slot;
    wasm.loadKey(slot, key, offset);
    return state;
  }

  isWeak(): boolean {
    return this.slot === 0 || this.wasm.isWeak(this.slot);
  }

  update(data: Uint8Array, offset: number, end: number): void {
    if (end <= offset) return;
    this.wasm.feed(this.slot, data, offset, end);
    this.length += end - offset;
  }

  padToBlock(): void {
    this.wasm.pad16(this.slot, this.length);
    this.length += -this.length & 15;
  }

  finish(out: Uint8Array, offset: number): void {
    this.wasm.exports.finish(this.slot);
    this.wasm.takeTag(out, offset);
  }

  /** Zeroes the slot and gives it back. */
  wipe(): void {
    if (this.slot === 0) return;
    this.wasm.kernels.release(this.slot, this);
    this.slot = 0;
  }
}

redactKeyMaterial(WasmPoly1305State);

/**
 * The AEAD's tag (RFC 8439 2.8): Poly1305 under the 32-byte key over aad ‖ pad16 ‖
 * ciphertext[0..ctEnd) ‖ pad16 ‖ `lengths` (le64(|aad|) ‖ le64(ctEnd)), into out[outOffset..+16).
 * One WebAssembly call when it all fits the module's input area.
 */
export function poly1305Aead(
  key: Uint8Array,
  aad: Uint8Array,
  ciphertext: Uint8Array,
  ctEnd: number,
  lengths: Uint8Array,
  out: Uint8Array,
  outOffset: number,
): void {
  const wasm = loadPoly1305Wasm();
  if (wasm?.tagAead(key, aad, ciphertext, ctEnd, lengths, out, outOffset)) return;
  poly1305Padded(key, [aad, ciphertext.subarray(0, ctEnd), lengths], out, outOffset);
}

/**
 * The running state of one Poly1305 computation (hazmat: no reuse or weak-key check). Once
 * `finish` or `wipe` has run, any other call throws FINISHED. The backend is chosen once, here:
 * the WebAssembly kernel in a key slot of its own where it loads and a slot is free
 * (MAX_LIVE_SLOTS), else the TypeScript one.
 */
export class Poly1305State {
  private readonly core: Poly1305Core;
  /** The key slot at the start (0 on the TypeScript kernel), for the memory-scan tests. */
  readonly slot: number;
  private done = false;

  /** `key` is 32 bytes: r ‖ s. */
  constructor(key: Uint8Array, offset = 0) {
    const wasm = loadPoly1305Wasm();
    const state = wasm === undefined ? undefined : WasmPoly1305State.create(wasm, key, offset);
    this.slot = state?.slot ?? 0;
    this.core = state ?? new Poly1305Js(key, offset);
  }

  private check(): void {
    if (this.done) {
      throw new KeyedError("FINISHED", "this Poly1305 state was finished or wiped.");
    }
  }

  /** True when the clamped r or s is zero (a key that authenticates nothing). */
  isWeak(): boolean {
    return this.core.isWeak();
  }

  /** Absorbs `data[offset .. end)`; chainable. */
  update(data: Uint8Array, offset = 0, end = data.length): this {
    this.check();
    this.core.update(data, offset, end);
    return this;
  }

  /** Absorbs zero bytes up to the next 16-byte boundary (the AEAD's pad16). */
  padToBlock(): this {
    this.check();
    this.core.padToBlock();
    return this;
  }

  /** Writes the 16-byte tag to out[offset] and wipes the state. */
  finish(out: Uint8Array, offset = 0): void {
    this.check();
    this.core.finish(out, offset);
    this.wipe();
  }

  /** Overwrites r, s and the accumulator with zeros; the state is then finished. */
  wipe(): void {
    if (this.done) return;
    this.done = true;
    this.core.wipe();
  }
}

redactKeyMaterial(Poly1305State);

function weakKeyError(): KeyedError {
  return new KeyedError(
    "KEY_WEAK",
    "this Poly1305 key has an all-zero r or s half (after clamping): it would authenticate nothing.",
  );
}

/**
 * The safe-API kernel: one message per key, enforced by the Mac contract (`oneTime`). A key object
 * per message is Poly1305's normal use, so the key is held as eight 32-bit fields (r ‖ s,
 * little-endian words): no typed array to allocate per key, and eight word stores into the
 * WebAssembly kernel's state area. Where V8's small integers are 31 bits (pointer compression:
 * browsers), the first word past 2^30 moves the fields to boxed doubles once per process; from then
 * on every key is stored the same way whatever its value (`npm run ct` times it on Node).
 */
class Poly1305Kernel implements MacKernel {
  // Fields are declared, and set in the constructor alone: a class field with an initializer (or
  // none) makes V8 call an initializer function on every construction, ~5 ns a key.
  declare readonly outputLength: 16;
  declare private k0: number;
  declare private k1: number;
  declare private k2: number;
  declare private k3: number;
  declare private k4: number;
  declare private k5: number;
  declare private k6: number;
  declare private k7: number;
  /** The one stream, if the key's one use is a stream: wiped with the key. */
  declare private stream: Poly1305State | undefined;

  constructor(key: Bytes) {
    this.outputLength = 16;
    this.stream = undefined;
    this.k0 = le32(key, 0);
    this.k1 = le32(key, 4);
    this.k2 = le32(key, 8);
    this.k3 = le32(key, 12);
    this.k4 = le32(key, 16);
    this.k5 = le32(key, 20);
    this.k6 = le32(key, 24);
    this.k7 = le32(key, 28);
  }

  /** True when the clamped r (RFC 8439 2.5.1) or s is all zero: a key that authenticates nothing. */
  isWeak(): boolean {
    const r =
      (this.k0 & 0x0fffffff) |
      (this.k1 & 0x0ffffffc) |
      (this.k2 & 0x0ffffffc) |
      (this.k3 & 0x0ffffffc);
    return r === 0 || (this.k4 | this.k5 | this.k6 | this.k7) === 0;
  }

  /** The key as bytes, for the TypeScript kernel and streams (the caller wipes them). */
  private keyBytes(): Uint8Array {
    const bytes = new Uint8Array(32);
    writeLe32(bytes, 0, this.k0);
    writeLe32(bytes, 4, this.k1);
    writeLe32(bytes, 8, this.k2);
    writeLe32(bytes, 12, this.k3);
    writeLe32(bytes, 16, this.k4);
    writeLe32(bytes, 20, this.k5);
    writeLe32(bytes, 24, this.k6);
    writeLe32(bytes, 28, this.k7);
    return bytes;
  }

  private wipeKey(): void {
    this.k0 = this.k1 = this.k2 = this.k3 = this.k4 = this.k5 = this.k6 = this.k7 = 0;
  }

  compute(message: Bytes, out: Bytes): void {
    const wasm = loadPoly1305Wasm();
    if (wasm !== undefined && message.length <= wasm.capacity) {
      wasm.tagKeyWords(
        this.k0,
        this.k1,
        this.k2,
        this.k3,
        this.k4,
        this.k5,
        this.k6,
        this.k7,
        message,
        out,
      );
    } else {
      this.computeOnBytes(message, out);
    }
    // The key's one use is over.
    this.wipeKey();
  }

  /** compute() past the WebAssembly kernel's one-call capacity, or on the TypeScript kernel. */
  private computeOnBytes(message: Bytes, out: Bytes): void {
    const key = this.keyBytes();
    tagInto(key, message, out);
    key.fill(0);
  }

  start(): MacKernelState {
    const key = this.keyBytes();
    const state = new Poly1305State(key);
    key.fill(0);
    this.wipeKey();
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
    this.wipeKey();
    this.stream?.wipe();
    this.stream = undefined;
  }
}

redactKeyMaterial(Poly1305Kernel);

/**
 * A kernel for `key`, refused (KEY_WEAK) when the key would authenticate nothing. A function of its
 * own, for V8: too large to inline into `mac()`'s callers, it is a plain call into code where the
 * allocation is inlined, where a `new` there went through V8's generic construct stub.
 */
function poly1305Kernel(key: Bytes): Poly1305Kernel {
  const kernel = new Poly1305Kernel(key);
  if (kernel.isWeak()) {
    kernel.wipe();
    throw weakKeyError();
  }
  return kernel;
}

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
  // The kernel copies or derives what it keeps (see MacAlgorithm.copiesKey).
  copiesKey: true,
  createKernel: (key) => poly1305Kernel(key),
};
