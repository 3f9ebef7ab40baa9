// Mutation testing (docs/assurance.md, "Mutation testing"): `npm run mutate`. Not part of CI: a
// full run takes tens of minutes on two cores.
//
// KEYED_MUTATE picks the parts, comma-separated (default "core,safe,protocols"):
//   core       src/core/*.ts, against test/core
//   safe       src/safe/*.ts, against test/safe
//   protocols  the verify paths of webhooks, jwt and sigv4, against their edge and main test files
// Each part brings its own test files, so a narrowed run also has a shorter dry run.
//
// The tap runner runs each test file as `node -r <stryker hook> <file>` in one process (not
// `node --test`, whose subprocesses would hide the hook's coverage from Stryker), so a test file is
// Stryker's unit: a mutant runs the files that reach it, in this order, and stops at the first
// failure. Each run is a fresh process, so after Stryker has put the mutants into its copy of the
// sources, `node stryker.config.mjs build` (the buildCommand) turns src and test into JavaScript
// under .mutate-js once: that halves the start-up of every run against loading them through tsx.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// Stryker runs the tests in a copy under .stryker-tmp, where test/vectors.ts would look for
// ../shared/vectors in the wrong place: name the folder beside the repository here.
process.env.KEYED_VECTORS ??= resolve("..", "shared", "vectors");
process.env.KEYED_SKIP_LARGE ??= "1";

/**
 * `file:start-end` ranges of the top-level functions named in `names` (or starting with "verify"),
 * found in the current text, so the ranges follow the file as others edit it.
 */
function functionRanges(file, names) {
  const lines = readFileSync(file, "utf8").split("\n");
  const ranges = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(?:export )?(?:async )?function (\w+)/.exec(lines[i]);
    if (!m || !(m[1].startsWith("verify") || names.includes(m[1]))) continue;
    let end = i + 1;
    while (end < lines.length && lines[end] !== "}") end++;
    ranges.push(`${file}:${i + 1}-${end + 1}`);
  }
  return ranges;
}

const BUILD_DIR = ".mutate-js";

/** Transpiles src (less the AssemblyScript sources) and test to JavaScript under BUILD_DIR. */
async function build() {
  const { build: esbuild } = await import("esbuild"); // tsx's own transpiler
  const sources = (dir, skip) =>
    readdirSync(dir, { recursive: true })
      .filter((f) => f.endsWith(".ts") && !(skip && f.startsWith(skip)))
      .map((f) => join(dir, f));
  await esbuild({
    entryPoints: [...sources("src", join("engine", "wasm", "assembly")), ...sources("test")],
    outdir: BUILD_DIR,
    outbase: ".",
    format: "esm",
    platform: "node",
    target: "node20",
    logLevel: "warning",
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === "build") {
  await build();
}

const PARTS = {
  core: {
    mutate: ["src/core/*.ts"],
    // The edge tests first: they aim at the policy rules, so they kill soonest. package.test.ts
    // checks the built package, not src, and is left out.
    tests: [
      "test/core/*-edges.test.ts",
      "test/core/equal.test.ts",
      "test/core/mac.test.ts",
      "test/core/bytes.test.ts",
      "test/core/options.test.ts",
      "test/core/random.test.ts",
      "test/core/redact.test.ts",
    ],
  },
  safe: {
    mutate: ["src/safe/*.ts"],
    tests: [
      "test/safe/*-edges.test.ts",
      "test/safe/safe.test.ts",
      "test/safe/fields.test.ts",
      "test/safe/nonce-limit.test.ts",
      "test/safe/redact-options.test.ts",
    ],
  },
  // The replay stores' claim logic (fail closed: a fault or a doubt is never an acceptance).
  stores: {
    mutate: ["src/safe/store.ts"],
    tests: [
      "test/safe/replay-store.test.ts",
      "test/protocols/replay-protocols.test.ts",
      "test/protocols/webhooks-fleet.test.ts",
      "test/safe/safe.test.ts",
    ],
  },
  // Keysets: the key lookup and prefix logic every keyset tag and verify goes through.
  keysets: {
    mutate: ["src/safe/keyset.ts", "src/safe/keyset-entry.ts"],
    tests: [
      "test/safe/keyset-edges.test.ts",
      "test/safe/keyset.test.ts",
      "test/safe/seal-keyset.test.ts",
      "test/safe/keyset-json.test.ts",
      "test/safe/keyset-jwk.test.ts",
      "test/safe/keyset-tink.test.ts",
      "test/protocols/jwt-keyset.test.ts",
    ],
  },
  protocols: {
    mutate: [
      // The helpers each verify function leans on for its decision, beside the verify* functions.
      ...["github", "stripe", "slack", "standard"].flatMap((scheme) =>
        functionRanges(`src/protocols/webhooks/${scheme}.ts`, ["checkMessageId"]),
      ),
      ...functionRanges("src/protocols/webhooks/common.ts", [
        "anyMatches",
        "checkClock",
        "parseTimestamp",
        "decodeHex",
        "decodeBase64",
      ]),
      ...functionRanges("src/protocols/jwt/verify.ts", [
        "decodeSegment",
        "parseJson",
        "verifyCompact",
      ]),
      ...functionRanges("src/protocols/sigv4/verify.ts", [
        "readHeaderAuth",
        "readQueryAuth",
        "parseSignedNames",
        "parseCredential",
      ]),
    ],
    tests: [
      "test/protocols/*-edges.test.ts",
      "test/protocols/webhooks.test.ts",
      "test/protocols/jwt.test.ts",
      "test/protocols/sigv4.test.ts",
      // The review regressions. The attacker-input property files are left out: their
      // linear-time checks take seconds per run, too slow to repeat for every mutant.
      "test/protocols/sigv4-review.test.ts",
      "test/protocols/webhooks-headers.test.ts",
      // Keysets and replay stores in the same verify functions.
      "test/protocols/jwt-keyset.test.ts",
      "test/protocols/webhooks-fleet.test.ts",
    ],
  },
};

const chosen = (process.env.KEYED_MUTATE ?? "core,safe,protocols").split(",").map((s) => s.trim());
for (const name of chosen) {
  if (!Object.hasOwn(PARTS, name)) {
    throw new Error(`KEYED_MUTATE: unknown part "${name}"; the parts are ${Object.keys(PARTS)}.`);
  }
}

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "tap",
  plugins: ["@stryker-mutator/tap-runner"],
  tap: {
    testFiles: chosen.flatMap((name) =>
      PARTS[name].tests.map((t) => join(BUILD_DIR, t.replace(/\.ts$/, ".js"))),
    ),
    nodeArgs: ["-r", "{{hookFile}}", "--test-reporter=tap", "{{testFile}}"],
    forceBail: true,
  },
  mutate: chosen.flatMap((name) => PARTS[name].mutate),
  // Error-message wording is not behaviour: tests pin codes, and match messages only where the
  // wording is the point. Mutating every message would bury the mutants that matter.
  mutator: { excludedMutations: ["StringLiteral"] },
  buildCommand: "node stryker.config.mjs build",
  // The tests run as transpiled JavaScript: Stryker's @ts-nocheck headers are not needed.
  disableTypeChecks: false,
  coverageAnalysis: "perTest",
  concurrency: 1,
  timeoutMS: 3000,
  incremental: true,
  incrementalFile: "reports/stryker-incremental.json",
  ignorePatterns: ["dist", "bench", "docs", "examples", "scratch", "reports", BUILD_DIR],
  reporters: ["clear-text", "progress-append-only", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/index.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: ".stryker-tmp",
  cleanTempDir: true,
};
