/**
 * The browser build's stand-in for wasm-built-in.ts (package.json `browser` field): no
 * WebAssembly kernels unless `import "keyed/wasm"` provides them; the TypeScript kernels serve.
 */
import type { WasmFamilies } from "./wasm-all.js";

export const BUILT_IN: Partial<WasmFamilies> = {};
