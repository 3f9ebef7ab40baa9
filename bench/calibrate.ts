/**
 * `npm run bench -- --calibrate` (or `node --import tsx bench/calibrate.ts`): measures, per
 * family of src/engine/select.ts, keyed's own kernels (KEYED_BACKEND=wasm: WebAssembly where a
 * kernel exists, TypeScript elsewhere) against keyed on node:crypto (KEYED_BACKEND=native), each
 * through the public `mac(…).tag()` so the wrapper's cost is in both, and prints the crossovers
 * for NATIVE_CROSSOVER. Each backend runs in child processes of its own, three rounds of pairs per
 * family; every cell keeps its fastest round (noise only ever adds time).
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { NativeFamily } from "../src/engine/select.js";
import { chacha20poly1305 } from "../src/hazmat.js";
import { type MacName, mac } from "../src/index.js";

const SIZES = [16, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768];

/** The algorithm whose tag stands for each family ("aead": the ChaCha20-Poly1305 AEAD's seal). */
const FAMILIES: Record<NativeFamily, MacName | "aead"> = {
  "hmac-sha1": "hmac-sha1",
  "hmac-sha256": "hmac-sha256",
  "hmac-sha512": "hmac-sha512",
  "hmac-sha3": "hmac-sha3-256",
  "cmac-aes128": "cmac-aes128",
  "cmac-aes192": "cmac-aes192",
  "cmac-aes256": "cmac-aes256",
  gmac: "gmac-aes128",
  "chacha20-poly1305": "chacha20-poly1305",
  "chacha20-poly1305-aead": "aead",
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

/** In a child: ns per tag for one family at every size, under the inherited KEYED_BACKEND. */
function measureAll(family: NativeFamily): number[] {
  const name = FAMILIES[family];
  const aesBits = /-aes(128|192|256)$/.exec(name)?.[1];
  const key = new Uint8Array(aesBits === undefined ? 32 : Number(aesBits) / 8).fill(7);
  if (name === "aead") {
    const nonce = new Uint8Array(12).fill(1);
    return SIZES.map((size) => {
      const plaintext = new Uint8Array(size).fill(1);
      return time(() => chacha20poly1305(key, nonce).seal(plaintext));
    });
  }
  const prepared = mac(name, key);
  return SIZES.map((size) => {
    const message = new Uint8Array(size).fill(1);
    return time(() => prepared.tag(message));
  });
}

function inChild(backend: "wasm" | "native", family: NativeFamily): number[] {
  const stdout = execFileSync(
    process.execPath,
    ["--import", "tsx", fileURLToPath(import.meta.url), `--measure=${family}`],
    { env: { ...process.env, KEYED_BACKEND: backend }, encoding: "utf8" },
  );
  return JSON.parse(stdout) as number[];
}

/** Rounds of (own, native) child pairs per family; each cell keeps its fastest round. */
const ROUNDS = 3;

const job = process.argv.find((a) => a.startsWith("--measure="));
if (job !== undefined) {
  process.stdout.write(JSON.stringify(measureAll(job.slice("--measure=".length) as NativeFamily)));
} else {
  console.log(`| family | ${SIZES.map((s) => `${s} B own/native`).join(" | ")} | crossover |`);
  console.log(`|---|${SIZES.map(() => "---:").join("|")}|---:|`);
  for (const family of Object.keys(FAMILIES) as NativeFamily[]) {
    let own = SIZES.map(() => Infinity);
    let native = SIZES.map(() => Infinity);
    for (let round = 0; round < ROUNDS; round++) {
      const a = inChild("wasm", family);
      const b = inChild("native", family);
      own = own.map((x, i) => Math.min(x, a[i]));
      native = native.map((x, i) => Math.min(x, b[i]));
    }
    const cells = SIZES.map(
      (_, i) => `${(own[i] / 1000).toFixed(2)}/${(native[i] / 1000).toFixed(2)} µs`,
    );
    // The first size from which node:crypto stays faster at every larger size.
    let crossover: number | undefined;
    for (let i = SIZES.length - 1; i >= 0 && native[i] < own[i]; i--) crossover = SIZES[i];
    console.log(`| ${family} | ${cells.join(" | ")} | ${crossover ?? `> ${SIZES.at(-1)}`} |`);
  }
}
