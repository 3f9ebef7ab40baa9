/** The built package as a user installs it: exports, types, no runtime dependencies, browser-safe. */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";

const root = join(import.meta.dirname, "..", "..");
const dist = join(root, "dist");
const built = existsSync(join(dist, "index.js"));
const skip = built ? false : "dist/ not built (npm test runs `npm run build` first)";

describe("package", () => {
  it("has no runtime dependencies", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    assert.equal(pkg.dependencies, undefined);
    assert.equal(pkg.type, "module");
  });
  it("exports keyed and keyed/hazmat with type declarations", { skip }, async () => {
    const keyed = await import("keyed");
    const hazmat = await import("keyed/hazmat");
    assert.equal(typeof keyed.mac, "function");
    assert.equal(typeof keyed.hmac, "function");
    assert.equal(typeof keyed.hkdf, "function");
    assert.equal(typeof keyed.equal, "function");
    assert.ok(keyed.macNames().includes("hmac-sha256"));
    assert.equal(typeof hazmat.sha256, "function");
    assert.equal(typeof hazmat.hkdfExpand, "function");
    assert.ok(existsSync(join(dist, "index.d.ts")));
    assert.ok(existsSync(join(dist, "hazmat.d.ts")));
  });
  it("the library code imports nothing from node: (it runs in browsers; the CLI is Node-only)", {
    skip,
  }, () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory() && path !== join(dist, "cli")) walk(path);
        else if (!entry.isDirectory() && path.endsWith(".js")) files.push(path);
      }
    };
    walk(dist);
    assert.ok(files.length > 5);
    for (const file of files) {
      assert.doesNotMatch(readFileSync(file, "utf8"), /from\s+["']node:|require\(/, file);
    }
  });
});
