/**
 * The keyed command as a new user meets it: algorithm names and their hints, usage lines that
 * show the key as a flag, a check where nothing matches, directories, and sha256sum-style lines.
 */
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { keyed, skipUnlessBuilt } from "./run.js";

const KEY = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
const env = { KEY };
let dir = "";

describe("the keyed command, first five minutes", { skip: skipUnlessBuilt }, () => {
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "keyed-first-"));
    mkdirSync(join(dir, "tree", "sub"), { recursive: true });
    writeFileSync(join(dir, "tree", "b.txt"), "bee");
    writeFileSync(join(dir, "tree", "a.txt"), "ay");
    writeFileSync(join(dir, "tree", "sub", "c.txt"), "see");
    symlinkSync(join(dir, "tree"), join(dir, "tree", "sub", "loop"));
    writeFileSync(join(dir, "one.txt"), "one");
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("a hash name or an upper-case name says which MAC was meant", async () => {
    for (const [given, meant] of [
      ["sha256", "hmac-sha256"],
      ["HMAC-SHA256", "hmac-sha256"],
      ["blake33", "blake3"],
    ]) {
      const r = await keyed(["tag", "-a", given, "--key-env", "KEY", "one.txt"], { cwd: dir, env });
      assert.equal(r.status, 2, given);
      assert.match(r.stderr, new RegExp(`did you mean "${meant}"`), given);
    }
  });

  it("usage lines show the key as a flag, never as a positional KEY", async () => {
    for (const command of ["tag", "check", "verify"]) {
      const { stdout } = await keyed([command, "--help"]);
      const usage = stdout.split("\n")[0];
      assert.doesNotMatch(usage, / KEY /, usage);
      assert.match(usage, /--key-file FILE \| --key-env VAR \| --key-stdin/, usage);
    }
  });

  it("a check where no tag matches says the key may be wrong", async () => {
    const tags = await keyed(["tag", "-a", "hmac-sha256", "--key-env", "KEY", "one.txt"], {
      cwd: dir,
      env,
    });
    writeFileSync(join(dir, "one.tags"), tags.stdout);
    const wrong = { KEY: KEY.replace(/^00/, "ff") };
    const r = await keyed(["check", "--key-env", "KEY", "one.tags"], { cwd: dir, env: wrong });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /no tag matched: is the key \(from --key-env KEY\) the one/);
    const right = await keyed(["check", "--key-env", "KEY", "one.tags"], { cwd: dir, env });
    assert.equal(right.status, 0);
    assert.doesNotMatch(right.stderr, /no tag matched/);
  });

  it("a directory is skipped with a message, as sha256sum does; -r tags the files below it", async () => {
    const args = ["tag", "-a", "hmac-sha256", "--key-env", "KEY"];
    const plain = await keyed([...args, "tree", "one.txt"], { cwd: dir, env });
    assert.equal(plain.status, 2);
    assert.match(plain.stderr, /^keyed tag: tree: is a directory$/m);
    assert.match(plain.stdout, /^hmac-sha256:[0-9a-f]{64} {2}one\.txt\n$/);
    const walked = await keyed([...args, "-r", "tree"], { cwd: dir, env });
    assert.equal(walked.status, 0, walked.stderr);
    const names = walked.stdout
      .trim()
      .split("\n")
      .map((l) => l.split("  ")[1]);
    // Sorted, recursive, and the link back to tree/ is not followed.
    assert.deepEqual(names, ["tree/a.txt", "tree/b.txt", "tree/sub/c.txt"]);
  });

  it("--plain prints sha256sum / b3sum lines, and check -a reads them back", async () => {
    const r = await keyed(["tag", "-a", "hmac-sha256", "--key-env", "KEY", "--plain", "one.txt"], {
      cwd: dir,
      env,
    });
    assert.equal(r.status, 0);
    const expected = createHmac("sha256", Buffer.from(KEY, "hex")).update("one").digest("hex");
    assert.equal(r.stdout, `${expected}  one.txt\n`);
    writeFileSync(join(dir, "plain.tags"), r.stdout);
    const check = await keyed(["check", "-a", "hmac-sha256", "--key-env", "KEY", "plain.tags"], {
      cwd: dir,
      env,
    });
    assert.equal(check.status, 0, check.stderr);
    const both = await keyed(["tag", "-a", "blake3", "--key-env", "KEY", "--plain", "--json"], {
      cwd: dir,
      env,
    });
    assert.equal(both.status, 2);
  });
});
