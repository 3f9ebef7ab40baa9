#!/usr/bin/env node
// The keyed command (docs/cli.md). Its code is the compiled TypeScript in dist/: `npm run build`
// makes it, and `npm ci` runs the build.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

if (!existsSync(fileURLToPath(new URL("../dist/cli/main.js", import.meta.url)))) {
  process.stderr.write("keyed: dist/cli/main.js is missing: run `npm run build` first\n");
  process.exit(2);
}
const { main } = await import("../dist/cli/main.js");
process.exitCode = await main(process.argv.slice(2));
