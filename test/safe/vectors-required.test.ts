/**
 * The vector loader (test/vectors.ts): a local run without the shared vectors skips their suites
 * with the reason; a CI run fails, naming the missing path, so CI can never pass without them.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { isCi, locateVector } from "../vectors.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

describe("locateVector", () => {
  const dir = mkdtempSync(join(tmpdir(), "keyed-vectors-"));
  writeFileSync(join(dir, "present.json"), "{}");
  it("gives the path of a file that is there, CI or not", () => {
    for (const required of [false, true]) {
      assert.deepEqual(locateVector("present.json", dir, required), {
        path: join(dir, "present.json"),
      });
    }
  });
  it("skips a missing file with the reason when not under CI", () => {
    const found = locateVector("wycheproof/absent.json", dir, false);
    assert.ok("skip" in found);
    assert.match(found.skip, new RegExp(`${join(dir, "wycheproof/absent.json")} not found`));
  });
  it("fails on a missing file under CI, naming its path", () => {
    const found = locateVector("wycheproof/absent.json", dir, true);
    assert.ok("error" in found);
    assert.match(found.error.message, new RegExp(`${join(dir, "wycheproof/absent.json")}`));
    assert.match(found.error.message, /CI is set/);
  });
  it("names the folder when the whole folder is missing", () => {
    const gone = join(dir, "no-such-folder");
    const found = locateVector("rfc/rfc4493.txt", gone, true);
    assert.ok("error" in found);
    assert.match(found.error.message, new RegExp(`vector folder ${gone} not found`));
    rmSync(dir, { recursive: true, force: true });
  });
  it("reads CI as the CI services set it", () => {
    for (const on of ["true", "1", "TRUE", "yes"]) assert.equal(isCi(on), true, on);
    for (const off of [undefined, "", "0", "false", "False"]) assert.equal(isCi(off), false, off);
  });
});

describe("a vector suite run without its vectors", () => {
  const run = (ci: string | undefined) => {
    const env: NodeJS.ProcessEnv = { ...process.env, KEYED_VECTORS: "/nonexistent/keyed-vectors" };
    // A nested `node --test` would report to this runner instead of printing TAP.
    delete env.NODE_TEST_CONTEXT;
    if (ci === undefined) delete env.CI;
    else env.CI = ci;
    return spawnSync(
      process.execPath,
      ["--import", "tsx", "--test", "--test-concurrency=1", "test/mac/cmac.test.ts"],
      { cwd: ROOT, env, encoding: "utf8" },
    );
  };
  it("is skipped, with the reason, outside CI", () => {
    const result = run(undefined);
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /# SKIP vector folder \/nonexistent\/keyed-vectors not found/);
  });
  it("fails under CI=true, naming the missing folder", () => {
    const result = run("true");
    assert.notEqual(result.status, 0, result.stdout);
    assert.match(result.stdout + result.stderr, /\/nonexistent\/keyed-vectors not found/);
    assert.match(result.stdout + result.stderr, /CI is set/);
  });
});
