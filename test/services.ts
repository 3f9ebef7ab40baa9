/**
 * Services and programs a test needs (a browser, another runtime): when one is missing the test
 * is skipped with the reason, except under CI, where a missing service fails the test instead,
 * so a green CI run has always run it (the same rule as the vector files, test/vectors.ts).
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { VECTORS_REQUIRED } from "./vectors.js";

/** Under CI a missing service fails the run. */
export const SERVICES_REQUIRED = VECTORS_REQUIRED;

/** A program found, with the first line its `--version` printed. */
export interface Program {
  path: string;
  version: string;
}

/**
 * `path` and its version, or the reason it cannot be run (`how` says how to get it). Under CI
 * the reason is returned too, and `skipOrFail` turns it into a failure.
 */
export function findProgram(path: string, how: string): Program | { missing: string } {
  if (!existsSync(path)) return { missing: `${path} not found (${how})` };
  try {
    const out = execFileSync(path, ["--version"], {
      encoding: "utf8",
      timeout: 30_000,
      stdio: ["ignore", "pipe", "ignore"],
    });
    return { path, version: out.trim().split("\n")[0] };
  } catch (e) {
    return { missing: `${path} --version failed: ${(e as Error).message.split("\n")[0]} (${how})` };
  }
}

/**
 * node:test's `skip` for a test that needs `found`: false when present, else the reason; under
 * CI false as well, and the test calls `need(found)`, which throws the reason.
 */
export function skipUnlessFound(found: Program | { missing: string }): string | false {
  return "missing" in found && !SERVICES_REQUIRED ? found.missing : false;
}

/** The program, or (under CI, where the test was not skipped) an Error naming what is missing. */
export function need(found: Program | { missing: string }): Program {
  if ("missing" in found) {
    throw new Error(`${found.missing}; CI is set, so a missing service fails instead of skipping.`);
  }
  return found;
}

/** Debian's Chromium, for the browser tests (playwright-core drives it). */
export const CHROMIUM = findProgram(
  "/usr/bin/chromium",
  "Debian package chromium; .ci/run installs it",
);

/** Chromium's flags (issue 13): no sandbox (root in a container), nothing that reaches the network. */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
