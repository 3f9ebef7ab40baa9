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
import { assertBytes, type Bytes } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import {
  type MacAlgorithm,
  type MacKernel,
  type MacKernelState,
  type MacName,
  type MacOptions,
  PreparedMac,
} from "../core/mac.js";
import { redactKeyMaterial } from "../core/redact.js";
import { FORCED_BACKEND } from "../engine/native.js";
import { WASM_BASE64 } from "../engine/wasm/generated/siphash.js";
import {
  type KernelExports,
  kernelLoader,
  type WasmKernels,
  wrappedLoader,
} from "../engine/wasm.js";

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

function le32(b: Uint8Array, o: number): number {
  return b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24);
}

// --- the WebAssembly kernel (src/engine/wasm/assembly/siphash.ts) --------------------------------

interface SipHashExports extends KernelExports {
  KEY: WebAssembly.Global;
  STATE: WebAssembly.Global;
  sip_init(state: number, key: number, wide: number): void;
  sip_absorb(state: number, length: number, c: number): void;
  sip_finish(
    state: number,
    length: number,
    total: number,
    c: number,
    d: number,
    wide: number,
  ): void;
  siphash(key: number, length: number, c: number, d: number, wide: number): void;
}

/** Bytes per key slot: k0 ‖ k1. */
const SLOT_SIZE = 16;

/** @internal The module (undefined where JavaScript serves); tests scan its memory. */
export const wasmSipHash = kernelLoader<SipHashExports>(WASM_BASE64, SLOT_SIZE);

/**
 * The module, with views of its memory kept across calls: the hash-table path is a few dozen
 * nanoseconds, and re-reading `memory.buffer` each time would show. A memory growth detaches the
 * views (their length drops to 0), and they are made again.
 */
class SipWasm {
  readonly kernels: WasmKernels<SipHashExports>;
  readonly exports: SipHashExports;
  readonly key: number;
  readonly state: number;
  readonly msg: number;
  readonly out: number;
  readonly capacity: number;

  constructor(kernels: WasmKernels<SipHashExports>) {
    this.kernels = kernels;
    this.exports = kernels.exports;
    this.key = kernels.exports.KEY.value;
    this.state = kernels.exports.STATE.value;
    this.msg = kernels.msg;
    this.out = kernels.out;
    this.capacity = kernels.msgCapacity;
  }

  bytes(): Uint8Array {
    return this.kernels.bytes();
  }

  words(): Int32Array {
    return this.kernels.words();
  }

  /** Copies message[from..from + n) to MSG + at. A loop beats `set` for the short keys of hash tables. */
  put(message: Uint8Array, from: number, n: number, at: number): void {
    const memory = this.bytes();
    const to = this.msg + at;
    if (n <= 32) for (let i = 0; i < n; i++) memory[to + i] = message[from + i];
    else
      memory.set(
        from === 0 && n === message.length ? message : message.subarray(from, from + n),
        to,
      );
  }

  /** SipHash-c-d of `message` under the key at `key` into OUT. The kernel zeroes MSG as it reads. */
  hash(key: number, message: Uint8Array, c: number, d: number, wide: number): void {
    const n = message.length;
    const exports = this.exports;
    if (n <= this.capacity) {
      this.put(message, 0, n, 0);
      exports.siphash(key, n, c, d, wide);
      return;
    }
    // Longer than MSG: whole MSG-sized chunks (a multiple of 8), then the rest with the tail.
    const state = this.state;
    exports.sip_init(state, key, wide);
    let o = 0;
    for (; n - o > this.capacity; o += this.capacity) {
      this.put(message, o, this.capacity, 0);
      exports.sip_absorb(state, this.capacity, c);
    }
    this.put(message, o, n - o, 0);
    exports.sip_finish(state, n - o, n & 0xff, c, d, wide);
  }

  /** Copies the `length`-byte result from OUT into `out` and zeroes OUT. */
  takeOut(out: Uint8Array, length: number): void {
    const memory = this.bytes();
    const at = this.out;
    for (let i = 0; i < length; i++) {
      out[i] = memory[at + i];
      memory[at + i] = 0;
    }
  }

  /** The 64-bit result from OUT as [low, high] into `halves`; OUT is zeroed. */
  takeHalves(halves: Uint32Array): void {
    const words = this.words();
    const at = this.out >> 2;
    halves[0] = words[at];
    halves[1] = words[at + 1];
    words[at] = 0;
    words[at + 1] = 0;
  }

  /** Copies a stream's state (little-endian words) into STATE. */
  loadState(v: Int32Array): void {
    const words = this.words();
    const base = this.state >> 2;
    for (let i = 0; i < 8; i++) words[base + i] = v[i];
  }

  /** Copies STATE back into a stream's state and zeroes it. */
  saveState(v: Int32Array): void {
    const words = this.words();
    const base = this.state >> 2;
    for (let i = 0; i < 8; i++) {
      v[i] = words[base + i];
      words[base + i] = 0;
    }
  }

  /** `hash` under key bytes (k0 ‖ k1) written to the one-shot key area, wiped after. */
  hashUnderKey(key: Uint8Array, message: Uint8Array, c: number, d: number, wide: number): void {
    const memory = this.bytes();
    for (let i = 0; i < 16; i++) memory[this.key + i] = key[i];
    this.hash(this.key, message, c, d, wide);
    this.clearKey();
  }

  /** Zeroes the one-shot key area. */
  clearKey(): void {
    const words = this.words();
    const base = this.key >> 2;
    for (let i = 0; i < 4; i++) words[base + i] = 0;
  }
}

redactKeyMaterial(SipWasm);

/**
 * The WebAssembly kernel, or undefined where it cannot serve (see engine/wasm.ts). One-call hashes
 * use it at every length: measured against the JavaScript kernel in one process on Node 20, it
 * took 0.5-0.75 of the time from 0 bytes on (8-16 B: the wasm call and the copies into its
 * memory cost less than the 32-bit-halves arithmetic saves), 0.4 at 64 B.
 */
const loadSipWasm = wrappedLoader(wasmSipHash, (kernels) => new SipWasm(kernels));

// --- the kernel ----------------------------------------------------------------------------------

/** SipHash-c-d under one key: the initialized state is computed once. */
export class SipHashKernel implements MacKernel {
  readonly outputLength: number;
  readonly c: number;
  readonly d: number;
  private readonly initial = new Int32Array(8);
  /** Work state and last-word buffer of the JavaScript kernel, made on its first use. */
  private jsWork: { v: SipState; tail: Uint8Array } | undefined;
  /** This key's slot in the WebAssembly memory (0: none yet). */
  private slot = 0;
  private wasmCalls = 0;

  constructor(key: Uint8Array, c: number, d: number, outputLength: 8 | 16) {
    this.c = c;
    this.d = d;
    this.outputLength = outputLength;
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

  /** @internal Absorbs one 64-bit little-endian word m = (high, low). */
  word(v: SipState, high: number, low: number): void {
    v[6] ^= high;
    v[7] ^= low;
    sipRounds(v, this.c);
    v[0] ^= high;
    v[1] ^= low;
  }

  /** @internal Absorbs data[0..end), then the last word carrying `totalLength` mod 256. */
  absorbAll(v: SipState, data: Uint8Array, end: number, totalLength: number): void {
    let o = 0;
    for (; o + 8 <= end; o += 8) this.word(v, le32(data, o + 4), le32(data, o));
    // Last word: the remaining bytes, with the length mod 256 in the top byte.
    const tail = this.work().tail;
    tail.fill(0);
    for (let i = 0; o + i < end; i++) tail[i] = data[o + i];
    tail[7] = totalLength & 0xff;
    this.word(v, le32(tail, 4), le32(tail, 0));
    tail.fill(0);
  }

  /** @internal Finalization (section 2.1): 64 bits, or 128 bits for the SipHash-128 variant. */
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

  /** k0 ‖ k1 as little-endian words at byte offset `at`, recovered from the initial state. */
  private writeKey(words: Int32Array, at: number): void {
    const v = this.initial;
    const i = at >> 2;
    words[i] = v[1] ^ 0x70736575;
    words[i + 1] = v[0] ^ 0x736f6d65;
    words[i + 2] = v[3] ^ 0x6e646f6d ^ (this.outputLength === 16 ? 0xee : 0);
    words[i + 3] = v[2] ^ 0x646f7261;
  }

  private work(): { v: SipState; tail: Uint8Array } {
    if (this.jsWork === undefined) this.jsWork = { v: new Int32Array(8), tail: new Uint8Array(8) };
    return this.jsWork;
  }

  /** @internal The state the JavaScript kernel starts from, as (high, low) pairs. */
  initialState(): Int32Array {
    return this.initial.slice();
  }

  /**
   * Runs the WebAssembly kernel over `message`, leaving the result in OUT. The key goes to a slot
   * from the second call on; a one-shot `siphash24(key).tag(msg)` is cheaper without one.
   */
  private wasmHash(wasm: SipWasm, message: Uint8Array): void {
    const wide = this.outputLength === 16 ? 1 : 0;
    let key = this.slot;
    if (key === 0 && this.wasmCalls++ > 0) {
      // 0 when every slot is taken (MAX_LIVE_SLOTS): the module's transient key serves.
      key = this.slot = wasm.kernels.allocate(this);
      if (key !== 0) this.writeKey(wasm.words(), key);
    }
    if (key !== 0) {
      wasm.hash(key, message, this.c, this.d, wide);
      return;
    }
    this.writeKey(wasm.words(), wasm.key);
    wasm.hash(wasm.key, message, this.c, this.d, wide);
    wasm.clearKey();
  }

  compute(message: Bytes, out: Bytes): void {
    const wasm = loadSipWasm();
    if (wasm !== undefined) {
      this.wasmHash(wasm, message);
      wasm.takeOut(out, this.outputLength);
      return;
    }
    const v = this.work().v;
    v.set(this.initial);
    this.absorbAll(v, message, message.length, message.length);
    this.finalize(v, out);
  }

  /** The 64-bit result's halves into halves[0] (low) and halves[1] (high); 64-bit output only. */
  computeHalves(message: Uint8Array, halves: Uint32Array): void {
    const wasm = loadSipWasm();
    if (wasm !== undefined) {
      this.wasmHash(wasm, message);
      wasm.takeHalves(halves);
      return;
    }
    const v = this.work().v;
    v.set(this.initial);
    this.absorbAll(v, message, message.length, message.length);
    v[5] ^= 0xff;
    sipRounds(v, this.d);
    halves[0] = v[1] ^ v[3] ^ v[5] ^ v[7];
    halves[1] = v[0] ^ v[2] ^ v[4] ^ v[6];
    v.fill(0);
  }

  start(): MacKernelState {
    return new SipStream(this);
  }

  wipe(): void {
    this.initial.fill(0);
    this.jsWork?.v.fill(0);
    if (this.slot !== 0) (loadSipWasm() as SipWasm).kernels.release(this.slot, this);
    this.slot = 0;
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
  private readonly kernel: SipHashKernel;
  /** v0..v3: (high, low) pairs while in JavaScript, then little-endian (low, high) words. */
  private readonly v: SipState;
  private readonly pending = new Uint8Array(8);
  private pendingLength = 0;
  private total = 0;
  private wasm: SipWasm | undefined;

  constructor(kernel: SipHashKernel) {
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
        kernel.outputLength === 16 ? 1 : 0,
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
  const { c = 2, d = 4, outLength = 8 } = options;
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
