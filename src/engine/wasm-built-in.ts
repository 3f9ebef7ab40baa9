/**
 * The WebAssembly kernels a build carries without being asked: all of them. A browser bundler
 * reads package.json's `browser` field and takes wasm-built-in.browser.ts instead, which carries
 * none (about 100 KB of base64 and glue a bundle would otherwise always hold); `import
 * "keyed/wasm"` adds them back. Node, Deno and Bun ignore the `browser` field.
 */
import { WASM_FAMILIES, type WasmFamilies } from "./wasm-all.js";

export const BUILT_IN: Partial<WasmFamilies> = WASM_FAMILIES;
