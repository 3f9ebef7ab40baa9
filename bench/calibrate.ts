/**
 * `npm run bench -- --calibrate` (or `node --import tsx bench/calibrate.ts`): measures, per
 * family of src/engine/select.ts, keyed's own kernels (KEYED_BACKEND=wasm: WebAssembly where a
 * kernel exists, TypeScript elsewhere) against keyed on node:crypto (KEYED_BACKEND=native), each
 * through the public `mac(…).tag()` so the wrapper's cost is in both, and prints the crossovers
 * for NATIVE_CROSSOVER. Each backend runs in a child process of its own, interleaved size by size.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { NativeFamily } from "../src/engine/select.js";
import { type MacName, mac } from "../src/index.js";

const SIZES = [16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384];

/** The algorithm whose tag stands for each family. */
const FAMILIES: Record<NativeFamily, MacName> = {
  "hmac-sha1": "hmac-sha1",
  "hmac-sha256": "hmac-sha256",
  "hmac-sha512": "hmac-sha512",
  "hmac-sha3": "hmac-sha3-256",
  cmac: "cmac-aes128",
  gmac: "gmac-aes128",
  "chacha20-poly1305": "chacha20-poly1305",
};

/** Median ns per call over a few timed batches of ~20 ms. */
function time(fn: () => unknown): number {
  for (let i = 0; i < 2000; i++) fn();
  const samples: number[] = [];
  for (let s = 0; s < 7; s++) {
    let n = 0;
    const start = performance.now();
    while (performance.now() - start < 20) {
      for (let i = 0; i < 10; i++) fn();
      n += 10;
    }
    samples.push(((performance.now() - start) * 1e6) / n);
  }
  return samples.sort((a, b) => a - b)[3];
}

/** In a child: ns per tag for one family at one size under the inherited KEYED_BACKEND. */
function measure(family: NativeFamily, size: number): number {
  const name = FAMILIES[family];
  const key = new Uint8Array(name.startsWith("cmac") || name.startsWith("gmac") ? 16 : 32).fill(7);
  const prepared = mac(name, key);
  const message = new Uint8Array(size).fill(1);
  return time(() => prepared.tag(message));
}

function inChild(backend: "wasm" | "native", family: NativeFamily, size: number): number {
  const stdout = execFileSync(
    process.execPath,
    ["--import", "tsx", fileURLToPath(import.meta.url), `--measure=${family}:${size}`],
    { env: { ...process.env, KEYED_BACKEND: backend }, encoding: "utf8" },
  );
  return Number(stdout);
}

const job = process.argv.find((a) => a.startsWith("--measure="));
if (job !== undefined) {
  const [family, size] = job.slice("--measure=".length).split(":");
  process.stdout.write(String(measure(family as NativeFamily, Number(size))));
} else {
  console.log(`| family | ${SIZES.map((s) => `${s} B own/native`).join(" | ")} | crossover |`);
  console.log(`|---|${SIZES.map(() => "---:").join("|")}|---:|`);
  for (const family of Object.keys(FAMILIES) as NativeFamily[]) {
    const cells: string[] = [];
    let crossover: number | undefined;
    for (const size of SIZES) {
      const own = inChild("wasm", family, size);
      const native = inChild("native", family, size);
      cells.push(`${(own / 1000).toFixed(2)}/${(native / 1000).toFixed(2)} µs`);
      if (crossover === undefined && native < own) crossover = size;
    }
    console.log(`| ${family} | ${cells.join(" | ")} | ${crossover ?? `> ${SIZES.at(-1)}`} |`);
  }
}
