/**
 * Benchmark entry point: `npm run bench [-- --quick] [-- --only=hmac,cmac] [-- --calibrate]
 * [-- --redraw] [-- --fleet]`.
 *
 * Each algorithm of a suite runs in a fresh Node process. Pure-JS libraries (keyed and noble)
 * share code between hashes, so whichever algorithm ran first could leave that code's call sites
 * polymorphic for the next and tax it for an accident of order. This process only spawns, prints
 * the tables, writes bench/results/<date>-<suite>.json and the suite's section of
 * docs/benchmarks.md. `--quick` (fewer, shorter samples) only prints: its numbers are not kept.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, platform, release } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { FORCED_BACKEND } from "../src/engine/native.js";
import { type ChartMeta, chartSvg, overviewSvg } from "./chart.js";
import {
  type AllocationResult,
  type BenchCase,
  type CaseResult,
  fastestPeer,
  isOurs,
  type Measurement,
  measureAllocation,
  runCaseAsync,
  type Suite,
  sizeLabel,
  type TimingOptions,
} from "./harness.js";
import { overviewCells, targetsSection } from "./targets.js";

/**
 * Each suite's module, loaded on demand: a child loads only the suite it measures, so no other
 * suite's peers share its process. Loading a peer is not neutral: hash-wasm and libsodium grow
 * their WebAssembly memories, and the first detached ArrayBuffer in a process switches off V8's
 * detaching protector, after which optimized code checks every typed-array read for detachment
 * (2026-12-04: `equal` on 32 bytes 18 → 27 ns in a process that had loaded the hmac suite's peers;
 * node:crypto's timingSafeEqual unchanged). A suite's own peers still load with it.
 */
const SUITE_MODULES: Record<string, () => Promise<Suite>> = {
  hmac: async () => (await import("./hmac.js")).hmacSuite,
  cmac: async () => (await import("./cmac.js")).cmacSuite,
  gmac: async () => (await import("./gmac.js")).gmacSuite,
  poly1305: async () => (await import("./poly1305.js")).poly1305Suite,
  kmac: async () => (await import("./kmac.js")).kmacSuite,
  blake3: async () => (await import("./blake3.js")).blake3Suite,
  siphash: async () => (await import("./siphash.js")).siphashSuite,
  equal: async () => (await import("./equal.js")).equalSuite,
  keyset: async () => (await import("./keyset.js")).keysetSuite,
};

const SCRIPT = fileURLToPath(import.meta.url);
const ROOT = dirname(dirname(SCRIPT));
const DOC = join(ROOT, "docs", "benchmarks.md");
const CHARTS = join(ROOT, "docs", "charts");
const RESULTS = join(ROOT, "bench", "results");

const { values: args } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    only: { type: "string" },
    // Runs bench/calibrate.ts (keyed's kernels against node:crypto, for src/engine/select.ts).
    calibrate: { type: "boolean", default: false },
    // Rewrites the sections of docs/benchmarks.md and docs/charts from the newest bench/results.
    redraw: { type: "boolean", default: false },
    // Runs bench/fleet.ts (verify + claim through replay stores, on a redis-server it starts).
    fleet: { type: "boolean", default: false },
    // Internal: "<suite>:<algorithm>" or "<suite>:allocation", run by a child process.
    child: { type: "string" },
  },
});

const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

// Full: 15 samples of ~20 ms per contender and case (every suite, ~950 cells: under 10 minutes
// on 2 cores).
const timing: TimingOptions = args.quick
  ? { rounds: 5, batchMs: 20, log }
  : { rounds: 15, batchMs: 20, log };

async function loadSuite(name: string): Promise<Suite> {
  // Own keys only: "constructor" or "toString" must be "no suite", not a crash further on.
  const load = Object.hasOwn(SUITE_MODULES, name) ? SUITE_MODULES[name] : undefined;
  if (load === undefined) {
    throw new Error(`no suite "${name}"; suites: ${Object.keys(SUITE_MODULES).join(", ")}`);
  }
  return load();
}

/** Every suite, in the order of SUITE_MODULES (the parent's tables; it times nothing itself). */
const allSuites = (): Promise<Suite[]> => Promise.all(Object.keys(SUITE_MODULES).map(loadSuite));

// --- child: measure one algorithm, print JSON on stdout ---------------------------------------

async function child(job: string): Promise<void> {
  pinMainThread();
  const [suiteName, part] = job.split(":");
  const suite = await loadSuite(suiteName);
  let result: CaseResult[] | AllocationResult[];
  if (part === "allocation") {
    log(`${suite.name}: allocation check`);
    const measured: AllocationResult[] = [];
    for (const c of suite.allocation?.() ?? []) measured.push(await measureAllocation(c));
    result = measured;
  } else {
    log(`${suite.name}: ${part}`);
    const measured: CaseResult[] = [];
    for (const c of await suite.cases(part)) measured.push(await measureSteadily(c));
    result = measured;
  }
  process.stdout.write(JSON.stringify(result));
}

/**
 * A case is measured again, at most twice, when the samples of a row its verdict rests on (one of
 * keyed's, or the fastest peer compared with one) disagree by more than STEADY_SPREAD (p75 − p25
 * over the median). On this shared VM a child can run through a noisy spell: rows of node:crypto's
 * own path read ±13-25% in run 31 (hmac-sha3-256 at 8 KiB, sha3-512 at 1 MiB), and their medians
 * fell 8-12% apart where keyed calls the same function. Of the measurements the steadiest is kept,
 * by its least steady such row; every measurement interleaves all contenders as before, so the
 * choice favours none of them. `measures` in the results says how many were made (--quick: one).
 */
const STEADY_SPREAD = 0.1;
const MAX_MEASURES = 3;

async function measureSteadily(c: BenchCase): Promise<CaseResult> {
  let kept = await runCaseAsync(c, timing);
  let spread = verdictSpread(kept);
  let measures = 1;
  while (!args.quick && measures < MAX_MEASURES && spread > STEADY_SPREAD) {
    log(
      `  ${c.algorithm} ${sizeLabel(c.size)}: samples ${(100 * spread).toFixed(0)}% apart; measured again`,
    );
    const again = await runCaseAsync(c, timing);
    measures++;
    const againSpread = verdictSpread(again);
    if (againSpread < spread) {
      kept = again;
      spread = againSpread;
    }
  }
  return measures === 1 ? kept : { ...kept, measures };
}

/** The largest spread among keyed's rows and the fastest peer each is compared with. */
function verdictSpread(result: CaseResult): number {
  let worst = 0;
  for (const row of result.results) {
    if (!isOurs(row)) continue;
    worst = Math.max(worst, row.spread, fastestPeer(result.results, row)?.spread ?? 0);
  }
  return worst;
}

// --- which CPU a child's main thread runs on ----------------------------------------------------
//
// On a shared host a vCPU whose physical core is busy with someone else's work runs everything
// slower, and not by one factor for every kind of code. On the 2-core AMD EPYC VM these figures come
// from, one vCPU at a time ran 1.7-2.0x slower than the other, which one changing every few minutes
// (`taskset -c 0` against `-c 1`, 2026-12-05); in a child that ran there, keyed's WebAssembly
// slowed more than libsodium's (the Poly1305 MAC at 1 KiB 0.82 of libsodium, 0.80 in the runs
// before and after). So each child's main thread, which runs every contender, is pinned (Linux,
// taskset) to the CPU a short arithmetic loop runs fastest on just before the child starts, and
// never migrates between samples. Only the main thread: pinning the whole process (run 17) also
// put V8's compiler and collector threads on that one CPU, and slowed the JavaScript contenders
// against node:crypto's native ones. KEYED_BENCH_PIN=0 turns it off.

/** An xorshift loop of ~80 ms that prints its own time in ms. */
const CPU_PROBE =
  "let x=1;const t=process.hrtime.bigint();for(let i=0;i<3e7;i++){x^=x<<13;x^=x>>>17;x^=x<<5}" +
  "process.stdout.write(String(Number(process.hrtime.bigint()-t)/1e6+(x&0)))";

/**
 * The CPUs this process may run on (Linux: Cpus_allowed_list, e.g. "0-3,6"), so a bench started
 * under `taskset` keeps to its set; empty where it cannot be read.
 */
function allowedCpus(): number[] {
  if (platform() !== "linux") return [];
  try {
    const status = readFileSync("/proc/self/status", "utf8");
    const list = /^Cpus_allowed_list:\s*(\S+)/m.exec(status)?.[1] ?? "";
    return list.split(",").flatMap((range) => {
      const [from, to = from] = range.split("-").map(Number);
      return Array.from({ length: to - from + 1 }, (_, i) => from + i);
    });
  } catch {
    return [];
  }
}

/** Probing costs ~0.2 s a CPU before every child: past this many CPUs, no pinning. */
const MAX_PROBED_CPUS = 8;

/** The CPUs to probe before each child (none when pinning is off or cannot help), on first need. */
let pinCandidates: number[] | undefined;
function cpusToProbe(): number[] {
  if (pinCandidates === undefined) {
    const allowed = process.env.KEYED_BENCH_PIN === "0" ? [] : allowedCpus();
    pinCandidates =
      allowed.length >= 2 &&
      allowed.length <= MAX_PROBED_CPUS &&
      spawnSync("taskset", ["-V"]).status === 0
        ? allowed
        : [];
  }
  return pinCandidates;
}

/** Each probed CPU's probe time (ms) just before a child starts, and the fastest of them. */
interface CpuChoice {
  cpu: number | undefined;
  probeMs: Record<string, number>;
}

/** The CPU the probe runs fastest on now (undefined: pinning off, or no probe ran), with the times. */
function fastestCpu(): CpuChoice {
  let best: number | undefined;
  let bestMs = Number.POSITIVE_INFINITY;
  const probeMs: Record<string, number> = {};
  for (const cpu of cpusToProbe()) {
    const r = spawnSync("taskset", ["-c", String(cpu), process.execPath, "-e", CPU_PROBE], {
      encoding: "utf8",
    });
    const ms = Number(r.stdout);
    if (r.status !== 0 || !Number.isFinite(ms)) continue;
    probeMs[cpu] = round(ms, 1);
    if (ms < bestMs) {
      best = cpu;
      bestMs = ms;
    }
  }
  return { cpu: best, probeMs };
}

/**
 * In a child: pins this process's main thread (its thread id is the process id) to the CPU the
 * parent chose; the threads V8 and libuv started already keep every CPU.
 */
function pinMainThread(): void {
  const cpu = process.env.KEYED_BENCH_CPU;
  if (cpu !== undefined) spawnSync("taskset", ["-p", "-c", cpu, String(process.pid)]);
}

// --- malloc's thresholds in a child ------------------------------------------------------------
//
// node:crypto answers every cipher `update` with a new buffer as long as its input, and glibc's
// malloc decides where such a buffer comes from by thresholds it moves as the process frees large
// blocks: past the mmap threshold, fresh pages from the kernel; past the trim threshold, the top
// of the heap goes back to it after a collection, and the next batch faults it in again. Which
// state a child ends up in depends on the order of its first large frees, and on this VM a page
// fault is dear: in one child the CMAC-AES256 rows at 8 KiB took 23 (keyed) and 16 µs
// (node:crypto), in the next 11 and 14, and a ChaCha20-Poly1305 seal of 1 MiB took 0.4 ms in one
// process and 6 ms in another, with six times the page faults (2026-12-05). Setting the thresholds
// (GLIBC_TUNABLES) switches that movement off, the same for every contender, so a cell measures
// the code rather than the allocator's history. Where the caller sets GLIBC_TUNABLES, or with
// KEYED_BENCH_MALLOC=dynamic, children keep glibc's defaults. Other C libraries ignore it.

const FIXED_MALLOC = "glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=268435456";

/** True when children run with FIXED_MALLOC (Linux, unless the caller chose otherwise). */
const mallocFixed =
  platform() === "linux" &&
  process.env.GLIBC_TUNABLES === undefined &&
  process.env.KEYED_BENCH_MALLOC !== "dynamic";

/**
 * A child's output; whether its main thread was pinned; and, kept in the results so that a child
 * whose rows all moved can be told apart later, the CPU it ran on and the probe times behind that.
 */
interface ChildRun<T> {
  result: T;
  pinned: boolean;
  child: { job: string; cpu?: number; probeMs: Record<string, number> };
}

function spawnChild<T>(job: string): ChildRun<T> {
  const argv = [...process.execArgv, SCRIPT, `--child=${job}`];
  if (args.quick) argv.push("--quick");
  const { cpu, probeMs } = fastestCpu();
  // Only this run's choice pins a child: a KEYED_BENCH_CPU from the caller's environment does not.
  const env = { ...process.env };
  delete env.KEYED_BENCH_CPU;
  if (cpu !== undefined) env.KEYED_BENCH_CPU = String(cpu);
  if (mallocFixed) env.GLIBC_TUNABLES = FIXED_MALLOC;
  const r = spawnSync(process.execPath, argv, {
    env,
    stdio: ["ignore", "pipe", "inherit"],
    encoding: "utf8",
    maxBuffer: 1 << 24,
  });
  if (r.status !== 0) throw new Error(`bench child ${job} failed (exit ${r.status ?? r.signal})`);
  return {
    result: JSON.parse(r.stdout) as T,
    pinned: cpu !== undefined,
    child: { job, ...(cpu !== undefined ? { cpu } : {}), probeMs },
  };
}

// --- formatting --------------------------------------------------------------------------------

/** Three significant digits (whole numbers from 100 up), in a unit that keeps the number short. */
function digits(x: number): string {
  return x >= 100 ? String(Math.round(x)) : x.toPrecision(3);
}

/** Microseconds, the one unit of every time column: three significant digits, more above 1000. */
function microseconds(ns: number): string {
  const us = ns / 1e3;
  if (us >= 1000) return Math.round(us).toLocaleString("en-US");
  return us >= 100 ? String(Math.round(us)) : us.toPrecision(3);
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

/**
 * Runs of consecutive cases with the same contenders: one table each (a suite's algorithms may
 * have different peers, e.g. Poly1305 and the ChaCha20-Poly1305 AEAD).
 */
function groups(cases: CaseResult[]): CaseResult[][] {
  const out: CaseResult[][] = [];
  let key = "";
  for (const c of cases) {
    const k = c.results.map(column).join("\n");
    if (out.length === 0 || k !== key) out.push([]);
    out[out.length - 1].push(c);
    key = k;
  }
  return out;
}

/** The contenders with a ratio column: those marked headline, else "keyed prepared". */
function headlines(c: CaseResult): Measurement[] {
  const marked = c.results.filter((m) => m.headline === true);
  if (marked.length > 0) return marked;
  return c.results.filter((m) => m.name === "keyed" && m.kind === "prepared");
}

/** µs/op for every contender, then ours over the fastest peer (below 1: keyed is faster). */
function timeTable(cases: CaseResult[]): string {
  const names = cases[0].results.map((m) => `${column(m)} (µs)`);
  const ratioNames = headlines(cases[0]).map(
    (m) => `${column(m)} ÷ best peer (below 1: keyed faster)`,
  );
  const rows = cases.map((c) => {
    const ratios = headlines(c).map((ours) => {
      const best = fastestPeer(c.results, ours);
      return best === undefined
        ? "no peer"
        : `${(ours.nsPerOp / best.nsPerOp).toFixed(2)} (${column(best)})`;
    });
    return [
      c.algorithm,
      sizeLabel(c.size),
      ...c.results.map((m) => microseconds(m.nsPerOp)),
      ...ratios,
    ];
  });
  return table(["algorithm", "size", ...names, ...ratioNames], rows, 2);
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
    // KEYED_BACKEND (inherited by the children) decides whether keyed may use node:crypto.
    backend: FORCED_BACKEND ?? "auto",
  };
}

/**
 * The machine line's facts; `pinned`: every child of the suite had its main thread on the CPU a
 * probe ran fastest on just before it (see fastestCpu). Absent in results from before it existed.
 */
type Machine = ReturnType<typeof machine> & {
  pinned?: boolean;
  mallocFixed?: boolean;
  children?: ChildRun<unknown>["child"][];
};

function machineLine(m: Machine): string {
  const when = m.date.slice(0, 10);
  const backend = m.backend === "auto" ? "" : `, KEYED_BACKEND=${m.backend}`;
  const pinned = m.pinned
    ? "; each algorithm's main thread pinned to the faster CPU at its start"
    : "";
  const malloc = m.mallocFixed ? "; malloc's mmap and trim thresholds fixed" : "";
  return `${m.cpu}, ${m.cores} cores, Node ${m.node}, ${m.os}${backend}; ${when}, load ${m.loadAtStart} at start${pinned}${malloc}`;
}

function section(
  suite: Suite,
  m: Machine,
  cases: CaseResult[],
  alloc: AllocationResult[],
  used: { rounds: number; batchMs: number } = timing,
): string {
  const tables = (make: (g: CaseResult[]) => string): string =>
    groups(cases).map(make).join("\n\n");
  const parts = [
    `Machine: ${machineLine(m)}. ${used.rounds} interleaved samples of ~${used.batchMs} ms per ` +
      `cell; medians. ${noiseLine(cases)}`,
    ...(suite.notes ? [suite.notes.trim()] : []),
    `### Time per operation (µs; lower is better)\n\n${tables(timeTable)}`,
    `### Throughput (MB/s, 10^6 bytes of message per second; higher is better)\n\n${tables(rateTable)}`,
  ];
  if (suite.charts !== false) {
    const charts = algorithmsOf(cases).map((a) => `![${a}](charts/${chartFile(a)})`);
    parts.push(`### Charts (keyed and the best peer at each size)\n\n${charts.join("\n")}`);
  }
  if (alloc.length > 0) {
    parts.push(`### Allocation (prepared key, 16-byte message)\n\n${allocationTable(alloc)}`);
  }
  return parts.join("\n\n");
}

const INTRO = `# Benchmarks

Run them with \`npm run bench\` (\`-- --quick\` for a short run that only prints,
\`-- --only=hmac,cmac\` for some suites). Each run rewrites its suite's section below and saves its
numbers in \`bench/results/<date>-<suite>.json\`. \`npm run bench -- --calibrate\` re-measures the
engine's crossovers instead (bench/calibrate.ts).

The contenders of one algorithm are measured in one process, interleaved round by round (in a
different order each round, so that no contender always runs after the same one), so a
ratio between two of them is a comparison within one run on one machine. Absolute times move from
run to run and machine to machine (on a shared machine, by half or more); compare those across
runs with care. "prepared" contenders set the key up once; "one-shot" contenders set it up on
every call. Rows named "keyed" or "keyed <variant>" are keyed's; every other row is a peer. The
last column (or columns) is a keyed row, keyed's prepared key unless the header names another,
over the fastest peer: under 1 means keyed is faster. Each section's notes say what its rows call.
Each batch of calls starts after a young-generation collection (untimed) and ends with one (timed),
so every contender pays for the garbage it makes and for no one else's (bench/harness.ts). A
batch's size comes from the fastest of its warm-up batches, and a batch allocates at most 16 MiB
off V8's heap (node:crypto's output buffers): past V8's off-heap limit a batch pays for a full
collection, and identical rows then read up to 30% apart. A sample whose batch that cap shortens
runs as many such batches as make ~20 ms, each between its own collections. A case is measured
again, at most twice, when keyed's rows or the fastest peer each is compared with have samples
more than 10% apart (p75 − p25 over the median), and the steadiest measurement is kept: every
measurement interleaves all contenders, so the choice favours none of them (\`measures\` in the results; bench/run.ts).
On Linux each algorithm's main thread is pinned (taskset) to the CPU a short probe loop runs
fastest on just before its process starts (\`KEYED_BENCH_PIN=0\` turns that off): on a shared host
one vCPU can run much slower than another for minutes at a time, and not equally slower for every
contender. On Linux each child also runs with glibc's malloc thresholds fixed (\`GLIBC_TUNABLES\`,
\`KEYED_BENCH_MALLOC=dynamic\` for the defaults): with the defaults, whether a large output comes
from fresh pages depends on the process's history of frees, and moved the cells of node:crypto's
path by up to 15× from one process to the next on this VM (bench/run.ts says how).

keyed's engine hands long inputs of some families to node:crypto (src/engine/select.ts), and the
sections say from which size. \`KEYED_BACKEND=js npm run bench -- --quick\` prints keyed's own
JavaScript kernels at every size instead (the machine line then names the backend).

Allocation tables run a call 10^6 times after warm-up. "heap growth" is \`heapUsed\` after a forced
GC, after the loop minus before it (memory the calls kept); "heapUsed delta" is read right after
the loop with no GC forced; "GC events" counts the collections that started during the loop. No
GC and a delta of a few KiB means the calls allocate nothing.
`;

function algorithmsOf(cases: CaseResult[]): string[] {
  return [...new Set(cases.map((c) => c.algorithm))];
}

const chartFile = (algorithm: string): string => `${algorithm}.svg`;

function chartMeta(m: Machine): ChartMeta {
  const backend = m.backend === "auto" ? "" : `, KEYED_BACKEND=${m.backend}`;
  return { machine: `${m.cpu}, ${m.cores} cores, Node ${m.node}${backend}`, date: m.date };
}

/** docs/charts/<algorithm>.svg for every algorithm of a run. */
function writeCharts(cases: CaseResult[], meta: ChartMeta): void {
  mkdirSync(CHARTS, { recursive: true });
  for (const a of algorithmsOf(cases)) {
    const own = cases.filter((c) => c.algorithm === a);
    writeFileSync(join(CHARTS, chartFile(a)), chartSvg(a, own, meta));
  }
}

/** docs/charts/overview.svg from the newest results of every suite. */
function writeOverview(meta: ChartMeta): void {
  mkdirSync(CHARTS, { recursive: true });
  writeFileSync(join(CHARTS, "overview.svg"), overviewSvg(overviewCells(RESULTS), meta));
}

/**
 * `--redraw`: every suite's section of docs/benchmarks.md and every chart again from the newest
 * saved results, measuring nothing (after a change to the tables' or charts' layout).
 */
async function redraw(): Promise<void> {
  const suites = await allSuites();
  const newest = new Map<string, string>();
  for (const f of readdirSync(RESULTS)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    newest.set(f.slice(11, -5), f);
  }
  let meta: ChartMeta | undefined;
  for (const file of newest.values()) {
    const json = JSON.parse(readFileSync(join(RESULTS, file), "utf8")) as {
      suite: string;
      machine: Machine;
      timing: { rounds: number; batchMs: number };
      cases: CaseResult[];
      allocation: AllocationResult[];
    };
    meta = chartMeta(json.machine);
    const suite = suites.find((s) => s.name === json.suite);
    if (suite !== undefined) {
      writeDoc(suite.name, section(suite, json.machine, json.cases, json.allocation, json.timing));
    }
    if (suite?.charts !== false) writeCharts(json.cases, meta);
  }
  if (meta !== undefined) writeOverview(meta);
  writeDoc("targets", targetsSection(RESULTS));
  log(`redrew ${DOC} and the charts in ${CHARTS} from ${newest.size} results files`);
}

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
        ...(r.headline ? { headline: true } : {}),
        ...(r.nonce ? { nonce: r.nonce } : {}),
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
  const selected = await (args.only
    ? Promise.all(args.only.split(",").map(loadSuite))
    : allSuites());
  for (const suite of selected) {
    const atStart = machine();
    const runs = suite.algorithms.map((a) => spawnChild<CaseResult[]>(`${suite.name}:${a}`));
    const allocation = suite.allocation
      ? spawnChild<AllocationResult[]>(`${suite.name}:allocation`)
      : undefined;
    const cases = runs.flatMap((run) => run.result);
    const alloc = allocation?.result ?? [];
    const every: ChildRun<unknown>[] = allocation ? [...runs, allocation] : runs;
    const pinned = every.every((run) => run.pinned);
    const m: Machine = { ...atStart, pinned, mallocFixed, children: every.map((run) => run.child) };
    const body = section(suite, m, cases, alloc);
    process.stdout.write(`\n## ${suite.name}${args.quick ? " (quick)" : ""}\n\n${body}\n`);
    if (args.quick) continue;
    const file = writeJson(suite, m, cases, alloc);
    writeDoc(suite.name, body);
    if (suite.charts !== false) writeCharts(cases, chartMeta(m));
    log(`wrote ${file} and ${DOC}`);
  }
  if (!args.quick) {
    const targets = targetsSection(RESULTS);
    process.stdout.write(`\n## Targets\n\n${targets}\n`);
    writeDoc("targets", targets);
    writeOverview(chartMeta(machine()));
  }
}

function calibrate(): void {
  const script = join(ROOT, "bench", "calibrate.ts");
  const r = spawnSync(process.execPath, [...process.execArgv, script], { stdio: "inherit" });
  process.exitCode = r.status ?? 1;
}

function fleet(): void {
  const script = join(ROOT, "bench", "fleet.ts");
  const argv = [...process.execArgv, script, args.quick ? "--quick" : "--write"];
  const r = spawnSync(process.execPath, argv, { stdio: "inherit" });
  process.exitCode = r.status ?? 1;
}

if (args.child) await child(args.child);
else if (args.calibrate) calibrate();
else if (args.redraw) await redraw();
else if (args.fleet) fleet();
else await main();
