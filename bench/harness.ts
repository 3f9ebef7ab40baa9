/**
 * A small timing harness: no bench library, so what is measured is plain to see.
 *
 * Each case times its contenders interleaved: one batch of each per round, round after round, so
 * a noisy moment (another process, a thermal step, a GC elsewhere) lands on all of them alike. A
 * batch runs long enough (~25 ms) that the clock's resolution and the loop do not matter, and the
 * median over rounds throws out the batches a noisy moment did hit.
 */

import { randomFillSync } from "node:crypto";
import { PerformanceObserver } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { MacKernel } from "../src/core/mac.js";
import { FORCED_BACKEND, nativeCrypto } from "../src/engine/native.js";
import { NATIVE_CROSSOVER, type NativeFamily } from "../src/engine/select.js";
import { type Mac, type MacName, mac } from "../src/index.js";

interface ContenderBase {
  /**
   * The library: "keyed", or "keyed <variant>" (e.g. "keyed kernel"), is ours; every other name is
   * a peer.
   */
  name: string;
  /** "prepared": key setup done once, outside `fn`; "one-shot": key setup on every call. */
  kind: "prepared" | "one-shot";
  /**
   * Ours only: give this contender a "/ best peer" ratio column. When no contender of a case sets
   * it, "keyed prepared" gets the column.
   */
  headline?: boolean;
  /**
   * For an output that carries a fresh random nonce (keyed's safe GMAC): the output expected for
   * that nonce, in place of the case's fixed reference.
   */
  expectedFor?: (output: Uint8Array) => Uint8Array;
  /**
   * "random": every call draws a fresh random nonce (keyed's safe GMAC and ChaCha20-Poly1305 MACs,
   * and the peers' rows that do what their users must do to use those MACs safely). Such a row is
   * compared only with rows that draw one too, and a row without it only with rows without it:
   * like for like (see `comparablePeers`).
   */
  nonce?: "random";
}

/** One implementation under test. `fn` performs one operation and passes its result to `consume`. */
export interface SyncContender extends ContenderBase {
  async?: false;
  fn: () => void;
}

/** An asynchronous API (WebCrypto): each call is awaited before the next starts. */
export interface AsyncContender extends ContenderBase {
  async: true;
  fn: () => Promise<void>;
}

export type Contender = SyncContender | AsyncContender;

/** One algorithm at one message size. */
export interface BenchCase {
  algorithm: string;
  /** Message bytes per operation. */
  size: number;
  contenders: Contender[];
}

/** A group of cases that a suite registers with bench/run.ts. */
export interface Suite {
  name: string;
  /** Each algorithm is measured in a fresh process: see bench/run.ts. */
  algorithms: string[];
  /** Builds the cases of one algorithm, checking every contender's output before any timing. */
  cases(algorithm: string): BenchCase[] | Promise<BenchCase[]>;
  /** Markdown printed under the machine line: what the rows are, when their names do not say. */
  notes?: string;
  /**
   * False for suites whose algorithms have charts from another suite already (docs/charts is
   * one file per algorithm) and no peers to chart against.
   */
  charts?: boolean;
  /** Calls whose allocation is checked (bench/run.ts runs them in a process of their own). */
  allocation?(): AllocationCase[];
}

export interface TimingOptions {
  /** Samples per contender; the median is reported. */
  rounds: number;
  /** Aimed duration of one sample (one batch of calls), in milliseconds. */
  batchMs: number;
  /** Progress lines go here (stderr), so stdout carries only results. */
  log(line: string): void;
}

export interface Measurement {
  name: string;
  kind: Contender["kind"];
  /** Set when the contender asked for a ratio column (see `Contender.headline`). */
  headline?: boolean;
  /** Set when every call drew a fresh random nonce (see `Contender.nonce`). */
  nonce?: "random";
  /** Median over the rounds. */
  nsPerOp: number;
  /** Message bytes per second at the median, in MB/s (10^6 bytes). */
  mbPerS: number;
  /** (p75 - p25) / median: how far the samples disagree. */
  spread: number;
  /** Calls per sample. */
  batch: number;
}

/** "keyed" and "keyed <variant>" are ours; every other contender is a peer. */
export const isOurs = (m: { name: string }): boolean =>
  m.name === "keyed" || m.name.startsWith("keyed ");

/**
 * The peer rows a row of ours is measured against: those that draw a random nonce per call when
 * it does, and those that do not when it does not (`Contender.nonce`).
 */
export function comparablePeers<R extends { name: string; nonce?: "random" }>(
  results: readonly R[],
  mine: { nonce?: "random" },
): R[] {
  return results.filter((r) => !isOurs(r) && r.nonce === mine.nonce);
}

/**
 * A peer row that does what the peer's user must do for a safe nonce MAC: draw a fresh random
 * nonce per tag, into `nonce`, from the source keyed's safe MACs draw from (Web Crypto), then tag
 * under it. `oracle` gives the expected tag under the nonce drawn last (another library's code).
 */
export function randomNoncePeer(
  library: string,
  nonce: Uint8Array,
  tag: (nonce: Uint8Array) => Uint8Array,
  oracle: (nonce: Uint8Array) => Uint8Array,
): Contender {
  return {
    name: `${library} random-nonce`,
    kind: "one-shot",
    nonce: "random",
    fn: () => consume(tag(globalThis.crypto.getRandomValues(nonce))),
    expectedFor: () => oracle(nonce),
  };
}

/** The fastest of `comparablePeers`, or undefined when there is none. */
export function fastestPeer<R extends { name: string; nonce?: "random"; nsPerOp: number }>(
  results: readonly R[],
  mine: { nonce?: "random" },
): R | undefined {
  const peers = comparablePeers(results, mine);
  return peers.length === 0 ? undefined : peers.reduce((a, b) => (b.nsPerOp < a.nsPerOp ? b : a));
}

/** 16 B, 8 KiB, 1 MiB. */
export function sizeLabel(bytes: number): string {
  if (bytes >= 1 << 20 && bytes % (1 << 20) === 0) return `${bytes / (1 << 20)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} B`;
}

export interface CaseResult {
  algorithm: string;
  size: number;
  results: Measurement[];
  /** Set when the case was measured more than once (bench/run.ts, measureSteadily). */
  measures?: number;
}

/**
 * A sentence for a suite's notes: how keyed's engine splits `families` between its own kernels
 * (`below`: JavaScript unless told) and node:crypto in this run (src/engine/select.ts). Past the
 * crossover, keyed's rows time node:crypto plus keyed's wrapper.
 */
export function engineNote(
  families: NativeFamily[],
  rows: string,
  below = "keyed's own JavaScript kernels",
): string {
  const Rows = rows.charAt(0).toUpperCase() + rows.slice(1);
  if (nativeCrypto === undefined) {
    const own =
      FORCED_BACKEND === "js"
        ? "JavaScript kernels"
        : `kernels (${below.replace(/^keyed's /, "")})`;
    return `${Rows} run keyed's own ${own} at every size (no node:crypto backend in this run).`;
  }
  if (FORCED_BACKEND === "native") {
    return `${Rows} run on node:crypto at every size (KEYED_BACKEND=native).`;
  }
  const from =
    families.length === 1
      ? `from ${NATIVE_CROSSOVER[families[0]]} bytes on`
      : `from ${families
          .map((f, i) => `${NATIVE_CROSSOVER[f]}${i === 0 ? " bytes" : ""} on for ${f}`)
          .join(", ")}`;
  return (
    `keyed's engine hands messages to node:crypto ${from} (src/engine/select.ts): from there, ` +
    `${rows} time node:crypto plus keyed's wrapper; below, ${below}.`
  );
}

// Results go to a module-level object, so V8 cannot drop a call as dead code.
const sink: { last: Uint8Array } = { last: new Uint8Array(1) };

/** Keeps a result alive; every contender passes its output here, so all pay the same for it. */
export function consume(bytes: Uint8Array): void {
  sink.last = bytes;
}

const EMPTY = new Uint8Array(0);

function hex(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.length).toString("hex");
}

/** Throws unless what contender `k` last passed to `consume` is what it should be. */
function checkOutput(c: BenchCase, k: Contender, expected: Uint8Array, reference: string): void {
  const got = hex(sink.last);
  const want = hex(k.expectedFor ? k.expectedFor(sink.last) : expected);
  if (got !== want) {
    throw new Error(
      `${c.algorithm} ${c.size} B: ${k.name} ${k.kind} gave ${got}; ${reference} gave ${want}`,
    );
  }
}

/**
 * Runs each contender twice (a prepared one must stay right when its state is reused) and throws
 * unless the output it passed to `consume` is `expected` both times. Synchronous contenders only;
 * `checkContendersAsync` takes any.
 */
export function checkContenders(c: BenchCase, expected: Uint8Array, reference: string): void {
  for (const k of c.contenders) {
    if (k.async) throw new Error(`${k.name} is asynchronous: check it with checkContendersAsync`);
    for (let i = 0; i < 2; i++) {
      sink.last = EMPTY;
      k.fn();
      checkOutput(c, k, expected, reference);
    }
  }
}

/** `checkContenders` for cases that may have asynchronous contenders. */
export async function checkContendersAsync(
  c: BenchCase,
  expected: Uint8Array,
  reference: string,
): Promise<void> {
  for (const k of c.contenders) {
    for (let i = 0; i < 2; i++) {
      sink.last = EMPTY;
      await k.fn();
      checkOutput(c, k, expected, reference);
    }
  }
}

/**
 * What a batch measures: its time in ms (timed between two collectYoung()s, the first untimed, the
 * second timed), or the ArrayBuffer memory its calls leave behind, in bytes (after one untimed
 * full collection, before the next: what they allocated off V8's heap).
 */
type Measure = "time" | "offHeap";

/** Runs `fn` `n` times and returns what the loop measures. */
type Loop = (fn: () => void, n: number) => number;
type AsyncLoop = (fn: () => Promise<void>, n: number) => Promise<number>;
const AsyncFunction = (async () => {}).constructor as new (...args: string[]) => AsyncLoop;

const arrayBuffers = (): number => process.memoryUsage().arrayBuffers;

/**
 * A loop compiled for one contender. With one loop shared by all, its call site would see every
 * contender's function, and V8 would deoptimize and recompile it in the middle of samples; with
 * its own, each contender's function can be inlined into its loop, the same for every contender.
 */
function makeLoop(measure: Measure): Loop {
  const loop = new Function("collect", "arrayBuffers", "fn", "n", loopBody("fn()", measure));
  const collect = collectorFor(measure);
  return (fn, n) => loop(collect, arrayBuffers, fn, n);
}

/** The same for an asynchronous contender: each call is awaited before the next. */
function makeAsyncLoop(measure: Measure): AsyncLoop {
  const loop = new AsyncFunction(
    "collect",
    "arrayBuffers",
    "fn",
    "n",
    loopBody("await fn()", measure),
  ) as unknown as (
    collect: () => void,
    arrayBuffers: () => number,
    fn: () => Promise<void>,
    n: number,
  ) => Promise<number>;
  const collect = collectorFor(measure);
  return (fn, n) => loop(collect, arrayBuffers, fn, n);
}

/**
 * The collection before a batch: a scavenge before a timed one (collectYoung), a full collection
 * before an off-heap probe. A probe counts what its call leaves allocated off V8's heap; where a
 * collection during the call frees earlier outputs that scavenges had promoted to the old
 * generation, the count falls, and with it the cap on the batch: keyed's 1 MiB seal, which
 * allocates 2 MiB, got batches of 47 calls in run 36 (so its probe read at most 0.34 MiB a call),
 * and with them a full collection inside each batch. After a full collection no such garbage is
 * left to free.
 */
function collectorFor(measure: Measure): () => void {
  return measure === "time" ? collectYoung : () => gc();
}

/** A batch of `n` calls, measuring `measure`. */
function loopBody(call: string, measure: Measure): string {
  const calls = `for (let i = 0; i < n; i++) ${call};`;
  return measure === "time"
    ? `collect(); const t = performance.now(); ${calls} collect(); return performance.now() - t;`
    : `collect(); const before = arrayBuffers(); ${calls} return arrayBuffers() - before;`;
}

/** V8's gc(): the one --expose-gc gives, or, when the process started without it, exposed here. */
const gc: (options?: { type: "minor" | "major" }) => void =
  globalThis.gc ??
  (() => {
    setFlagsFromString("--expose-gc");
    return runInNewContext("gc");
  })();

/**
 * A scavenge: V8's young-generation collection, which frees what the calls just made. Each batch
 * starts with one (untimed: the garbage is the previous contender's) and ends with one (timed: the
 * garbage is its own), so no contender pays for another's. Without it the collection that a
 * batch's allocations trigger also frees the tail the previous batch left, and where that tail
 * holds objects with native parts (node:crypto's cipher and hash handles, off-heap Buffers) it
 * costs milliseconds: 2026-12-04, node:crypto's AEAD seal at 8 KiB took 28–36 µs timed alone and
 * 7 µs interleaved with keyed's, whose own time rose to match. Only the young generation: a full
 * collection discards optimized code (it hit node:crypto's JavaScript wrapper after every batch).
 */
export const collectYoung = (): void => gc({ type: "minor" });

/** A batch to run: contender `index`, `calls` times in a row, timed unless `offHeap` is set. */
interface Batch {
  index: number;
  calls: number;
  /** Measure the off-heap memory the calls allocate (bytes) instead of their time. */
  offHeap?: true;
}

/**
 * Warms contender `index` up and returns its calls per `batchMs`. Warm-up runs for at least four
 * batches' worth of time and ends when a batch's time per call agrees within 10% with the fastest
 * seen so far: until then the code is still moving from interpreter to optimized, and a process
 * meeting a new size is still growing its heap. The batch size comes from that fastest time, not
 * the last: a slow moment (a collection, fresh pages, another process) only ever makes a batch
 * slower, and a size taken from one made the batches short for the whole case, so the timed
 * collection at each batch's end weighed on few calls (2026-12-05: keyed's first seals of 1 MiB
 * took 4 ms against 0.5 later, and it got batches of 5 calls against node:crypto's 26, with
 * samples up to 2.4 times its median).
 */
function* calibrate(index: number, batchMs: number): Generator<Batch, number, number> {
  let n = 1;
  let ms = yield { index, calls: n };
  let spent = ms;
  while (ms < batchMs / 4) {
    n *= 2;
    ms = yield { index, calls: n };
    spent += ms;
  }
  let fastest = ms / n;
  for (let tries = 0; tries < 12; tries++) {
    n = Math.max(1, Math.round(batchMs / fastest));
    ms = yield { index, calls: n };
    spent += ms;
    const settled = Math.abs(ms / n - fastest) <= fastest / 10;
    fastest = Math.min(fastest, ms / n);
    if (settled && spent >= 4 * batchMs) break;
  }
  return Math.max(1, Math.round(batchMs / fastest));
}

function quantile(sorted: number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/**
 * The most off-heap memory one batch may allocate (node:crypto's output buffers, Buffers, keyed's
 * outputs past 64 bytes). V8 starts a full collection when off-heap memory grows past a limit
 * between collections, and a batch that crosses it pays for one: with ~20 ms batches of
 * node:crypto's ChaCha20-Poly1305 seal at 8 KiB (~2,000 calls of ~16 KiB each) batches sat on that
 * edge, and the same code in two rows read 10.5 and 13.5 µs (2026-12-05). Capped, such rows agree
 * within 3%. A contender that allocates none (a MAC's 16-byte tag lives on V8's heap) keeps its
 * full batches.
 */
const MAX_BATCH_OFF_HEAP = 16 * 1024 * 1024;

/** Calls per batch for a contender allocating `offHeapPerCall` bytes off V8's heap a call. */
function offHeapCap(offHeapPerCall: number): number {
  return offHeapPerCall > 0
    ? Math.max(1, Math.floor(MAX_BATCH_OFF_HEAP / offHeapPerCall))
    : Infinity;
}

/**
 * Single calls over which a contender's off-heap bytes per call are measured, after its warm-up
 * (so a WebAssembly memory grown on first use is not counted); their median is kept. One call at
 * a time: over several in a row a megabyte-output contender reaches V8's off-heap limit, a
 * collection frees part of what they made, and the estimate falls (node:crypto's 1 MiB seal read
 * a quarter of its 2 MiB a call over 8 calls). The median, not the most: one call in several takes
 * a new 8 KiB slab for Buffer's pool.
 */
const PROBE_CALLS = 8;

/**
 * The measurement of one case, as a plan: it yields the batches to time one at a time, is sent
 * back each batch's milliseconds, and returns the result. `runCase` drives it synchronously and
 * `runCaseAsync` awaits asynchronous contenders: one plan, so both measure the same way.
 */
function* plan(c: BenchCase, options: TimingOptions): Generator<Batch, CaseResult, number> {
  const { contenders } = c;
  options.log(`  ${c.algorithm} ${c.size} B: warm-up`);
  const batches: number[] = [];
  // A batch capped for its off-heap memory (MAX_BATCH_OFF_HEAP) runs that many times per sample,
  // each between its own collections, so that every sample still spans ~batchMs: a sample of 7
  // seals of 1 MiB (3 ms) read 13-20% apart from the next (2026-12-05), and its median over 15
  // rounds moved by as much between runs of the same code.
  const repeats: number[] = [];
  for (let i = 0; i < contenders.length; i++) {
    const calls = yield* calibrate(i, options.batchMs);
    const offHeap: number[] = [];
    for (let probe = 0; probe < PROBE_CALLS; probe++) {
      offHeap.push(yield { index: i, calls: 1, offHeap: true });
    }
    const perCall = quantile(
      offHeap.sort((a, b) => a - b),
      0.5,
    );
    batches.push(Math.min(offHeapCap(perCall), calls));
    repeats.push(Math.max(1, Math.round(calls / batches[i])));
  }
  const samples: number[][] = contenders.map(() => []);
  const n = contenders.length;
  const steps = coprimeSteps(n);
  for (let round = 0; round < options.rounds; round++) {
    // Each batch pays for its own young garbage and no one else's (collectYoung), but not for
    // what its predecessor left in the old generation: the batch after @noble/ciphers' 1 MiB
    // seals (megabytes of JavaScript arrays) ran 5-18% slower, whoever it was (2026-12-05,
    // keyed's AEAD rows: 0.94-1.00 of node:crypto after noble, 1.06-1.18 right after it). So the
    // order changes its step as well as its start from round to round: contender
    // (start + j × step) mod n runs j-th, and with the steps coprime to n every contender follows
    // a different neighbour in turn. A rotation alone kept each one behind the same neighbour.
    const step = steps[round % steps.length];
    for (let j = 0; j < n; j++) {
      const i = (round + j * step) % n;
      let ms = 0;
      for (let r = 0; r < repeats[i]; r++) ms += yield { index: i, calls: batches[i] };
      samples[i].push((ms * 1e6) / (batches[i] * repeats[i]));
    }
  }
  const results = contenders.map((k, i): Measurement => {
    const sorted = samples[i].sort((a, b) => a - b);
    const median = quantile(sorted, 0.5);
    return {
      name: k.name,
      kind: k.kind,
      ...(k.headline ? { headline: true } : {}),
      ...(k.nonce ? { nonce: k.nonce } : {}),
      nsPerOp: median,
      mbPerS: (c.size * 1e3) / median,
      spread: (quantile(sorted, 0.75) - quantile(sorted, 0.25)) / median,
      batch: batches[i] * repeats[i],
    };
  });
  return { algorithm: c.algorithm, size: c.size, results };
}

/** The steps 1 ≤ s < n with gcd(s, n) = 1 ([1] for n ≤ 2): each orders all n contenders. */
export function coprimeSteps(n: number): number[] {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const steps: number[] = [];
  for (let s = 1; s < n; s++) if (gcd(s, n) === 1) steps.push(s);
  return steps.length > 0 ? steps : [1];
}

/** Measures a case of synchronous contenders (`runCaseAsync` takes any). */
export function runCase(c: BenchCase, options: TimingOptions): CaseResult {
  const runners = c.contenders.map((k) => {
    if (k.async) throw new Error(`${k.name} is asynchronous: time it with runCaseAsync`);
    return syncRunner(k.fn);
  });
  const steps = plan(c, options);
  let step = steps.next();
  while (!step.done) step = steps.next(runners[step.value.index](step.value));
  return step.value;
}

/**
 * Measures a case that may have asynchronous contenders. A synchronous contender's loop never
 * yields inside its timed span; the `await` on its result comes after the clock is read.
 */
export async function runCaseAsync(c: BenchCase, options: TimingOptions): Promise<CaseResult> {
  const runners = c.contenders.map((k): ((batch: Batch) => number | Promise<number>) => {
    if (!k.async) return syncRunner(k.fn);
    const time = makeAsyncLoop("time");
    const offHeap = makeAsyncLoop("offHeap");
    const fn = k.fn;
    return (batch) => (batch.offHeap ? offHeap : time)(fn, batch.calls);
  });
  const steps = plan(c, options);
  let step = steps.next();
  while (!step.done) step = steps.next(await runners[step.value.index](step.value));
  return step.value;
}

/** Runs a batch of a synchronous contender: its own loops, one per measure. */
function syncRunner(fn: () => void): (batch: Batch) => number {
  const time = makeLoop("time");
  const offHeap = makeLoop("offHeap");
  return (batch) => (batch.offHeap ? offHeap : time)(fn, batch.calls);
}

/**
 * keyed's two usual rows for one message: the prepared key tagging into `out`, and a new key object
 * per call (`mac(algorithm, key).tag(msg)`).
 */
export function keyedRows(
  algorithm: MacName,
  key: Uint8Array,
  prepared: Mac,
  out: Uint8Array,
  msg: Uint8Array,
  headline?: true,
): Contender[] {
  return [
    { name: "keyed", kind: "prepared", headline, fn: () => consume(prepared.tag(msg, out)) },
    { name: "keyed", kind: "one-shot", headline, fn: () => consume(mac(algorithm, key).tag(msg)) },
  ];
}

/**
 * keyed's rows for a nonce MAC (the safe GMAC and ChaCha20-Poly1305 MACs): the prepared key and a
 * new key object per call, both drawing a fresh random nonce per tag (compared with the
 * random-nonce peers; `expectedFor` checks nonce ‖ tag under the nonce drawn), and the same
 * prepared kernel under the fixed `nonce` (compared with the peers given that nonce).
 */
export function keyedNonceRows(
  algorithm: MacName,
  key: Uint8Array,
  prepared: Mac,
  msg: Uint8Array,
  kernel: MacKernel,
  nonce: Uint8Array,
  expectedFor: (output: Uint8Array) => Uint8Array,
): Contender[] {
  const out = new Uint8Array(prepared.tagLength);
  const kernelOut = new Uint8Array(kernel.outputLength);
  return [
    {
      name: "keyed",
      kind: "prepared",
      headline: true,
      nonce: "random",
      fn: () => consume(prepared.tag(msg, out)),
      expectedFor,
    },
    {
      name: "keyed",
      kind: "one-shot",
      nonce: "random",
      fn: () => consume(mac(algorithm, key).tag(msg)),
      expectedFor,
    },
    {
      name: "keyed kernel",
      kind: "prepared",
      headline: true,
      fn: () => {
        kernel.compute(msg, kernelOut, nonce);
        consume(kernelOut);
      },
    },
  ];
}

/** Random bytes for keys and messages. */
export function random(length: number): Uint8Array {
  return randomFillSync(new Uint8Array(length));
}

// --- allocation ---------------------------------------------------------------------------------

export interface AllocationCase {
  name: string;
  calls: number;
  fn: () => void;
}

export interface AllocationResult {
  name: string;
  calls: number;
  /** heapUsed after a full GC, after the loop minus before it: memory the calls kept. */
  retainedBytes: number;
  /** heapUsed right after the loop minus before it, with no GC forced: what the calls allocated,
   * less whatever a collection during the loop reclaimed. */
  rawDeltaBytes: number;
  /** GC events (of any kind) that started during the loop. */
  gcEvents: number;
}

function collect(): void {
  gc();
}

/** A macrotask: GC performance entries are delivered after the current task ends. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

export async function measureAllocation(c: AllocationCase): Promise<AllocationResult> {
  // Warm up first: compiling and optimizing `fn` allocates (feedback vectors, code objects),
  // and that would be blamed on the calls.
  for (let i = 0; i < Math.min(c.calls, 100_000); i++) c.fn();
  const starts: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) starts.push(entry.startTime);
  });
  observer.observe({ entryTypes: ["gc"] });
  collect();
  await nextTask();
  const before = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  for (let i = 0; i < c.calls; i++) c.fn();
  const t1 = performance.now();
  const raw = process.memoryUsage().heapUsed;
  // Let the observer receive the entries of the loop before counting them; the GC we force
  // next starts after t1 and so is not counted.
  await nextTask();
  await nextTask();
  collect();
  const after = process.memoryUsage().heapUsed;
  await nextTask();
  observer.disconnect();
  return {
    name: c.name,
    calls: c.calls,
    retainedBytes: after - before,
    rawDeltaBytes: raw - before,
    gcEvents: starts.filter((s) => s >= t0 && s <= t1).length,
  };
}

/**
 * The allocation check most suites run: 10^6 tags of a 16-byte message under one prepared key,
 * into `out`, and (with `withoutOut`) into a fresh array each time, for contrast.
 */
export function tagAllocation(
  name: MacName,
  keyLength: number,
  withoutOut = false,
): AllocationCase[] {
  const m = mac(name, random(keyLength));
  const msg = random(16);
  const out = new Uint8Array(m.tagLength);
  const calls = 1_000_000;
  const cases: AllocationCase[] = [
    { name: `${name} tag(msg16, out)`, calls, fn: () => consume(m.tag(msg, out)) },
  ];
  if (withoutOut) cases.push({ name: `${name} tag(msg16)`, calls, fn: () => consume(m.tag(msg)) });
  return cases;
}
