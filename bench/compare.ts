/**
 * How much two benchmark runs differ: for every cell both runs have, keyed's time over the best
 * peer's in each run (the ratio the targets use, so a slower or faster machine cancels out), and
 * how far that ratio moved. Compares the newest saved results in the working tree with those of
 * a git revision, or with an earlier day's files (bench/results/<date>-<suite>.json):
 *
 *   node --import tsx bench/compare.ts <rev | YYYY-MM-DD> [suite ...]
 *
 * Prints, per suite, the median and 90th percentile of |log2(after / before)| as a percentage,
 * and the cells that moved most. Two runs of the same code move by the machine's noise; a change
 * that costs speed shows as cells moving one way.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sizeLabel } from "./harness.js";
import { bestPeer, type Case, ours, PREPARED } from "./targets.js";

const RESULTS = "bench/results";

function newestFiles(): Map<string, string> {
  const newest = new Map<string, string>();
  for (const file of readdirSync(RESULTS)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    newest.set(file.slice(11, -5), file);
  }
  return newest;
}

function casesAt(rev: string, file: string): Case[] | undefined {
  try {
    if (/^\d{4}-\d{2}-\d{2}$/.test(rev)) {
      const path = join(RESULTS, `${rev}${file.slice(10)}`);
      return (JSON.parse(readFileSync(path, "utf8")) as { cases: Case[] }).cases;
    }
    const text = execFileSync("git", ["show", `${rev}:${RESULTS}/${file}`], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      maxBuffer: 64 << 20,
    });
    return (JSON.parse(text) as { cases: Case[] }).cases;
  } catch {
    return undefined;
  }
}

function ratio(c: Case): number | undefined {
  try {
    const mine = ours(c, PREPARED);
    const peer = bestPeer(c, mine);
    return peer === undefined ? undefined : mine.nsPerOp / peer.nsPerOp;
  } catch {
    return undefined;
  }
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

const [rev, ...only] = process.argv.slice(2);
if (rev === undefined) {
  console.error("usage: node --import tsx bench/compare.ts <rev | YYYY-MM-DD> [suite ...]");
  process.exit(2);
}
for (const [suite, file] of newestFiles()) {
  if (only.length > 0 && !only.includes(suite)) continue;
  const before = casesAt(rev, file);
  if (before === undefined) {
    console.log(`${suite}: no ${file} at ${rev}`);
    continue;
  }
  const after = (JSON.parse(readFileSync(join(RESULTS, file), "utf8")) as { cases: Case[] }).cases;
  const moves: { cell: string; before: number; after: number; move: number }[] = [];
  for (const a of after) {
    const b = before.find((c) => c.algorithm === a.algorithm && c.size === a.size);
    const ra = ratio(a);
    const rb = b === undefined ? undefined : ratio(b);
    if (ra === undefined || rb === undefined) continue;
    moves.push({
      cell: `${a.algorithm} ${sizeLabel(a.size)}`,
      before: rb,
      after: ra,
      move: Math.log2(ra / rb),
    });
  }
  if (moves.length === 0) continue;
  const size = moves.map((m) => Math.abs(m.move)).sort((x, y) => x - y);
  const pct = (x: number): string => `${((2 ** x - 1) * 100).toFixed(0)}%`;
  const faster = moves.filter((m) => m.move < 0).length;
  console.log(
    `${suite}: ${moves.length} cells, |move| median ${pct(quantile(size, 0.5))}, ` +
      `90th percentile ${pct(quantile(size, 0.9))}; ${faster} moved toward keyed, ` +
      `${moves.length - faster} away`,
  );
  for (const m of moves.sort((x, y) => Math.abs(y.move) - Math.abs(x.move)).slice(0, 3)) {
    console.log(`  ${m.cell}: ${m.before.toFixed(2)} → ${m.after.toFixed(2)}`);
  }
}
