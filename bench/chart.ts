/**
 * One SVG chart per algorithm for docs/benchmarks.md: throughput against message size, both on
 * log scales, for keyed's rows and for the best peer at each size (the fastest of all peers'
 * rows, named at each point). Plain SVG text, no library.
 */
import { type CaseResult, isOurs, sizeLabel } from "./harness.js";

const WIDTH = 640;
const HEIGHT = 360;
const PLOT = { left: 64, right: 150, top: 36, bottom: 44 };
const KEYED_COLORS = ["#1f5fbf", "#6a9be0", "#123a75"];
const PEER_COLOR = "#c0392b";

function xmlText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

interface Series {
  label: string;
  color: string;
  dashed: boolean;
  points: { size: number; mbPerS: number; note?: string }[];
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
      return { size: c.size, mbPerS: best.mbPerS, note: `${best.name} ${best.kind}` };
    }),
  });
  return out;
}

/** An SVG line chart of MB/s (log) against message size (log) for one algorithm. */
export function chartSvg(algorithm: string, cases: CaseResult[]): string {
  const all = series(cases);
  const sizes = [...new Set(cases.map((c) => c.size))].sort((a, b) => a - b);
  const rates = all.flatMap((s) => s.points.map((p) => p.mbPerS)).filter((r) => r > 0);
  const lo = Math.floor(Math.log10(Math.min(...rates)));
  const hi = Math.ceil(Math.log10(Math.max(...rates)));
  const x0 = Math.log2(sizes[0]);
  const x1 = Math.log2(sizes[sizes.length - 1]);
  const plotW = WIDTH - PLOT.left - PLOT.right;
  const plotH = HEIGHT - PLOT.top - PLOT.bottom;
  const x = (size: number): number =>
    PLOT.left + (x1 === x0 ? plotW / 2 : ((Math.log2(size) - x0) / (x1 - x0)) * plotW);
  const y = (rate: number): number =>
    PLOT.top + plotH - ((Math.log10(rate) - lo) / Math.max(1, hi - lo)) * plotH;
  const f = (n: number): string => n.toFixed(1);

  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="11">`,
    `<title>${xmlText(algorithm)}: keyed and the best peer, throughput by message size</title>`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#fff"/>`,
    `<text x="${PLOT.left}" y="20" font-size="14" font-weight="bold">${xmlText(algorithm)}: throughput (MB/s, log) by message size (log)</text>`,
  ];
  for (let d = lo; d <= hi; d++) {
    const yy = f(y(10 ** d));
    parts.push(
      `<line x1="${PLOT.left}" x2="${PLOT.left + plotW}" y1="${yy}" y2="${yy}" stroke="#ddd"/>`,
      `<text x="${PLOT.left - 6}" y="${yy}" text-anchor="end" dominant-baseline="middle">${10 ** d >= 1 ? 10 ** d : (10 ** d).toPrecision(1)}</text>`,
    );
  }
  for (const size of sizes) {
    const xx = f(x(size));
    parts.push(
      `<line x1="${xx}" x2="${xx}" y1="${PLOT.top}" y2="${PLOT.top + plotH}" stroke="#eee"/>`,
      `<text x="${xx}" y="${PLOT.top + plotH + 16}" text-anchor="middle">${sizeLabel(size)}</text>`,
    );
  }
  parts.push(
    `<text x="${PLOT.left + plotW / 2}" y="${HEIGHT - 6}" text-anchor="middle">message size</text>`,
  );
  all.forEach((s, i) => {
    const path = s.points.map((p) => `${f(x(p.size))},${f(y(p.mbPerS))}`).join(" ");
    const dash = s.dashed ? ' stroke-dasharray="6 4"' : "";
    parts.push(
      `<polyline fill="none" stroke="${s.color}" stroke-width="2"${dash} points="${path}"/>`,
    );
    for (const p of s.points) {
      const title = `${s.label}${p.note ? ` (${p.note})` : ""}: ${sizeLabel(p.size)}, ${p.mbPerS.toPrecision(3)} MB/s`;
      parts.push(
        `<circle cx="${f(x(p.size))}" cy="${f(y(p.mbPerS))}" r="3" fill="${s.color}"><title>${xmlText(title)}</title></circle>`,
      );
      if (p.note) {
        parts.push(
          `<text x="${f(x(p.size))}" y="${f(y(p.mbPerS) + 14)}" text-anchor="middle" font-size="9" fill="${s.color}">${xmlText(p.note)}</text>`,
        );
      }
    }
    const ly = PLOT.top + 10 + i * 18;
    const lx = PLOT.left + plotW + 12;
    parts.push(
      `<line x1="${lx}" x2="${lx + 22}" y1="${ly}" y2="${ly}" stroke="${s.color}" stroke-width="2"${dash}/>`,
      `<text x="${lx + 28}" y="${ly}" dominant-baseline="middle">${xmlText(s.label)}</text>`,
    );
  });
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}
