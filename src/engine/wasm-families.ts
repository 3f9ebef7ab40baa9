/**
 * Where the primitives find the WebAssembly kernels: one entry per family, the glue module of
 * engine/wasm-<family>.ts, or nothing when this build carries no WebAssembly for the family (a
 * browser bundle that did not `import "keyed/wasm"`), and the TypeScript kernels serve. Asked
 * for each new key or state, never cached by the caller, so kernels provided after a module
 * was loaded serve from the next key on.
 */
import type { WasmFamilies } from "./wasm-all.js";
import { BUILT_IN } from "./wasm-built-in.js";

const families: Partial<WasmFamilies> = { ...BUILT_IN };

/** The glue of `family`'s WebAssembly kernels, or undefined where this build carries none. */
export function wasmFamily<F extends keyof WasmFamilies>(family: F): WasmFamilies[F] | undefined {
  return families[family];
}

/** Adds WebAssembly kernel families (what `import "keyed/wasm"` does). */
export function provideWasmFamilies(more: Partial<WasmFamilies>): void {
  Object.assign(families, more);
}
