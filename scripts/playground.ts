/**
 * `npm run playground`: serves dist-playground/ (made by `npm run build`) on 127.0.0.1 and prints
 * its address. `--port N` (default 8080; 0 for any free port).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { serveStatic } from "./serve-static.js";

const folder = join(import.meta.dirname, "..", "dist-playground");
if (!existsSync(join(folder, "index.html"))) {
  console.error("dist-playground/ is missing: run `npm run build` first.");
  process.exit(1);
}
const { values } = parseArgs({ options: { port: { type: "string", default: "8080" } } });
const server = await serveStatic(folder, { port: Number(values.port) });
console.log(`keyed playground: ${server.url}  (Ctrl-C stops it)`);
