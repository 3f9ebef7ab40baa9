/**
 * `keyed check` against sum files an attacker writes: generated mixes of valid lines (tagged with
 * the real key), lines with a flipped tag byte, a wrong or unknown algorithm, a cut tag, huge,
 * empty or binary names, CRLF ends, NUL bytes and random bytes. Whatever the file, check never
 * crashes, exits 0, 1 or 2 as docs/cli.md says, reports every valid line OK and no modified
 * line OK. Then: reading a sum file costs time in proportion to its size.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import {
  bytesToBase64,
  type MacName,
  mac,
  macInfo,
  macNames,
  randomBytes,
} from "../../src/index.js";
import { toHex } from "../helpers.js";
import { keyed, type RunResult, skipUnlessBuilt } from "./run.js";

const key = randomBytes(32);
const env = { KEYED_TEST_KEY: toHex(key) };
const encoder = new TextEncoder();

/** Algorithms one 32-byte key fits and that check verifies without extra flags. */
const ALGORITHMS = macNames().filter((name) => {
  const info = macInfo(name);
  if (info.oneTime || info.tagLength - info.nonceLength < info.minTagLength) return false;
  try {
    mac(name, key).destroy();
    return true;
  } catch {
    return false;
  }
});

/** File names that exercise the escaped form (backslash, newline, carriage return). */
const SPECIAL_NAMES = ["with space", "back\\slash", "new\nline", "car\rriage", "ünïcödé", "-x"];
const NAMES = [...SPECIAL_NAMES, ...Array.from({ length: 90 }, (_, i) => `f${i}`)];
const contents = new Map<string, Uint8Array>();

/** GNU coreutils' escaping, written independently of src/cli/sumfile.ts. */
const needsEscape = (name: string) => /[\\\n\r]/.test(name);
const escapeName = (name: string) =>
  name.replaceAll("\\", "\\\\").replaceAll("\n", "\\n").replaceAll("\r", "\\r");
const shownResult = (name: string, result: string) =>
  needsEscape(name) ? `\\${escapeName(name)}: ${result}` : `${name}: ${result}`;

type Kind = "valid" | "flipped" | "otherAlgorithm" | "unknownAlgorithm" | "cutTag";
/** A line about one of NAMES. */
interface FileLine {
  kind: Kind;
  algorithm: MacName;
  other: MacName;
  unknown: string;
  base64: boolean;
  binaryMode: boolean;
  crlf: boolean;
  flipAt: number;
  flipMask: number;
}
/** A line about no real file. */
type JunkLine =
  | { kind: "bytes"; bytes: Uint8Array }
  | { kind: "hugeName"; length: number }
  | { kind: "emptyName" }
  | { kind: "nulName" }
  | { kind: "nulInTag" }
  | { kind: "ignorable"; text: string };

const fileLine: fc.Arbitrary<FileLine> = fc.record({
  kind: fc.constantFrom<Kind>(
    "valid",
    "valid",
    "flipped",
    "otherAlgorithm",
    "unknownAlgorithm",
    "cutTag",
  ),
  algorithm: fc.constantFrom(...ALGORITHMS),
  other: fc.constantFrom(...ALGORITHMS),
  unknown: fc
    .stringMatching(/^[a-z0-9-]{1,20}$/)
    .filter((s) => !(macNames() as string[]).includes(s)),
  base64: fc.boolean(),
  binaryMode: fc.boolean(),
  crlf: fc.boolean(),
  flipAt: fc.nat(),
  flipMask: fc.integer({ min: 1, max: 255 }),
});

const junkLine: fc.Arbitrary<JunkLine> = fc.oneof(
  fc.record({ kind: fc.constant("bytes" as const), bytes: fc.uint8Array({ maxLength: 200 }) }),
  fc.record({
    kind: fc.constant("hugeName" as const),
    length: fc.integer({ min: 256, max: 80_000 }),
  }),
  fc.record({ kind: fc.constant("emptyName" as const) }),
  fc.record({ kind: fc.constant("nulName" as const) }),
  fc.record({ kind: fc.constant("nulInTag" as const) }),
  fc.record({
    kind: fc.constant("ignorable" as const),
    text: fc.constantFrom("", "\r", "   ", "# a comment", "#hmac-sha256:00  f0"),
  }),
);

const sumFile = fc.record({
  files: fc.array(fileLine, { minLength: 0, maxLength: NAMES.length }),
  junk: fc.array(junkLine, { maxLength: 30 }),
  order: fc.array(fc.nat(), { maxLength: 200 }),
  viaStdin: fc.boolean(),
});

const tagText = (tag: Uint8Array, base64: boolean) => (base64 ? bytesToBase64(tag) : toHex(tag));

/** The text of a line about `name`, and whether it was validly made. */
function writeFileLine(line: FileLine, name: string): string {
  const tag = mac(line.algorithm, key).tag(contents.get(name) ?? new Uint8Array());
  let algorithm: string = line.algorithm;
  let text = tagText(tag, line.base64);
  if (line.kind === "flipped") {
    tag[line.flipAt % tag.length] ^= line.flipMask;
    text = tagText(tag, line.base64);
  } else if (line.kind === "otherAlgorithm") {
    algorithm = line.other === line.algorithm ? `${line.other}x` : line.other;
  } else if (line.kind === "unknownAlgorithm") {
    algorithm = line.unknown;
  } else if (line.kind === "cutTag") {
    text = tagText(tag.subarray(0, tag.length - 1 - (line.flipAt % 4)), line.base64);
  }
  const separator = line.binaryMode ? " *" : "  ";
  const body = needsEscape(name)
    ? `\\${algorithm}:${text}${separator}${escapeName(name)}`
    : `${algorithm}:${text}${separator}${name}`;
  return `${body}${line.crlf ? "\r\n" : "\n"}`;
}

function writeJunkLine(line: JunkLine): Uint8Array {
  const tag = toHex(mac("hmac-sha256", key).tag(new Uint8Array(1)));
  switch (line.kind) {
    case "bytes":
      return Uint8Array.from([...line.bytes, 0x0a]);
    case "hugeName":
      return encoder.encode(`hmac-sha256:${tag}  ${"n".repeat(line.length)}\n`);
    case "emptyName":
      return encoder.encode(`hmac-sha256:${tag}  \n`);
    case "nulName":
      return encoder.encode(`hmac-sha256:${tag}  f0\0.txt\n`);
    case "nulInTag":
      return encoder.encode(`hmac-sha256:${tag.slice(0, 10)}\0${tag.slice(11)}  f1\n`);
    case "ignorable":
      return encoder.encode(`${line.text}\n`);
  }
}

function assertNoCrash(result: RunResult): void {
  assert.ok(
    result.status === 0 || result.status === 1 || result.status === 2,
    `exit ${result.status}`,
  );
  assert.doesNotMatch(result.stderr, /\n\s+at |unexpected error|Error:/, result.stderr);
}

let dir = "";

describe("keyed check on attacker-written sum files", { skip: skipUnlessBuilt }, () => {
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "keyed-check-attacker-"));
    for (const name of NAMES) {
      const content = randomBytes(name.length * 7);
      contents.set(name, content);
      writeFileSync(join(dir, name), content);
    }
  });
  after(() => {
    if (dir !== "") rmSync(dir, { recursive: true, force: true });
  });

  it("never crashes, reports every valid line OK and no modified line OK", async () => {
    await fc.assert(
      fc.asyncProperty(sumFile, async ({ files, junk, order, viaStdin }) => {
        // Each file is named by one line at most, so its result line tells that line's fate.
        const pieces: Uint8Array[] = files.map((line, i) =>
          encoder.encode(writeFileLine(line, NAMES[i])),
        );
        const junkPieces = junk.map(writeJunkLine);
        // Junk goes in at generated positions among the file lines.
        junkPieces.forEach((piece, i) => {
          pieces.splice((order[i] ?? i) % (pieces.length + 1), 0, piece);
        });
        const bytes = Buffer.concat(pieces);
        const args = ["check", "--key-env", "KEYED_TEST_KEY"];
        if (!viaStdin) writeFileSync(join(dir, "sums"), bytes);
        const result = await keyed([...args, viaStdin ? "-" : "sums"], {
          env,
          cwd: dir,
          ...(viaStdin ? { input: bytes } : {}),
        });
        assertNoCrash(result);

        const valid = files.flatMap((line, i) => (line.kind === "valid" ? [NAMES[i]] : []));
        const modified = files.flatMap((line, i) => (line.kind !== "valid" ? [NAMES[i]] : []));
        const outLines = new Set(result.stdout.split("\n"));
        for (const name of valid) {
          assert.ok(outLines.has(shownResult(name, "OK")), `valid ${JSON.stringify(name)}`);
        }
        for (const name of modified) {
          assert.ok(!outLines.has(shownResult(name, "OK")), `modified ${JSON.stringify(name)} OK`);
        }
        const okCount = result.stdout.split("\n").filter((line) => line.endsWith(": OK")).length;
        assert.equal(okCount, valid.length, "an OK for a line that was not validly made");

        // Exit statuses as documented: 0 only when every line checked out; 2 only when no line
        // was properly formatted (these algorithms need no flags, and the key fits them all).
        if (
          modified.length > 0 ||
          junk.some((line) => line.kind !== "ignorable" && line.kind !== "bytes")
        ) {
          assert.notEqual(result.status, 0, "a modified line passed");
        }
        if (valid.length > 0) assert.notEqual(result.status, 2, result.stderr);
        if (junk.every((line) => line.kind === "ignorable") && modified.length === 0) {
          assert.equal(result.status, valid.length > 0 ? 0 : 2, result.stderr);
        }
      }),
      { numRuns: 25 },
    );
  });

  it("reads a sum file in time linear in its size (1 MB vs 10 MB line; 20k vs 200k lines)", async (t) => {
    const good = `blake3:${toHex(mac("blake3", key).tag(contents.get("f0") ?? new Uint8Array()))}  f0\n`;
    const time = async (name: string, text: string, extra: string[] = []) => {
      writeFileSync(join(dir, name), text);
      let best = Number.POSITIVE_INFINITY;
      for (let round = 0; round < 2; round++) {
        const start = performance.now();
        const result = await keyed(["check", "--key-env", "KEYED_TEST_KEY", ...extra, name], {
          env,
          cwd: dir,
        });
        best = Math.min(best, performance.now() - start);
        assertNoCrash(result);
        assert.equal(result.status, 1, result.stderr);
      }
      return best;
    };
    const longLine = (bytes: number) => `${good}hmac-sha256:${"ab".repeat(bytes / 2)}  f1\n`;
    const oneMb = await time("long-1", longLine(1_000_000));
    const tenMb = await time("long-10", longLine(10_000_000));
    const manyLines = (count: number) => good + "md5:00112233  f1\n".repeat(count);
    const few = await time("lines-20k", manyLines(20_000), ["--status"]);
    const many = await time("lines-200k", manyLines(200_000), ["--status"]);
    t.diagnostic(
      `1 MB line ${oneMb.toFixed(0)} ms, 10 MB line ${tenMb.toFixed(0)} ms (${(tenMb / oneMb).toFixed(2)}x); ` +
        `20k lines ${few.toFixed(0)} ms, 200k lines ${many.toFixed(0)} ms (${(many / few).toFixed(2)}x)`,
    );
    assert.ok(tenMb / oneMb < 20, `10 MB line took ${(tenMb / oneMb).toFixed(1)}x the 1 MB line`);
    assert.ok(many / few < 20, `200k lines took ${(many / few).toFixed(1)}x 20k lines`);
  });
});
