/**
 * `keyed tag -a blake3` on one large file, on one thread (`-j 1`) and on every core (`-j N`),
 * interleaved: `node --import tsx bench/blake3-parallel.ts [--size 1G] [--rounds 5] [--threads N]`.
 *
 * Writes a file of random bytes to a temporary directory (deleted at the end), runs the built
 * command (dist/: `npm run build` first) on it alternately with one thread and with N, and prints
 * each pair's wall times, the load average before it, and the speedup: of the whole command, and
 * with the start-up of a process (timed on an empty file) taken off both. On a shared machine the
 * speedup needs idle cores: other processes' load takes it away (see the load column).
 */
import { spawnSync } from "node:child_process";
import { randomFillSync } from "node:crypto";
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const BIN = join(ROOT, "bin", "keyed.js");

const { values } = parseArgs({
  options: {
    size: { type: "string", default: "1G" },
    rounds: { type: "string", default: "5" },
    threads: { type: "string", default: String(availableParallelism()) },
  },
});

function parseSize(text: string): number {
  const match = /^(\d+)([KMG]?)$/i.exec(text);
  if (match === null) throw new Error(`--size: a number of bytes with K, M or G; got ${text}`);
  const unit = { "": 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[match[2].toUpperCase()] ?? 1;
  return Number(match[1]) * unit;
}

const size = parseSize(values.size);
const rounds = Number(values.rounds);
const threads = Number(values.threads);

/** Seconds of wall time for `keyed tag` on `file` with `jobs` threads, and the tag it printed. */
function run(file: string, key: string, jobs: number): { seconds: number; tag: string } {
  const args = [BIN, "tag", "-a", "blake3", "--key-file", key, "--no-progress", "-j", String(jobs)];
  const started = performance.now();
  const result = spawnSync(process.execPath, [...args, file], { encoding: "utf8" });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`keyed tag failed: ${result.stderr}`);
  return { seconds, tag: result.stdout.split(" ")[0] };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const dir = mkdtempSync(join(tmpdir(), "keyed-bench-blake3-"));
try {
  const file = join(dir, "input");
  const empty = join(dir, "empty");
  const key = join(dir, "key");
  writeFileSync(key, randomFillSync(new Uint8Array(32)), { mode: 0o600 });
  writeFileSync(empty, "");
  const fd = openSync(file, "w");
  const piece = new Uint8Array(16 << 20);
  for (let written = 0; written < size; written += piece.length) {
    const n = Math.min(piece.length, size - written);
    writeSync(fd, randomFillSync(piece.subarray(0, n)));
  }
  closeSync(fd);
  const mb = size / 1e6;
  console.log(`keyed tag -a blake3 on ${values.size} (${size} bytes): -j 1 against -j ${threads}`);
  console.log("round  load   1 thread   N threads  start-up  speedup  (start-up off)");
  const speedups: number[] = [];
  const net: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    const load = loadavg()[0];
    // Alternate which goes first, so neither always runs on a cache the other warmed.
    const first = round % 2 === 1 ? 1 : threads;
    const a = run(file, key, first);
    const b = run(file, key, first === 1 ? threads : 1);
    const [single, multi] = first === 1 ? [a, b] : [b, a];
    if (single.tag !== multi.tag) throw new Error(`tags differ: ${single.tag} ${multi.tag}`);
    const startup = run(empty, key, 1).seconds;
    const speedup = single.seconds / multi.seconds;
    const withoutStartup = (single.seconds - startup) / (multi.seconds - startup);
    speedups.push(speedup);
    net.push(withoutStartup);
    console.log(
      `${String(round).padStart(5)}  ${load.toFixed(2).padStart(5)}  ` +
        `${single.seconds.toFixed(2).padStart(7)} s  ${multi.seconds.toFixed(2).padStart(7)} s  ` +
        `${startup.toFixed(2).padStart(6)} s  ${speedup.toFixed(2).padStart(6)}×  ${withoutStartup.toFixed(2).padStart(6)}×` +
        `   (${(mb / single.seconds).toFixed(0)} / ${(mb / multi.seconds).toFixed(0)} MB/s)`,
    );
  }
  const range = (xs: number[]) =>
    `median ${median(xs).toFixed(2)}×, ${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}×`;
  console.log(`speedup ${range(speedups)}; start-up off: ${range(net)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
