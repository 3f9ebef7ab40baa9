/**
 * Benchmark entry point: `npm run bench [-- --quick] [-- --only=hmac]`.
 *
 * Each algorithm of a suite runs in a fresh Node process. Pure-JS libraries (keyed and noble)
 * share code between hashes, so whichever algorithm ran first could leave that code's call sites
 * polymorphic for the next and tax it for an accident of order. This process only spawns, prints
 * the tables, writes bench/results/<date>-<suite>.json and the suite's section of
 * docs/benchmarks.md. `--quick` (fewer, shorter samples) only prints: its numbers are not kept.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, platform, release } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  type AllocationResult,
  type CaseResult,
  measureAllocation,
  runCase,
  type Suite,
  type TimingOptions,
} from "./harness.js";
import { hmacSuite } from "./hmac.js";

const SUITES: Suite[] = [hmacSuite];

const SCRIPT = fileURLToPath(import.meta.url);
const ROOT = dirname(dirname(SCRIPT));
const DOC = join(ROOT, "docs", "benchmarks.md");
const RESULTS = join(ROOT, "bench", "results");

const { values: args } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    only: { type: "string" },
    // Internal: "<suite>:<algorithm>" or "<suite>:allocation", run by a child process.
    child: { type: "string" },
  },
});

const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

// Full: 21 samples of ~25 ms per contender and case (about a minute for HMAC on 2 cores).
const timing: TimingOptions = args.quick
  ? { rounds: 5, batchMs: 20, log }
  : { rounds: 21, batchMs: 25, log };

function findSuite(name: string): Suite {
  const suite = SUITES.find((s) => s.name === name);
  if (suite === undefined) {
    throw new Error(`no suite "${name}"; suites: ${SUITES.map((s) => s.name).join(", ")}`);
  }
  return suite;
}

// --- child: measure one algorithm, print JSON on stdout ---------------------------------------

async function child(job: string): Promise<void> {
  const [suiteName, part] = job.split(":");
  const suite = findSuite(suiteName);
  let result: CaseResult[] | AllocationResult[];
  if (part === "allocation") {
    log(`${suite.name}: allocation check`);
    const measured: AllocationResult[] = [];
    for (const c of suite.allocation?.() ?? []) measured.push(await measureAllocation(c));
    result = measured;
  } else {
    log(`${suite.name}: ${part}`);
    result = suite.cases(part).map((c) => runCase(c, timing));
  }
  process.stdout.write(JSON.stringify(result));
}

function spawnChild<T>(job: string): T {
  const argv = [...process.execArgv, SCRIPT, `--child=${job}`];
  if (args.quick) argv.push("--quick");
  const r = spawnSync(process.execPath, argv, {
    stdio: ["ignore", "pipe", "inherit"],
    encoding: "utf8",
    maxBuffer: 1 << 24,
  });
  if (r.status !== 0) throw new Error(`bench child ${job} failed (exit ${r.status ?? r.signal})`);
  return JSON.parse(r.stdout) as T;
}

// --- formatting --------------------------------------------------------------------------------

function sizeLabel(bytes: number): string {
  if (bytes >= 1 << 20 && bytes % (1 << 20) === 0) return `${bytes / (1 << 20)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} B`;
}

/** Three significant digits (whole numbers from 100 up), in a unit that keeps the number short. */
function digits(x: number): string {
  return x >= 100 ? String(Math.round(x)) : x.toPrecision(3);
}

function timeLabel(ns: number): string {
  if (ns < 1e4) return `${digits(ns)} ns`;
  if (ns < 1e6) return `${digits(ns / 1e3)} µs`;
  return `${digits(ns / 1e6)} ms`;
}

/** How much the samples of a cell disagree, over all cells: a run on a busy machine shows here. */
function noiseLine(cases: CaseResult[]): string {
  const spreads = cases.flatMap((c) => c.results.map((m) => m.spread)).sort((a, b) => a - b);
  const pct = (x: number): string => `${Math.round(x * 100)}%`;
  const mid = spreads[Math.floor(spreads.length / 2)];
  return `Sample spread (interquartile range / median) per cell: median ${pct(mid)}, worst ${pct(spreads[spreads.length - 1])}.`;
}

function bytesLabel(bytes: number): string {
  const sign = bytes < 0 ? "-" : "";
  const b = Math.abs(bytes);
  if (b < 1024) return `${sign}${b} B`;
  if (b < 1 << 20) return `${sign}${(b / 1024).toFixed(1)} KiB`;
  return `${sign}${(b / (1 << 20)).toFixed(1)} MiB`;
}

/**
 * A markdown table, padded the way Biome formats one, so `biome check` passes on the written file.
 * Columns from index `right` on are right-aligned (numbers).
 */
function table(header: string[], rows: string[][], right: number): string {
  const widths = header.map((h, i) => Math.max(3, h.length, ...rows.map((r) => r[i].length)));
  const pad = (cell: string, i: number): string =>
    i < right ? cell.padEnd(widths[i]) : cell.padStart(widths[i]);
  const line = (cells: string[]): string => `| ${cells.map(pad).join(" | ")} |`;
  const rule = widths.map((w, i) => (i < right ? "-".repeat(w) : `${"-".repeat(w - 1)}:`));
  return [line(header), `| ${rule.join(" | ")} |`, ...rows.map(line)].join("\n");
}

const column = (m: { name: string; kind: string }): string => `${m.name} ${m.kind}`;

/** ns/op for every contender, then keyed prepared over the fastest peer (below 1: keyed wins). */
function timeTable(cases: CaseResult[]): string {
  const names = cases[0].results.map(column);
  const rows = cases.map((c) => {
    const ours = c.results.find((m) => m.name === "keyed" && m.kind === "prepared");
    const peers = c.results.filter((m) => m.name !== "keyed");
    const best = peers.reduce((a, b) => (b.nsPerOp < a.nsPerOp ? b : a));
    const ratio = ours ? `${(ours.nsPerOp / best.nsPerOp).toFixed(2)} (${column(best)})` : "";
    return [c.algorithm, sizeLabel(c.size), ...c.results.map((m) => timeLabel(m.nsPerOp)), ratio];
  });
  return table(["algorithm", "size", ...names, "keyed prepared / best peer"], rows, 2);
}

function rateTable(cases: CaseResult[]): string {
  const names = cases[0].results.map(column);
  const rows = cases.map((c) => [
    c.algorithm,
    sizeLabel(c.size),
    ...c.results.map((m) => digits(m.mbPerS)),
  ]);
  return table(["algorithm", "size", ...names], rows, 2);
}

function allocationTable(results: AllocationResult[]): string {
  const rows = results.map((r) => [
    `\`${r.name}\``,
    r.calls.toLocaleString("en-US"),
    bytesLabel(r.retainedBytes),
    bytesLabel(r.rawDeltaBytes),
    String(r.gcEvents),
  ]);
  const header = ["call", "calls", "heap growth (after GC)", "heapUsed delta (no GC)", "GC events"];
  return table(header, rows, 1);
}

// --- output --------------------------------------------------------------------------------------

function machine() {
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model.trim() ?? "unknown CPU",
    cores: cpu.length,
    node: process.version,
    os: `${platform()} ${release()}`,
    date: new Date().toISOString(),
    // Other processes' load is the main source of noise: keep it next to the numbers.
    loadAtStart: Number(loadavg()[0].toFixed(2)),
  };
}

type Machine = ReturnType<typeof machine>;

function machineLine(m: Machine): string {
  const when = m.date.slice(0, 10);
  return `${m.cpu}, ${m.cores} cores, Node ${m.node}, ${m.os}; ${when}, load ${m.loadAtStart} at start`;
}

function section(m: Machine, cases: CaseResult[], alloc: AllocationResult[]): string {
  const parts = [
    `Machine: ${machineLine(m)}. ${timing.rounds} interleaved samples of ~${timing.batchMs} ms per ` +
      `cell; medians. ${noiseLine(cases)}`,
    `### Time per operation\n\n${timeTable(cases)}`,
    `### Throughput (MB/s, 10^6 bytes of message per second)\n\n${rateTable(cases)}`,
  ];
  if (alloc.length > 0) {
    parts.push(`### Allocation (prepared key, 16-byte message)\n\n${allocationTable(alloc)}`);
  }
  return parts.join("\n\n");
}

const INTRO = `# Benchmarks

Run them with \`npm run bench\` (\`-- --quick\` for a short run that only prints,
\`-- --only=hmac\` for one suite). Each run rewrites its suite's section below and saves its
numbers in \`bench/results/<date>-<suite>.json\`.

The contenders of one algorithm are measured in one process, interleaved round by round, so a
ratio between two of them is a comparison within one run on one machine. Absolute times move from
run to run and machine to machine (on a shared machine, by half or more); compare those across
runs with care. "prepared" contenders set the key up once; "one-shot" contenders set it up on
every call. The last column is keyed's prepared key over the fastest other library: under 1 means
keyed is faster.

Allocation tables run a call 10^6 times after warm-up. "heap growth" is \`heapUsed\` after a forced
GC, after the loop minus before it (memory the calls kept); "heapUsed delta" is read right after
the loop with no GC forced; "GC events" counts the collections that started during the loop. No
GC and a delta of a few KiB means the calls allocate nothing.
`;

function writeDoc(suite: string, body: string): void {
  const start = `<!-- bench:${suite}:start -->`;
  const end = `<!-- bench:${suite}:end -->`;
  const block = `${start}\n\n${body}\n\n${end}`;
  let doc = existsSync(DOC) ? readFileSync(DOC, "utf8") : INTRO;
  const i = doc.indexOf(start);
  const j = doc.indexOf(end);
  if (i >= 0 && j > i) doc = doc.slice(0, i) + block + doc.slice(j + end.length);
  else doc = `${doc.trimEnd()}\n\n## ${suite}\n\n${block}\n`;
  mkdirSync(dirname(DOC), { recursive: true });
  writeFileSync(DOC, doc);
}

/** Rounded: enough digits for any comparison, few enough that the file stays small. */
function round(x: number, digits: number): number {
  return Number(x.toFixed(digits));
}

function writeJson(suite: Suite, m: Machine, cases: CaseResult[], alloc: AllocationResult[]) {
  const json = {
    suite: suite.name,
    machine: m,
    timing: { rounds: timing.rounds, batchMs: timing.batchMs },
    cases: cases.map((c) => ({
      algorithm: c.algorithm,
      size: c.size,
      results: c.results.map((r) => ({
        name: r.name,
        kind: r.kind,
        nsPerOp: round(r.nsPerOp, 1),
        mbPerS: round(r.mbPerS, 2),
        spread: round(r.spread, 3),
        batch: r.batch,
      })),
    })),
    allocation: alloc,
  };
  mkdirSync(RESULTS, { recursive: true });
  const file = join(RESULTS, `${m.date.slice(0, 10)}-${suite.name}.json`);
  writeFileSync(file, `${JSON.stringify(json)}\n`);
  return file;
}

async function main(): Promise<void> {
  const selected = args.only ? args.only.split(",").map(findSuite) : SUITES;
  for (const suite of selected) {
    const m = machine();
    const cases = suite.algorithms.flatMap((a) => spawnChild<CaseResult[]>(`${suite.name}:${a}`));
    const alloc = suite.allocation
      ? spawnChild<AllocationResult[]>(`${suite.name}:allocation`)
      : [];
    const body = section(m, cases, alloc);
    process.stdout.write(`\n## ${suite.name}${args.quick ? " (quick)" : ""}\n\n${body}\n`);
    if (args.quick) continue;
    const file = writeJson(suite, m, cases, alloc);
    writeDoc(suite.name, body);
    log(`wrote ${file} and ${DOC}`);
  }
}

await (args.child ? child(args.child) : main());
