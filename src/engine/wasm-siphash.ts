/**
 * The SipHash WebAssembly kernel (src/engine/wasm/assembly/siphash.ts: native u64 words, rounds
 * unrolled) and how keys, messages and results pass through its memory: a key slot holds k0 ‖ k1,
 * KEY is the one-shot key area, STATE a stream's state for one call.
 */
import { redactKeyMaterial } from "../core/redact.js";
import { WASM_BASE64 } from "./wasm/generated/siphash.js";
import {
  copyIn,
  type KernelExports,
  kernelLoader,
  type WasmKernels,
  wrappedLoader,
} from "./wasm.js";

export interface SipHashExports extends KernelExports {
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
export const SIPHASH_SLOT_SIZE = 16;

/** @internal The module (undefined where JavaScript serves); tests scan its memory. */
export const wasmSipHash = kernelLoader<SipHashExports>(WASM_BASE64, SIPHASH_SLOT_SIZE);

/**
 * The module, with views of its memory kept across calls: the hash-table path is a few dozen
 * nanoseconds, and re-reading `memory.buffer` each time would show. A memory growth detaches the
 * views (their length drops to 0), and they are made again.
 */
export class SipWasm {
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

  /** Copies message[from..from + n) to MSG + at. */
  put(message: Uint8Array, from: number, n: number, at: number): void {
    copyIn(this.bytes(), this.msg + at, message, from, n);
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
export const loadSipWasm = wrappedLoader(wasmSipHash, (kernels) => new SipWasm(kernels));
