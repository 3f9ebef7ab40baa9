/**
 * The engine: backend selection, and byte-identical results across backends. The vector and
 * property suites also run once per backend (see the "test" script); this file compares the
 * backends directly, in two processes.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { describe, it } from "node:test";
import { FORCED_BACKEND, nativeCrypto } from "../../src/engine/native.js";
import { NATIVE_CROSSOVER, useNative } from "../../src/engine/select.js";
import { mac } from "../../src/index.js";
import { toHex } from "../helpers.js";

/** Tags over long and short messages with every natively accelerated family; nonces fixed by re-verifying. */
const SCRIPT = `
import { mac } from "./src/index.ts";
const key = new Uint8Array(32).map((_, i) => i + 1);
const out = {};
for (const name of ["hmac-sha1", "hmac-sha256", "hmac-sha512", "hmac-sha3-256", "cmac-aes128", "cmac-aes256"]) {
  const k = name.startsWith("cmac-aes128") ? key.subarray(0, 16) : key;
  for (const n of [0, 15, 16, 17, 255, 256, 4096, 100001]) {
    const m = new Uint8Array(n).map((_, i) => (i * 7) & 255);
    const s = mac(name, k).stream();
    for (let i = 0; i < n; i += 777) s.update(m.subarray(i, i + 777));
    out[name + ":" + n] = [Buffer.from(mac(name, k).tag(m)).toString("hex"), Buffer.from(s.digest()).toString("hex")];
  }
}
console.log(JSON.stringify(out));
`;

function tagsUnder(backend: string): Record<string, [string, string]> {
  const stdout = execFileSync(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", SCRIPT],
    {
      env: { ...process.env, KEYED_BACKEND: backend },
      encoding: "utf8",
    },
  );
  return JSON.parse(stdout);
}

describe("engine", () => {
  it("selects node:crypto only from the measured crossover on, unless a backend is forced", () => {
    if (FORCED_BACKEND === "js" || FORCED_BACKEND === "wasm") {
      assert.equal(nativeCrypto, undefined);
      assert.equal(useNative("hmac-sha256", 1 << 20), false);
    } else if (FORCED_BACKEND === "native") {
      assert.equal(useNative("hmac-sha256", 0), true);
    } else {
      assert.ok(nativeCrypto, "node:crypto is reachable through process.getBuiltinModule");
      assert.equal(useNative("hmac-sha256", NATIVE_CROSSOVER["hmac-sha256"] - 1), false);
      assert.equal(useNative("hmac-sha256", NATIVE_CROSSOVER["hmac-sha256"]), true);
    }
  });
  it("js, wasm and native backends give byte-identical tags, one-shot and streamed", () => {
    const js = tagsUnder("js");
    const native = tagsUnder("native");
    const wasm = tagsUnder("wasm");
    assert.ok(Object.keys(js).length >= 48);
    for (const [name, [oneShot, streamed]] of Object.entries(js)) {
      assert.equal(oneShot, streamed, `${name}: js stream`);
      assert.deepEqual(native[name], [oneShot, streamed], `${name}: native`);
      assert.deepEqual(wasm[name], [oneShot, streamed], `${name}: wasm`);
    }
    // And this process (auto selection) agrees too.
    const m = mac(
      "hmac-sha256",
      new Uint8Array(32).map((_, i) => i + 1),
    );
    const long = new Uint8Array(100001).map((_, i) => (i * 7) & 255);
    assert.equal(toHex(m.tag(long)), js["hmac-sha256:100001"][0]);
  });
});

describe("wasm backend", () => {
  it("wipes key material from WebAssembly memory on destroy", async () => {
    const { wasmHmac, HMAC_SLOT_SIZE: SLOT_SIZE } = await import("../../src/engine/wasm-hmac.js");
    const wasm = wasmHmac();
    // KEYED_BACKEND=js has no wasm memory to scan; KEYED_BACKEND=native never loads a key slot.
    if (wasm === undefined || FORCED_BACKEND === "native") return;
    const key = new Uint8Array(32).map((_, i) => 0xa0 + i);
    const m = mac("hmac-sha256", key);
    // The key slot is set up on the second short message (one-shot use stays cheap).
    m.tag(new Uint8Array(16));
    m.tag(new Uint8Array(16));
    const kernel = (m as unknown as { kernel: { core: { ownSlot: number } } }).kernel;
    const slot = kernel.core.ownSlot;
    const memory = wasm.bytes();
    const slotBytes = memory.slice(slot, slot + 64);
    assert.ok(
      slotBytes.some((b) => b !== 0),
      "the slot holds the prepared states",
    );
    m.tag(new Uint8Array(16));
    m.destroy();
    const after = wasm.bytes();
    assert.ok(
      after.subarray(slot, slot + SLOT_SIZE).every((b) => b === 0),
      "the slot is zeroed",
    );
    // Nowhere else in the module's memory do the key-derived states remain, nor the key itself.
    const find = (needle: Uint8Array) => Buffer.from(after).indexOf(Buffer.from(needle));
    assert.equal(find(slotBytes.subarray(0, 32)), -1, "inner state");
    assert.equal(find(slotBytes.subarray(32, 64)), -1, "outer state");
    assert.equal(find(key), -1, "key");
  });
});
