/// <reference types="node" />
/**
 * keyed bench: tags per second and MB/s of every algorithm at 64 B and 1 MiB (library only, no
 * I/O), and with --files, the throughput of `keyed tag` on many files with 1 vs 2 workers.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { generateKey, type MacName, mac, macNames, randomBytes } from "../index.js";
import { HELP_OPTION, parseCommand, parseInteger, parseSize, resolveAlgorithm } from "./args.js";
import { EXIT_OK } from "./errors.js";
import type { Context } from "./io.js";
import type { Job } from "./job.js";
import { formatTable } from "./list.js";
import { runJobs } from "./pool.js";
import { formatBytes } from "./progress.js";

export const BENCH_HELP = `Usage: keyed bench [-a ALG]... [--time MS] [--json]
       keyed bench --files [-a ALG] [--count N] [--size SIZE] [--json]

Without --files: tags per second and MB/s of each algorithm (or each -a ALG) on 64-byte and
1 MiB messages, in memory, with the library alone: about 5 seconds for all algorithms.
Poly1305 prepares a new one-time key for each tag, as it must be used.

With --files: writes COUNT files of SIZE bytes to a temporary directory, tags them all as
keyed tag does, on 1 worker thread and on 2 (and on one per core, when there are more than 2),
best of two rounds each, shows the throughput, and deletes the files. Each run starts fresh
threads, as each keyed command does. The speedup needs idle cores: other busy processes take
it away.

Options:
  -a, --algorithm ALG  measure ALG (repeatable); --files: the algorithm (default blake3)
      --time MS        time per measurement in milliseconds (default 80)
      --files          the many-files, 1 vs 2 workers measurement
      --count N        --files: number of files (default 32)
      --size SIZE      --files: bytes per file, e.g. 512K, 4M (default 4M)
      --json           results as JSON
  -h, --help           this help
`;

const SIZES = [64, 1024 * 1024];

/** Calls per second of `fn`, measured for about `budgetMs` after one warm-up call. */
function measure(fn: () => void, budgetMs: number): number {
  fn();
  let calls = 0;
  let batch = 1;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < budgetMs) {
    for (let i = 0; i < batch; i++) fn();
    calls += batch;
    elapsed = performance.now() - start;
    if (elapsed < budgetMs / 8) batch *= 2;
  }
  return (calls * 1000) / elapsed;
}

interface AlgorithmResult {
  algorithm: MacName;
  sizes: { bytes: number; tagsPerSecond: number; megabytesPerSecond: number }[];
}

function benchAlgorithm(algorithm: MacName, budgetMs: number): AlgorithmResult {
  const key = generateKey(algorithm);
  const sizes = SIZES.map((bytes) => {
    const message = randomBytes(bytes);
    const reusable = mac(algorithm, key);
    const out = new Uint8Array(reusable.tagLength);
    const fn =
      reusable.algorithm === "poly1305"
        ? () => {
            mac(algorithm, key).tag(message, out);
          }
        : () => {
            reusable.tag(message, out);
          };
    const tagsPerSecond = measure(fn, budgetMs);
    reusable.destroy();
    return { bytes, tagsPerSecond, megabytesPerSecond: (tagsPerSecond * bytes) / 1e6 };
  });
  key.fill(0);
  return { algorithm, sizes };
}

const formatCount = (n: number) =>
  n >= 1e6 ? `${(n / 1e6).toFixed(2)} M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} k` : n.toFixed(1);
const formatMb = (n: number) => n.toFixed(n < 10 ? 2 : 1);

async function benchFiles(
  algorithm: MacName,
  count: number,
  size: number,
  json: boolean,
  context: Context,
): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), "keyed-bench-"));
  try {
    const content = randomBytes(size);
    const paths: string[] = [];
    for (let i = 0; i < count; i++) {
      const path = join(directory, `file-${i}`);
      content[0] = i & 0xff;
      writeFileSync(path, content);
      paths.push(path);
    }
    const key = generateKey(algorithm);
    const spec = { algorithm, key, allowShortKeys: false, allowShortTags: false };
    const list: Job[] = paths.map((path, index) => ({ index, path, spec }));
    const cores = availableParallelism();
    const workerCounts = cores > 2 ? [1, 2, cores] : [1, 2];
    const total = count * size;
    const rows: { workers: number; seconds: number; megabytesPerSecond: number }[] = [];
    if (!json) {
      context.print(
        `${algorithm}, ${count} files of ${formatBytes(size)} (${formatBytes(total)} in all), ` +
          `${cores} core${cores === 1 ? "" : "s"} available`,
      );
    }
    // Two rounds, interleaved, best of each: other load on the machine hits both alike.
    const best = new Map<number, number>();
    for (let round = 0; round < 2; round++) {
      for (const workers of workerCounts) {
        const start = performance.now();
        await runJobs(list, { jobs: workers, alwaysThreads: true }, () => {});
        const seconds = (performance.now() - start) / 1000;
        best.set(workers, Math.min(best.get(workers) ?? Number.POSITIVE_INFINITY, seconds));
      }
    }
    for (const workers of workerCounts) {
      const seconds = best.get(workers) ?? 0;
      rows.push({ workers, seconds, megabytesPerSecond: total / seconds / 1e6 });
    }
    key.fill(0);
    if (json) {
      context.print(JSON.stringify({ algorithm, files: count, fileBytes: size, cores, rows }));
      return;
    }
    const base = rows[0].seconds;
    const table = [["WORKERS", "SECONDS", "MB/s", "SPEEDUP"]];
    for (const row of rows) {
      table.push([
        String(row.workers),
        row.seconds.toFixed(2),
        formatMb(row.megabytesPerSecond),
        `${(base / row.seconds).toFixed(2)}x`,
      ]);
    }
    for (const line of formatTable(table)) context.print(line);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

export async function benchCommand(argv: string[], context: Context): Promise<number> {
  const { values } = parseCommand("bench", {
    args: argv,
    allowPositionals: false,
    options: {
      ...HELP_OPTION,
      algorithm: { type: "string", short: "a", multiple: true },
      time: { type: "string" },
      files: { type: "boolean" },
      count: { type: "string" },
      size: { type: "string" },
      json: { type: "boolean" },
    },
  });
  if (values.help) {
    process.stdout.write(BENCH_HELP);
    return EXIT_OK;
  }
  const chosen = (values.algorithm ?? []).map((name) => resolveAlgorithm(name));
  const json = values.json === true;
  if (values.files) {
    const count = values.count === undefined ? 32 : parseInteger("--count", values.count, 2, 4096);
    const size =
      values.size === undefined ? 4 * 1024 * 1024 : parseSize("--size", values.size, 1, 2 ** 30);
    await benchFiles(chosen[0] ?? "blake3", count, size, json, context);
    return EXIT_OK;
  }

  const budget = values.time === undefined ? 80 : parseInteger("--time", values.time, 1, 60000);
  const algorithms = chosen.length > 0 ? chosen : macNames();
  const results: AlgorithmResult[] = [];
  const columns = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(20) : cell.padStart(14))).join("");
  if (!json) {
    context.print(columns(["ALGORITHM", "64 B tags/s", "MB/s", "1 MiB tags/s", "MB/s"]));
  }
  for (const algorithm of algorithms) {
    const result = benchAlgorithm(algorithm, budget);
    results.push(result);
    if (!json) {
      const [small, large] = result.sizes;
      context.print(
        columns([
          algorithm,
          formatCount(small.tagsPerSecond),
          formatMb(small.megabytesPerSecond),
          formatCount(large.tagsPerSecond),
          formatMb(large.megabytesPerSecond),
        ]),
      );
    }
  }
  if (json) context.print(JSON.stringify(results));
  else context.warn("keyed bench --files compares 1 and 2 worker threads on many files");
  return EXIT_OK;
}
