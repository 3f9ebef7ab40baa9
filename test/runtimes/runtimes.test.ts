/**
 * The runtime matrix (docs/runtimes.md): one conformance script (./conformance.ts) over the built
 * package, run by Node 20 (the reference, on dist/ itself) and, bundled by esbuild, by Deno, Bun,
 * workerd, headless Chromium (a page, a Worker, both again under a CSP that forbids WebAssembly)
 * and Firefox ESR over WebDriver BiDi. Every runtime must give exactly Node's lines; each is one
 * test, skipped with the reason when the runtime is missing here, and failed when missing under CI.
 */
import assert from "node:assert/strict";
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { build } from "esbuild";
import { type StaticServer, serveStatic } from "../../scripts/serve-static.js";
import {
  CHROMIUM,
  CHROMIUM_FLAGS,
  findProgram,
  need,
  type Program,
  skipUnlessFound,
} from "../services.js";
import { type ConformanceInput, conformance } from "./conformance.js";
import type { BrowserReport } from "./entries/browser.js";
import { vectorSample } from "./sample.js";

const root = join(import.meta.dirname, "..", "..");
const bin = (name: string) => join(root, "node_modules", ".bin", name);
const built = existsSync(join(root, "dist", "index.js"));
const run = promisify(execFile);

/** The CSP of the (c) and (d) cases: scripts from the page's origin, and no WebAssembly compile. */
const CSP = "script-src 'self'";

const npmBinary = "devDependency: `npm ci` installs it";
const programs = {
  deno: findProgram(bin("deno"), npmBinary),
  bun: findProgram(bin("bun"), npmBinary),
  workerd: findProgram(bin("workerd"), npmBinary),
  chromium: CHROMIUM,
  firefox: findProgram("/usr/bin/firefox-esr", "Debian package firefox-esr; .ci/run installs it"),
};
const skipUnbuilt = built ? false : "dist/ not built (npm test runs `npm run build` first)";
const skipFor = (found: Program | { missing: string }) => skipUnbuilt || skipUnlessFound(found);

/** Fails with the first line that differs from Node's, and how many do. */
function assertSameLines(actual: string[] | undefined, expected: string[], who: string): void {
  assert.ok(Array.isArray(actual), `${who} gave no lines`);
  const differing = expected.filter((line, i) => actual[i] !== line).length;
  const first = expected.findIndex((line, i) => actual[i] !== line);
  if (first === -1 && actual.length === expected.length) return;
  assert.fail(
    `${who}: ${differing} of ${expected.length} lines differ from Node's (and ${actual.length} lines in all); ` +
      `first at line ${first + 1}:\n  node: ${expected[first]}\n  ${who}: ${actual[first]}`,
  );
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** GET `url` until it answers (the server may still be starting), for up to `ms`. */
async function fetchWhenUp(url: string, ms: number, child: ChildProcess): Promise<Response> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await fetch(url);
    } catch (e) {
      if (child.exitCode !== null || Date.now() > until) throw e;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

describe("runtime matrix: the conformance script gives Node's lines everywhere", {
  skip: skipUnbuilt,
}, () => {
  let input: ConformanceInput;
  let reference: string[];
  let dir: string;
  const bundles = { cli: "", workerd: "", browser: "" };

  before(async () => {
    input = vectorSample();
    reference = await conformance(input);
    dir = mkdtempSync(join(tmpdir(), "keyed-runtimes-"));
    // One esbuild bundle per kind of entry, from dist/ through the package's own exports, with
    // the vector sample compiled in (the runtimes read no files).
    for (const kind of Object.keys(bundles) as (keyof typeof bundles)[]) {
      const outfile = join(dir, kind === "browser" ? "site/conformance.js" : `${kind}.mjs`);
      await build({
        entryPoints: [join(import.meta.dirname, "entries", `${kind}.ts`)],
        bundle: true,
        format: "esm",
        // Browsers as a browser bundler sees the package (its `browser` field: no WebAssembly
        // unless asked), the page asking for it with `import "keyed/wasm"`.
        platform: kind === "browser" ? "browser" : "neutral",
        target: "es2022",
        outfile,
        define: { CONFORMANCE_INPUT: JSON.stringify(input) },
        logLevel: "error",
      });
      bundles[kind] = outfile;
    }
    writeFileSync(
      join(dir, "site", "index.html"),
      '<!doctype html><meta charset="utf-8"><title>keyed conformance</title>\n' +
        '<script type="module" src="conformance.js"></script>\n',
    );
    mkdirSync(join(dir, "site", "csp"));
    for (const file of ["index.html", "conformance.js"]) {
      copyFileSync(join(dir, "site", file), join(dir, "site", "csp", file));
    }
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(`node ${process.version} (the reference, on dist/): every sampled vector case agrees with its file, and the esbuild bundle prints the same`, async () => {
    assert.ok(reference.length > 150, `only ${reference.length} lines`);
    const vectorLines = reference.filter((l) => l.startsWith("vectors "));
    assert.equal(vectorLines.length, input.vectors.length);
    for (const line of vectorLines) assert.match(line, /, 0 refused, wrong: none$/);
    assert.ok(reference.includes("github verify: ok"));
    assert.ok(reference.includes("github request: ok"));
    // The node:crypto-path lines that check keyed against its hazmat primitives must agree here,
    // or every runtime would match a wrong reference.
    const agreements = reference.filter((l) =>
      / agrees with | opens (true|false)$| the same: (true|false)$/.test(l),
    );
    assert.equal(agreements.length, 5);
    for (const line of agreements) assert.match(line, / true$/);
    assert.ok(
      reference.includes(
        'sha256("abc"): ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      ),
    );
    const { stdout } = await run(process.execPath, [bundles.cli], { maxBuffer: 1 << 24 });
    assertSameLines(stdout.trimEnd().split("\n"), reference, "node on the bundle");
  });

  it(`deno (${"version" in programs.deno ? programs.deno.version : "absent"}), with no permissions`, {
    skip: skipFor(programs.deno),
  }, async () => {
    const deno = need(programs.deno);
    const { stdout } = await run(
      deno.path,
      ["run", "--no-prompt", "--no-config", "--no-lock", "--quiet", bundles.cli],
      { cwd: dir, env: { ...process.env, DENO_NO_UPDATE_CHECK: "1" }, maxBuffer: 1 << 24 },
    );
    assertSameLines(stdout.trimEnd().split("\n"), reference, "deno");
  });

  it(`bun (${"version" in programs.bun ? programs.bun.version : "absent"})`, {
    skip: skipFor(programs.bun),
  }, async () => {
    const bun = need(programs.bun);
    const { stdout } = await run(bun.path, [bundles.cli], {
      cwd: dir,
      env: { ...process.env, DO_NOT_TRACK: "1" },
      maxBuffer: 1 << 24,
    });
    assertSameLines(stdout.trimEnd().split("\n"), reference, "bun");
  });

  it(`workerd (${"version" in programs.workerd ? programs.workerd.version : "absent"}), at its own compatibility date and at 2024-01-01`, {
    skip: skipFor(programs.workerd),
    timeout: 60_000,
  }, async () => {
    const workerd = need(programs.workerd);
    // "workerd 2026-11-17": the newest compatibility date this build knows (node:crypto through
    // process.getBuiltinModule, WeakRef); 2024-01-01 has neither.
    const dates = [workerd.version.split(" ")[1], "2024-01-01"];
    const ports = [await freePort(), await freePort()];
    writeFileSync(
      join(dir, "workerd.capnp"),
      `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [${dates.map((_, i) => `(name = "w${i}", worker = .w${i})`).join(", ")}],
  sockets = [${ports.map((port, i) => `(name = "s${i}", address = "127.0.0.1:${port}", http = (), service = "w${i}")`).join(", ")}],
);
${dates
  .map(
    (date, i) => `const w${i} :Workerd.Worker = (
  modules = [(name = "worker.mjs", esModule = embed "workerd.mjs")],
  compatibilityDate = "${date}",
);`,
  )
  .join("\n")}
`,
    );
    const child = spawn(workerd.path, ["serve", "--verbose", join(dir, "workerd.capnp")], {
      cwd: dir,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let log = "";
    child.stdout.on("data", (d) => (log += d));
    child.stderr.on("data", (d) => (log += d));
    try {
      for (const [i, port] of ports.entries()) {
        const response = await fetchWhenUp(`http://127.0.0.1:${port}/`, 20_000, child);
        const text = await response.text();
        assert.equal(response.status, 200, `${text}\n${log}`);
        assertSameLines(text.trimEnd().split("\n"), reference, `workerd at ${dates[i]}`);
      }
    } finally {
      child.kill();
    }
  });

  /** Each browser case: where the script runs, and whether the CSP forbids WebAssembly. */
  const browserCases = [
    { label: "a module page, main thread", path: "", csp: false },
    { label: "a module Worker", path: "?worker", csp: false },
    {
      label: `the page under CSP "${CSP}" (no WebAssembly: the TypeScript kernels)`,
      path: "csp/",
      csp: true,
    },
    { label: "a Worker under the same CSP", path: "csp/?worker", csp: true },
  ];
  const checkReport = (report: BrowserReport | undefined, csp: boolean, who: string) => {
    assert.ok(report, `${who}: no report`);
    assert.equal(report.error, undefined, `${who}: ${report.error}`);
    assert.equal(
      report.wasmCompiles,
      !csp,
      `${who}: WebAssembly ${report.wasmCompiles ? "compiles" : "does not compile"}`,
    );
    assert.equal(report.firstRunSame, true, `${who}: the first run differed from the second`);
    assertSameLines(report.lines, reference, who);
    // WebCrypto interop (issue 14): the same checks test/safe/webcrypto.test.ts runs on Node.
    const webcrypto = report.webcrypto ?? [];
    assert.ok(webcrypto.length >= 17, `${who}: ${webcrypto.length} WebCrypto checks ran`);
    assert.deepEqual(
      webcrypto.filter((r) => !r.ok).map((r) => `${r.name}: ${r.detail}`),
      [],
      `${who}: WebCrypto interop`,
    );
  };
  let server: StaticServer | undefined;
  const site = async () => {
    server ??= await serveStatic(join(dir, "site"), {
      headers: (path): Record<string, string> =>
        path.startsWith("/csp/") ? { "content-security-policy": CSP } : {},
    });
    return server.url;
  };
  after(async () => server?.close());

  describe(`chromium (${"version" in programs.chromium ? programs.chromium.version : "absent"}), headless, through playwright-core`, {
    skip: skipFor(programs.chromium),
  }, () => {
    let context: import("playwright-core").BrowserContext | undefined;
    before(async () => {
      const { chromium } = await import("playwright-core");
      context = await chromium.launchPersistentContext(join(dir, "chromium-profile"), {
        executablePath: need(programs.chromium).path,
        args: CHROMIUM_FLAGS,
        headless: true,
      });
    });
    after(async () => context?.close());
    for (const { label, path, csp } of browserCases) {
      it(label, { timeout: 60_000 }, async () => {
        const page = await (context as import("playwright-core").BrowserContext).newPage();
        const errors: string[] = [];
        page.on("pageerror", (e) => errors.push(e.message));
        try {
          await page.goto(`${await site()}${path}`);
          const handle = await page.waitForFunction(
            () => (globalThis as { conformance?: unknown }).conformance,
            undefined,
            { timeout: 45_000 },
          );
          checkReport((await handle.jsonValue()) as BrowserReport, csp, `chromium, ${label}`);
        } catch (e) {
          if (errors.length > 0) (e as Error).message += `\npage errors: ${errors.join("; ")}`;
          throw e;
        } finally {
          await page.close();
        }
      });
    }
  });

  describe(`firefox (${"version" in programs.firefox ? programs.firefox.version : "absent"}), headless, over WebDriver BiDi (puppeteer-core)`, {
    skip: skipFor(programs.firefox),
  }, () => {
    let browser: import("puppeteer-core").Browser | undefined;
    before(async () => {
      const puppeteer = (await import("puppeteer-core")).default;
      const profile = join(dir, "firefox-profile");
      mkdirSync(profile);
      browser = await puppeteer.launch({
        browser: "firefox",
        executablePath: need(programs.firefox).path,
        headless: true,
        userDataDir: profile,
      });
    });
    after(async () => browser?.close());
    for (const { label, path, csp } of browserCases) {
      it(label, { timeout: 60_000 }, async () => {
        const page = await (browser as import("puppeteer-core").Browser).newPage();
        try {
          await page.goto(`${await site()}${path}`);
          // Polled with evaluate: waitForFunction compiles its predicate with Function(), which
          // the CSP forbids.
          let report: BrowserReport | undefined;
          for (const until = Date.now() + 45_000; report === undefined && Date.now() < until; ) {
            report = await page.evaluate(
              () => (globalThis as { conformance?: BrowserReport }).conformance,
            );
            if (report === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
          }
          checkReport(report, csp, `firefox, ${label}`);
        } finally {
          await page.close();
        }
      });
    }
  });
});
