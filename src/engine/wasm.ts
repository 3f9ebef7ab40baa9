/**
 * The WebAssembly backend: one module per algorithm family, built from AssemblyScript
 * (src/engine/wasm/assembly) by `npm run build`, embedded as base64 (src/engine/wasm/generated),
 * and instantiated synchronously on first use — no fetch, no Promise. Where WebAssembly (or its
 * SIMD extension, for the kernels that use it) is missing, or the runtime refuses a synchronous
 * compile, keyed's TypeScript kernels serve.
 *
 * Every module follows one memory convention, exported as globals: MSG (the input area, of
 * MSG_CAPACITY bytes), OUT (the result) and SLOTS (where per-key slots start). Key material lives
 * in fixed-size slots managed here; a slot is zeroed when its key is destroyed or collected.
 */
import { base64ToBytes, setBytes } from "../core/bytes.js";
import { redactKeyMaterial } from "../core/redact.js";
import { FORCED_BACKEND } from "./native.js";

/**
 * Live key slots per module, at most. FinalizationRegistry frees the slots of keys dropped without
 * destroy(), but never inside a synchronous loop, and WebAssembly memory never shrinks: without a
 * cap, 300,000 dropped BLAKE3 keys left 576 MB behind. Past the cap a key takes a kernel without a
 * slot of its own (the module's transient state, or TypeScript), whose memory the GC reclaims.
 * 4,096 slots are 7.5 MiB for BLAKE3 (1,920 bytes each), 512 KiB for HMAC.
 */
export const MAX_LIVE_SLOTS = 4096;

/** The exports every kernel module has. */
export interface KernelExports {
  memory: WebAssembly.Memory;
  MSG: WebAssembly.Global;
  MSG_CAPACITY: WebAssembly.Global;
  OUT: WebAssembly.Global;
  SLOTS: WebAssembly.Global;
}

/** One instantiated kernel module, its memory, and the key slots in it. */
export class WasmKernels<E extends KernelExports> {
  readonly exports: E;
  /** Offset and size of the input area, and offset of the result. */
  readonly msg: number;
  readonly msgCapacity: number;
  readonly out: number;
  readonly slotSize: number;
  private nextSlot: number;
  private readonly free: number[] = [];
  /** Slots handed out and not yet released. */
  private live = 0;
  /** At most this many live slots (see MAX_LIVE_SLOTS); tests may lower it. */
  maxLive = MAX_LIVE_SLOTS;
  private view: Uint8Array;
  private wordView: Int32Array;
  private readonly registry = new FinalizationRegistry<number>((slot) => this.release(slot));

  constructor(exports: E, slotSize: number) {
    this.exports = exports;
    this.slotSize = slotSize;
    this.msg = exports.MSG.value;
    this.msgCapacity = exports.MSG_CAPACITY.value;
    this.out = exports.OUT.value;
    this.nextSlot = exports.SLOTS.value;
    this.view = new Uint8Array(exports.memory.buffer);
    this.wordView = new Int32Array(exports.memory.buffer);
  }

  /**
   * The module's memory as bytes (a new view after the memory grows). memory.grow detaches the old
   * buffer, and a detached view has length 0: cheaper to test than reading `memory.buffer`.
   */
  bytes(): Uint8Array {
    if (this.view.length === 0) this.renewViews();
    return this.view;
  }

  /** The memory as 32-bit words (a new view after the memory grows). */
  words(): Int32Array {
    if (this.wordView.length === 0) this.renewViews();
    return this.wordView;
  }

  /** New views on the memory's current buffer (`length`, not `byteLength`: V8 inlines it). */
  private renewViews(): void {
    this.view = new Uint8Array(this.exports.memory.buffer);
    this.wordView = new Int32Array(this.exports.memory.buffer);
  }

  /**
   * A zeroed key slot, released (and zeroed) when `owner` is collected unless freed first; or 0
   * when `maxLive` slots are live, and the caller takes a kernel that needs none.
   */
  allocate(owner: object): number {
    if (this.live >= this.maxLive) return 0;
    this.live++;
    let slot = this.free.pop();
    if (slot === undefined) {
      slot = this.nextSlot;
      this.nextSlot += this.slotSize;
      const needed = this.nextSlot - this.exports.memory.buffer.byteLength;
      if (needed > 0) this.exports.memory.grow(Math.ceil(needed / 65536));
    }
    this.registry.register(owner, slot, owner);
    return slot;
  }

  /** Zeroes the slot and makes it reusable. */
  release(slot: number, owner?: object): void {
    this.bytes().fill(0, slot, slot + this.slotSize);
    if (owner !== undefined) this.registry.unregister(owner);
    this.free.push(slot);
    this.live--;
  }

  /** Copies `length` result bytes from OUT into `out`, then zeroes OUT and the first `inputLength` bytes of MSG. */
  takeOut(out: Uint8Array, length: number, inputLength: number): void {
    const memory = this.bytes();
    const at = this.out;
    for (let i = 0; i < length; i++) out[i] = memory[at + i];
    memory.fill(0, at, at + length);
    memory.fill(0, this.msg, this.msg + inputLength);
  }
}

redactKeyMaterial(WasmKernels);

/** True when this runtime validates WebAssembly SIMD (a module using one v128 instruction). */
export const wasmSimd: boolean = (() => {
  if (typeof WebAssembly !== "object") return false;
  // (module (func (result v128) v128.const i64x2 0 0))
  const probe = new Uint8Array([
    0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 22, 1, 20, 0, 253, 12, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 11,
  ]);
  try {
    return WebAssembly.validate(probe);
  } catch {
    return false;
  }
})();

/**
 * A module loader: the module (or a family's JavaScript side over it), or undefined where it
 * cannot serve. `pending` is true while a compile the runtime refused to do synchronously runs in
 * the background: a caller that asks again later may then get the module.
 */
export interface Loader<W> {
  (): W | undefined;
  readonly pending: boolean;
}

/**
 * A loader for one kernel module: instantiated on the first call, then cached. Returns undefined
 * where WebAssembly is unavailable, the compile is refused, or KEYED_BACKEND=js is set.
 */
export function kernelLoader<E extends KernelExports>(
  base64: string,
  slotSize: number,
): Loader<WasmKernels<E>> {
  let loaded: WasmKernels<E> | undefined | null = null;
  let pending = false;
  const load = () => {
    if (loaded !== null) return loaded;
    loaded = undefined;
    if (FORCED_BACKEND === "js" || typeof WebAssembly !== "object") return undefined;
    const bytes = base64ToBytes(base64) as Uint8Array<ArrayBuffer>;
    const imports = { env: { abort: () => {} } };
    try {
      const module = new WebAssembly.Module(bytes);
      const instance = new WebAssembly.Instance(module, imports);
      loaded = new WasmKernels(instance.exports as unknown as E, slotSize);
    } catch {
      // No WebAssembly SIMD (the TypeScript kernels serve), or a runtime that refuses synchronous
      // compilation of modules this large (Chrome's main thread, over 4 KiB): compile in the
      // background, and callers that ask again once it is done get the module. Nothing waits.
      pending = true;
      WebAssembly.instantiate(bytes, imports).then(
        ({ instance }) => {
          loaded = new WasmKernels(instance.exports as unknown as E, slotSize);
          pending = false;
        },
        () => {
          pending = false;
        },
      );
    }
    return loaded;
  };
  return Object.defineProperty(load, "pending", { get: () => pending }) as Loader<WasmKernels<E>>;
}

/**
 * A family's JavaScript side over its module, made once the module loads and cached from then on.
 * While the module is absent the loader is asked again (it answers from its own cache), so a
 * module Chrome compiles in the background is picked up once ready.
 */
export function wrappedLoader<E extends KernelExports, W>(
  load: Loader<WasmKernels<E>>,
  wrap: (kernels: WasmKernels<E>) => W,
): Loader<W> {
  let wrapped: W | undefined;
  const get = () => {
    if (wrapped === undefined) {
      const kernels = load();
      if (kernels !== undefined) wrapped = wrap(kernels);
    }
    return wrapped;
  };
  return Object.defineProperty(get, "pending", { get: () => load.pending }) as Loader<W>;
}

/**
 * Copies are the glue's largest fixed cost for short inputs. `set` is a call into a builtin: about
 * 15 ns whatever the length (about 35 ns when the source needs a `subarray` view first), while a
 * JavaScript loop costs one to two nanoseconds a byte (AMD EPYC and Intel Xeon, Node 20). So a loop
 * serves up to these lengths, `set` and `fill` past them.
 */
const LOOP_COPY = 8;
const LOOP_COPY_VIEW = 16;
const LOOP_ZERO = 16;

/** memory[at ..) = data[from .. from + length). */
export function copyIn(
  memory: Uint8Array,
  at: number,
  data: Uint8Array,
  from: number,
  length: number,
): void {
  const whole = from === 0 && length === data.length;
  if (length <= (whole ? LOOP_COPY : LOOP_COPY_VIEW)) {
    for (let i = 0; i < length; i++) memory[at + i] = data[from + i];
  } else {
    setBytes(memory, whole ? data : data.subarray(from, from + length), at);
  }
}

/** out[offset ..) = memory[at .. at + length). */
export function copyOutOf(
  memory: Uint8Array,
  at: number,
  out: Uint8Array,
  offset: number,
  length: number,
): void {
  if (length <= LOOP_COPY_VIEW) for (let i = 0; i < length; i++) out[offset + i] = memory[at + i];
  else setBytes(out, memory.subarray(at, at + length), offset);
}

/** Zeroes memory[at .. at + length). */
export function zeroIn(memory: Uint8Array, at: number, length: number): void {
  if (length <= LOOP_ZERO) for (let i = 0; i < length; i++) memory[at + i] = 0;
  else memory.fill(0, at, at + length);
}

/**
 * Moves `length` bytes (a multiple of 4) from module memory at byte offset `from` (word-aligned) to
 * out[offset ..), a word at a time, zeroing the memory behind: WebAssembly memory is little-endian,
 * so each word's bytes go out low first. Three times faster than a byte loop for tags and digests.
 */
export function moveWordsOut(
  words: Int32Array,
  from: number,
  out: Uint8Array,
  offset: number,
  length: number,
): void {
  for (let i = 0, w = from >> 2; i < length; i += 4, w++) {
    const word = words[w];
    words[w] = 0;
    out[offset + i] = word;
    out[offset + i + 1] = word >>> 8;
    out[offset + i + 2] = word >>> 16;
    out[offset + i + 3] = word >>> 24;
  }
}
