/**
 * The module loader's `pending` state (engine/wasm.ts): true while a module the runtime would not
 * compile synchronously compiles in the background (Chrome's main thread refuses modules over
 * 4 KiB), so that kernels made meanwhile (HMAC's) keep asking and move to WebAssembly once it is
 * ready; false once that compile has failed too. A module no runtime accepts stands in here.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { bytesToBase64 } from "../../src/core/bytes.js";
import { FORCED_BACKEND } from "../../src/engine/native.js";
import { kernelLoader } from "../../src/engine/wasm.js";
import { loadWasmHmac, wasmHmac } from "../../src/engine/wasm-hmac.js";

describe("kernelLoader", () => {
  it("is pending while a refused synchronous compile is retried in the background", async () => {
    if (FORCED_BACKEND === "js") return;
    // The magic number with a wrong version: refused synchronously and asynchronously alike.
    const bogus = bytesToBase64(Uint8Array.of(0, 97, 115, 109, 9, 0, 0, 0));
    const load = kernelLoader(bogus, 16);
    assert.equal(load.pending, false, "nothing asked yet");
    assert.equal(load(), undefined);
    assert.equal(load.pending, true, "compiling in the background");
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(load.pending, false, "the background compile failed too");
    assert.equal(load(), undefined);
  });

  it("a module that compiles is never pending, and its wrapped loader says the same", () => {
    if (FORCED_BACKEND === "js") return;
    assert.ok(wasmHmac());
    assert.equal(wasmHmac.pending, false);
    assert.ok(loadWasmHmac());
    assert.equal(loadWasmHmac.pending, false);
  });
});
