/**
 * The Poly1305 WebAssembly kernel (src/engine/wasm/assembly/poly1305.ts: radix 2^26 with 64-bit
 * products; from 24 blocks three Horner lanes, two in SIMD and one scalar) and how keys, messages
 * and tags pass through its memory. A state area is either a key slot (a stream that spans calls)
 * or ONE_SHOT (a computation that starts and finishes within one call from JavaScript).
 */
import { readWordsLE } from "../core/bytes.js";
import { redactKeyMaterial } from "../core/redact.js";
import { WASM_BASE64 as POLY1305_WASM } from "./wasm/generated/poly1305.js";
import {
  copyIn,
  type KernelExports,
  kernelLoader,
  moveWordsOut,
  type WasmKernels,
  wrappedLoader,
} from "./wasm.js";

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
  /** Where chacha_mac takes its ChaCha20 state (key at +16, 12-byte nonce at +52). */
  CHACHA: WebAssembly.Global;
  /** Where chacha_mac takes an XChaCha20 nonce (24 bytes). */
  XNONCE: WebAssembly.Global;
  /** The ChaCha20-Poly1305 MAC's tag over MSG[0..length) (RFC 8439 2.8) into OUT, in one call. */
  chacha_mac(length: number, extended: number): void;
}

export type WasmPoly1305Kernels = WasmKernels<Poly1305Exports>;

/** Bytes per key slot: the kernel's STATE_SIZE (test/engine/wasm-poly1305.test.ts checks it). */
export const POLY1305_SLOT_SIZE = 560;

/** The WebAssembly kernel, or undefined where it cannot serve or KEYED_BACKEND=js. */
export const wasmPoly1305 = kernelLoader<Poly1305Exports>(POLY1305_WASM, POLY1305_SLOT_SIZE);

/**
 * The WebAssembly kernel with what the hot paths need read once (a Global's `value` and the
 * memory's `buffer` are getters that cost a good part of a short tag).
 */
export class Poly1305Wasm {
  readonly kernels: WasmPoly1305Kernels;
  readonly exports: Poly1305Exports;
  /** The state area for computations that finish within one call from here. */
  readonly oneShot: number;
  private readonly msg: number;
  private readonly out: number;
  readonly capacity: number;
  private view: Uint8Array;
  /** Word offsets of chacha_mac's key, 12-byte nonce and 24-byte nonce. */
  private readonly chachaKey: number;
  private readonly chachaNonce: number;
  private readonly xNonce: number;

  constructor(kernels: WasmPoly1305Kernels) {
    this.kernels = kernels;
    this.exports = kernels.exports;
    this.oneShot = kernels.exports.ONE_SHOT.value;
    this.msg = kernels.msg;
    this.out = kernels.out;
    this.capacity = kernels.msgCapacity;
    this.view = kernels.bytes();
    this.chachaKey = (kernels.exports.CHACHA.value + 16) >> 2;
    this.chachaNonce = (kernels.exports.CHACHA.value + 52) >> 2;
    this.xNonce = kernels.exports.XNONCE.value >> 2;
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

  /** Copies a whole message (at most the capacity) to MSG. */
  private putMessage(message: Uint8Array): void {
    copyIn(this.memory(), this.msg, message, 0, message.length);
  }

  /** Absorbs data[offset..end) into a state area, through MSG, a chunk at a time. */
  feed(state: number, data: Uint8Array, offset: number, end: number): void {
    while (offset < end) {
      const length = Math.min(end - offset, this.capacity);
      copyIn(this.memory(), this.msg, data, offset, length);
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

  /** True when the clamped r or s in the state area is zero (a key that authenticates nothing). */
  isWeak(state: number): boolean {
    // The kernel's state layout: s's four words at +16, then r's five limbs.
    const words = this.kernels.words();
    const at = (state + 16) >> 2;
    const s = words[at] | words[at + 1] | words[at + 2] | words[at + 3];
    const r = words[at + 4] | words[at + 5] | words[at + 6] | words[at + 7] | words[at + 8];
    return r === 0 || s === 0;
  }

  /**
   * Poly1305 of `message` (at most MSG_CAPACITY bytes) under the key given as eight little-endian
   * 32-bit words k0..k7 (r ‖ s), into out[0..16): eight word stores instead of 32 byte stores, for
   * the safe API's one-time keys, which pay every step per message.
   */
  tagKeyWords(
    k0: number,
    k1: number,
    k2: number,
    k3: number,
    k4: number,
    k5: number,
    k6: number,
    k7: number,
    message: Uint8Array,
    out: Uint8Array,
  ): void {
    const state = this.oneShot;
    const words = this.kernels.words();
    const at = state >> 2;
    words[at] = k0;
    words[at + 1] = k1;
    words[at + 2] = k2;
    words[at + 3] = k3;
    words[at + 4] = k4;
    words[at + 5] = k5;
    words[at + 6] = k6;
    words[at + 7] = k7;
    this.putMessage(message);
    this.exports.mac(state, message.length);
    moveWordsOut(words, this.out, out, 0, 16);
  }

  /**
   * The ChaCha20-Poly1305 MAC's tag (RFC 8439 2.8 with an empty plaintext, `message` as the
   * associated data) in one call: the ChaCha20 key block, Poly1305 and the lengths all in the
   * module. `key`: eight little-endian words; `nonce`: 12 bytes, or 24 for XChaCha20. `message` is
   * at most the capacity. The module zeroes what it was given.
   */
  chachaMacTag(key: Int32Array, nonce: Uint8Array, message: Uint8Array, out: Uint8Array): void {
    const words = this.kernels.words();
    const at = this.chachaKey;
    for (let i = 0; i < 8; i++) words[at + i] = key[i];
    const extended = nonce.length === 24;
    const to = extended ? this.xNonce : this.chachaNonce;
    readWordsLE(nonce, 0, words, to, nonce.length >> 2);
    this.putMessage(message);
    this.exports.chacha_mac(message.length, extended ? 1 : 0);
    moveWordsOut(words, this.out, out, 0, 16);
  }

  /**
   * RFC 8439 2.8's tag in one call: Poly1305 under the 32-byte key over aad ‖ pad16 ‖
   * ciphertext[0..ctEnd) ‖ pad16 ‖ `lengths` (16 bytes), all laid out in MSG (zero at rest, so the
   * padding is already there); false, and nothing done, when they do not fit MSG.
   */
  tagAead(
    key: Uint8Array,
    aad: Uint8Array,
    ciphertext: Uint8Array,
    ctEnd: number,
    lengths: Uint8Array,
    out: Uint8Array,
    outOffset: number,
  ): boolean {
    const aadEnd = aad.length + (-aad.length & 15);
    const ctStart = aadEnd;
    const lengthsAt = ctStart + ctEnd + (-ctEnd & 15);
    const total = lengthsAt + 16;
    if (total > this.capacity) return false;
    const memory = this.memory();
    const state = this.oneShot;
    const msg = this.msg;
    for (let i = 0; i < 32; i++) memory[state + i] = key[i];
    copyIn(memory, msg, aad, 0, aad.length);
    if (ctEnd > 0) copyIn(memory, msg + ctStart, ciphertext, 0, ctEnd);
    for (let i = 0; i < 16; i++) memory[msg + lengthsAt + i] = lengths[i];
    this.exports.mac(state, total);
    this.takeTag(out, outOffset);
    return true;
  }

  /** Poly1305 of `message` under a 32-byte key, into out[0..16), in the one-shot state area. */
  tag(key: Uint8Array, message: Uint8Array, out: Uint8Array): void {
    const state = this.oneShot;
    const length = message.length;
    if (length <= this.capacity) {
      // One call: init, update and finish. The key goes in as eight words assembled from its
      // bytes (8 stores, not 32), and the tag comes out as four words, zeroed as they are read.
      const words = this.kernels.words();
      readWordsLE(key, 0, words, state >> 2, 8);
      this.putMessage(message);
      this.exports.mac(state, length);
      moveWordsOut(words, this.out, out, 0, 16);
      return;
    }
    this.loadKey(state, key, 0);
    this.feed(state, message, 0, length);
    this.exports.finish(state);
    this.takeTag(out, 0);
  }
}

redactKeyMaterial(Poly1305Wasm);

/** The WebAssembly kernel, loaded on first use; undefined where the TypeScript one serves. */
export const loadPoly1305Wasm = wrappedLoader(wasmPoly1305, (kernels) => new Poly1305Wasm(kernels));
