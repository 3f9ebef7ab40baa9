/** Runs the real keyed binary (node bin/keyed.js) in a child process, for the CLI tests. */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

export const ROOT = join(import.meta.dirname, "..", "..");
export const BIN = join(ROOT, "bin", "keyed.js");

/** node:test's skip option: the CLI runs from dist/, which `npm run build` makes. */
export const skipUnlessBuilt: string | false = existsSync(join(ROOT, "dist", "cli", "main.js"))
  ? false
  : "dist/cli/main.js not built (npm test builds it; or run npm run build)";

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
  stdoutBytes: Buffer;
}

export interface RunOptions {
  input?: string | Uint8Array;
  env?: Record<string, string>;
  cwd?: string;
}

/** `keyed ...args`, with stdin from `input` (empty when not given). */
export function keyed(args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, KEYED_DEBUG: "", ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", reject);
    child.on("close", (status) => {
      const stdoutBytes = Buffer.concat(out);
      resolve({
        status,
        stdout: stdoutBytes.toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
        stdoutBytes,
      });
    });
    child.stdin.on("error", () => {}); // the child may exit before reading its input
    child.stdin.end(options.input ?? "");
  });
}

/** Parses `ALGORITHM:TAG  NAME` lines. */
export function parseTagLines(stdout: string): { algorithm: string; tag: string; name: string }[] {
  return stdout
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const match = /^([a-z0-9-]+):(\S+) {2}(.*)$/.exec(line);
      if (match === null) throw new Error(`not a tag line: ${JSON.stringify(line)}`);
      return { algorithm: match[1], tag: match[2], name: match[3] };
    });
}
