/**
 * keyed tag, check and verify on one BLAKE3 file of TREE_MIN_BYTES or more: hashed on every core
 * (src/cli/job.ts, treeJob), with the same tag as one thread and as the library.
 */
import assert from "node:assert/strict";
import { randomFillSync } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { TREE_MIN_BYTES } from "../../src/cli/job.js";
import { generateKey, mac } from "../../src/index.js";
import { toHex } from "../helpers.js";
import { keyed, parseTagLines, skipUnlessBuilt } from "./run.js";

const key = generateKey("blake3");
const env = { KEYED_TEST_KEY: toHex(key) };
let dir = "";
let file = "";
let expected = "";

describe("keyed on one large BLAKE3 file, on every core", { skip: skipUnlessBuilt }, () => {
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "keyed-cli-tree-"));
    file = join(dir, "large");
    // Past the threshold by a partial chunk, so the split has a tail and the last chunk is short.
    const data = randomFillSync(new Uint8Array(TREE_MIN_BYTES + 1234));
    writeFileSync(file, data);
    expected = toHex(mac("blake3", key).tag(data));
  });
  after(() => {
    if (dir !== "") rmSync(dir, { recursive: true, force: true });
  });

  it("tag: the same tag on 1, 2 (the default here) and 3 threads, the library's", async () => {
    for (const jobs of [["-j", "1"], [], ["-j", "3"]]) {
      const args = ["tag", "-a", "blake3", "--key-env", "KEYED_TEST_KEY", ...jobs, file];
      const result = await keyed(args, { env });
      assert.equal(result.status, 0, result.stderr);
      assert.equal(parseTagLines(result.stdout)[0].tag, expected, `keyed tag ${jobs.join(" ")}`);
    }
  });

  it("verify and check: OK for the tag, FAILED for another, on threads", async () => {
    const verify = (tag: string) =>
      keyed(["verify", "-a", "blake3", "--key-env", "KEYED_TEST_KEY", "--tag", tag, file], { env });
    const ok = await verify(expected);
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /: OK$/m);
    const wrong = expected.slice(0, -1) + (expected.endsWith("0") ? "1" : "0");
    const failed = await verify(wrong);
    assert.equal(failed.status, 1);
    assert.match(failed.stdout, /: FAILED$/m);

    const sums = join(dir, "sums");
    writeFileSync(sums, `blake3:${expected}  ${file}\n`);
    const checked = await keyed(["check", "--key-env", "KEYED_TEST_KEY", sums], { env });
    assert.equal(checked.status, 0, checked.stderr);
    assert.match(checked.stdout, /: OK$/m);
  });
});
