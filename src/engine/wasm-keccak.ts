/**
 * The Keccak WebAssembly kernel (src/engine/wasm/assembly/keccak.ts): Keccak-f[1600] on native
 * 64-bit lanes and the sponge around it (FIPS 202). KMAC keeps its prepared states and its stream
 * states in key slots; keyed's Keccak sponge (SHA-3, SHAKE, cSHAKE, TupleHash, HMAC-SHA3) keeps its
 * state in JavaScript and passes it through the STATE area for each absorb or permutation.
 *
 * A sponge here is a state pointer (a slot, or STATE) and the byte position in the current block,
 * which the caller keeps: positions and lengths are public, so they may steer the JavaScript side.
 */
import { WASM_BASE64 } from "./wasm/generated/keccak.js";
import { copyIn, type KernelExports, kernelLoader, type WasmKernels, zeroIn } from "./wasm.js";

export interface KeccakExports extends KernelExports {
  /** 200 bytes that stay zero: the initial state. */
  ZERO: WebAssembly.Global;
  /** Scratch state for one call, zero at rest. */
  STATE: WebAssembly.Global;
  OUT_CAPACITY: WebAssembly.Global;
  permute(state: number): void;
  /** Absorbs MSG[0..length) from byte `pos` of the block; returns the new position. */
  absorb(state: number, pos: number, length: number, rate: number): number;
  pad(state: number, pos: number, rate: number, suffix: number): void;
  /** Squeezes `length` ≤ OUT_CAPACITY bytes to OUT from byte `pos`; returns the new position. */
  squeeze(state: number, pos: number, rate: number, length: number): number;
  /** Copies `source` to STATE, absorbs MSG[0..length), pads, squeezes to OUT, wipes STATE. */
  tag(source: number, length: number, rate: number, suffix: number, outputLength: number): void;
}

/** Bytes of one Keccak state, and of one key slot. */
export const KECCAK_STATE_BYTES = 200;

export type WasmKeccak = WasmKernels<KeccakExports>;

const load = kernelLoader<KeccakExports>(WASM_BASE64, KECCAK_STATE_BYTES);

/** Offsets read once from the module's globals (a Global's `value` is slow to read per call). */
export const keccakLayout = { zero: 0, state: 0, outCapacity: 0 };

/** The Keccak kernels, or undefined where WebAssembly is unavailable or KEYED_BACKEND=js. */
export function wasmKeccak(): WasmKeccak | undefined {
  const wasm = load();
  if (wasm !== undefined && keccakLayout.state === 0) {
    keccakLayout.zero = wasm.exports.ZERO.value;
    keccakLayout.state = wasm.exports.STATE.value;
    keccakLayout.outCapacity = wasm.exports.OUT_CAPACITY.value;
  }
  return wasm;
}

/**
 * Absorbs data[offset..end) into the sponge at `state` through MSG, at most MSG_CAPACITY bytes per
 * call, zeroing MSG after each. Returns the new position in the block.
 */
export function absorbInWasm(
  wasm: WasmKeccak,
  state: number,
  pos: number,
  rate: number,
  data: Uint8Array,
  offset = 0,
  end = data.length,
): number {
  const absorb = wasm.exports.absorb;
  const msg = wasm.msg;
  while (offset < end) {
    const n = Math.min(wasm.msgCapacity, end - offset);
    const memory = wasm.bytes();
    copyIn(memory, msg, data, offset, n);
    pos = absorb(state, pos, n, rate);
    zeroIn(memory, msg, n);
    offset += n;
  }
  return pos;
}

/**
 * Pads the sponge at `state` with the domain bits `suffix` and squeezes `length` bytes into
 * `out` through OUT (zeroed after each piece). The state is left squeezed: the caller wipes it.
 */
export function finishInWasm(
  wasm: WasmKeccak,
  state: number,
  pos: number,
  rate: number,
  suffix: number,
  out: Uint8Array,
  length: number,
): void {
  const { pad, squeeze } = wasm.exports;
  pad(state, pos, rate, suffix);
  pos = 0;
  for (let done = 0; done < length; ) {
    const n = Math.min(keccakLayout.outCapacity, length - done);
    pos = squeeze(state, pos, rate, n);
    wasm.takeOut(done === 0 ? out : out.subarray(done), n, 0);
    done += n;
  }
}

let stateView: Int32Array | undefined;

/** STATE as 50 little-endian 32-bit words, the layout of keyed's JavaScript Keccak state. */
function stateWords(wasm: WasmKeccak): Int32Array {
  const buffer = wasm.exports.memory.buffer;
  if (stateView === undefined || stateView.buffer !== buffer)
    stateView = new Int32Array(buffer, keccakLayout.state, 50);
  return stateView;
}

/** Keccak-f[1600] on a JavaScript state (50 words, low word first), through STATE. */
export function permuteWords(wasm: WasmKeccak, words: Int32Array): void {
  const view = stateWords(wasm);
  view.set(words);
  wasm.exports.permute(keccakLayout.state);
  words.set(view);
  view.fill(0);
}

/** Absorbs data[offset..end) into a JavaScript state through STATE; returns the new position. */
export function absorbWords(
  wasm: WasmKeccak,
  words: Int32Array,
  pos: number,
  rate: number,
  data: Uint8Array,
  offset: number,
  end: number,
): number {
  const view = stateWords(wasm);
  view.set(words);
  pos = absorbInWasm(wasm, keccakLayout.state, pos, rate, data, offset, end);
  // absorbInWasm never grows the memory, so the view is still current.
  words.set(view);
  view.fill(0);
  return pos;
}
