/**
 * The API reference cannot rot: TypeDoc (typedoc.config.mjs, the same settings as `npm run
 * docs`) converts every entry point in package.json's `exports` and validates it, without writing
 * the HTML. An undocumented public export, an unexported type in a public signature or a broken
 * {@link} is a warning there, and every warning is an error.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { it } from "node:test";
import { promisify, stripVTControlCharacters } from "node:util";

const root = join(import.meta.dirname, "..", "..");

it("TypeDoc finds every public export documented (npm run docs, validation only)", async () => {
  await promisify(execFile)(
    process.execPath,
    // Type errors are npm run typecheck's (same sources, stricter settings): not checked twice.
    [
      join(root, "node_modules", "typedoc", "bin", "typedoc"),
      "--emit",
      "none",
      "--skipErrorChecking",
    ],
    { cwd: root, env: { ...process.env, NO_COLOR: "1" } },
  ).catch((e: { stdout?: string }) =>
    assert.fail(`typedoc reported:\n${stripVTControlCharacters(e.stdout ?? String(e))}`),
  );
});
