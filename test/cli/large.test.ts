/**
 * The keyed command on large inputs: a 5 GiB file streams through in fixed-size chunks with flat
 * memory, and the progress bar shows on a terminal (a pseudo-terminal from `script` or tmux) and
 * never when stderr is a pipe. Set KEYED_SKIP_LARGE=1 to skip the 5 GiB run (30-60 s).
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import {
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { generateKey, mac } from "../../src/index.js";
import { toHex } from "../helpers.js";
import { BIN, keyed, parseTagLines, skipUnlessBuilt } from "./run.js";

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
let dir = "";
const key = generateKey("blake3");
const env = { KEYED_TEST_KEY: toHex(key) };

/** A sparse file of `size` bytes (instant: no data blocks), with `marks` written at offsets. */
function sparseFile(path: string, size: number, marks: [number, string][] = []): void {
  closeSync(openSync(path, "w"));
  truncateSync(path, size);
  const fd = openSync(path, "r+");
  for (const [offset, text] of marks) writeSync(fd, text, offset);
  closeSync(fd);
}

let tmuxRuns = 0;
const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

const hasScript =
  process.env.KEYED_TEST_PTY !== "tmux" &&
  spawnSync("script", ["--version"], { encoding: "utf8" }).stdout?.includes("util-linux");
const hasTmux = spawnSync("tmux", ["-V"]).status === 0;
const skipPty =
  skipUnlessBuilt ||
  (hasScript || hasTmux ? false : "neither script (util-linux) nor tmux is installed");

/** Runs a shell command with stdout and stderr on a pseudo-terminal; returns what it printed. */
async function inTerminal(command: string): Promise<string> {
  if (hasScript) {
    return new Promise((resolve, reject) => {
      const child = spawn("script", ["-qfec", command, "/dev/null"], {
        env: { ...process.env, ...env },
        stdio: ["ignore", "pipe", "inherit"],
      });
      const out: Buffer[] = [];
      child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
      child.on("error", reject);
      child.on("close", (status) => {
        if (status === 0) resolve(Buffer.concat(out).toString("utf8"));
        else reject(new Error(`script exited with ${status}`));
      });
    });
  }
  // tmux on a private socket: the pane's output is piped to a log until the command signals.
  const socket = `keyed-test-${process.pid}`;
  const log = join(dir, `tmux-${++tmuxRuns}.log`);
  const tmux = (...args: string[]) =>
    spawnSync("tmux", ["-L", socket, ...args], {
      env: { ...process.env, ...env },
      timeout: 120_000,
    });
  try {
    tmux("new-session", "-d", "-s", socket, "-x", "120", "-y", "30");
    tmux("pipe-pane", "-t", socket, "-o", `cat >> ${quote(log)}`);
    tmux("send-keys", "-t", socket, `${command}; tmux -L ${socket} wait-for -S done`, "Enter");
    tmux("wait-for", "done");
    return readFileSync(log, "utf8");
  } finally {
    tmux("kill-server");
  }
}

describe("keyed CLI on large inputs", { skip: skipUnlessBuilt }, () => {
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "keyed-cli-large-"));
    // 100 MiB and a bit (not a whole number of chunks), with data on both sides of a chunk edge.
    sparseFile(join(dir, "100m"), 100 * MiB + 777, [
      [50 * MiB - 3, "across a chunk boundary"],
      [100 * MiB + 700, "the end"],
    ]);
  });
  after(() => {
    if (dir !== "") rmSync(dir, { recursive: true, force: true });
  });

  it("streams in chunks to the same tag as the library over the whole file", async () => {
    const file = join(dir, "100m");
    const result = await keyed(["tag", "-a", "blake3", "--key-env", "KEYED_TEST_KEY", file], {
      env,
    });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(
      parseTagLines(result.stdout)[0].tag,
      toHex(mac("blake3", key).tag(readFileSync(file))),
    );
  });

  it("shows a progress bar with throughput on a terminal, and none when stderr is a pipe", {
    skip: skipPty,
    timeout: 120_000,
  }, async () => {
    const file = join(dir, "100m");
    const command = [
      process.execPath,
      BIN,
      "tag",
      "-a",
      "blake3",
      "--key-env",
      "KEYED_TEST_KEY",
      file,
    ]
      .map(quote)
      .join(" ");
    const screen = await inTerminal(`${command} 2>&1`);
    assert.match(screen, /\[[#-]+\]\s+\d+%\s+[0-9.]+ MiB \/ 100 MiB\s+[0-9.]+ MB\/s/);
    assert.match(screen, /blake3:[0-9a-f]{64} {2}/);

    const piped = await keyed(["tag", "-a", "blake3", "--key-env", "KEYED_TEST_KEY", file], {
      env,
    });
    assert.equal(piped.status, 0);
    assert.equal(piped.stderr, "");
    // Small inputs get no bar, even on a terminal.
    const small = join(dir, "small");
    sparseFile(small, 3 * MiB);
    const smallScreen = await inTerminal(command.replace(quote(file), quote(small)));
    assert.doesNotMatch(smallScreen, /MB\/s|%/);
  });

  it("tags a 5 GiB sparse file with peak memory under 200 MiB", {
    skip: process.env.KEYED_SKIP_LARGE ? "KEYED_SKIP_LARGE is set" : false,
    timeout: 600_000,
  }, async () => {
    const file = join(dir, "5g");
    sparseFile(file, 5 * GiB, [[5 * GiB - 4, "end"]]);
    const args = ["tag", "-a", "blake3", "--key-env", "KEYED_TEST_KEY", file];
    const result = await keyed(args, { env: { ...env, KEYED_REPORT_RSS: "1" } });
    rmSync(file);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(parseTagLines(result.stdout)[0].name, file);
    const rss = /max RSS (\d+) KiB/.exec(result.stderr);
    assert.ok(rss, `no RSS report in: ${result.stderr}`);
    const peakMiB = Number(rss[1]) / 1024;
    assert.ok(peakMiB < 200, `peak RSS ${peakMiB.toFixed(1)} MiB`);
  });
});
