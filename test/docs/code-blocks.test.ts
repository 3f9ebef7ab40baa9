/**
 * Docs that cannot rot: every TypeScript code block (```ts) in README.md and docs/*.md is
 * extracted, type checked under strict, and run against the built package (dist/, through
 * "keyed" as a user imports it); JavaScript blocks (```js) are run.
 *
 * - README.md's blocks run in order as one module, as a reader would paste them (issue 18).
 * - A block of docs/*.md runs as a module of its own.
 * - Each block's code is the body of an async function (its imports hoisted to the module), so
 *   a handler fragment may `return` and `await`.
 * - `<!-- doc-test: setup … -->` just before a fence is hidden code run first in the same scope:
 *   the values a fragment assumes (a secret, a request). Readers never see it.
 * - `<!-- doc-test: skip REASON -->` just before a fence leaves the block out, for fragments that
 *   cannot run; the reason is required and is printed as the skip reason.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";

const root = join(import.meta.dirname, "..", "..");
const built = existsSync(join(root, "dist", "index.js"));
const run = promisify(execFile);

export interface CodeBlock {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** "ts" blocks are type checked and run; "js" blocks are run. */
  language: "ts" | "js";
  code: string;
  setup: string;
  skip: string | undefined;
}

/** The ```ts blocks of a Markdown text, with the doc-test comment just before each, if any. */
export function codeBlocks(file: string, text: string): CodeBlock[] {
  const lines = text.split("\n");
  const blocks: CodeBlock[] = [];
  let comment: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith("<!-- doc-test:")) {
      let end = i;
      while (!lines[end].includes("-->")) end++;
      comment = lines
        .slice(i, end + 1)
        .join("\n")
        .replace(/^<!-- doc-test:\s*/, "")
        .replace(/\s*-->$/, "");
      i = end;
      continue;
    }
    const fence = /^```(\w*)\s*$/.exec(line);
    if (fence === null) {
      if (line.trim() !== "") comment = undefined;
      continue;
    }
    let end = i + 1;
    while (end < lines.length && !lines[end].startsWith("```")) end++;
    const language = fence[1] === "typescript" ? "ts" : (fence[1] as "ts" | "js");
    if (language === "ts" || language === "js") {
      const skip = comment?.startsWith("skip") ? comment.slice(4).trim() : undefined;
      if (skip === "") throw new Error(`${file}:${i + 1}: doc-test: skip needs a reason`);
      const setup = comment?.startsWith("setup") ? comment.slice(5).trim() : "";
      if (comment !== undefined && skip === undefined && setup === "") {
        throw new Error(`${file}:${i + 1}: unknown doc-test comment: ${comment}`);
      }
      const code = lines.slice(i + 1, end).join("\n");
      blocks.push({ file, line: i + 1, language, code, setup, skip });
    }
    comment = undefined;
    i = end;
  }
  return blocks;
}

/** Import declarations (hoisted to the module) and the rest of a block (the function body). */
export function splitImports(code: string): { imports: string[]; body: string } {
  const imports: string[] = [];
  const body: string[] = [];
  const lines = code.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (!/^import\s/.test(lines[i])) {
      body.push(lines[i]);
      continue;
    }
    let end = i;
    while (!/(from\s+)?["'][^"']+["'];?\s*(\/\/.*)?$/.test(lines[end])) end++;
    imports.push(lines.slice(i, end + 1).join("\n"));
    i = end;
  }
  return { imports, body: body.join("\n") };
}

/**
 * A statement whose comment states its boolean result (`m.verify(x, tag); // true`) becomes a
 * check that it is so, naming the doc line. "// true / false" states nothing and is left alone.
 */
export function checkStatedResults(code: string, file: string, firstLine: number): string {
  return code
    .split("\n")
    .map((line, i) => {
      const stated = /^(\s*)([^=]+?\));\s*\/\/\s*(true|false)\b(?!\s*\/)/.exec(line);
      if (stated === null || /^(const|let|var|return|await)\b/.test(stated[2].trim())) return line;
      const [, indent, expression, value] = stated;
      const where = JSON.stringify(`${file}:${firstLine + i + 1}: ${expression.trim()}`);
      return `${indent}if ((${expression}) !== ${value}) throw new Error(${where} + " is not ${value}");`;
    })
    .join("\n");
}

/** One module: the blocks' imports, then `run()` with their code in order. */
export function moduleOf(blocks: CodeBlock[]): string {
  const imports: string[] = [];
  const body: string[] = [];
  for (const block of blocks) {
    for (const part of [block.setup, checkStatedResults(block.code, block.file, block.line)]) {
      const split = splitImports(part);
      imports.push(...split.imports);
      body.push(split.body);
    }
    body[body.length - 1] = `// ${block.file}:${block.line}\n${body[body.length - 1]}`;
  }
  return `${imports.join("\n")}\n\nexport async function run() {\n${body.join("\n")}\n}\n`;
}

const docs = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];
const all = docs.flatMap((file) => codeBlocks(file, readFileSync(join(root, file), "utf8")));

/** The modules to check: README's blocks as one, every other block alone. */
const modules = [
  {
    name: "readme.ts",
    label: "README.md: every block, in order, as one module",
    blocks: all.filter((b) => b.file === "README.md" && !b.skip),
  },
  ...all
    .filter((b) => b.file !== "README.md" && !b.skip)
    .map((b) => ({
      name: `${b.file.replace(/\W/g, "-")}-${b.line}.${b.language === "js" ? "mjs" : "ts"}`,
      label: `${b.file}:${b.line}`,
      blocks: [b],
    })),
];

describe("code blocks in README.md and docs/*.md", {
  skip: built ? false : "dist/ not built (npm test runs `npm run build` first)",
}, () => {
  // A folder of its own where "keyed" is installed (a link to this package), as a user has it.
  const dir = mkdtempSync(join(tmpdir(), "keyed-doc-blocks-"));

  before(() => {
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module", private: true }));
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(root, join(dir, "node_modules", "keyed"), "dir");
    for (const { name, blocks } of modules) writeFileSync(join(dir, name), moduleOf(blocks));
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: "ES2022",
          lib: ["ES2022", "DOM"],
          module: "NodeNext",
          moduleResolution: "NodeNext",
          types: ["node"],
          typeRoots: [join(root, "node_modules", "@types")],
          skipLibCheck: true,
        },
        include: ["*.ts"],
      }),
    );
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it(`type check under strict (${modules.length} modules, ${all.filter((b) => !b.skip).length} blocks)`, async () => {
    await run(
      process.execPath,
      [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", dir],
      {
        cwd: dir,
      },
    ).catch((e: { stdout?: string }) => assert.fail(`tsc:\n${e.stdout ?? e}`));
  });

  for (const { name, label } of modules) {
    it(`${label} runs`, async () => {
      const module = (await import(pathToFileURL(join(dir, name)).href)) as {
        run(): Promise<unknown>;
      };
      await module.run();
    });
  }

  for (const block of all.filter((b) => b.skip)) {
    it(`${block.file}:${block.line}`, { skip: block.skip }, () => {});
  }
});
