/**
 * Keys dropped without destroy(): FinalizationRegistry never runs inside a synchronous loop and
 * WebAssembly memory never shrinks, so without a cap on live key slots 300,000 BLAKE3 keys left
 * 576 MB behind. Each family runs in a child process (a fresh module memory), makes many keys,
 * uses each twice (the second use is where a key takes its own slot) and drops it; the module's
 * memory must stay under a bound, and tags past the cap must still be right.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const src = (path: string) => fileURLToPath(new URL(`../../src/${path}`, import.meta.url));
const MiB = 1024 * 1024;

/** Runs `body` in a child with `mac`, the loaders and node:crypto in scope; returns its JSON. */
function child(body: string): Record<string, number> {
  const script = `
    import { createHmac, createCipheriv } from "node:crypto";
    import { mac } from ${JSON.stringify(src("index.ts"))};
    import { wasmHmac } from ${JSON.stringify(src("engine/wasm-hmac.ts"))};
    import { wasmBlake3 } from ${JSON.stringify(src("engine/wasm-blake3.ts"))};
    import { wasmAes } from ${JSON.stringify(src("engine/wasm-aes.ts"))};
    import { wasmKeccak } from ${JSON.stringify(src("engine/wasm-keccak.ts"))};
    import { wasmPoly1305 } from ${JSON.stringify(src("engine/wasm-poly1305.ts"))};
    import { wasmSipHash } from ${JSON.stringify(src("engine/wasm-siphash.ts"))};
    const keyOf = (i, n) => { const k = new Uint8Array(n).fill(0x5a); new DataView(k.buffer).setUint32(0, i); return k; };
    const msg = new Uint8Array(100).fill(3);
    const hex = (b) => Buffer.from(b).toString("hex");
    const result = {};
    ${body}
    process.stdout.write(JSON.stringify(result));
  `;
  const run = spawnSync(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", script],
    { encoding: "utf8", env: { ...process.env, KEYED_BACKEND: "" }, maxBuffer: MiB },
  );
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

const wasmOnly = typeof WebAssembly !== "object" || process.env.KEYED_BACKEND === "js";

describe("live WebAssembly key slots are capped", {
  skip: wasmOnly && "no WebAssembly backend",
}, () => {
  it("300,000 BLAKE3 keys used twice and dropped: module memory under 16 MiB, tags right", () => {
    const r = child(`
      let last;
      for (let i = 0; i < 300000; i++) { const m = mac("blake3", keyOf(i, 32)); m.tag(msg); last = m.tag(msg); }
      const again = mac("blake3", keyOf(299999, 32));
      result.right = hex(again.tag(msg)) === hex(last);
      const s = mac("blake3", keyOf(7, 32)).stream(); s.update(msg);
      result.streamRight = hex(s.digest()) === hex(mac("blake3", keyOf(7, 32)).tag(msg));
      result.bytes = wasmBlake3().kernels.exports.memory.buffer.byteLength;
    `);
    assert.ok(r.bytes < 16 * MiB, `BLAKE3 module memory is ${(+r.bytes / MiB).toFixed(1)} MiB`);
    assert.equal(r.right, true);
    assert.equal(r.streamRight, true);
  });

  it("300,000 HMAC-SHA256 keys: module memory under 4 MiB, tags equal node:crypto's", () => {
    const r = child(`
      let ok = true;
      for (let i = 0; i < 300000; i++) {
        const k = keyOf(i, 32), m = mac("hmac-sha256", k); m.tag(msg); const t = m.tag(msg);
        if (i % 50000 === 49999) ok &&= hex(t) === createHmac("sha256", k).update(msg).digest("hex");
      }
      result.right = ok;
      result.bytes = wasmHmac().exports.memory.buffer.byteLength;
    `);
    assert.ok(r.bytes < 4 * MiB, `HMAC module memory is ${(+r.bytes / MiB).toFixed(1)} MiB`);
    assert.equal(r.right, true);
  });

  it("100,000 CMAC and GMAC keys, with streams: AES module memory under 8 MiB, tags right", () => {
    const r = child(`
      let ok = true;
      for (let i = 0; i < 100000; i++) {
        const k = keyOf(i, 16);
        const c = mac("cmac-aes128", k); c.tag(msg); const t = c.tag(msg);
        const g = mac("gmac-aes128", k); g.tag(msg); const gt = g.tag(msg);
        if (i % 25000 === 24999) {
          const s = mac("cmac-aes128", k).stream(); s.update(msg.subarray(0, 40)); s.update(msg.subarray(40));
          ok &&= hex(s.digest()) === hex(t) && g.verify(msg, gt);
          const gs = g.stream(); gs.update(msg.subarray(0, 33)); gs.update(msg.subarray(33));
          ok &&= g.verify(msg, gs.digest());
        }
      }
      result.right = ok;
      result.bytes = wasmAes().exports.memory.buffer.byteLength;
    `);
    assert.ok(r.bytes < 8 * MiB, `AES module memory is ${(+r.bytes / MiB).toFixed(1)} MiB`);
    assert.equal(r.right, true);
  });

  it("100,000 Poly1305 streams, KMAC and SipHash keys dropped: memories bounded, tags right", () => {
    const r = child(`
      let ok = true;
      for (let i = 0; i < 100000; i++) {
        const k = keyOf(i, 32);
        mac("poly1305", k).stream().update(msg);
        const km = mac("kmac128", k); km.tag(msg); const kt = km.tag(msg);
        km.stream().update(msg);
        const sm = mac("siphash-2-4", k.subarray(0, 16)); sm.tag(msg); const st = sm.tag(msg);
        if (i % 25000 === 24999) {
          const p = mac("poly1305", k).stream(); p.update(msg);
          ok &&= mac("poly1305", k).verify(msg, p.digest());
          const ks = km.stream(); ks.update(msg.subarray(0, 60)); ks.update(msg.subarray(60));
          ok &&= hex(ks.digest()) === hex(kt);
          ok &&= hex(mac("siphash-2-4", k.subarray(0, 16)).tag(msg)) === hex(st);
        }
      }
      result.right = ok;
      result.poly = wasmPoly1305().exports.memory.buffer.byteLength;
      result.keccak = wasmKeccak().exports.memory.buffer.byteLength;
      result.sip = wasmSipHash().exports.memory.buffer.byteLength;
    `);
    for (const name of ["poly", "keccak", "sip"])
      assert.ok(+r[name] < 8 * MiB, `${name} module memory is ${(+r[name] / MiB).toFixed(1)} MiB`);
    assert.equal(r.right, true);
  });
});
