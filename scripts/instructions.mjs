// Counts the instructions one call of a contender costs, where timing is too noisy to tell a few
// percent apart (a shared VM): valgrind's callgrind over `node --single-threaded`, once with N
// calls and once with none after the same warm-up, the difference divided by N. The JavaScript
// functions are named through V8's `--perf-basic-prof` map, so the table says which of keyed's
// functions (and which builtins) the instructions went to.
//
//   node scripts/instructions.mjs <contender> [size] [--calls N] [--warmup W]
//
// Contenders (scripts/instructions/contenders.ts): aead-keyed, aead-keyed-prepared, aead-node,
// aead-node-keyobject, poly1305-keyed, poly1305-hazmat, poly1305-libsodium, hmac-keyed, hmac-node.
// Needs valgrind (Debian: apt-get install valgrind). Counts move by a few hundred instructions
// between runs (collections land differently); compare rows of one run, not single figures.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { build } from "esbuild";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    calls: { type: "string", default: "4000" },
    warmup: { type: "string", default: "30000" },
  },
});
const [contender, size = "8192"] = positionals;
if (contender === undefined) {
  console.error("usage: node scripts/instructions.mjs <contender> [size] [--calls N] [--warmup W]");
  process.exit(2);
}
const calls = Number(values.calls);
const warmup = Number(values.warmup);

const work = mkdtempSync(join(tmpdir(), "keyed-instructions-"));
try {
  const bundle = join(work, "contenders.mjs");
  await build({
    entryPoints: [new URL("instructions/contenders.ts", import.meta.url).pathname],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: bundle,
    logLevel: "warning",
  });

  /** Per-symbol instruction totals (self cost) of a callgrind file, via callgrind_annotate. */
  const costs = (file) => {
    const text = execFileSync("callgrind_annotate", ["--threshold=100", file], {
      encoding: "utf8",
      maxBuffer: 1 << 28,
    });
    const totals = new Map();
    let all = 0;
    for (const line of text.split("\n")) {
      const m = /^\s*([\d,]+) (?:\([^)]*\)\s+)?(.*?)(?: \[.*\])?$/.exec(line);
      if (m === null) continue;
      const count = Number(m[1].replaceAll(",", ""));
      if (m[2].includes("PROGRAM TOTALS")) all = count;
      else totals.set(m[2], (totals.get(m[2]) ?? 0) + count);
    }
    return { all, totals };
  };

  const perfMaps = () => new Set(readdirSync("/tmp").filter((f) => /^perf-\d+\.map$/.test(f)));

  /**
   * Runs the bundle under callgrind with `n` timed calls. Returns the whole count and the counts
   * by name: JIT code has no symbol for valgrind and lands at other addresses in each process, so
   * it is named from that process's perf map (the newest entry for an address wins).
   */
  const run = (n) => {
    const out = join(work, `callgrind.${n}`);
    const mapsBefore = perfMaps();
    execFileSync(
      "valgrind",
      [
        "--tool=callgrind",
        "--smc-check=all-non-file",
        `--callgrind-out-file=${out}`,
        process.execPath,
        "--single-threaded",
        "--perf-basic-prof",
        bundle,
        contender,
        size,
        String(warmup),
        String(n),
      ],
      { cwd: work, stdio: ["ignore", "ignore", "pipe"] },
    );
    const mine = [...perfMaps()].filter((f) => !mapsBefore.has(f)).map((f) => join("/tmp", f));
    const entries = mine
      .flatMap((f) => readFileSync(f, "utf8").trim().split("\n"))
      .map((line) => {
        const [at, length, ...name] = line.split(" ");
        return {
          at: Number.parseInt(at, 16),
          length: Number.parseInt(length, 16),
          name: name.join(" "),
        };
      });
    for (const f of mine) rmSync(f, { force: true });
    const nameOf = (symbol) => {
      const m = /^\?\?\?:0x([0-9a-f]+)$/.exec(symbol);
      if (m === null) return symbol.replace(/^\?\?\?:/, "");
      const address = Number.parseInt(m[1], 16);
      const hit = entries.findLast((e) => e.at <= address && address < e.at + e.length);
      return hit ? hit.name.replace(/file:\/\/\S*\//, "") : "(WebAssembly or unnamed code)";
    };
    const { all, totals } = costs(out);
    const named = new Map();
    for (const [symbol, count] of totals) {
      const name = nameOf(symbol);
      named.set(name, (named.get(name) ?? 0) + count);
    }
    return { all, named };
  };

  const none = run(0);
  const some = run(calls);
  const perCall = new Map();
  for (const [name, count] of some.named)
    perCall.set(name, (count - (none.named.get(name) ?? 0)) / calls);
  console.log(
    `${contender} ${size} B: ${Math.round((some.all - none.all) / calls)} instructions a call`,
  );
  for (const [name, n] of [...perCall].sort((a, b) => b[1] - a[1]).slice(0, 20)) {
    if (n >= 20) console.log(`${String(Math.round(n)).padStart(8)}  ${name}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
