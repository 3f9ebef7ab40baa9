/**
 * BLAKE3 on the WebAssembly backend (src/engine/wasm/assembly/blake3.ts): the module, and the few
 * steps every caller takes — a key and mode written into a state, the message passed through MSG,
 * the output read back through OUT — shared by the MAC, its streams, derive_key and hashing.
 *
 * A state is a key slot: the key, the mode, the chunk being absorbed and the stack of subtree
 * chaining values, so a message of any length can arrive in pieces. One-shot calls use a shared
 * transient state whose key is zeroed before they return.
 */
import type { Bytes } from "../core/bytes.js";
import { redactKeyMaterial } from "../core/redact.js";
import { WASM_BASE64 } from "./wasm/generated/blake3.js";
import {
  copyIn,
  type KernelExports,
  kernelLoader,
  moveWordsOut,
  type WasmKernels,
  wrappedLoader,
  zeroIn,
} from "./wasm.js";

export interface Blake3Exports extends KernelExports {
  OUT_CAPACITY: WebAssembly.Global;
  /** Back to an empty message under the state's key and mode. */
  reset(state: number): void;
  /** Absorbs MSG[0..length). */
  absorb(state: number, length: number): void;
  /** Finishes the message; the first `outLength` (≤ OUT_CAPACITY) output bytes go to OUT. */
  finish(state: number, outLength: number): void;
  /** After `finish`: `outLength` more output bytes from output block `block` on, to OUT. */
  squeeze(state: number, block: number, outLength: number): void;
  /** Zeroes everything of the state but its key and mode. */
  clear(state: number): void;
  /** reset, absorb, finish and clear in one call. */
  hash(state: number, length: number, outLength: number): void;
}

/** Bytes per state: key and mode, the chunk state, and a stack of 54 chaining values (5.1.2). */
export const BLAKE3_STATE_SIZE = 1920;
/** The state's words: the 8 key words, then the mode flags. */
const FLAGS_WORD = 8;

/** The IV (section 2.1): plain hashing's key words. */
const IV = Int32Array.from([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

/** The loaded module and the operations on its states. */
export class WasmBlake3 {
  readonly kernels: WasmKernels<Blake3Exports>;
  private readonly exports: Blake3Exports;
  private readonly msg: number;
  private readonly msgCapacity: number;
  private readonly out: number;
  private readonly outCapacity: number;
  /** The state one-shot calls borrow; it outlives every caller. */
  private readonly transient: number;
  /**
   * The memory as bytes. Only `allocate` grows it (the module never does), and growth detaches the
   * old buffer, so an empty view means a stale one: cheaper than asking for `memory.buffer`.
   */
  private view: Uint8Array;
  /** The same memory as words, for reading OUT. */
  private words: Int32Array;

  constructor(kernels: WasmKernels<Blake3Exports>) {
    this.kernels = kernels;
    this.exports = kernels.exports;
    this.msg = kernels.msg;
    this.msgCapacity = kernels.msgCapacity;
    this.out = kernels.out;
    this.outCapacity = kernels.exports.OUT_CAPACITY.value;
    this.transient = kernels.allocate(this);
    this.view = kernels.bytes();
    this.words = new Int32Array(this.view.buffer);
  }

  private bytes(): Uint8Array {
    if (this.view.length === 0) {
      this.view = this.kernels.bytes();
      this.words = new Int32Array(this.view.buffer);
    }
    return this.view;
  }

  /**
   * A state holding 8 key words (undefined: the IV) and the mode flags, ready for a message; 0
   * when every slot is taken (MAX_LIVE_SLOTS).
   */
  allocate(owner: object, key: Int32Array | undefined, flags: number): number {
    const slot = this.kernels.allocate(owner);
    if (slot === 0) return 0;
    this.loadKey(slot, key, flags);
    this.exports.reset(slot);
    return slot;
  }

  /** Zeroes the state and makes it reusable. */
  release(slot: number, owner: object): void {
    this.kernels.release(slot, owner);
  }

  /** Writes the key words and mode into state `slot` (word-aligned, as every state is). */
  private loadKey(slot: number, key: Int32Array | undefined, flags: number): void {
    this.bytes();
    const words = this.words;
    const at = slot >> 2;
    const from = key ?? IV;
    for (let i = 0; i < 8; i++) words[at + i] = from[i];
    words[at + FLAGS_WORD] = flags;
  }

  /** Absorbs `data` into state `slot` through MSG, MSG_CAPACITY bytes at a time, then zeroes MSG. */
  absorb(slot: number, data: Bytes): void {
    const capacity = this.msgCapacity;
    const memory = this.bytes();
    for (let offset = 0; offset < data.length; offset += capacity) {
      const n = Math.min(capacity, data.length - offset);
      copyIn(memory, this.msg, data, offset, n);
      this.exports.absorb(slot, n);
    }
    zeroIn(memory, this.msg, Math.min(data.length, capacity));
  }

  /**
   * Moves `length` bytes from OUT to out[offset..), zeroing OUT behind them: a word at a time,
   * three times faster than bytes (OUT is word-aligned, and memory little-endian).
   */
  private takeOut(out: Bytes, offset: number, length: number): void {
    const memory = this.bytes();
    const words = this.words;
    const from = this.out;
    let i = length & ~3;
    moveWordsOut(words, from, out, offset, i);
    for (; i < length; i++) {
      out[offset + i] = memory[from + i];
      memory[from + i] = 0;
    }
  }

  /** Finishes state `slot` into out[0..length) (any length: extendable output) and clears it. */
  finishInto(slot: number, out: Bytes, length: number): void {
    const exports = this.exports;
    const capacity = this.outCapacity;
    const first = Math.min(length, capacity);
    exports.finish(slot, first);
    this.takeOut(out, 0, first);
    for (let done = first; done < length; done += capacity) {
      const n = Math.min(length - done, capacity);
      exports.squeeze(slot, done / 64, n);
      this.takeOut(out, done, n);
    }
    exports.clear(slot);
  }

  /** `length` output bytes of `message` under the key and mode in state `slot`, into `out`. */
  hashInto(slot: number, message: Bytes, out: Bytes, length: number): void {
    const n = message.length;
    if (n <= this.msgCapacity && length <= this.outCapacity) {
      copyIn(this.bytes(), this.msg, message, 0, n);
      this.exports.hash(slot, n, length);
      this.takeOut(out, 0, length);
      return;
    }
    this.exports.reset(slot);
    this.absorb(slot, message);
    this.finishInto(slot, out, length);
  }

  /**
   * `length` output bytes of `message` under 8 key words (undefined: plain hashing) in mode
   * `flags`, through the transient state, whose key is zeroed before returning.
   */
  oneShotInto(
    key: Int32Array | undefined,
    flags: number,
    message: Bytes,
    out: Bytes,
    length: number,
  ): void {
    const slot = this.transient;
    this.loadKey(slot, key, flags);
    try {
      this.hashInto(slot, message, out, length);
    } finally {
      const words = this.words;
      for (let i = slot >> 2, end = i + FLAGS_WORD; i <= end; i++) words[i] = 0;
    }
  }
}

redactKeyMaterial(WasmBlake3);

const loadKernels = kernelLoader<Blake3Exports>(WASM_BASE64, BLAKE3_STATE_SIZE);
/**
 * The BLAKE3 module, or undefined where WebAssembly (SIMD) is unavailable or js is forced. At
 * 13.1 KB it may still be compiling in the background on Chrome's main thread (see kernelLoader).
 */
export const wasmBlake3 = wrappedLoader(loadKernels, (kernels) => new WasmBlake3(kernels));
