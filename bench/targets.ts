/**
 * keyed's speed targets, checked against the JSON a full `npm run bench` wrote (the newest file
 * of each suite in bench/results). Every ratio compares rows of one run: keyed's time over the
 * best peer's (under 1: keyed is faster), or keyed's throughput over a peer's. Printed, and
 * written between the `bench:targets` markers of docs/benchmarks.md by a full run.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  cmacFamily,
  hmacFamily,
  NATIVE_CROSSOVER,
  type NativeFamily,
} from "../src/engine/select.js";
import type { OverviewCell } from "./chart.js";
import { comparablePeers, isOurs, sizeLabel } from "./harness.js";

export interface Row {
  name: string;
  kind: string;
  /** "random": every call drew a fresh random nonce (bench/harness.ts `Contender.nonce`). */
  nonce?: "random";
  nsPerOp: number;
  mbPerS: number;
}
export interface Case {
  algorithm: string;
  size: number;
  results: Row[];
}

/** The newest results file of every suite. */
export function loadCases(resultsDir: string): Case[] {
  const newest = new Map<string, string>();
  for (const file of readdirSync(resultsDir)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    newest.set(file.slice(11, -5), file);
  }
  return [...newest.values()].flatMap(
    (file) => (JSON.parse(readFileSync(join(resultsDir, file), "utf8")) as { cases: Case[] }).cases,
  );
}

const fmt = (x: number): string => x.toFixed(2);

/** keyed's row a target is about: the first of `names` ("name kind") the case has. */
export function ours(c: Case, names: string[]): Row {
  for (const n of names) {
    const row = c.results.find((r) => `${r.name} ${r.kind}` === n);
    if (row) return row;
  }
  throw new Error(`${c.algorithm} ${c.size}: none of ${names.join(", ")}`);
}

/** The fastest peer row comparable with `mine` (same nonce regime), of library `only` if given. */
export function bestPeer(c: Case, mine: Row, only?: string): Row | undefined {
  const peers = comparablePeers(c.results, mine).filter(
    (r) => only === undefined || r.name === only,
  );
  return peers.length === 0 ? undefined : peers.reduce((a, b) => (b.nsPerOp < a.nsPerOp ? b : a));
}

/** The node:crypto family an algorithm's long inputs go to (engine/select.ts), if any. */
function nativeFamilyOf(algorithm: string): NativeFamily | undefined {
  if (algorithm.startsWith("hmac-")) return hmacFamily(algorithm.slice("hmac-".length));
  if (algorithm.startsWith("cmac-aes")) return cmacFamily(Number(algorithm.slice(8)) / 8);
  if (algorithm.startsWith("gmac-")) return "gmac";
  if (algorithm === "aead-chacha20-poly1305") return "chacha20-poly1305-aead";
  if (algorithm.endsWith("chacha20-poly1305")) return "chacha20-poly1305";
  return undefined;
}

/**
 * Issue 17's allowance: where keyed calls the same node:crypto function as the fastest peer (the
 * size is past the family's crossover and that peer is node:crypto), keyed's wrapper may cost up
 * to 5%: such a cell is a tie, not a loss.
 */
const NATIVE_TIE = 1.05;

function onNativePath(c: Case, peer: Row): boolean {
  const family = nativeFamilyOf(c.algorithm);
  return (
    family !== undefined &&
    peer.name.startsWith("node:crypto") &&
    c.size >= NATIVE_CROSSOVER[family]
  );
}

export const PREPARED = ["keyed prepared", "keyed hazmat one-shot", "keyed one-shot"];

interface Target {
  what: string;
  size: number;
  algorithm: string;
  /** keyed's rows, first present wins. */
  rows?: string[];
  /** "time": keyed time / best peer time ≤ goal. "rate": keyed MB/s / peer MB/s ≥ goal. */
  measure: "time" | "rate";
  goal: number;
  /** For "rate": the peer (library name) to compare with; default the fastest peer. */
  peer?: string;
}

/**
 * Issue 17's table first (its goals, its sizes), then the first wave's targets that still hold.
 * Rows with a random nonce per tag (the safe GMAC and ChaCha20-Poly1305 MACs) are compared with
 * peers that draw one too; keyed's kernels with a fixed nonce with peers given a fixed nonce.
 */
const TARGETS: Target[] = [
  ...["hmac-sha256", "hmac-sha512", "hmac-sha1"].map(
    (a): Target => ({ what: `${a} prepared`, algorithm: a, size: 16, measure: "time", goal: 0.4 }),
  ),
  // The crossover region (256 B - 4 KiB): at least as fast as createHmac at every measured size.
  ...[256, 1024].map(
    (size): Target => ({
      what: "hmac-sha256 prepared vs createHmac",
      algorithm: "hmac-sha256",
      size,
      measure: "time",
      goal: 1,
      peer: "node:crypto",
    }),
  ),
  // One-time keys at full speed: a new `mac("poly1305", key)` per message.
  ...[34, 1024].map(
    (size): Target => ({
      what: 'poly1305 `mac("poly1305", key).tag()`',
      algorithm: "poly1305",
      size,
      rows: ["keyed one-shot"],
      measure: "time",
      goal: 0.8,
    }),
  ),
  {
    what: "blake3 throughput (single thread)",
    algorithm: "blake3",
    size: 1 << 20,
    measure: "rate",
    goal: 1.7,
    peer: "hash-wasm",
  },
  {
    what: "equal vs crypto.timingSafeEqual",
    algorithm: "equal",
    size: 32,
    rows: ["keyed one-shot"],
    measure: "time",
    goal: 0.5,
  },
  // Batch tagging (issue 17 item 2): per message, against the best peer's single message.
  ...["hmac-sha256", "hmac-sha512", "hmac-sha1"].flatMap((a): Target[] =>
    [16, 64, 128, 256].map(
      (size): Target => ({
        what: `${a} tagMany, per message`,
        algorithm: a,
        size,
        rows: ["keyed tagMany prepared"],
        measure: "time",
        goal: 0.25,
      }),
    ),
  ),
  // The first wave's targets.
  ...["hmac-sha256", "hmac-sha512", "hmac-sha1"].map(
    (a): Target => ({
      what: `${a} vs node:crypto throughput`,
      algorithm: a,
      size: 1 << 20,
      measure: "rate",
      goal: 0.95,
      peer: "node:crypto",
    }),
  ),
  ...[34, 1024].map(
    (size): Target => ({
      what: "poly1305 `poly1305()` (hazmat)",
      algorithm: "poly1305",
      size,
      rows: ["keyed hazmat one-shot"],
      measure: "time",
      goal: size === 34 ? 0.6 : 0.7,
    }),
  ),
  {
    what: "poly1305 vs libsodium throughput",
    algorithm: "poly1305",
    size: 1 << 20,
    rows: ["keyed hazmat one-shot"],
    measure: "rate",
    goal: 1.3,
    peer: "libsodium",
  },
  { what: "cmac-aes128 prepared", algorithm: "cmac-aes128", size: 16, measure: "time", goal: 1 },
  { what: "cmac-aes128 prepared", algorithm: "cmac-aes128", size: 128, measure: "time", goal: 0.6 },
  {
    what: "cmac-aes128 vs node:crypto throughput",
    algorithm: "cmac-aes128",
    size: 8192,
    measure: "rate",
    goal: 0.95,
    peer: "node:crypto",
  },
  {
    what: "gmac-aes128 kernel vs node:crypto throughput (fixed nonce)",
    algorithm: "gmac-aes128",
    size: 8192,
    rows: ["keyed kernel prepared"],
    measure: "rate",
    goal: 0.95,
    peer: "node:crypto",
  },
  {
    what: "gmac-aes128 kernel (fixed nonce)",
    algorithm: "gmac-aes128",
    size: 16,
    rows: ["keyed kernel prepared"],
    measure: "time",
    goal: 0.3,
  },
  { what: "kmac128 prepared", algorithm: "kmac128", size: 16, measure: "time", goal: 0.3 },
  { what: "kmac128 throughput", algorithm: "kmac128", size: 8192, measure: "rate", goal: 3 },
  { what: "blake3 prepared", algorithm: "blake3", size: 16, measure: "time", goal: 0.6 },
  { what: "siphash-2-4 prepared", algorithm: "siphash-2-4", size: 16, measure: "time", goal: 0.6 },
  {
    what: "siphash-2-4 throughput",
    algorithm: "siphash-2-4",
    size: 1024,
    measure: "rate",
    goal: 1,
  },
];

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(3, h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]): string =>
    `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  return [
    line(header),
    `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`,
    ...rows.map(line),
  ].join("\n");
}

/** The targets section of docs/benchmarks.md, from the newest results. */
export function targetsSection(resultsDir: string): string {
  const cases = loadCases(resultsDir);
  const find = (a: string, size: number): Case | undefined =>
    cases.find((c) => c.algorithm === a && c.size === size);

  const rows = TARGETS.map((t) => {
    const c = find(t.algorithm, t.size);
    const goal = `${t.measure === "time" ? "≤" : "≥"} ${t.goal}${t.measure === "rate" ? "×" : ""}`;
    if (c === undefined) return [t.what, sizeLabel(t.size), goal, "not measured", "—"];
    const mine = ours(c, t.rows ?? PREPARED);
    const peer = bestPeer(c, mine, t.peer);
    if (peer === undefined) return [t.what, sizeLabel(t.size), goal, "no peer", "—"];
    const value = t.measure === "time" ? mine.nsPerOp / peer.nsPerOp : mine.mbPerS / peer.mbPerS;
    const met = t.measure === "time" ? value <= t.goal : value >= t.goal;
    const shown = t.measure === "time" ? fmt(value) : `${fmt(value)}×`;
    return [
      t.what,
      sizeLabel(t.size),
      goal,
      `${shown} (vs ${peer.name} ${peer.kind})`,
      met ? "met" : "**missed**",
    ];
  });

  // Every algorithm at every size: keyed's prepared row (or its fast one-shot) against the best
  // comparable peer; a cell over 1.00 on node:crypto's own path within 5% is a tie.
  const over: string[] = [];
  const ties: string[] = [];
  let measured = 0;
  for (const c of cases) {
    // Suites of keyed's rows alone (keyset overhead) have no cell here.
    if (c.results.every(isOurs)) continue;
    const mine = ours(c, PREPARED);
    const peer = bestPeer(c, mine);
    if (peer === undefined) continue;
    measured++;
    const ratio = mine.nsPerOp / peer.nsPerOp;
    const cell = `${c.algorithm} ${sizeLabel(c.size)}: ${fmt(ratio)} (${peer.name} ${peer.kind})`;
    // Two decimals, as printed: 1.004 is a tie within what one run resolves.
    if (ratio < 1.005) continue;
    if (onNativePath(c, peer) && ratio <= NATIVE_TIE) ties.push(cell);
    else over.push(cell);
  }
  const everywhere =
    `**Every algorithm, every size (≤ 1.0):** ${measured - over.length - ties.length} of ${measured} ` +
    "cells met (keyed's prepared row, or its one-shot where keys are one-time, against the fastest " +
    "comparable peer row: random-nonce rows against random-nonce rows)" +
    (ties.length > 0
      ? `; ${ties.length} ties on node:crypto's own path, within 5%: ${ties.join("; ")}`
      : "") +
    (over.length > 0 ? `. **Over:** ${over.join("; ")}.` : ". None over.");
  return `${table(["target", "size", "goal", "this run", "verdict"], rows)}\n\n${everywhere}`;
}

/** keyed's prepared row (or its one-shot) over the fastest peer, for every measured cell. */
export function overviewCells(resultsDir: string): OverviewCell[] {
  const cells: OverviewCell[] = [];
  for (const c of loadCases(resultsDir)) {
    if (c.results.every(isOurs)) continue;
    const mine = ours(c, PREPARED);
    const peer = bestPeer(c, mine);
    if (peer === undefined) continue;
    const ratio = mine.nsPerOp / peer.nsPerOp;
    cells.push({ algorithm: c.algorithm, size: c.size, ratio, peer: `${peer.name} ${peer.kind}` });
  }
  return cells;
}
