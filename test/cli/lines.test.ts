/** readLines: sum-file lines across read chunks, the line bound, and the last line. */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import fc from "fast-check";
import { type Line, MAX_LINE_BYTES, readLines } from "../../src/cli/lines.js";

const dir = mkdtempSync(join(tmpdir(), "keyed-lines-"));
after(() => rmSync(dir, { recursive: true, force: true }));

async function linesOf(content: string | Uint8Array): Promise<Line[]> {
  const file = join(dir, "sums");
  writeFileSync(file, content);
  const lines: Line[] = [];
  for await (const line of readLines(file)) lines.push(line);
  return lines;
}

describe("readLines", () => {
  it("splits as text.split('\\n') does, without a last empty line, up to the bound", async () => {
    const line = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.integer({ min: MAX_LINE_BYTES - 2, max: MAX_LINE_BYTES + 2 }).map((n) => "x".repeat(n)),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 8 }), fc.boolean(), async (texts, ending) => {
        const clean = texts.map((text) => text.replaceAll("\n", ""));
        const content = clean.join("\n") + (ending && clean.length > 0 ? "\n" : "");
        const expected = content.split("\n");
        if (expected[expected.length - 1] === "") expected.pop();
        const got = await linesOf(content);
        assert.deepEqual(
          got,
          expected.map((text, i) => ({
            number: i + 1,
            text: Buffer.byteLength(text) > MAX_LINE_BYTES ? undefined : text,
          })),
        );
      }),
      { numRuns: 60 },
    );
  });

  it("keeps a line that crosses read chunks, and multi-byte characters whole", async () => {
    const head = "é".repeat(40_000); // 80,000 bytes: over the bound
    // Bytes 6 … 65,536: the read boundary (64 KiB) falls inside the two bytes of "ü".
    const near = `${"a".repeat(65_529)}ü`;
    const got = await linesOf(`short\n${near}\n${head}\nlast`);
    assert.deepEqual(got, [
      { number: 1, text: "short" },
      { number: 2, text: near },
      { number: 3, text: undefined },
      { number: 4, text: "last" },
    ]);
  });
});
