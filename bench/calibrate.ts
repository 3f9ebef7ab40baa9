/**
 * `npm run bench -- --calibrate` (or `node --import tsx bench/calibrate.ts`): measures, per
 * algorithm family, keyed's own kernels against node:crypto at growing input sizes and prints the
 * crossovers for NATIVE_CROSSOVER in src/engine/select.ts. keyed's kernels are forced with
 * KEYED_BACKEND=js (the script re-runs itself with it); node:crypto is called directly.
 */
import { execFileSync } from "node:child_process";
import { createCipheriv, createHmac, createSecretKey } from "node:crypto";
import { fileURLToPath } from "node:url";
import { mac } from "../src/index.js";

if (process.env.KEYED_BACKEND !== "js") {
  execFileSync(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url)], {
    env: { ...process.env, KEYED_BACKEND: "js" },
    stdio: "inherit",
  });
  process.exit(0);
}

const SIZES = [16, 32, 64, 128, 256, 512, 1024, 2048, 4096];

/** Median ns per call over a few timed batches of ~20 ms. */
function time(fn: () => unknown): number {
  for (let i = 0; i < 2000; i++) fn();
  const samples: number[] = [];
  for (let s = 0; s < 7; s++) {
    let n = 0;
    const start = performance.now();
    while (performance.now() - start < 20) {
      for (let i = 0; i < 50; i++) fn();
      n += 50;
    }
    samples.push(((performance.now() - start) * 1e6) / n);
  }
  return samples.sort((a, b) => a - b)[3];
}

const key32 = new Uint8Array(32).fill(7);
const key16 = key32.subarray(0, 16);
const nonce = new Uint8Array(12);
const families: [string, (m: Uint8Array) => () => unknown, (m: Uint8Array) => () => unknown][] = [];
for (const [family, hash] of [
  ["hmac-sha1", "sha1"],
  ["hmac-sha256", "sha256"],
  ["hmac-sha512", "sha512"],
  ["hmac-sha3", "sha3-256"],
] as const) {
  const ours = mac(`hmac-${hash}` as "hmac-sha256", key32);
  const k = createSecretKey(key32);
  families.push([
    family,
    (m) => () => ours.tag(m),
    (m) => () => createHmac(hash, k).update(m).digest(),
  ]);
}
{
  const ours = mac("cmac-aes128", key16);
  const k = createSecretKey(key16);
  families.push([
    "cmac",
    (m) => () => ours.tag(m),
    (m) => () => {
      const c = createCipheriv("aes-128-cbc", k, new Uint8Array(16)).setAutoPadding(false);
      c.update(
        m.length % 16 === 0 && m.length > 0
          ? m
          : new Uint8Array(16 * Math.ceil((m.length + 1) / 16)),
      );
      return c.final();
    },
  ]);
}
{
  const ours = mac("gmac-aes128", key16);
  const k = createSecretKey(key16);
  families.push([
    "gmac",
    (m) => () => ours.tag(m),
    (m) => () => {
      const c = createCipheriv("aes-128-gcm", k, nonce);
      c.setAAD(m);
      c.final();
      return c.getAuthTag();
    },
  ]);
}
{
  const ours = mac("chacha20-poly1305", key32);
  const k = createSecretKey(key32);
  families.push([
    "chacha20-poly1305",
    (m) => () => ours.tag(m),
    (m) => () => {
      const c = createCipheriv("chacha20-poly1305", k, nonce, { authTagLength: 16 });
      c.setAAD(m, { plaintextLength: 0 });
      c.final();
      return c.getAuthTag();
    },
  ]);
}

console.log(`| family | ${SIZES.map((s) => `${s} B js/native`).join(" | ")} | crossover |`);
console.log(`|---|${SIZES.map(() => "---:").join("|")}|---:|`);
for (const [family, js, native] of families) {
  const cells: string[] = [];
  let crossover: number | undefined;
  for (const size of SIZES) {
    const m = new Uint8Array(size).fill(1);
    const a = time(js(m));
    const b = time(native(m));
    cells.push(`${(a / 1000).toFixed(2)}/${(b / 1000).toFixed(2)} µs`);
    if (crossover === undefined && b < a) crossover = size;
  }
  console.log(`| ${family} | ${cells.join(" | ")} | ${crossover ?? `> ${SIZES.at(-1)}`} |`);
}
