/**
 * BLAKE3 keyed hashing (keyed_hash mode, 32-byte key and tag): keyed against @noble/hashes (pure
 * JS), hash-wasm and blake3-wasm (both WebAssembly; blake3-wasm is the BLAKE3 team's Rust crate).
 */
import { blake3 as nobleBlake3 } from "@noble/hashes/blake3.js";
import { create_keyed } from "blake3-wasm/dist/wasm/nodejs/blake3_js.js";
import { createBLAKE3 } from "hash-wasm";
import { wasmBlake3 } from "../src/engine/wasm-blake3.js";
import { mac } from "../src/index.js";
import {
  type BenchCase,
  checkContenders,
  consume,
  keyedRows,
  random,
  type Suite,
  tagAllocation,
} from "./harness.js";

const SIZES = [16, 64, 128, 1024, 8192, 1 << 20];

/**
 * blake3-wasm's `keyedHash(key, input)`, less its leak: it never frees the WebAssembly hasher it
 * creates (about 1.9 KB of wasm memory per call, never given back), so it is called here as it
 * calls its binding, plus `free()`.
 */
function blake3WasmKeyed(key: Uint8Array, msg: Uint8Array, out: Uint8Array): Uint8Array {
  const hasher = create_keyed(key);
  hasher.update(msg);
  hasher.digest(out);
  hasher.free();
  return out;
}

async function cases(algorithm: string): Promise<BenchCase[]> {
  if (algorithm !== "blake3") throw new Error(`blake3 suite: unknown algorithm ${algorithm}`);
  const key = random(32);
  const prepared = mac(algorithm, key);
  const out = new Uint8Array(prepared.tagLength);
  // noble has no reset: copy the keyed state into one working instance per tag, as for HMAC.
  const nobleBase = nobleBlake3.create({ key });
  const nobleWork = nobleBase.clone();
  const nobleOut = new Uint8Array(32);
  // Asynchronous to create (it instantiates its WebAssembly module); `init()` resets it to the key.
  const hashWasm = await createBLAKE3(256, key);
  const wasmOut = new Uint8Array(32);

  const built: BenchCase[] = [];
  for (const size of SIZES) {
    const msg = random(size);
    const c: BenchCase = {
      algorithm,
      size,
      contenders: [
        ...keyedRows(algorithm, key, prepared, out, msg, true),
        { name: "noble", kind: "one-shot", fn: () => consume(nobleBlake3(msg, { key })) },
        {
          name: "noble",
          kind: "prepared",
          fn: () => {
            nobleBase._cloneInto(nobleWork).update(msg).digestInto(nobleOut);
            consume(nobleOut);
          },
        },
        {
          name: "hash-wasm",
          kind: "prepared",
          fn: () => consume(hashWasm.init().update(msg).digest("binary")),
        },
        {
          name: "blake3-wasm",
          kind: "one-shot",
          fn: () => consume(blake3WasmKeyed(key, msg, wasmOut)),
        },
      ],
    };
    checkContenders(c, blake3WasmKeyed(key, msg, new Uint8Array(32)), "blake3-wasm");
    built.push(c);
  }
  return built;
}

export const blake3Suite: Suite = {
  name: "blake3",
  algorithms: ["blake3"],
  cases,
  allocation: () => tagAllocation("blake3", 32),
  notes: [
    ...(wasmBlake3() === undefined
      ? ["The keyed rows run keyed's TypeScript kernel (no WebAssembly in this run)."]
      : [
          "The keyed rows run keyed's WebAssembly kernel (src/engine/wasm/assembly/blake3.ts: one",
          "block in scalar code with the state in sixteen locals, four chunks at once one per i32x4 lane). A one-shot",
          "tag borrows the module's transient state; a prepared key has its own slot from its second",
          "message on.",
        ]),
    '32-byte key and tag. "noble prepared" copies a keyed `blake3.create({ key })` state into one',
    "working instance per tag (`_cloneInto`). hash-wasm's hasher is created once, before timing",
    "(`createBLAKE3(256, key)` is asynchronous), and reset per tag with `init()`, which writes the",
    "key back into its WebAssembly memory. blake3-wasm 2.1.5 (its WebAssembly build; no native",
    "addon is installed) has no reusable keyed state, and its `keyedHash(key, input)` never frees",
    "the hasher it creates (about 1.9 KB of WebAssembly memory lost per call, enough to exhaust its",
    "heap in a benchmark), so its row makes the same binding calls (`create_keyed`, `update`,",
    "`digest`) and then `free()`.",
  ].join("\n"),
};
