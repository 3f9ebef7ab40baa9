/**
 * The ChaCha20 WebAssembly kernel (src/engine/wasm/assembly/chacha20.ts: SIMD, four blocks per
 * step, one counter per i32x4 lane) and how the input state, data and keystream pass through its
 * memory.
 */
import { redactKeyMaterial } from "../core/redact.js";
import { WASM_BASE64 } from "./wasm/generated/chacha20.js";
import {
  copyIn,
  copyOutOf,
  type KernelExports,
  kernelLoader,
  type WasmKernels,
  wrappedLoader,
} from "./wasm.js";

export interface ChaChaExports extends KernelExports {
  INPUT: WebAssembly.Global;
  chacha20_xor(length: number): void;
  chacha20_block(): void;
  hchacha20(): void;
}

/** @internal The module (undefined where JavaScript serves); tests scan its memory. */
export const wasmChaCha20 = kernelLoader<ChaChaExports>(WASM_BASE64, 64);

/**
 * The module with views of its memory kept across calls. Each call gets the 16-word input state
 * in INPUT, which the kernel zeroes before it returns; no key stays in its memory between calls.
 */
export class ChaChaWasm {
  readonly kernels: WasmKernels<ChaChaExports>;
  readonly exports: ChaChaExports;
  readonly msg: number;
  readonly capacity: number;
  private readonly input: number;
  private readonly out: number;

  constructor(kernels: WasmKernels<ChaChaExports>) {
    this.kernels = kernels;
    this.exports = kernels.exports;
    this.msg = kernels.msg;
    this.capacity = kernels.msgCapacity;
    this.input = kernels.exports.INPUT.value;
    this.out = kernels.out;
  }

  bytes(): Uint8Array {
    return this.kernels.bytes();
  }

  setInput(state: Int32Array): void {
    const words = this.kernels.words();
    const base = this.input >> 2;
    for (let i = 0; i < 16; i++) words[base + i] = state[i];
  }

  /**
   * out[outOffset..) = data ⊕ keystream from the counter in `state` (whole blocks per chunk;
   * the caller checks the counter range and advances it).
   */
  xor(state: Int32Array, data: Uint8Array, out: Uint8Array, outOffset: number): void {
    const memory = this.bytes();
    const msg = this.msg;
    const counter = state[12];
    let touched = 0;
    for (let pos = 0; pos < data.length; pos += this.capacity) {
      const n = Math.min(this.capacity, data.length - pos);
      this.setInput(state);
      this.kernels.words()[(this.input >> 2) + 12] = counter + pos / 64;
      copyIn(memory, msg, data, pos, n);
      this.exports.chacha20_xor(n);
      copyOutOf(memory, msg, out, outOffset + pos, n);
      // The kernel XORs whole groups of blocks: keystream stands past n, up to a multiple of 256.
      touched = Math.max(touched, Math.ceil(n / 256) * 256);
    }
    // Once, at the end: each chunk but the last overwrites all that the one before it left.
    memory.fill(0, msg, msg + touched);
  }

  /** One keystream block; its first `length` bytes to `out`. */
  block(state: Int32Array, out: Uint8Array, length: number): void {
    this.setInput(state);
    this.exports.chacha20_block();
    this.takeOut(out, length, 64);
  }

  /** HChaCha20 of the state (constants, key, 16 nonce bytes) into `out` (32 bytes). */
  hchacha(state: Int32Array, out: Uint8Array): void {
    this.setInput(state);
    this.exports.hchacha20();
    this.takeOut(out, 32, 32);
  }

  /** Copies `length` bytes from OUT, then zeroes its `used` bytes (a multiple of 4). */
  private takeOut(out: Uint8Array, length: number, used: number): void {
    const memory = this.bytes();
    const at = this.out;
    for (let i = 0; i < length; i++) out[i] = memory[at + i];
    const words = this.kernels.words();
    for (let i = at >> 2; i < (at + used) >> 2; i++) words[i] = 0;
  }
}

redactKeyMaterial(ChaChaWasm);

export const loadChaChaWasm = wrappedLoader(wasmChaCha20, (kernels) => new ChaChaWasm(kernels));
