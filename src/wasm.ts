/**
 * `import "keyed/wasm"`: adds keyed's WebAssembly kernels to a browser bundle (about 100 KB of
 * base64 and glue). Node, Deno and Bun always carry them, and a browser bundle without this
 * import computes every tag with the TypeScript kernels: the same tags, more slowly on long
 * messages (docs/bundle-size.md has the figures). Import it once, before the first key is made;
 * keys made earlier keep the TypeScript kernels.
 */
import { WASM_FAMILIES } from "./engine/wasm-all.js";
import { provideWasmFamilies } from "./engine/wasm-families.js";

provideWasmFamilies(WASM_FAMILIES);

/** The WebAssembly kernel families this import provides ("aes", "blake3", "hmac", ...). */
export const WASM_KERNELS: readonly string[] = Object.freeze(Object.keys(WASM_FAMILIES));
