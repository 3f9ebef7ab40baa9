/**
 * The keyed command against hostile or odd inputs: unreadable files among readable ones, Unix
 * sockets, symbolic links at -o FILE, oversized keys and sum-file lines, unknown flags.
 */
import assert from "node:assert/strict";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { generateKey, mac } from "../../src/index.js";
import { toHex } from "../helpers.js";
import { keyed, parseTagLines, type RunResult, skipUnlessBuilt } from "./run.js";

let dir = "";
let server: Server | undefined;
const path = (name: string) => join(dir, name);
const key = generateKey("hmac-sha256");
const env = { KEYED_TEST_KEY: toHex(key) };
const tagArgs = ["tag", "-a", "hmac-sha256", "--key-env", "KEYED_TEST_KEY"];
const hmacHex = (text: string) =>
  toHex(mac("hmac-sha256", key).tag(new TextEncoder().encode(text)));

function assertNoStack(result: RunResult): void {
  assert.doesNotMatch(result.stderr, /\n\s+at |unexpected error|ENXIO|ELOOP/);
}

describe("keyed CLI on hostile inputs", { skip: skipUnlessBuilt }, () => {
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "keyed-hardening-"));
    writeFileSync(path("a"), "first file\n");
    writeFileSync(path("b"), "second file\n");
    mkdirSync(path("dir"));
    server = createServer();
    const listening = server;
    await new Promise<void>((resolve) => listening.listen(path("sock"), resolve));
  });
  after(async () => {
    await new Promise((resolve) => server?.close(resolve));
    if (dir !== "") rmSync(dir, { recursive: true, force: true });
  });

  describe("tag: every readable input is tagged, one stderr line per failure, exit 2", () => {
    it("a missing file and a directory between two readable files", async () => {
      const result = await keyed([...tagArgs, path("a"), path("nope"), path("dir"), path("b")], {
        env,
      });
      assert.equal(result.status, 2);
      assert.deepEqual(
        parseTagLines(result.stdout).map((line) => [line.name, line.tag]),
        [
          [path("a"), hmacHex("first file\n")],
          [path("b"), hmacHex("second file\n")],
        ],
      );
      const errors = result.stderr.trimEnd().split("\n");
      assert.equal(errors.length, 2, result.stderr);
      assert.match(errors[0], /^keyed tag: .*nope: no such file or directory$/);
      assert.match(errors[1], /^keyed tag: .*dir: is a directory$/);
      assertNoStack(result);
    });

    it("a file that fails while it is read (/proc/self/mem)", {
      skip: existsSync("/proc/self/mem") ? false : "no /proc/self/mem here",
    }, async () => {
      const result = await keyed([...tagArgs, path("a"), "/proc/self/mem", path("b")], { env });
      assert.equal(result.status, 2);
      assert.equal(parseTagLines(result.stdout).length, 2);
      assert.match(result.stderr, /^keyed tag: \/proc\/self\/mem: input\/output error\n$/);
    });

    it("a Unix socket gets a clear message, from tag and from check", async () => {
      const tagged = await keyed([...tagArgs, path("sock")], { env });
      assert.equal(tagged.status, 2);
      assert.equal(tagged.stdout, "");
      assert.match(tagged.stderr, /^keyed tag: .*sock: is a socket; keyed reads files/);
      assertNoStack(tagged);

      const sums = `hmac-sha256:${hmacHex("first file\n")}  ${path("a")}\nhmac-sha256:${"00".repeat(32)}  ${path("sock")}\n`;
      const checked = await keyed(["check", "--key-env", "KEYED_TEST_KEY", "-"], {
        env,
        input: sums,
      });
      assert.equal(checked.status, 1);
      assert.match(checked.stdout, /a: OK\n.*sock: FAILED open or read\n$/);
      assert.match(checked.stderr, /sock: is a socket/);
      assertNoStack(checked);
    });
  });

  describe("-o FILE never follows a symbolic link", () => {
    for (const command of [
      ["keygen", "-a", "blake3"],
      ["derive", "blake3", "--context", "test", "--key-env", "KEYED_TEST_KEY"],
    ]) {
      it(`${command[0]} -o LINK, with and without --force`, async () => {
        const target = path(`${command[0]}-target`);
        const link = path(`${command[0]}-link`);
        symlinkSync(target, link);
        for (const force of [[], ["--force"]]) {
          const result = await keyed([...command, "-o", link, ...force], { env });
          assert.equal(result.status, 2, result.stderr);
          assert.match(result.stderr, /link is a symbolic link; keyed writes keys only/);
          assert.equal(existsSync(target), false, "the key went through the link");
        }
        // An existing target is not touched either.
        writeFileSync(target, "precious");
        const result = await keyed([...command, "-o", link, "--force"], { env });
        assert.equal(result.status, 2);
        assert.equal(
          readFileSync(target, "utf8"),
          "precious",
          "the key overwrote the link's target",
        );
      });
    }
  });

  describe("keys and sum files are read within bounds", () => {
    it("a key over 64 KiB from a file, /dev/zero or stdin is refused; 64 KiB is taken", async () => {
      writeFileSync(path("big.key"), new Uint8Array(64 * 1024 + 1).fill(7));
      const overFile = await keyed([...tagArgs.slice(0, 3), "--key-file", path("big.key")]);
      assert.equal(overFile.status, 2);
      assert.match(overFile.stderr, /big\.key is over 64 KiB/);
      if (existsSync("/dev/zero")) {
        const zero = await keyed([...tagArgs.slice(0, 3), "--key-file", "/dev/zero", path("a")]);
        assert.equal(zero.status, 2);
        assert.match(zero.stderr, /--key-file \/dev\/zero is over 64 KiB/);
      }
      const overStdin = await keyed([...tagArgs.slice(0, 3), "--key-stdin", path("a")], {
        input: new Uint8Array(1024 * 1024).fill(1),
      });
      assert.equal(overStdin.status, 2);
      assert.match(overStdin.stderr, /--key-stdin is over 64 KiB/);

      const largest = new Uint8Array(64 * 1024).fill(9);
      writeFileSync(path("largest.key"), largest);
      const ok = await keyed([
        ...tagArgs.slice(0, 3),
        "--key-file",
        path("largest.key"),
        path("a"),
      ]);
      assert.equal(ok.status, 0, ok.stderr);
      const expected = toHex(
        mac("hmac-sha256", largest).tag(new TextEncoder().encode("first file\n")),
      );
      assert.equal(parseTagLines(ok.stdout)[0].tag, expected);
    });

    it("a sum-file line over 64 KiB is an improperly formatted line", async () => {
      const good = `hmac-sha256:${hmacHex("first file\n")}  ${path("a")}`;
      const long = `hmac-sha256:${hmacHex("second file\n")}  ${path("b")}${"/".repeat(70_000)}`;
      const result = await keyed(["check", "--key-env", "KEYED_TEST_KEY", "-"], {
        env,
        input: `${long}\n${good}\n`,
      });
      assert.equal(result.status, 1);
      assert.equal(result.stdout, `${path("a")}: OK\n`);
      assert.match(result.stderr, /-:1: improperly formatted line: longer than 64 KiB/);
      assert.match(result.stderr, /1 OK, 1 improperly formatted line\n$/);
    });
  });

  describe("flags", () => {
    it("every command refuses an unknown flag, and --report-rss is no flag", async () => {
      const commands = ["tag", "verify", "check", "keygen", "derive", "list", "bench"];
      for (const flag of ["--no-such-flag", "--report-rss"]) {
        for (const command of commands) {
          const result = await keyed([command, flag]);
          assert.equal(result.status, 2, `${command} ${flag}: ${result.stderr}`);
          assert.equal(
            result.stderr,
            `keyed ${command}: unknown option ${flag} (keyed ${command} --help lists the options)\n`,
          );
        }
      }
    });

    it("keyed's own flags go through the same parser", async () => {
      const unknown = await keyed(["--no-such-flag"]);
      assert.equal(unknown.status, 2);
      assert.equal(
        unknown.stderr,
        "keyed: unknown option --no-such-flag (keyed --help lists the options)\n",
      );
      const valued = await keyed(["--version=2"]);
      assert.equal(valued.status, 2);
      assert.match(valued.stderr, /^keyed: .*--version.*does not take an argument/);
      for (const flag of ["--version", "-V"]) {
        assert.match((await keyed([flag])).stdout, /^keyed \d+\.\d+\.\d+/);
      }
      for (const flag of ["--help", "-h"]) {
        assert.match((await keyed([flag])).stdout, /^Usage: keyed <command>/);
      }
    });

    it("check --help states the exit statuses docs/cli.md gives", async () => {
      const help = await keyed(["check", "--help"]);
      assert.match(
        help.stdout,
        /1 when any tag failed, any file could not\s+be read or any line is improperly formatted/,
      );
      assert.match(
        help.stdout,
        /2 on a usage or input error, including a sum\s+file with no properly formatted line/,
      );
      const noProper = await keyed(["check", "--key-env", "KEYED_TEST_KEY", "-"], {
        env,
        input: "junk\n",
      });
      assert.equal(noProper.status, 2);
    });
  });
});
