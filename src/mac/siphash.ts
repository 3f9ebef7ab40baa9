/**
 * SipHash-2-4 and SipHash-1-3 (Aumasson and Bernstein, "SipHash: a fast short-input PRF", 2012),
 * with 64- and 128-bit output, over 16-byte keys. Two kernels give the same bytes: the WebAssembly
 * one (src/engine/wasm/assembly/siphash.ts, native u64 words) wherever it loads, and this
 * module's JavaScript one, whose 64-bit words are (high, low) pairs of 32-bit integers with
 * additions carried through a double. No data-dependent branch or index in either.
 *
 * A 64-bit tag is for hash-table keys and other local uses, where nobody can test guesses against
 * it. Authenticating messages an attacker can retry needs a longer tag: the Mac contract lets
 * siphash-2-4 and siphash-1-3 tag freely but refuses to verify their 8-byte tags unless
 * allowShortTags is set. siphash-2-4-128 and siphash-1-3-128 carry 16-byte tags.
 */

import { assertBytes, type Bytes, readWordLE as le32 } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import type { MacAlgorithm, MacKernel, MacKernelState, MacName, MacOptions } from "../core/mac.js";
import { checkOptions } from "../core/options.js";
import { PreparedMac } from "../core/prepared-mac.js";
import { redactKeyMaterial } from "../core/redact.js";
import { FORCED_BACKEND } from "../engine/native.js";
import { wasmFamily } from "../engine/wasm-families.js";
import type { SipWasm } from "../engine/wasm-siphash.js";

/** The WebAssembly kernel, or undefined where this build carries none or it does not load. */
const loadSipWasm = (): SipWasm | undefined => wasmFamily("siphash")?.loadSipWasm();

const TWO_32 = 0x100000000;

/** v0..v3 as (high, low) pairs at [0,1], [2,3], [4,5], [6,7]. */
type SipState = Int32Array;

/** `n` SipRounds (section 2.1) on the state. */
function sipRounds(v: SipState, n: number): void {
  let v0h = v[0];
  let v0l = v[1];
  let v1h = v[2];
  let v1l = v[3];
  let v2h = v[4];
  let v2l = v[5];
  let v3h = v[6];
  let v3l = v[7];
  let sum: number;
  let t: number;
  for (let i = 0; i < n; i++) {
    // v0 += v1; v1 = rotl(v1, 13) ^ v0; v0 = rotl(v0, 32)
    sum = (v0l >>> 0) + (v1l >>> 0);
    v0h = (v0h + v1h + ((sum / TWO_32) | 0)) | 0;
    v0l = sum | 0;
    t = (v1h << 13) | (v1l >>> 19);
    v1l = ((v1l << 13) | (v1h >>> 19)) ^ v0l;
    v1h = t ^ v0h;
    t = v0h;
    v0h = v0l;
    v0l = t;
    // v2 += v3; v3 = rotl(v3, 16) ^ v2
    sum = (v2l >>> 0) + (v3l >>> 0);
    v2h = (v2h + v3h + ((sum / TWO_32) | 0)) | 0;
    v2l = sum | 0;
    t = (v3h << 16) | (v3l >>> 16);
    v3l = ((v3l << 16) | (v3h >>> 16)) ^ v2l;
    v3h = t ^ v2h;
    // v0 += v3; v3 = rotl(v3, 21) ^ v0
    sum = (v0l >>> 0) + (v3l >>> 0);
    v0h = (v0h + v3h + ((sum / TWO_32) | 0)) | 0;
    v0l = sum | 0;
    t = (v3h << 21) | (v3l >>> 11);
    v3l = ((v3l << 21) | (v3h >>> 11)) ^ v0l;
    v3h = t ^ v0h;
    // v2 += v1; v1 = rotl(v1, 17) ^ v2; v2 = rotl(v2, 32)
    sum = (v2l >>> 0) + (v1l >>> 0);
    v2h = (v2h + v1h + ((sum / TWO_32) | 0)) | 0;
    v2l = sum | 0;
    t = (v1h << 17) | (v1l >>> 15);
    v1l = ((v1l << 17) | (v1h >>> 15)) ^ v2l;
    v1h = t ^ v2h;
    t = v2h;
    v2h = v2l;
    v2l = t;
  }
  v[0] = v0h;
  v[1] = v0l;
  v[2] = v1h;
  v[3] = v1l;
  v[4] = v2h;
  v[5] = v2l;
  v[6] = v3h;
  v[7] = v3l;
}

// --- the kernel ----------------------------------------------------------------------------------

/**
 * One SipHash-c-d key, the values every backend starts from: the parameters, and the initialized
 * state (section 2.1) as (high, low) pairs, from which the key words are recovered for a slot.
 */
export class SipKey {
  readonly outputLength: number;
  readonly c: number;
  readonly d: number;
  /** 1 for the 128-bit output (the kernels' `wide` flag), else 0. */
  readonly wide: number;
  private readonly initial = new Int32Array(8);
  /** The last-word buffer of the JavaScript kernel, made on its first use (never on WebAssembly). */
  private tail: Uint8Array | undefined;

  constructor(key: Uint8Array, c: number, d: number, outputLength: 8 | 16) {
    this.c = c;
    this.d = d;
    this.outputLength = outputLength;
    this.wide = outputLength === 16 ? 1 : 0;
    const k0l = le32(key, 0);
    const k0h = le32(key, 4);
    const k1l = le32(key, 8);
    const k1h = le32(key, 12);
    // "somepseudorandomlygeneratedbytes" (section 2.1).
    const v = this.initial;
    v[0] = k0h ^ 0x736f6d65;
    v[1] = k0l ^ 0x70736575;
    v[2] = k1h ^ 0x646f7261;
    v[3] = k1l ^ 0x6e646f6d ^ (outputLength === 16 ? 0xee : 0);
    v[4] = k0h ^ 0x6c796765;
    v[5] = k0l ^ 0x6e657261;
    v[6] = k1h ^ 0x74656462;
    v[7] = k1l ^ 0x79746573;
  }

  /** Absorbs one 64-bit little-endian word m = (high, low). */
  word(v: SipState, high: number, low: number): void {
    v[6] ^= high;
    v[7] ^= low;
    sipRounds(v, this.c);
    v[0] ^= high;
    v[1] ^= low;
  }

  /** Absorbs data[0..end), then the last word carrying `totalLength` mod 256. */
  absorbAll(v: SipState, data: Uint8Array, end: number, totalLength: number): void {
    let o = 0;
    for (; o + 8 <= end; o += 8) this.word(v, le32(data, o + 4), le32(data, o));
    // Last word: the remaining bytes, with the length mod 256 in the top byte.
    const tail = (this.tail ??= new Uint8Array(8));
    tail.fill(0);
    for (let i = 0; o + i < end; i++) tail[i] = data[o + i];
    tail[7] = totalLength & 0xff;
    this.word(v, le32(tail, 4), le32(tail, 0));
    tail.fill(0);
  }

  /** Finalization (section 2.1): 64 bits, or 128 bits for the SipHash-128 variant. */
  finalize(v: SipState, out: Uint8Array): void {
    v[5] ^= this.outputLength === 16 ? 0xee : 0xff;
    sipRounds(v, this.d);
    writeLe64(out, 0, v[0] ^ v[2] ^ v[4] ^ v[6], v[1] ^ v[3] ^ v[5] ^ v[7]);
    if (this.outputLength === 16) {
      v[3] ^= 0xdd;
      sipRounds(v, this.d);
      writeLe64(out, 8, v[0] ^ v[2] ^ v[4] ^ v[6], v[1] ^ v[3] ^ v[5] ^ v[7]);
    }
    v.fill(0);
  }

  /** The 64-bit finalization as halves: halves[0] low, halves[1] high. */
  finalizeHalves(v: SipState, halves: Uint32Array): void {
    v[5] ^= 0xff;
    sipRounds(v, this.d);
    halves[0] = v[1] ^ v[3] ^ v[5] ^ v[7];
    halves[1] = v[0] ^ v[2] ^ v[4] ^ v[6];
    v.fill(0);
  }

  /** k0 ‖ k1 as little-endian words at byte offset `at`, recovered from the initial state. */
  writeKey(words: Int32Array, at: number): void {
    const v = this.initial;
    const i = at >> 2;
    words[i] = v[1] ^ 0x70736575;
    words[i + 1] = v[0] ^ 0x736f6d65;
    words[i + 2] = v[3] ^ 0x6e646f6d ^ (this.outputLength === 16 ? 0xee : 0);
    words[i + 3] = v[2] ^ 0x646f7261;
  }

  /** Copies the initial state into `v`. */
  initInto(v: SipState): SipState {
    v.set(this.initial);
    return v;
  }

  /** A copy of the initial state, (high, low) pairs. */
  initialState(): Int32Array {
    return this.initial.slice();
  }

  wipe(): void {
    this.initial.fill(0);
    this.tail?.fill(0);
  }
}

redactKeyMaterial(SipKey);

/** SipHash under one key on one backend. */
interface SipCore {
  compute(message: Uint8Array, out: Uint8Array): void;
  /** The 64-bit result's halves into halves[0] (low) and halves[1] (high). */
  computeHalves(message: Uint8Array, halves: Uint32Array): void;
  wipe(): void;
}

/** The JavaScript kernel: 64-bit words as (high, low) pairs. */
class JsSip implements SipCore {
  private readonly key: SipKey;
  private readonly v = new Int32Array(8);

  constructor(key: SipKey) {
    this.key = key;
  }

  compute(message: Uint8Array, out: Uint8Array): void {
    const v = this.key.initInto(this.v);
    this.key.absorbAll(v, message, message.length, message.length);
    this.key.finalize(v, out);
  }

  computeHalves(message: Uint8Array, halves: Uint32Array): void {
    const v = this.key.initInto(this.v);
    this.key.absorbAll(v, message, message.length, message.length);
    this.key.finalizeHalves(v, halves);
  }

  wipe(): void {
    this.v.fill(0);
  }
}

redactKeyMaterial(JsSip);

/**
 * The WebAssembly kernel. The key goes to a slot from the second call on; a one-shot
 * `siphash24(key).tag(msg)` is cheaper through the module's one-shot key area, wiped after.
 */
class WasmSip implements SipCore {
  private readonly wasm: SipWasm;
  private readonly key: SipKey;
  /** This key's slot in the module's memory (0: none yet). */
  private slot = 0;
  private calls = 0;

  constructor(wasm: SipWasm, key: SipKey) {
    this.wasm = wasm;
    this.key = key;
  }

  /** Runs the kernel over `message`, leaving the result in OUT. */
  private hash(message: Uint8Array): void {
    const { wasm, key } = this;
    let slot = this.slot;
    if (slot === 0 && this.calls++ > 0) {
      // 0 when every slot is taken (MAX_LIVE_SLOTS): the module's one-shot key area serves.
      slot = this.slot = wasm.kernels.allocate(this);
      if (slot !== 0) key.writeKey(wasm.words(), slot);
    }
    if (slot !== 0) {
      wasm.hash(slot, message, key.c, key.d, key.wide);
      return;
    }
    key.writeKey(wasm.words(), wasm.key);
    wasm.hash(wasm.key, message, key.c, key.d, key.wide);
    wasm.clearKey();
  }

  compute(message: Uint8Array, out: Uint8Array): void {
    this.hash(message);
    this.wasm.takeOut(out, this.key.outputLength);
  }

  computeHalves(message: Uint8Array, halves: Uint32Array): void {
    this.hash(message);
    this.wasm.takeHalves(halves);
  }

  wipe(): void {
    if (this.slot !== 0) this.wasm.kernels.release(this.slot, this);
    this.slot = 0;
  }
}

redactKeyMaterial(WasmSip);

/**
 * SipHash-c-d under one key: the initialized state is computed once, and the backend chosen once:
 * the WebAssembly kernel wherever it loads (measured against the JavaScript kernel in one process
 * on Node 20, it took 0.5-0.75 of the time from 0 bytes on, 0.4 at 64 B), else JavaScript.
 */
export class SipHashKernel implements MacKernel {
  readonly outputLength: number;
  private readonly key: SipKey;
  private readonly core: SipCore;

  constructor(key: Uint8Array, c: number, d: number, outputLength: 8 | 16) {
    this.outputLength = outputLength;
    this.key = new SipKey(key, c, d, outputLength);
    const wasm = loadSipWasm();
    this.core = wasm === undefined ? new JsSip(this.key) : new WasmSip(wasm, this.key);
  }

  compute(message: Bytes, out: Bytes): void {
    this.core.compute(message, out);
  }

  /** The 64-bit result's halves into halves[0] (low) and halves[1] (high); 64-bit output only. */
  computeHalves(message: Uint8Array, halves: Uint32Array): void {
    this.core.computeHalves(message, halves);
  }

  start(): MacKernelState {
    return new SipStream(this.key);
  }

  wipe(): void {
    this.core.wipe();
    this.key.wipe();
  }
}

redactKeyMaterial(SipHashKernel);

/**
 * Input length from which a stream moves into the WebAssembly kernel (at once under
 * KEYED_BACKEND=wasm): below it, copying the state in and out on each update costs more than the
 * u64 arithmetic saves (two updates and a digest, one process, Node 20: 1.35× the JavaScript
 * time at 64 B, even at 128 B, 0.3× at 1 KiB).
 */
const STREAM_WASM_FROM = 128;

/**
 * An incremental SipHash. It runs in JavaScript until its input reaches STREAM_WASM_FROM bytes,
 * then in WebAssembly, its state kept here and copied into STATE (and zeroed there) per update.
 */
class SipStream implements MacKernelState {
  private readonly kernel: SipKey;
  /** v0..v3: (high, low) pairs while in JavaScript, then little-endian (low, high) words. */
  private readonly v: SipState;
  private readonly pending = new Uint8Array(8);
  private pendingLength = 0;
  private total = 0;
  private wasm: SipWasm | undefined;

  constructor(kernel: SipKey) {
    this.kernel = kernel;
    this.v = kernel.initialState();
  }

  update(chunk: Bytes): void {
    this.total += chunk.length;
    let wasm = this.wasm;
    if (wasm === undefined) {
      if (this.total >= STREAM_WASM_FROM || FORCED_BACKEND === "wasm") wasm = loadSipWasm();
      if (wasm === undefined) {
        this.updateJs(chunk);
        return;
      }
      this.wasm = wasm;
      const v = this.v;
      for (let i = 0; i < 8; i += 2) {
        const high = v[i];
        v[i] = v[i + 1];
        v[i + 1] = high;
      }
    }
    wasm.loadState(this.v);
    this.updateWasm(wasm, chunk);
    wasm.saveState(this.v);
  }

  private updateJs(chunk: Bytes): void {
    const { kernel, v, pending } = this;
    let o = 0;
    while (this.pendingLength > 0 && this.pendingLength < 8 && o < chunk.length)
      pending[this.pendingLength++] = chunk[o++];
    if (this.pendingLength === 8) {
      kernel.word(v, le32(pending, 4), le32(pending, 0));
      this.pendingLength = 0;
    }
    for (; o + 8 <= chunk.length; o += 8) kernel.word(v, le32(chunk, o + 4), le32(chunk, o));
    while (o < chunk.length) pending[this.pendingLength++] = chunk[o++];
  }

  /**
   * MSG gets the pending bytes and as much of the chunk as fits; the kernel absorbs (and zeroes)
   * the whole words, and the rest is taken back into `pending`.
   */
  private updateWasm(wasm: SipWasm, chunk: Bytes): void {
    const pending = this.pending;
    for (let o = 0; o < chunk.length; ) {
      const held = this.pendingLength;
      const n = Math.min(chunk.length - o, wasm.capacity - held);
      wasm.put(pending, 0, held, 0);
      wasm.put(chunk, o, n, held);
      const filled = held + n;
      const whole = filled & ~7;
      if (whole > 0) wasm.exports.sip_absorb(wasm.state, whole, this.kernel.c);
      const memory = wasm.bytes();
      for (let i = whole; i < filled; i++) {
        pending[i - whole] = memory[wasm.msg + i];
        memory[wasm.msg + i] = 0;
      }
      this.pendingLength = filled - whole;
      o += n;
    }
  }

  finish(out: Bytes): void {
    const { kernel, wasm } = this;
    if (wasm === undefined) {
      kernel.absorbAll(this.v, this.pending, this.pendingLength, this.total);
      kernel.finalize(this.v, out);
    } else {
      wasm.loadState(this.v);
      wasm.put(this.pending, 0, this.pendingLength, 0);
      // sip_finish wipes STATE.
      wasm.exports.sip_finish(
        wasm.state,
        this.pendingLength,
        this.total & 0xff,
        kernel.c,
        kernel.d,
        kernel.wide,
      );
      wasm.takeOut(out, kernel.outputLength);
    }
    this.wipe();
  }

  wipe(): void {
    this.v.fill(0);
    this.pending.fill(0);
    this.pendingLength = 0;
  }
}

redactKeyMaterial(SipStream);

function writeLe64(out: Uint8Array, o: number, high: number, low: number): void {
  for (let i = 0; i < 4; i++) {
    out[o + i] = low >>> (8 * i);
    out[o + 4 + i] = high >>> (8 * i);
  }
}

// --- registry and the hash-table fast path -------------------------------------------------------

type SipName = "siphash-2-4" | "siphash-1-3" | "siphash-2-4-128" | "siphash-1-3-128";

const SHORT_TAG_BASIS =
  "a 64-bit SipHash tag is for hash-table keys and other local uses, not for authenticating " +
  "messages an attacker can retry; use siphash-2-4-128 or an HMAC, or set allowShortTags to verify anyway";

function sipAlgorithm(name: SipName, c: number, d: number, outputLength: 8 | 16): MacAlgorithm {
  return {
    name,
    key: { kind: "fixed", length: 16 },
    tag: {
      full: outputLength,
      safeMinimum: 10,
      maximum: outputLength,
      basis: outputLength === 8 ? SHORT_TAG_BASIS : "RFC 2104 section 5: at least 80 bits",
    },
    // The kernel copies or derives what it keeps (see MacAlgorithm.copiesKey).
    copiesKey: true,
    createKernel: (key) => new SipHashKernel(key, c, d, outputLength),
  };
}

export const SIPHASH_ALGORITHMS: Record<SipName, MacAlgorithm> = {
  "siphash-2-4": sipAlgorithm("siphash-2-4", 2, 4, 8),
  "siphash-1-3": sipAlgorithm("siphash-1-3", 1, 3, 8),
  "siphash-2-4-128": sipAlgorithm("siphash-2-4-128", 2, 4, 16),
  "siphash-1-3-128": sipAlgorithm("siphash-1-3-128", 1, 3, 16),
};

/** A SipHash prepared key with a hash-table fast path beside the Mac methods. */
export class SipHashMac extends PreparedMac {
  private halves: Uint32Array | undefined;

  /** The 64-bit SipHash of `bytes` as an unsigned bigint (the tag read little-endian). */
  hash64(bytes: Bytes): bigint {
    const h = this.hashHalves(bytes);
    return (BigInt(h[1]) << 32n) | BigInt(h[0]);
  }

  /**
   * The 64-bit SipHash of `bytes` as two 32-bit halves, [low, high], written to `out` (or to an
   * array owned by this object, overwritten by the next call). No allocation with `out`.
   */
  hashHalves(bytes: Bytes, out?: Uint32Array): Uint32Array {
    assertBytes(bytes, "bytes");
    if (this.isDestroyed)
      throw new KeyedError("DESTROYED", `this ${this.algorithm} key was destroyed.`);
    const kernel = this.kernel as SipHashKernel;
    if (kernel.outputLength !== 8) {
      throw new KeyedError(
        "BAD_INPUT",
        `${this.algorithm} has a 128-bit output; hash64 is for the 64-bit SipHash.`,
      );
    }
    if (out === undefined) out = this.halves ??= new Uint32Array(2);
    kernel.computeHalves(bytes, out);
    return out;
  }
}

function sipMac(name: SipName, key: Bytes, options?: MacOptions): SipHashMac {
  return new SipHashMac(SIPHASH_ALGORITHMS[name], key, options);
}

/** SipHash-2-4 with a 64-bit tag: for hash tables (tag, hash64, hashHalves). */
export const siphash24 = (key: Bytes, options?: MacOptions) => sipMac("siphash-2-4", key, options);
/** SipHash-1-3 with a 64-bit tag: faster, for hash tables. */
export const siphash13 = (key: Bytes, options?: MacOptions) => sipMac("siphash-1-3", key, options);
/** SipHash-2-4 with a 128-bit tag. */
export const siphash24_128 = (key: Bytes, options?: MacOptions) =>
  sipMac("siphash-2-4-128", key, options);
/** SipHash-1-3 with a 128-bit tag. */
export const siphash13_128 = (key: Bytes, options?: MacOptions) =>
  sipMac("siphash-1-3-128", key, options);

/** SipHash-c-d of `message` in one call (hazmat: no policy). `outLength` 8 or 16. */
export function siphash(
  key: Bytes,
  message: Bytes,
  options: { c?: number; d?: number; outLength?: 8 | 16 } = {},
): Bytes {
  assertBytes(key, "key");
  assertBytes(message, "message");
  if (key.length !== 16)
    throw new KeyedError("KEY_LENGTH", `SipHash takes a 16-byte key; got ${key.length}.`);
  const {
    c = 2,
    d = 4,
    outLength = 8,
  } = checkOptions<{ c?: number; d?: number; outLength?: 8 | 16 }>(
    options,
    ["c", "d", "outLength"],
    "siphash options",
  );
  checkRounds("c", c);
  checkRounds("d", d);
  if (outLength !== 8 && outLength !== 16) {
    throw new KeyedError("BAD_INPUT", `options.outLength must be 8 or 16; got ${outLength}.`);
  }
  const out = new Uint8Array(outLength);
  const wasm = loadSipWasm();
  if (wasm !== undefined) {
    // No kernel object: the key goes straight to the one-shot key area, wiped after.
    wasm.hashUnderKey(key, message, c, d, outLength === 16 ? 1 : 0);
    wasm.takeOut(out, outLength);
    return out;
  }
  const kernel = new SipHashKernel(key, c, d, outLength);
  kernel.compute(message, out);
  kernel.wipe();
  return out;
}

function checkRounds(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1 || value > 64) {
    throw new KeyedError(
      "BAD_INPUT",
      `options.${name} must be a round count from 1 to 64; got ${value}.`,
    );
  }
}

export const isSipName = (name: MacName): name is SipName => name in SIPHASH_ALGORITHMS;
