/**
 * The package as a user installs it: `npm pack`, then `npm install` of the tarball into a fresh
 * folder with its own package.json (offline: keyed has no dependencies), and there every export
 * is imported and required, a TypeScript consumer type checks under `moduleResolution` nodenext
 * and bundler, the command runs, and @arethetypeswrong/cli and publint find nothing. What the
 * tarball holds is checked too: only what runs plus the docs the README and the help name, and
 * every relative link in those docs resolves inside it.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, normalize } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";

const root = join(import.meta.dirname, "..", "..");
const bin = (name: string) => join(root, "node_modules", ".bin", name);
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  name: string;
  exports: Record<string, unknown>;
  engines: { node: string };
};
const built = existsSync(join(root, "dist", "index.js"));
const run = promisify(execFile);

/** The environment without `npm run`'s npm_* variables, so the child npm acts as a user's would. */
const cleanEnv = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_")),
);
const exec = (file: string, args: string[], cwd: string) =>
  run(file, args, { cwd, env: cleanEnv, maxBuffer: 1 << 24, timeout: 120_000 });

const subpaths = Object.keys(pkg.exports)
  .filter((key) => key !== "./package.json")
  .map((key) => (key === "." ? pkg.name : `${pkg.name}/${key.slice(2)}`));

/** RFC 4231 test case 2: HMAC-SHA256, key "Jefe". */
const RFC4231_2 = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843";

describe("the package, packed and installed in a fresh folder", {
  skip: built ? false : "dist/ not built (npm test runs `npm run build` first)",
}, () => {
  let dir: string;
  let tarball: string;
  let consumer: string;
  let files: string[];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "keyed-package-"));
    // --ignore-scripts: `prepare` would rebuild dist/, which npm test has just built.
    const { stdout } = await exec(
      "npm",
      ["pack", "--ignore-scripts", "--json", "--pack-destination", dir],
      root,
    );
    const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
    tarball = join(dir, packed.filename);
    files = packed.files.map((f) => f.path);
    consumer = join(dir, "consumer");
    mkdirSync(consumer);
    writeFileSync(
      join(consumer, "package.json"),
      JSON.stringify({ name: "consumer", version: "1.0.0", private: true, type: "module" }),
    );
    await exec(
      "npm",
      ["install", "--offline", "--no-audit", "--no-fund", "--no-package-lock", tarball],
      consumer,
    );
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("the tarball holds dist/ (no source maps), bin/, the docs, the examples, README, LICENSE", () => {
    const allowed =
      /^(dist\/.*\.(js|d\.ts)|bin\/keyed\.js|docs\/[^/]+\.md|docs\/charts\/[^/]+\.svg|examples\/[^/]+\.mjs|README\.md|LICENSE|package\.json)$/;
    for (const file of files) assert.match(file, allowed);
    for (const needed of ["LICENSE", "dist/index.js", "dist/cli/main.js", "docs/cli.md"]) {
      assert.ok(files.includes(needed), needed);
    }
    assert.ok(
      readFileSync(join(root, "LICENSE"), "utf8").includes("Copyright (c) the keyed authors"),
    );
  });

  it("every relative link in the shipped README and docs, and every examples/ file the README names, is in the tarball", () => {
    const missing: string[] = [];
    for (const doc of files.filter((f) => f.endsWith(".md"))) {
      const text = readFileSync(join(root, doc), "utf8");
      const targets = [...text.matchAll(/\]\(([^)\s#]+)(#[^)]*)?\)/g)].map((m) => m[1]);
      if (doc === "README.md")
        targets.push(...[...text.matchAll(/`(examples\/[^`\s]+)`/g)].map((m) => m[1]));
      for (const target of targets) {
        if (/^[a-z]+:/.test(target)) continue;
        const path = normalize(join(dirname(doc), target));
        if (!files.includes(path)) missing.push(`${doc} -> ${target}`);
      }
    }
    assert.deepEqual(missing, []);
  });

  it(`imports every subpath in exports (${subpaths.length})`, async () => {
    const script = `
      const names = ${JSON.stringify(subpaths)};
      const counts = {};
      for (const name of names) counts[name] = Object.keys(await import(name)).length;
      const { mac, hexToBytes, utf8ToBytes, bytesToHex } = await import("keyed");
      const m = mac("hmac-sha256", utf8ToBytes("Jefe"), { allowShortKeys: true });
      console.log(JSON.stringify({ counts, tag: bytesToHex(m.tag(utf8ToBytes("what do ya want for nothing?"))) }));
    `;
    writeFileSync(join(consumer, "esm.mjs"), script);
    const { stdout } = await exec(process.execPath, ["esm.mjs"], consumer);
    const { counts, tag } = JSON.parse(stdout);
    for (const name of subpaths) assert.ok(counts[name] > 0, `${name} exports nothing`);
    assert.equal(tag, RFC4231_2);
  });

  it(`require() works from CommonJS on Node ${pkg.engines.node} (require of ES modules), for every subpath`, async () => {
    writeFileSync(
      join(consumer, "cjs.cjs"),
      `const names = ${JSON.stringify(subpaths)};
       for (const name of names) if (Object.keys(require(name)).length === 0) throw new Error(name);
       const { mac, utf8ToBytes, bytesToHex } = require("keyed");
       const m = mac("hmac-sha256", utf8ToBytes("Jefe"), { allowShortKeys: true });
       console.log(bytesToHex(m.tag(utf8ToBytes("what do ya want for nothing?"))));`,
    );
    const { stdout, stderr } = await exec(process.execPath, ["cjs.cjs"], consumer);
    assert.equal(stdout.trim(), RFC4231_2);
    // Node 20.19 prints an ExperimentalWarning for require(esm); nothing else may appear.
    assert.doesNotMatch(
      stderr.replace(/.*ExperimentalWarning.*\n?|.*--trace-warnings.*\n?/g, ""),
      /\S/,
    );
  });

  it("a TypeScript consumer type checks under moduleResolution nodenext (ESM and CommonJS files) and bundler", async () => {
    const imports = subpaths.map((name, i) => `import * as m${i} from "${name}";`).join("\n");
    writeFileSync(
      join(consumer, "consumer.ts"),
      `${imports}
import { type Mac, type MacName, mac, macNames, utf8ToBytes } from "keyed";
import { verifyGitHub, type WebhookResult } from "keyed/webhooks";
const name: MacName = macNames()[0];
const m: Mac = mac(name, utf8ToBytes("a key of sixteen bytes"));
const tag: Uint8Array = m.tag(utf8ToBytes("message"));
const result: WebhookResult = verifyGitHub("secret", "body", "sha256=00");
export const all = [${subpaths.map((_, i) => `m${i}`).join(", ")}, tag, result] as const;
`,
    );
    writeFileSync(
      join(consumer, "consumer.cts"),
      `import keyed = require("keyed");
export const tagLength: number = keyed.mac("hmac-sha256", keyed.randomBytes(32)).tagLength;
`,
    );
    const base = {
      strict: true,
      noEmit: true,
      target: "ES2022",
      lib: ["ES2022", "DOM"],
      types: [],
    };
    const configs = {
      nodenext: { module: "NodeNext", moduleResolution: "NodeNext" },
      bundler: { module: "ESNext", moduleResolution: "Bundler" },
    };
    await Promise.all(
      Object.entries(configs).map(([label, options]) => {
        const config = join(consumer, `tsconfig.${label}.json`);
        writeFileSync(
          config,
          JSON.stringify({
            compilerOptions: { ...base, ...options },
            files: label === "nodenext" ? ["consumer.ts", "consumer.cts"] : ["consumer.ts"],
          }),
        );
        return exec(
          process.execPath,
          [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", config],
          consumer,
        ).catch((e: { stdout?: string }) => assert.fail(`tsc (${label}): ${e.stdout ?? e}`));
      }),
    );
  });

  it("the keyed command runs, and the manual its help names is in the installed package", async () => {
    const { stdout } = await exec(
      join(consumer, "node_modules", ".bin", "keyed"),
      ["--help"],
      consumer,
    );
    const manual = /^Manual: (.+)$/m.exec(stdout)?.[1];
    assert.equal(manual, join(consumer, "node_modules", "keyed", "docs", "cli.md"));
    assert.ok(existsSync(manual));
    const list = await exec(join(consumer, "node_modules", ".bin", "keyed"), ["list"], consumer);
    assert.match(list.stdout, /hmac-sha256/);
  });

  it("@arethetypeswrong/cli (profile esm-only: keyed is ES modules only) and publint report nothing", async () => {
    // esm-only leaves out two resolutions: node10 (TypeScript's, from before `exports`) and
    // node16 from CommonJS, where attw's TypeScript 5.6 predates require() of ES modules; the
    // require() and consumer.cts tests above check that path with Node and TypeScript 5.9.
    const attw = await exec(
      bin("attw"),
      [tarball, "--profile", "esm-only", "--format", "json"],
      dir,
    ).catch((e: { stdout?: string }) => assert.fail(`attw: ${e.stdout ?? e}`));
    const { analysis } = JSON.parse(attw.stdout) as {
      analysis: { problems: { kind: string; entrypoint: string; resolutionKind: string }[] };
    };
    const counted = analysis.problems.filter(
      (p) => p.resolutionKind !== "node10" && p.resolutionKind !== "node16-cjs",
    );
    assert.deepEqual(counted, []);
    const publint = await exec(bin("publint"), ["run", tarball, "--strict"], dir);
    // One suggestion is declined on purpose: the object-valued `browser` field (it swaps the
    // built-in WebAssembly kernels for none, docs/bundle-size.md). publint would have an
    // `imports` entry with a "browser" condition instead, but the tests run src/ through tsx,
    // where such an entry resolves into dist/ and loads a second copy of the kernels.
    const declined = /^.*pkg\.browser.* with an object value can be refactored.*$/m;
    const rest = publint.stdout.replace(declined, "").replace(/^.*Suggestions:.*$/m, "");
    assert.ok(/All good!/.test(publint.stdout) || declined.test(publint.stdout), publint.stdout);
    assert.doesNotMatch(rest, /Suggestion|Warning|Error|^\S*\d+\. /m);
  });
});
