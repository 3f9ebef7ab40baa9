/**
 * The SVG charts of docs/benchmarks.md, plain SVG text, no library:
 * - one per algorithm: throughput against message size, both on log scales, for keyed's rows and
 *   the best peer at each size (higher is better), with the machine and date under the title;
 * - one overview: keyed's time ÷ the fastest peer's for every algorithm and size (a heat map;
 *   below 1, keyed is faster).
 */
import { type CaseResult, isOurs, sizeLabel } from "./harness.js";

const WIDTH = 680;
const KEYED_COLORS = ["#1f5fbf", "#6a9be0", "#123a75"];
const PEER_COLOR = "#c0392b";
/** An estimate of the width of one character at 11 px sans-serif, for laying out text. */
const CHAR_WIDTH = 6.3;

function xmlText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Where and when a run was made, printed under every chart's title. */
export interface ChartMeta {
  machine: string;
  date: string;
}

interface Series {
  label: string;
  color: string;
  dashed: boolean;
  points: { size: number; mbPerS: number; peer?: string }[];
}

/** The series of one algorithm: each keyed row, then the best peer per size. */
function series(cases: CaseResult[]): Series[] {
  const out: Series[] = [];
  const keyedRows = cases[0].results.filter(isOurs);
  keyedRows.forEach((row, i) => {
    out.push({
      label: `${row.name} ${row.kind}`,
      color: KEYED_COLORS[i % KEYED_COLORS.length],
      dashed: row.kind === "one-shot",
      points: cases.flatMap((c) => {
        const m = c.results.find((r) => r.name === row.name && r.kind === row.kind);
        return m === undefined ? [] : [{ size: c.size, mbPerS: m.mbPerS }];
      }),
    });
  });
  if (cases.every((c) => c.results.every(isOurs))) return out;
  out.push({
    label: "best peer",
    color: PEER_COLOR,
    dashed: false,
    points: cases.map((c) => {
      const best = c.results
        .filter((m) => !isOurs(m))
        .reduce((a, b) => (b.nsPerOp < a.nsPerOp ? b : a));
      return { size: c.size, mbPerS: best.mbPerS, peer: `${best.name} ${best.kind}` };
    }),
  });
  return out;
}

/** "noble prepared (16 B–64 B), node:crypto one-shot (128 B–1 MiB)": which peer was best where. */
function peerRanges(points: Series["points"]): string {
  const runs: { peer: string; from: number; to: number }[] = [];
  for (const p of points) {
    const last = runs[runs.length - 1];
    if (last !== undefined && last.peer === p.peer) last.to = p.size;
    else runs.push({ peer: p.peer ?? "", from: p.size, to: p.size });
  }
  return runs
    .map((r) =>
      r.from === r.to
        ? `${r.peer} (${sizeLabel(r.from)})`
        : `${r.peer} (${sizeLabel(r.from)}–${sizeLabel(r.to)})`,
    )
    .join(", ");
}

/** Lines of at most `width` characters, broken at ", ". */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const part of text.split(", ")) {
    const next = line === "" ? part : `${line}, ${part}`;
    if (next.length > width && line !== "") {
      lines.push(`${line},`);
      line = part;
    } else line = next;
  }
  if (line !== "") lines.push(line);
  return lines;
}

function header(title: string, meta: ChartMeta | undefined): string[] {
  return [
    `<text x="16" y="22" font-size="14" font-weight="bold">${xmlText(title)}</text>`,
    ...(meta === undefined
      ? []
      : [
          `<text x="16" y="40" fill="#555">${xmlText(`${meta.machine}; ${meta.date.slice(0, 10)}`)}</text>`,
        ]),
  ];
}

/** An SVG line chart of MB/s (log) against message size (log) for one algorithm. */
export function chartSvg(algorithm: string, cases: CaseResult[], meta?: ChartMeta): string {
  const all = series(cases);
  const peer = all.find((s) => s.label === "best peer");
  const legendWidth = 40 + CHAR_WIDTH * Math.max(...all.map((s) => s.label.length));
  const footnote = peer === undefined ? [] : wrap(`best peer: ${peerRanges(peer.points)}`, 100);
  const plot = { left: 64, right: legendWidth + 16, top: 56, bottom: 48 + 14 * footnote.length };
  const height = 340 + 14 * footnote.length;
  const sizes = [...new Set(cases.map((c) => c.size))].sort((a, b) => a - b);
  const rates = all.flatMap((s) => s.points.map((p) => p.mbPerS)).filter((r) => r > 0);
  const lo = Math.floor(Math.log10(Math.min(...rates)));
  const hi = Math.ceil(Math.log10(Math.max(...rates)));
  const x0 = Math.log2(sizes[0]);
  const x1 = Math.log2(sizes[sizes.length - 1]);
  const plotW = WIDTH - plot.left - plot.right;
  const plotH = height - plot.top - plot.bottom;
  const x = (size: number): number =>
    plot.left + (x1 === x0 ? plotW / 2 : ((Math.log2(size) - x0) / (x1 - x0)) * plotW);
  const y = (rate: number): number =>
    plot.top + plotH - ((Math.log10(rate) - lo) / Math.max(1, hi - lo)) * plotH;
  const f = (n: number): string => n.toFixed(1);

  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="11">`,
    `<title>${xmlText(algorithm)}: keyed and the best peer, throughput by message size</title>`,
    `<rect width="${WIDTH}" height="${height}" fill="#fff"/>`,
    ...header(`${algorithm}: throughput by message size (higher is better)`, meta),
    `<text transform="translate(14 ${f(plot.top + plotH / 2)}) rotate(-90)" text-anchor="middle">MB/s (log scale)</text>`,
  ];
  for (let d = lo; d <= hi; d++) {
    const yy = f(y(10 ** d));
    parts.push(
      `<line x1="${plot.left}" x2="${plot.left + plotW}" y1="${yy}" y2="${yy}" stroke="#ddd"/>`,
      `<text x="${plot.left - 6}" y="${yy}" text-anchor="end" dominant-baseline="middle">${10 ** d >= 1 ? 10 ** d : (10 ** d).toPrecision(1)}</text>`,
    );
  }
  // Size labels that would touch the previous one are left out (64 B and 128 B sit close).
  let lastLabelEnd = Number.NEGATIVE_INFINITY;
  for (const size of sizes) {
    const xx = x(size);
    parts.push(
      `<line x1="${f(xx)}" x2="${f(xx)}" y1="${plot.top}" y2="${plot.top + plotH}" stroke="#eee"/>`,
    );
    const label = sizeLabel(size);
    const half = (CHAR_WIDTH * label.length) / 2;
    if (xx - half < lastLabelEnd + 6) continue;
    lastLabelEnd = xx + half;
    parts.push(
      `<text x="${f(xx)}" y="${plot.top + plotH + 16}" text-anchor="middle">${label}</text>`,
    );
  }
  parts.push(
    `<text x="${plot.left + plotW / 2}" y="${plot.top + plotH + 34}" text-anchor="middle">message size (log scale)</text>`,
  );
  footnote.forEach((line, i) => {
    parts.push(
      `<text x="16" y="${height - 10 - 14 * (footnote.length - 1 - i)}" fill="${PEER_COLOR}">${xmlText(line)}</text>`,
    );
  });
  all.forEach((s, i) => {
    const path = s.points.map((p) => `${f(x(p.size))},${f(y(p.mbPerS))}`).join(" ");
    const dash = s.dashed ? ' stroke-dasharray="6 4"' : "";
    parts.push(
      `<polyline fill="none" stroke="${s.color}" stroke-width="2"${dash} points="${path}"/>`,
    );
    for (const p of s.points) {
      const title = `${s.label}${p.peer ? ` (${p.peer})` : ""}: ${sizeLabel(p.size)}, ${p.mbPerS.toPrecision(3)} MB/s`;
      parts.push(
        `<circle cx="${f(x(p.size))}" cy="${f(y(p.mbPerS))}" r="3" fill="${s.color}"><title>${xmlText(title)}</title></circle>`,
      );
    }
    const ly = plot.top + 10 + i * 18;
    const lx = plot.left + plotW + 16;
    parts.push(
      `<line x1="${lx}" x2="${lx + 22}" y1="${ly}" y2="${ly}" stroke="${s.color}" stroke-width="2"${dash}/>`,
      `<text x="${lx + 28}" y="${ly}" dominant-baseline="middle">${xmlText(s.label)}</text>`,
    );
  });
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}

/** One cell of the overview: keyed's time over the fastest peer's, or undefined (no peer). */
export interface OverviewCell {
  algorithm: string;
  size: number;
  ratio: number;
  peer: string;
}

/** Green below 1 (keyed faster), white at 1, red above; log scale, saturating at 4× either way. */
function ratioColor(ratio: number): string {
  const t = Math.max(-1, Math.min(1, Math.log(ratio) / Math.log(4)));
  const mix = (a: number, b: number, w: number) => Math.round(a + (b - a) * w);
  const [r, g, b] =
    t < 0
      ? [mix(255, 46, -t), mix(255, 160, -t), mix(255, 67, -t)]
      : [mix(255, 214, t), mix(255, 69, t), mix(255, 65, t)];
  return `rgb(${r},${g},${b})`;
}

/** The heat map of keyed ÷ best peer, algorithms down, sizes across. */
export function overviewSvg(cells: OverviewCell[], meta?: ChartMeta): string {
  const algorithms = [...new Set(cells.map((c) => c.algorithm))];
  const sizes = [...new Set(cells.map((c) => c.size))].sort((a, b) => a - b);
  const nameWidth = 16 + CHAR_WIDTH * Math.max(...algorithms.map((a) => a.length));
  const cellW = Math.min(64, (WIDTH - nameWidth - 16) / sizes.length);
  const cellH = 18;
  const top = 100;
  const height = top + cellH * algorithms.length + 40;
  const width = Math.max(WIDTH, nameWidth + cellW * sizes.length + 16);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    "<title>keyed's time over the fastest peer's, every algorithm and size</title>",
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    ...header("keyed's time ÷ the fastest peer's (below 1: keyed is faster)", meta),
    `<text x="16" y="58" fill="#555">green: keyed is faster, red: slower. keyed's prepared key (its one-shot call where keys are one-time)</text>`,
    `<text x="16" y="72" fill="#555">against every peer row measured in the same run; hover a cell for the peer.</text>`,
  ];
  sizes.forEach((size, j) => {
    parts.push(
      `<text x="${(nameWidth + cellW * (j + 0.5)).toFixed(1)}" y="${top - 8}" text-anchor="middle">${sizeLabel(size)}</text>`,
    );
  });
  algorithms.forEach((algorithm, i) => {
    const yy = top + cellH * i;
    parts.push(
      `<text x="${nameWidth - 8}" y="${yy + cellH / 2}" text-anchor="end" dominant-baseline="middle">${xmlText(algorithm)}</text>`,
    );
    sizes.forEach((size, j) => {
      const cell = cells.find((c) => c.algorithm === algorithm && c.size === size);
      const xx = nameWidth + cellW * j;
      if (cell === undefined) return;
      const title = `${algorithm} ${sizeLabel(size)}: ${cell.ratio.toFixed(2)} (vs ${cell.peer})`;
      parts.push(
        `<rect x="${xx.toFixed(1)}" y="${yy}" width="${(cellW - 1).toFixed(1)}" height="${cellH - 1}" fill="${ratioColor(cell.ratio)}"><title>${xmlText(title)}</title></rect>`,
        `<text x="${(xx + cellW / 2).toFixed(1)}" y="${yy + cellH / 2}" text-anchor="middle" dominant-baseline="middle">${cell.ratio.toFixed(2)}</text>`,
      );
    });
  });
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}
