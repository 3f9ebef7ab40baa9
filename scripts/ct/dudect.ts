/**
 * A dudect-style timing leakage test: Reparaz, Balasch, Verbauwhede, "Dude, is my code constant
 * time?", DATE 2017 (https://eprint.iacr.org/2016/1123). Its steps, here:
 *
 * 1. Two input classes; each measurement picks its class with a fresh random bit, so drift
 *    (JIT tiers, GC, frequency scaling, other processes) hits both classes alike (paper §2, step 1).
 * 2. Inputs are prepared before the timed region; one measurement times a fixed batch of calls,
 *    because one call is close to the cost and resolution of `process.hrtime.bigint()`.
 * 3. Post-processing: besides the raw data, measurements above each of 100 percentile thresholds
 *    are cropped, as in the reference code (paper §2, step 2); heavy right tails come from
 *    interrupts and GC, not from the code under test.
 * 4. Welch's t-test per crop, online (Welford) mean and variance (step 3); the largest |t| counts.
 *
 * The reference code's second-order (centred product) test is left out.
 */

/** Which of the two input classes a measurement belongs to. */
export type InputClass = 0 | 1;

/** What the runner measures. `I` is the prepared input of one measurement. */
export interface Target<I> {
  /** Row label, e.g. "equal (32 B)". */
  readonly name: string;
  /** Labels of class 0 and class 1. */
  readonly classes: readonly [string, string];
  /** A deliberately leaky target: it must show a leak, which shows that the test can fail. */
  readonly control?: boolean;
  /**
   * The two classes give different results (accept vs reject). Turning the comparison into a JS
   * boolean costs one data-dependent branch in V8, so such a target can show the outcome — which
   * the caller is told anyway. Reported, but it does not fail the run.
   */
  readonly revealsOutcome?: boolean;
  /** Calls per measurement: enough that one measurement is well above timer resolution. */
  readonly batch: number;
  /** A fresh input of class `cls`. Called outside the timed region. */
  input(cls: InputClass): I;
  /** The operation under test. Its result is kept, so the call cannot be optimized away. */
  run(input: I): unknown;
}

/**
 * Erases the input type so that targets of different inputs fit one list. Sound because the
 * runner only passes `run` what the same target's `input` returned.
 */
export function defineTarget<I>(target: Target<I>): Target<unknown> {
  return target;
}

/** Random input bytes. `getRandomValues` costs microseconds per call, so it is drawn in bulk. */
const pool = new Uint8Array(65536);
let poolAt = pool.length;

export function randomInput(length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let at = 0; at < length; ) {
    if (poolAt === pool.length) {
      crypto.getRandomValues(pool);
      poolAt = 0;
    }
    const n = Math.min(length - at, pool.length - poolAt);
    out.set(pool.subarray(poolAt, poolAt + n), at);
    poolAt += n;
    at += n;
  }
  return out;
}

/** Running mean and variance (Welford), as the reference code's `t_push`. */
export class Welford {
  n = 0;
  mean = 0;
  private m2 = 0;

  push(x: number): void {
    this.n++;
    const delta = x - this.mean;
    this.mean += delta / this.n;
    this.m2 += delta * (x - this.mean);
  }

  /** Sample variance (n - 1). */
  variance(): number {
    return this.n > 1 ? this.m2 / (this.n - 1) : 0;
  }
}

/** Welch's t statistic between two samples; 0 while either is too small to say anything. */
export function welchT(a: Welford, b: Welford): number {
  if (a.n < 2 || b.n < 2) return 0;
  const se = Math.sqrt(a.variance() / a.n + b.variance() / b.n);
  return se > 0 ? (a.mean - b.mean) / se : 0;
}

/** |t| thresholds (the paper's 4.5; 10 leaves room for noise on a shared machine). */
export const T_NO_LEAK = 4.5;
export const T_LEAK = 10;

export type Verdict = "no leak detected" | "inconclusive" | "LEAK";

export function verdict(maxT: number): Verdict {
  if (maxT < T_NO_LEAK) return "no leak detected";
  if (maxT < T_LEAK) return "inconclusive";
  return "LEAK";
}

/** Crop thresholds as in the reference code: percentiles 1 - 0.5^(10 (i + 1) / 100). */
const PERCENTILES = 100;
/** A crop enters the maximum only with this many measurements (the reference code's rule). */
const ENOUGH_MEASUREMENTS = 10_000;

export interface RunOptions {
  /** Measuring time for this target, warm-up excluded. */
  seconds: number;
  /** Measurements prepared and timed together. */
  chunk?: number;
}

export interface Result {
  name: string;
  classes: readonly [string, string];
  control: boolean;
  revealsOutcome: boolean;
  /** Measurements that entered the statistics (warm-up and calibration excluded). */
  measurements: number;
  batch: number;
  /** Largest |t| over the raw data and every crop with enough measurements. */
  maxT: number;
  /** The signed t behind `maxT`: positive when class 0 is slower. */
  t: number;
  /** Which data gave `maxT`: "raw" or "< p<percentile>". */
  maxTAt: string;
  /** Mean time of one call per class, below the highest crop (for scale, not a benchmark). */
  nsPerCall: [number, number];
  verdict: Verdict;
  seconds: number;
}

/** Runs `target` for about `options.seconds` and returns its statistics. */
export function runTarget(target: Target<unknown>, options: RunOptions): Result {
  const chunk = options.chunk ?? 10_000;
  const times = new Float64Array(chunk);
  const classes = new Uint8Array(chunk);

  // The first chunk only warms the JIT up; the second sets the crop thresholds (as the reference
  // code does with its first batch) and is discarded too, so the thresholds do not depend on the
  // data they crop.
  measureChunk(target, classes, times);
  measureChunk(target, classes, times);
  const sorted = Float64Array.from(times).sort();
  const thresholds = new Float64Array(PERCENTILES);
  for (let i = 0; i < PERCENTILES; i++) {
    const q = 1 - 0.5 ** ((10 * (i + 1)) / PERCENTILES);
    thresholds[i] = sorted[Math.min(chunk - 1, Math.floor(q * chunk))];
  }

  // tests[0] is the raw data; tests[i + 1] keeps measurements below thresholds[i].
  const tests: [Welford, Welford][] = [];
  for (let i = 0; i <= PERCENTILES; i++) tests.push([new Welford(), new Welford()]);

  const start = performance.now();
  let measurements = 0;
  do {
    measureChunk(target, classes, times);
    for (let m = 0; m < chunk; m++) {
      const x = times[m];
      const c = classes[m];
      tests[0][c].push(x);
      // Thresholds ascend, so scan down from the highest and stop at the first that crops x.
      for (let i = PERCENTILES - 1; i >= 0 && x < thresholds[i]; i--) tests[i + 1][c].push(x);
    }
    measurements += chunk;
  } while (performance.now() - start < options.seconds * 1000);

  const [top0, top1] = tests[PERCENTILES];
  const nsPerCall: [number, number] = [top0.mean / target.batch, top1.mean / target.batch];

  let maxT = 0;
  let signedT = 0;
  let maxTAt = "raw";
  for (let i = 0; i <= PERCENTILES; i++) {
    const [a, b] = tests[i];
    if (a.n + b.n < ENOUGH_MEASUREMENTS) continue;
    const t = welchT(a, b);
    if (Math.abs(t) > maxT) {
      maxT = Math.abs(t);
      signedT = t;
      maxTAt = i === 0 ? "raw" : `< p${(100 * (1 - 0.5 ** ((10 * i) / PERCENTILES))).toFixed(1)}`;
    }
  }

  return {
    name: target.name,
    classes: target.classes,
    control: target.control === true,
    revealsOutcome: target.revealsOutcome === true,
    measurements,
    batch: target.batch,
    maxT,
    t: signedT,
    maxTAt,
    nsPerCall,
    verdict: verdict(maxT),
    seconds: (performance.now() - start) / 1000,
  };
}

/** Fills `classes` with random bits and `times` with the nanoseconds of each measurement. */
function measureChunk(target: Target<unknown>, classes: Uint8Array, times: Float64Array): void {
  crypto.getRandomValues(classes);
  const inputs: unknown[] = [];
  for (let m = 0; m < classes.length; m++) {
    classes[m] &= 1;
    inputs.push(target.input(classes[m] as InputClass));
  }
  const batch = target.batch;
  let sink: unknown;
  for (let m = 0; m < classes.length; m++) {
    const input = inputs[m];
    const t0 = process.hrtime.bigint();
    for (let k = 0; k < batch; k++) sink = target.run(input);
    const t1 = process.hrtime.bigint();
    times[m] = Number(t1 - t0);
  }
  keep = sink;
}

/** Where results go so that the engine cannot prove the calls useless. */
export let keep: unknown;

/** The results as a Markdown table. */
export function formatTable(results: readonly Result[]): string {
  const rows = [
    [
      "target",
      "classes (0 vs 1)",
      "measurements",
      "calls each",
      "ns/call (0 / 1)",
      "max \\|t\\|",
      "verdict",
    ],
    ["---", "---", "---:", "---:", "---:", "---:", "---"],
  ];
  for (const r of results) {
    rows.push([
      r.control ? `${r.name} (control)` : r.revealsOutcome ? `${r.name} (outcome)` : r.name,
      `${r.classes[0]} vs ${r.classes[1]}`,
      r.measurements.toLocaleString("en-US"),
      String(r.batch),
      `${r.nsPerCall[0].toFixed(0)} / ${r.nsPerCall[1].toFixed(0)}`,
      `${r.maxT.toFixed(2)} (${r.maxTAt})`,
      r.control && r.verdict === "LEAK"
        ? "LEAK (expected)"
        : r.revealsOutcome && r.verdict !== "no leak detected"
          ? `${r.verdict}: outcome only`
          : r.verdict,
    ]);
  }
  return rows.map((cells) => `| ${cells.join(" | ")} |`).join("\n");
}
