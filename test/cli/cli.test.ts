/**
 * The keyed command, run as a user runs it: `node bin/keyed.js …` in a child process, against the
 * built dist/. Tags are checked against the library and, for HMAC, against openssl.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  bytesToBase64,
  deriveKey,
  generateKey,
  type MacName,
  mac,
  macInfo,
  macNames,
} from "../../src/index.js";
import { hex, toHex } from "../helpers.js";
import { keyed, parseTagLines, type RunResult, skipUnlessBuilt } from "./run.js";

const skip = skipUnlessBuilt;
let dir = "";
const message = new TextEncoder().encode("The quick brown fox jumps over the lazy dog\n");
const path = (name: string) => join(dir, name);

/** One line on stderr, exit 2, and no stack trace: the shape of every usage or input error. */
function assertUsageError(result: RunResult, pattern: RegExp): void {
  assert.equal(result.status, 2, `exit status; stderr: ${result.stderr}`);
  assert.equal(result.stdout, "");
  const lines = result.stderr.trimEnd().split("\n");
  assert.equal(lines.length, 1, `one line on stderr, got:\n${result.stderr}`);
  assert.match(lines[0], /^keyed( [a-z]+)?: /);
  assert.match(lines[0], pattern);
  assert.doesNotMatch(result.stderr, /\n\s+at /);
}

const env = (key: Uint8Array) => ({ KEYED_TEST_KEY: toHex(key) });

const openssl = spawnSync("openssl", ["version"], { encoding: "utf8" });
const skipOpenssl = skip || (openssl.status === 0 ? false : "openssl is not installed");

describe("keyed CLI", { skip }, () => {
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "keyed-cli-"));
    writeFileSync(path("message.txt"), message);
    writeFileSync(path("empty"), "");
    for (let i = 0; i < 6; i++)
      writeFileSync(path(`part-${i}.bin`), new Uint8Array(70_000 * i + 3).fill(i));
    mkdirSync(path("a directory"));
  });
  after(() => {
    if (dir !== "") rmSync(dir, { recursive: true, force: true });
  });

  describe("help and version", () => {
    it("keyed --help, --version and --help on every command exit 0", async () => {
      const help = await keyed(["--help"]);
      assert.equal(help.status, 0);
      assert.match(help.stdout, /^Usage: keyed <command>/);
      const version = await keyed(["--version"]);
      assert.equal(version.status, 0);
      const pkg = JSON.parse(readFileSync(join(import.meta.dirname, "../../package.json"), "utf8"));
      assert.equal(version.stdout, `keyed ${pkg.version}\n`);
      for (const command of ["tag", "verify", "check", "keygen", "derive", "list", "bench"]) {
        const result = await keyed([command, "--help"]);
        assert.equal(result.status, 0, command);
        assert.match(result.stdout, new RegExp(`^Usage: keyed ${command}`), command);
        assert.match(result.stdout, /Example|Options/, command);
        const viaHelp = await keyed(["help", command]);
        assert.equal(viaHelp.stdout, result.stdout);
      }
    });
    it("keyed with no command prints the help on stderr and exits 2", async () => {
      const result = await keyed([]);
      assert.equal(result.status, 2);
      assert.match(result.stderr, /^Usage: keyed/);
    });
  });

  describe("tag", () => {
    it("matches the library for every algorithm", async () => {
      for (const name of macNames()) {
        const key = generateKey(name);
        const result = await keyed(
          ["tag", "-a", name, "--key-env", "KEYED_TEST_KEY", path("message.txt")],
          {
            env: env(key),
          },
        );
        assert.equal(result.status, 0, `${name}: ${result.stderr}`);
        const [line] = parseTagLines(result.stdout);
        assert.equal(line.algorithm, name);
        assert.equal(line.name, path("message.txt"));
        const info = macInfo(name);
        const tag = hex(line.tag);
        assert.equal(tag.length, info.tagLength, name);
        if (info.nonceLength > 0) {
          // A fresh nonce per tag: nonce ‖ tag, which the library verifies.
          assert.ok(mac(name, key).verify(message, tag), name);
        } else {
          const options = info.tagLength < info.minTagLength ? { allowShortTags: true } : {};
          assert.equal(line.tag, toHex(mac(name, key, options).tag(message)), name);
        }
      }
    });

    it("HMAC tags match openssl dgst -mac HMAC", { skip: skipOpenssl }, async () => {
      for (const [name, digest] of [
        ["hmac-sha256", "sha256"],
        ["hmac-sha1", "sha1"],
        ["hmac-sha512", "sha512"],
        ["hmac-sha384", "sha384"],
        ["hmac-sha3-256", "sha3-256"],
      ] as const) {
        const key = generateKey(name);
        const ours = await keyed(
          ["tag", "-a", name, "--key-env", "KEYED_TEST_KEY", path("message.txt")],
          {
            env: env(key),
          },
        );
        const theirs = spawnSync(
          "openssl",
          [
            "dgst",
            `-${digest}`,
            "-mac",
            "HMAC",
            "-macopt",
            `hexkey:${toHex(key)}`,
            path("message.txt"),
          ],
          { encoding: "utf8" },
        );
        assert.equal(theirs.status, 0, theirs.stderr);
        const opensslTag = theirs.stdout.trim().split("= ").pop();
        assert.equal(parseTagLines(ours.stdout)[0].tag, opensslTag, name);
      }
    });

    it("an RFC 4231 known answer with a short key and --allow-short-keys", async () => {
      // RFC 4231 section 4.3, test case 2: key "Jefe".
      const args = ["tag", "-a", "hmac-sha256", "--key-hex", "4a656665", "--allow-short-keys", "-"];
      const result = await keyed(args, { input: "what do ya want for nothing?" });
      assert.equal(result.status, 0, result.stderr);
      assert.equal(
        result.stdout,
        "hmac-sha256:5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843  -\n",
      );
      assert.match(result.stderr, /warning: --key-hex puts the key on the command line/);
    });

    it('reads stdin for "-" and for no file at all', async () => {
      const key = generateKey("blake3");
      const expected = toHex(mac("blake3", key).tag(message));
      for (const files of [["-"], []]) {
        const result = await keyed(
          ["tag", "-a", "blake3", "--key-env", "KEYED_TEST_KEY", ...files],
          {
            env: env(key),
            input: message,
          },
        );
        assert.equal(result.status, 0, result.stderr);
        assert.equal(result.stdout, `blake3:${expected}  -\n`);
      }
    });

    it("takes the key from a file, an environment variable (hex or base64) or stdin", async () => {
      const key = generateKey("hmac-sha256");
      const expected = toHex(mac("hmac-sha256", key).tag(message));
      writeFileSync(path("raw.key"), key);
      const file = path("message.txt");
      const base = ["tag", "-a", "hmac-sha256"];
      const runs = [
        await keyed([...base, "--key-file", path("raw.key"), file]),
        await keyed([...base, "--key-env", "K", file], { env: { K: toHex(key) } }),
        await keyed([...base, "--key-env", "K", file], {
          env: { K: `base64:${bytesToBase64(key)}` },
        }),
        await keyed([...base, "--key-stdin", file], { input: key }),
      ];
      for (const result of runs) {
        assert.equal(result.status, 0, result.stderr);
        assert.equal(result.stderr, "");
        assert.equal(parseTagLines(result.stdout)[0].tag, expected);
      }
    });

    it("--key-hex works but warns on stderr", async () => {
      const key = generateKey("blake3");
      const result = await keyed([
        "tag",
        "-a",
        "blake3",
        "--key-hex",
        toHex(key),
        path("message.txt"),
      ]);
      assert.equal(result.status, 0);
      assert.equal(parseTagLines(result.stdout)[0].tag, toHex(mac("blake3", key).tag(message)));
      assert.match(
        result.stderr,
        /^keyed tag: warning: --key-hex .*ps.*--key-file, --key-env or --key-stdin\n$/,
      );
    });

    it("warns when a key file holds hex text (--key-file reads raw bytes)", async () => {
      writeFileSync(path("hex.key"), `${toHex(generateKey("hmac-sha256"))}\n`);
      const result = await keyed([
        "tag",
        "-a",
        "hmac-sha256",
        "--key-file",
        path("hex.key"),
        path("message.txt"),
      ]);
      assert.equal(result.status, 0);
      assert.match(
        result.stderr,
        /holds bare hex text, and --key-file uses such a file's raw bytes/,
      );
      assert.match(result.stderr, /write "hex:" in front/);
    });

    it("--base64 and --json", async () => {
      const key = generateKey("kmac128");
      const tag = mac("kmac128", key).tag(message);
      const file = path("message.txt");
      const base = ["tag", "-a", "kmac128", "--key-env", "KEYED_TEST_KEY"];
      const b64 = await keyed([...base, "--base64", file], { env: env(key) });
      assert.equal(b64.stdout, `kmac128:${bytesToBase64(tag)}  ${file}\n`);
      const json = await keyed([...base, "--json", file, "-"], { env: env(key), input: message });
      const lines = json.stdout
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line));
      assert.deepEqual(lines, [
        { file, algorithm: "kmac128", tag: toHex(tag), encoding: "hex" },
        { file: "-", algorithm: "kmac128", tag: toHex(tag), encoding: "hex" },
      ]);
    });

    it("tags several files in parallel with the same lines, in the same order, as one by one", async () => {
      const key = generateKey("hmac-sha512");
      const files = [0, 1, 2, 3, 4, 5].map((i) => path(`part-${i}.bin`));
      files.splice(3, 0, "-", path("empty"));
      const run = (jobs: string) =>
        keyed(
          ["tag", "-a", "hmac-sha512", "--key-env", "KEYED_TEST_KEY", "--jobs", jobs, ...files],
          {
            env: env(key),
            input: message,
          },
        );
      const sequential = await run("1");
      const parallel = await run("2");
      const many = await run("5");
      assert.equal(sequential.status, 0, sequential.stderr);
      assert.equal(parallel.status, 0, parallel.stderr);
      assert.equal(parallel.stdout, sequential.stdout);
      assert.equal(many.stdout, sequential.stdout);
      const lines = parseTagLines(sequential.stdout);
      assert.deepEqual(
        lines.map((line) => line.name),
        files,
      );
      for (const line of lines) {
        const data = line.name === "-" ? message : readFileSync(line.name);
        assert.equal(line.tag, toHex(mac("hmac-sha512", key).tag(data)), line.name);
      }
    });

    it("refuses a one-time key (poly1305) for more than one file", async () => {
      const key = generateKey("poly1305");
      const args = [
        "tag",
        "-a",
        "poly1305",
        "--key-env",
        "KEYED_TEST_KEY",
        path("message.txt"),
        path("empty"),
      ];
      assertUsageError(await keyed(args, { env: env(key) }), /poly1305 keys are one-time.*2 files/);
    });
  });

  describe("verify", () => {
    it("exits 0 with OK for the right tag and 1 with FAILED for a changed file", async () => {
      const key = generateKey("hmac-sha256");
      const tag = toHex(mac("hmac-sha256", key).tag(message));
      writeFileSync(
        path("changed.txt"),
        message.map((b, i) => (i === 3 ? b ^ 1 : b)),
      );
      const base = ["verify", "-a", "hmac-sha256", "--key-env", "KEYED_TEST_KEY", "--tag", tag];
      const ok = await keyed([...base, path("message.txt")], { env: env(key) });
      assert.equal(ok.status, 0, ok.stderr);
      assert.equal(ok.stdout, `${path("message.txt")}: OK\n`);
      const bad = await keyed([...base, path("changed.txt")], { env: env(key) });
      assert.equal(bad.status, 1);
      assert.equal(bad.stdout, `${path("changed.txt")}: FAILED\n`);
      const quiet = await keyed([...base, "-q", path("changed.txt")], { env: env(key) });
      assert.equal(quiet.status, 1);
      assert.equal(quiet.stdout, "");
    });

    it('reads the algorithm from an "alg:tag" prefix, base64 tags, and stdin', async () => {
      const key = generateKey("cmac-aes256");
      const tag = mac("cmac-aes256", key).tag(message);
      const prefixed = await keyed(
        ["verify", "--key-env", "KEYED_TEST_KEY", "--tag", `cmac-aes256:${toHex(tag)}`],
        {
          env: env(key),
          input: message,
        },
      );
      assert.equal(prefixed.status, 0, prefixed.stderr);
      assert.equal(prefixed.stdout, "-: OK\n");
      const b64 = await keyed(
        [
          "verify",
          "-a",
          "cmac-aes256",
          "--key-env",
          "KEYED_TEST_KEY",
          "--tag",
          bytesToBase64(tag),
          "-",
        ],
        {
          env: env(key),
          input: message,
        },
      );
      assert.equal(b64.status, 0, b64.stderr);
      const mismatch = await keyed(
        [
          "verify",
          "-a",
          "blake3",
          "--key-env",
          "KEYED_TEST_KEY",
          "--tag",
          `cmac-aes256:${toHex(tag)}`,
        ],
        {
          env: env(key),
          input: message,
        },
      );
      assertUsageError(mismatch, /cmac-aes256 tag, but -a says blake3/);
    });

    it("reads the nonce back from a GMAC / ChaCha20-Poly1305 tag (nonce ‖ tag)", async () => {
      for (const name of ["gmac-aes128", "chacha20-poly1305"] as const) {
        const key = generateKey(name);
        const tagged = await keyed(
          ["tag", "-a", name, "--key-env", "KEYED_TEST_KEY", path("message.txt")],
          { env: env(key) },
        );
        const { tag } = parseTagLines(tagged.stdout)[0];
        const verify = (file: string) =>
          keyed(["verify", "-a", name, "--key-env", "KEYED_TEST_KEY", "--tag", tag, file], {
            env: env(key),
          });
        assert.equal((await verify(path("message.txt"))).status, 0, name);
        assert.equal((await verify(path("empty"))).status, 1, name);
      }
    });

    it("refuses 64-bit SipHash tags without --allow-short-tags, saying why", async () => {
      const key = generateKey("siphash-2-4");
      const tagged = await keyed(
        ["tag", "-a", "siphash-2-4", "--key-env", "KEYED_TEST_KEY", path("message.txt")],
        { env: env(key) },
      );
      assert.equal(tagged.status, 0, tagged.stderr);
      const { tag } = parseTagLines(tagged.stdout)[0];
      assert.equal(tag.length, 16);
      const args = [
        "verify",
        "-a",
        "siphash-2-4",
        "--key-env",
        "KEYED_TEST_KEY",
        "--tag",
        tag,
        path("message.txt"),
      ];
      assertUsageError(
        await keyed(args, { env: env(key) }),
        /siphash-2-4 tags are 8 bytes \(64 bits\).*2\^-64.*--allow-short-tags/,
      );
      const allowed = await keyed([...args, "--allow-short-tags"], { env: env(key) });
      assert.equal(allowed.status, 0, allowed.stderr);
    });
  });

  describe("check", () => {
    it("checks a sum file like sha256sum -c: OK lines, FAILED for a tampered entry, exit 1", async () => {
      const key = generateKey("hmac-sha256");
      const files = [0, 1, 2, 3].map((i) => path(`part-${i}.bin`));
      const tagged = await keyed(
        ["tag", "-a", "hmac-sha256", "--key-env", "KEYED_TEST_KEY", ...files],
        { env: env(key) },
      );
      writeFileSync(path("good.tags"), tagged.stdout);
      const good = await keyed(["check", "--key-env", "KEYED_TEST_KEY", path("good.tags")], {
        env: env(key),
      });
      assert.equal(good.status, 0, good.stderr);
      assert.equal(good.stdout, files.map((f) => `${f}: OK\n`).join(""));
      assert.match(good.stderr, /^keyed check: 4 OK\n$/);

      // Tamper with the tag of the second entry (flip one hex digit).
      const lines = tagged.stdout.split("\n");
      lines[1] = lines[1].replace(/:(.)/, (_, c: string) => `:${c === "0" ? "1" : "0"}`);
      writeFileSync(path("bad.tags"), lines.join("\n"));
      const bad = await keyed(["check", "--key-env", "KEYED_TEST_KEY", path("bad.tags")], {
        env: env(key),
      });
      assert.equal(bad.status, 1);
      assert.equal(
        bad.stdout,
        `${files[0]}: OK\n${files[1]}: FAILED\n${files[2]}: OK\n${files[3]}: OK\n`,
      );
      assert.match(bad.stderr, /3 OK, 1 FAILED/);
      const quiet = await keyed(
        ["check", "--key-env", "KEYED_TEST_KEY", "--quiet", path("bad.tags")],
        { env: env(key) },
      );
      assert.equal(quiet.stdout, `${files[1]}: FAILED\n`);
      const status = await keyed(
        ["check", "--key-env", "KEYED_TEST_KEY", "--status", path("bad.tags")],
        { env: env(key) },
      );
      assert.equal(status.status, 1);
      assert.equal(status.stdout + status.stderr, "");

      // A tampered file is caught the same way; the sum file can come from stdin.
      const copy = path("copy.bin");
      writeFileSync(copy, readFileSync(files[2]));
      const sum = (
        await keyed(["tag", "-a", "hmac-sha256", "--key-env", "KEYED_TEST_KEY", copy], {
          env: env(key),
        })
      ).stdout;
      writeFileSync(copy, "tampered");
      const tampered = await keyed(["check", "--key-env", "KEYED_TEST_KEY"], {
        env: env(key),
        input: sum,
      });
      assert.equal(tampered.status, 1);
      assert.equal(tampered.stdout, `${copy}: FAILED\n`);
    });

    it("reports missing files, bad lines and lines without an algorithm (or takes it from -a)", async () => {
      const key = generateKey("blake3");
      const tag = toHex(mac("blake3", key).tag(message));
      const sums = [
        "# a comment, then a blank line",
        "",
        `blake3:${tag}  ${path("message.txt")}`,
        `blake3:${tag}  ${path("no such file")}`,
        "not a tag line",
        `sha256:${tag}  ${path("message.txt")}`,
        `${tag}  ${path("message.txt")}`,
      ].join("\n");
      const result = await keyed(["check", "--key-env", "KEYED_TEST_KEY", "-"], {
        env: env(key),
        input: sums,
      });
      assert.equal(result.status, 1);
      assert.equal(
        result.stdout,
        `${path("message.txt")}: OK\n${path("no such file")}: FAILED open or read\n`,
      );
      assert.match(result.stderr, /-:5: improperly formatted line/);
      assert.match(result.stderr, /-:6: improperly formatted line: unknown algorithm "sha256"/);
      assert.match(result.stderr, /-:7: improperly formatted line: no algorithm/);
      assert.match(result.stderr, /no such file: no such file or directory/);
      assert.match(result.stderr, /1 OK, 1 unreadable file, 3 improperly formatted lines/);

      const bare = `${tag}  ${path("message.txt")}\n${tag}  ${path("no such file")}\n`;
      const withA = await keyed(
        ["check", "-a", "blake3", "--ignore-missing", "--key-env", "KEYED_TEST_KEY"],
        {
          env: env(key),
          input: bare,
        },
      );
      assert.equal(withA.status, 0, withA.stderr);
      assert.equal(withA.stdout, `${path("message.txt")}: OK\n`);
    });

    it("round-trips names with spaces, backslashes and newlines (escaped as coreutils does)", async () => {
      const key = generateKey("hmac-sha384");
      const names = [path("with space.txt"), path("back\\slash"), path("new\nline")];
      for (const name of names) writeFileSync(name, name);
      const tagged = await keyed(
        ["tag", "-a", "hmac-sha384", "--key-env", "KEYED_TEST_KEY", ...names],
        { env: env(key) },
      );
      assert.equal(tagged.status, 0, tagged.stderr);
      const lines = tagged.stdout.trimEnd().split("\n");
      assert.equal(lines.length, 3);
      assert.ok(lines[1].startsWith("\\hmac-sha384:") && lines[1].endsWith("back\\\\slash"));
      assert.ok(lines[2].startsWith("\\hmac-sha384:") && lines[2].endsWith("new\\nline"));
      const check = await keyed(["check", "--key-env", "KEYED_TEST_KEY"], {
        env: env(key),
        input: tagged.stdout,
      });
      assert.equal(check.status, 0, check.stderr);
      assert.equal(
        check.stdout,
        `${names[0]}: OK\n\\${path("back\\\\slash")}: OK\n\\${path("new\\nline")}: OK\n`,
      );
    });

    it("checks nonce-carrying tags, in parallel, and refuses short tags without the flag", async () => {
      const key = generateKey("chacha20-poly1305");
      const files = [0, 1, 2, 3, 4, 5].map((i) => path(`part-${i}.bin`));
      const tagged = await keyed(
        ["tag", "-a", "chacha20-poly1305", "--key-env", "KEYED_TEST_KEY", ...files],
        { env: env(key) },
      );
      for (const jobs of ["1", "2"]) {
        const check = await keyed(["check", "-j", jobs, "--key-env", "KEYED_TEST_KEY"], {
          env: env(key),
          input: tagged.stdout,
        });
        assert.equal(check.status, 0, check.stderr);
        assert.equal(check.stdout, files.map((f) => `${f}: OK\n`).join(""));
      }
      const sip = generateKey("siphash-1-3");
      const sipTags = await keyed(
        ["tag", "-a", "siphash-1-3", "--key-env", "KEYED_TEST_KEY", path("message.txt")],
        { env: env(sip) },
      );
      const refused = await keyed(["check", "--key-env", "KEYED_TEST_KEY"], {
        env: env(sip),
        input: sipTags.stdout,
      });
      assertUsageError(refused, /siphash-1-3 tags are 8 bytes.*--allow-short-tags/);
      const allowed = await keyed(["check", "--allow-short-tags", "--key-env", "KEYED_TEST_KEY"], {
        env: env(sip),
        input: sipTags.stdout,
      });
      assert.equal(allowed.status, 0, allowed.stderr);
    });
  });

  describe("errors: exit 2 with one clear line", () => {
    const key = generateKey("blake3");
    const tagBlake3 = (...args: string[]) =>
      keyed(["tag", "-a", "blake3", "--key-env", "KEYED_TEST_KEY", ...args], { env: env(key) });
    it("a missing file, a directory", async () => {
      assertUsageError(await tagBlake3(path("nope.txt")), /nope\.txt: no such file or directory$/);
      assertUsageError(await tagBlake3(path("a directory")), /a directory: is a directory$/);
      assertUsageError(
        await keyed(["verify", "-a", "blake3", "--key-env", "K", "--tag", "00", path("nope")], {
          env: { K: toHex(key) },
        }),
        /nope: no such file or directory$/,
      );
      assertUsageError(
        await keyed(["check", "--key-env", "K", path("nope.tags")], { env: { K: toHex(key) } }),
        /nope\.tags: no such file/,
      );
    });
    it("a key of the wrong size, and a short key", async () => {
      const fiveBytes = { K: "0102030405" };
      const sizes = await keyed(["tag", "-a", "blake3", "--key-env", "K", path("message.txt")], {
        env: fiveBytes,
      });
      assertUsageError(
        sizes,
        /blake3 takes a key of exactly 32 bytes; the key from --key-env K has 5 bytes/,
      );
      const short = await keyed(
        ["tag", "-a", "hmac-sha256", "--key-env", "K", path("message.txt")],
        { env: fiveBytes },
      );
      assertUsageError(short, /at least 16 bytes.*has 5 bytes.*--allow-short-keys/);
      writeFileSync(path("empty.key"), "");
      assertUsageError(
        await keyed(["tag", "-a", "blake3", "--key-file", path("empty.key")]),
        /empty/,
      );
    });
    it("an unknown algorithm, listing the known ones", async () => {
      const result = await keyed(["tag", "-a", "md5", "--key-env", "K", path("message.txt")], {
        env: { K: "00" },
      });
      assertUsageError(result, /unknown algorithm "md5"; this build has: hmac-sha1, .*blake3/);
      for (const name of macNames()) assert.ok(result.stderr.includes(name), name);
    });
    it("bad flags and arguments", async () => {
      assertUsageError(await keyed(["tag", "--frobnicate"]), /unknown option --frobnicate/);
      assertUsageError(await keyed(["tag", "-a"]), /argument missing/);
      assertUsageError(
        await keyed(["frobnicate"]),
        /unknown command "frobnicate"; the commands are tag, verify/,
      );
      assertUsageError(await keyed(["tag", path("message.txt")]), /-a ALGORITHM is required/);
      assertUsageError(
        await keyed(["tag", "-a", "blake3", path("message.txt")]),
        /a key is needed: --key-file/,
      );
      assertUsageError(
        await keyed(["tag", "-a", "blake3", "--key-env", "K", "--key-stdin", path("message.txt")], {
          env: { K: "00" },
        }),
        /give one key source, not --key-env and --key-stdin/,
      );
      assertUsageError(
        await keyed(["tag", "-a", "blake3", "--key-env", "KEYED_UNSET_VARIABLE"]),
        /KEYED_UNSET_VARIABLE.*not set/,
      );
      assertUsageError(
        await keyed(["tag", "-a", "blake3", "--key-env", "K"], { env: { K: "not hex!" } }),
        /neither hex nor base64/,
      );
      assertUsageError(
        await keyed(["tag", "-a", "blake3", "--key-stdin", "-"], { input: key }),
        /--key-stdin.*can't be "-"/,
      );
      assertUsageError(
        await keyed(["tag", "-a", "blake3", "--key-stdin"], { input: key }),
        /--key-stdin.*can't be "-"/,
      );
      assertUsageError(
        await tagBlake3("--jobs", "0", path("message.txt")),
        /--jobs takes a whole number from 1/,
      );
      assertUsageError(await tagBlake3("-", "-"), /stdin \("-"\) can be read once/);
      assertUsageError(
        await keyed(["verify", "-a", "blake3", "--key-env", "K", path("message.txt")], {
          env: { K: toHex(key) },
        }),
        /--tag TAG is required/,
      );
      assertUsageError(
        await keyed(
          ["verify", "-a", "blake3", "--key-env", "K", "--tag", "zz!", path("message.txt")],
          { env: { K: toHex(key) } },
        ),
        /--tag is neither hex nor base64/,
      );
      assertUsageError(
        await keyed(["check", "--key-env", "K", "-"], { env: { K: toHex(key) }, input: "junk\n" }),
        /no properly formatted/,
      );
      assertUsageError(
        await keyed(["derive", "sha256", "--key-env", "K"], { env: { K: toHex(key) } }),
        /give the method/,
      );
      assertUsageError(await keyed(["list", "extra"]), /unexpected argument 'extra'/);
    });
  });

  describe("keygen", () => {
    it("prints a hex key of the algorithm's size", async () => {
      for (const [name, length] of [
        ["hmac-sha256", 32],
        ["cmac-aes128", 16],
        ["kmac256", 64],
      ] as const) {
        const result = await keyed(["keygen", "-a", name]);
        assert.equal(result.status, 0, result.stderr);
        assert.match(result.stdout, new RegExp(`^[0-9a-f]{${2 * length}}\n$`), name);
      }
      const long = await keyed(["keygen", "-a", "hmac-sha256", "--length", "48"]);
      assert.match(long.stdout, /^[0-9a-f]{96}\n$/);
      assertUsageError(
        await keyed(["keygen", "-a", "blake3", "--length", "48"]),
        /exactly 32 bytes; drop --length/,
      );
      const raw = await keyed(["keygen", "-a", "blake3", "--raw"]);
      assert.equal(raw.stdoutBytes.length, 32);
    });

    it("writes key files with mode 0600 and refuses to overwrite without --force", async () => {
      const file = path("new.key");
      const result = await keyed(["keygen", "-a", "blake3", "--raw", "-o", file]);
      assert.equal(result.status, 0, result.stderr);
      assert.equal(result.stdout, "");
      assert.match(result.stderr, /wrote a 32-byte blake3 key .*mode 0600/);
      assert.equal(statSync(file).mode & 0o777, 0o600);
      const first = readFileSync(file);
      assert.equal(first.length, 32);
      assertUsageError(
        await keyed(["keygen", "-a", "blake3", "--raw", "-o", file]),
        /already exists; --force overwrites it/,
      );
      assert.deepEqual(readFileSync(file), first);

      // --force on a world-readable file: the key lands in a 0600 file.
      chmodSync(file, 0o644);
      const forced = await keyed(["keygen", "-a", "hmac-sha256", "-o", file, "--force"]);
      assert.equal(forced.status, 0, forced.stderr);
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.match(readFileSync(file, "utf8"), /^hex:[0-9a-f]{64}\n$/);

      // The key file works with --key-file.
      const keyFile = path("tagging.key");
      await keyed(["keygen", "-a", "blake3", "--raw", "-o", keyFile]);
      const tagged = await keyed([
        "tag",
        "-a",
        "blake3",
        "--key-file",
        keyFile,
        path("message.txt"),
      ]);
      assert.equal(
        parseTagLines(tagged.stdout)[0].tag,
        toHex(mac("blake3", readFileSync(keyFile)).tag(message)),
      );
    });
  });

  describe("derive", () => {
    it("hkdf: RFC 5869 test case 1", async () => {
      // RFC 5869 appendix A.1.
      const result = await keyed(
        [
          "derive",
          "hkdf",
          "--hash",
          "sha256",
          "--length",
          "42",
          "--salt-hex",
          "000102030405060708090a0b0c",
          "--info-hex",
          "f0f1f2f3f4f5f6f7f8f9",
          "--key-env",
          "IKM",
        ],
        { env: { IKM: "0b".repeat(22) } },
      );
      assert.equal(result.status, 0, result.stderr);
      assert.equal(
        result.stdout,
        "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865\n",
      );
    });

    it("blake3: BLAKE3 derive_key, to stdout or a 0600 file", async () => {
      const material = generateKey("blake3");
      const context = "keyed CLI test 2026-11-30 derive v1";
      const expected = deriveKey(context, material, 48);
      const args = ["derive", "blake3", "--context", context, "--length", "48", "--key-env", "K"];
      const result = await keyed(args, { env: { K: toHex(material) } });
      assert.equal(result.status, 0, result.stderr);
      assert.equal(result.stdout, `${toHex(expected)}\n`);
      const file = path("derived.key");
      const written = await keyed([...args, "--raw", "-o", file], { env: { K: toHex(material) } });
      assert.equal(written.status, 0, written.stderr);
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.deepEqual(new Uint8Array(readFileSync(file)), expected);
      assertUsageError(
        await keyed(["derive", "blake3", "--key-env", "K"], { env: { K: "00" } }),
        /--context CONTEXT is required/,
      );
      assertUsageError(
        await keyed(["derive", "hkdf", "--hash", "md5", "--key-env", "K"], { env: { K: "00" } }),
        /unknown hash "md5"; hkdf takes: sha1, sha224, sha256/,
      );
    });
  });

  describe("list and bench", () => {
    it("list shows every algorithm with its sizes; --json matches macInfo", async () => {
      const table = await keyed(["list"]);
      assert.equal(table.status, 0);
      const rows = table.stdout.trimEnd().split("\n");
      assert.match(rows[0], /^ALGORITHM\s+KEY\s+KEYGEN\s+TAG\s+NONCE\s+NOTES$/);
      assert.equal(rows.length, macNames().length + 1);
      assert.match(table.stdout, /\nblake3\s+32\s+32\s+32\s+-/);
      assert.match(table.stdout, /\nhmac-sha256\s+16\+\s+32\s+32\s+-/);
      assert.match(table.stdout, /\ngmac-aes256\s+32\s+32\s+16\s+12\s+tags are nonce/);
      assert.match(table.stdout, /\npoly1305 .*one-time/);
      const json = JSON.parse((await keyed(["list", "--json"])).stdout) as { name: MacName }[];
      assert.deepEqual(
        json.map(({ name }) => name),
        macNames(),
      );
      for (const entry of json) {
        const info = JSON.parse(JSON.stringify(macInfo(entry.name)));
        assert.deepEqual({ ...info, ...entry }, entry);
        assert.equal(Object.keys(entry).length, Object.keys(info).length + 1); // + minKeyLength
      }
    });

    it("bench measures tags/s and MB/s, and 1 vs 2 workers on files", async () => {
      const quick = await keyed(["bench", "-a", "blake3", "-a", "hmac-sha256", "--time", "5"]);
      assert.equal(quick.status, 0, quick.stderr);
      assert.match(quick.stdout, /^ALGORITHM\s+64 B tags\/s\s+MB\/s\s+1 MiB tags\/s\s+MB\/s\n/);
      assert.match(
        quick.stdout,
        /\nblake3\s+[0-9.]+ ?[kM]?\s+[0-9.]+\s+[0-9.]+ ?[kM]?\s+[0-9.]+\n/,
      );
      const files = await keyed(["bench", "--files", "--count", "4", "--size", "64K", "--json"]);
      assert.equal(files.status, 0, files.stderr);
      const report = JSON.parse(files.stdout) as {
        rows: { workers: number; megabytesPerSecond: number }[];
      };
      assert.deepEqual(
        report.rows.slice(0, 2).map((row) => row.workers),
        [1, 2],
      );
      for (const row of report.rows) assert.ok(row.megabytesPerSecond > 0);
    });
  });
});
