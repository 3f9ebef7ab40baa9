/**
 * Every WebAssembly kernel family's glue (engine/wasm-<family>.ts, each with its module's bytes),
 * in one object: what engine/wasm-built-in.ts gives a Node, Deno or Bun build, and what
 * `import "keyed/wasm"` adds to a browser bundle.
 */
import * as aes from "./wasm-aes.js";
import * as blake3 from "./wasm-blake3.js";
import * as chacha20 from "./wasm-chacha20.js";
import * as hmac from "./wasm-hmac.js";
import * as keccak from "./wasm-keccak.js";
import * as poly1305 from "./wasm-poly1305.js";
import * as siphash from "./wasm-siphash.js";

export const WASM_FAMILIES = { aes, blake3, chacha20, hmac, keccak, poly1305, siphash };

/** The glue of each WebAssembly kernel family, by family. */
export type WasmFamilies = typeof WASM_FAMILIES;
