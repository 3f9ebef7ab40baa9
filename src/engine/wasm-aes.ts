/**
 * The AES family's WebAssembly kernels (src/engine/wasm/assembly/aes.ts): AES-128/192/256 by vector
 * permutes, CMAC, GHASH and GMAC's tag, and how a key gets into them.
 *
 * A key is expanded into the module's scratch slot for its first use, so that a one-shot tag costs
 * no slot of its own (nor a FinalizationRegistry entry, nor memory growth when callers make keys
 * faster than the collector frees them), and into a slot of its own from its second use on.
 */
import { copyBytes } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import { redactKeyMaterial } from "../core/redact.js";
import { WASM_BASE64 as AES_WASM } from "./wasm/generated/aes.js";
import { copyIn, type KernelExports, kernelLoader, type WasmKernels } from "./wasm.js";

export interface AesExports extends KernelExports {
  STATE: WebAssembly.Global;
  J0: WebAssembly.Global;
  KEY: WebAssembly.Global;
  SCRATCH: WebAssembly.Global;
  CMAC_SUBKEYS: WebAssembly.Global;
  aes_key(slot: number, keyLength: number): void;
  aes_encrypt(slot: number): void;
  cmac_key(slot: number): void;
  cmac(slot: number, length: number): void;
  cmac_update(slot: number, length: number): void;
  cmac_final(slot: number, count: number): void;
  gmac_key(slot: number): void;
  ghash_update(slot: number, length: number): void;
  ghash_lengths(slot: number, aBytes: number, cBytes: number): void;
  gmac_final(slot: number): void;
  gmac(slot: number, length: number): void;
}

/** Bytes per key slot: 15 round keys, the round count, CMAC's K1 and K2, GHASH's six H words. */
export const AES_SLOT_SIZE = 512;

export type WasmAes = WasmKernels<AesExports>;

/** The AES kernels, or undefined where WebAssembly SIMD is unavailable or KEYED_BACKEND=js. */
export const wasmAes = kernelLoader<AesExports>(AES_WASM, AES_SLOT_SIZE);

/** What a slot holds besides the round keys: nothing, CMAC's subkeys, or GHASH's H. */
export type AesSlotUse = "block" | "cmac" | "gmac";

/** One AES key's place in the module. */
export class WasmAesKey {
  readonly wasm: WasmAes;
  readonly exports: AesExports;
  readonly keyLength: number;
  private readonly use: AesSlotUse;
  /** A copy of the key until it has a slot of its own (no more sensitive than that slot). */
  private raw: Uint8Array | undefined;
  private slot = 0;
  private uses = 0;
  private readonly scratch: number;
  private readonly state: number;
  /** Where GMAC's pre-counter block goes (reading a WebAssembly.Global is slow). */
  readonly j0: number;

  constructor(wasm: WasmAes, key: Uint8Array, use: AesSlotUse) {
    this.wasm = wasm;
    this.exports = wasm.exports;
    this.keyLength = key.length;
    this.use = use;
    this.raw = copyBytes(key);
    this.scratch = wasm.exports.SCRATCH.value;
    this.state = wasm.exports.STATE.value;
    this.j0 = wasm.exports.J0.value;
  }

  /**
   * A slot holding the expanded key: the scratch slot on the first use (hand it back with
   * `release`), the key's own from the second on.
   */
  acquire(): number {
    if (this.slot !== 0) return this.slot;
    if (this.uses++ === 0) return this.expand(this.scratch);
    return this.own();
  }

  /** Ends a use of what `acquire` gave: the scratch slot is zeroed. */
  release(slot: number): void {
    if (slot === this.scratch) this.wasm.bytes().fill(0, slot, slot + AES_SLOT_SIZE);
  }

  /**
   * The key's own slot, for state that spans calls (streams); hand it back with `release` too.
   * When every slot is taken (MAX_LIVE_SLOTS), the scratch slot, expanded again for this use.
   */
  own(): number {
    if (this.slot === 0) {
      const raw = this.rawKey();
      const slot = this.wasm.allocate(this);
      if (slot === 0) return this.expand(this.scratch);
      this.slot = slot;
      this.expand(slot);
      raw.fill(0);
      this.raw = undefined;
    }
    return this.slot;
  }

  private rawKey(): Uint8Array {
    if (this.raw === undefined) throw new KeyedError("DESTROYED", "This AES key was wiped.");
    return this.raw;
  }

  private expand(slot: number): number {
    this.wasm.bytes().set(this.rawKey(), this.exports.KEY.value);
    this.exports.aes_key(slot, this.keyLength);
    if (this.use === "cmac") this.exports.cmac_key(slot);
    else if (this.use === "gmac") this.exports.gmac_key(slot);
    return slot;
  }

  /** The module's memory as bytes. */
  memory(): Uint8Array {
    return this.wasm.bytes();
  }

  /** Copies `data[offset .. offset + length)` into MSG (length ≤ the capacity). */
  input(data: Uint8Array, offset: number, length: number): void {
    const memory = this.wasm.bytes();
    const msg = this.wasm.msg;
    copyIn(memory, msg, data, offset, length);
  }

  /**
   * Feeds data[offset .. offset + length) to `step` (an export taking a slot and a length of MSG)
   * a buffer at a time; every piece but the last is a whole number of blocks.
   */
  feed(
    slot: number,
    data: Uint8Array,
    offset: number,
    length: number,
    step: (slot: number, length: number) => void,
  ): void {
    const capacity = this.wasm.msgCapacity;
    for (let end = offset + length; offset < end; ) {
      const n = Math.min(capacity, end - offset);
      this.input(data, offset, n);
      step(slot, n);
      offset += n;
    }
  }

  /** The 16-byte result from OUT into out[offset ..]; OUT is zeroed (the call zeroed MSG). */
  takeOut(out: Uint8Array, offset: number): void {
    const memory = this.wasm.bytes();
    const at = this.wasm.out;
    for (let i = 0; i < 16; i++) out[offset + i] = memory[at + i];
    const words = this.wasm.words();
    const w = at >> 2;
    words[w] = 0;
    words[w + 1] = 0;
    words[w + 2] = 0;
    words[w + 3] = 0;
  }

  /** STATE = the first 16 bytes of `state` (a chaining value or accumulator held by the caller). */
  loadState(state: Int32Array): void {
    const memory = this.wasm.words();
    const at = this.state >> 2;
    for (let i = 0; i < 4; i++) memory[at + i] = state[i];
  }

  /** The first 16 bytes of `state` = STATE, which is then zeroed. */
  saveState(state: Int32Array): void {
    const memory = this.wasm.words();
    const at = this.state >> 2;
    for (let i = 0; i < 4; i++) {
      state[i] = memory[at + i];
      memory[at + i] = 0;
    }
  }

  /** J0 = STATE (a GHASH of a nonce other than 96 bits), then STATE is zeroed. */
  moveStateToJ0(): void {
    const memory = this.wasm.bytes();
    memory.copyWithin(this.j0, this.state, this.state + 16);
    memory.fill(0, this.state, this.state + 16);
  }

  /** Zeroes the key's slot and its copy of the key; any later use throws DESTROYED. */
  wipe(): void {
    this.raw?.fill(0);
    this.raw = undefined;
    if (this.slot !== 0) this.wasm.release(this.slot, this);
    this.slot = 0;
    this.uses = 1;
  }
}

redactKeyMaterial(WasmAesKey);
