// Builds the playground (playground/) into dist-playground/: main.ts bundled by esbuild from the
// built package (dist/, through "keyed" as a user imports it), with the page and its styles.
// `npm run build` runs it after dist/; `npm run playground` serves the result.
import { copyFileSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { build } from "esbuild";

const root = new URL("../", import.meta.url);
const out = new URL("dist-playground/", root);
if (!existsSync(new URL("dist/index.js", root))) {
  console.error("build-playground: dist/ is missing: run `npm run build`.");
  process.exit(1);
}
rmSync(out, { recursive: true, force: true });
mkdirSync(out);
await build({
  entryPoints: [new URL("playground/main.ts", root).pathname],
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: true,
  sourcemap: true,
  outfile: new URL("main.js", out).pathname,
  logLevel: "warning",
});
for (const file of ["index.html", "style.css"]) {
  copyFileSync(new URL(`playground/${file}`, root), new URL(file, out));
}
console.log("playground: dist-playground/");
