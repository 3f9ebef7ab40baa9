/**
 * The WebAssembly backend: kernels built from AssemblyScript (src/engine/wasm/assembly) by
 * `npm run build`, embedded as base64, and instantiated synchronously on first use — no fetch, no
 * Promise. Where WebAssembly is missing or refuses a synchronous compile, keyed's TypeScript
 * kernels serve. Key material lives in fixed-size slots of the module's memory; a slot is zeroed
 * when its key is destroyed (or garbage-collected).
 */
import { base64ToBytes } from "../core/bytes.js";
import { FORCED_BACKEND } from "./native.js";
import { HMAC_WASM } from "./wasm/kernels.generated.js";

interface HmacExports {
  memory: WebAssembly.Memory;
  MSG: WebAssembly.Global;
  MSG_CAPACITY: WebAssembly.Global;
  OUT: WebAssembly.Global;
  SLOTS: WebAssembly.Global;
  hmac_sha1(slot: number, length: number): void;
  hmac_sha256(slot: number, length: number, digestLength: number): void;
  hmac_sha512(slot: number, length: number, digestLength: number): void;
}

/** Bytes per key slot: the inner and outer chaining values of SHA-512 (2 × 64). */
export const SLOT_SIZE = 128;

export class WasmHmac {
  readonly exports: HmacExports;
  readonly msg: number;
  readonly msgCapacity: number;
  readonly out: number;
  private nextSlot: number;
  private readonly free: number[] = [];
  private view: Uint8Array;
  private readonly registry = new FinalizationRegistry<number>((slot) => this.release(slot));

  constructor(exports: HmacExports) {
    this.exports = exports;
    this.msg = exports.MSG.value;
    this.msgCapacity = exports.MSG_CAPACITY.value;
    this.out = exports.OUT.value;
    this.nextSlot = exports.SLOTS.value;
    this.view = new Uint8Array(exports.memory.buffer);
  }

  /** The module's memory as bytes (a new view after the memory grows). */
  bytes(): Uint8Array {
    if (this.view.buffer !== this.exports.memory.buffer)
      this.view = new Uint8Array(this.exports.memory.buffer);
    return this.view;
  }

  /** A zeroed key slot, released (and zeroed) when `owner` is collected unless freed first. */
  allocate(owner: object): number {
    let slot = this.free.pop();
    if (slot === undefined) {
      slot = this.nextSlot;
      this.nextSlot += SLOT_SIZE;
      const needed = this.nextSlot - this.exports.memory.buffer.byteLength;
      if (needed > 0) this.exports.memory.grow(Math.ceil(needed / 65536));
    }
    this.registry.register(owner, slot, owner);
    return slot;
  }

  /** Zeroes the slot and makes it reusable. */
  release(slot: number, owner?: object): void {
    this.bytes().fill(0, slot, slot + SLOT_SIZE);
    if (owner !== undefined) this.registry.unregister(owner);
    this.free.push(slot);
  }
}

let hmacModule: WasmHmac | undefined | null = null;

/** The HMAC kernels, or undefined where WebAssembly is unavailable or another backend is forced. */
export function wasmHmac(): WasmHmac | undefined {
  if (hmacModule !== null) return hmacModule;
  hmacModule = undefined;
  if (FORCED_BACKEND === "js" || typeof WebAssembly !== "object") return undefined;
  try {
    const module = new WebAssembly.Module(base64ToBytes(HMAC_WASM) as Uint8Array<ArrayBuffer>);
    const instance = new WebAssembly.Instance(module, { env: { abort: () => {} } });
    hmacModule = new WasmHmac(instance.exports as unknown as HmacExports);
  } catch {
    // A runtime that refuses synchronous compilation keeps the TypeScript kernels.
  }
  return hmacModule;
}
