/**
 * Bundle sizes (docs/bundle-size.md): each job bundled by esbuild (`--bundle --minify
 * --format=esm`, platform browser) from the built package through its own `exports`, as a user's
 * bundler would see it. Each size must stay under its ceiling: the figure measured when the
 * ceiling was set, plus a little room. The sizes print as one line per job, and beside them the
 * peers' for the same job (@noble/hashes, hash-wasm).
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { build } from "esbuild";

const root = join(import.meta.dirname, "..", "..");
const built = existsSync(join(root, "dist", "index.js"));

/** One job: the import lines a user writes, and the ceiling its bundle must stay under. */
interface Job {
  name: string;
  source: string;
  ceiling?: number;
}

const use = "const k = new Uint8Array(32), m = new Uint8Array(3);";
const KEYED_JOBS: Job[] = [
  {
    name: 'hmacSha256 from "keyed/hmac": tag + verify',
    source: `import { hmacSha256 } from "keyed/hmac"; ${use} const h = hmacSha256(k); console.log(h.verify(m, h.tag(m)));`,
    ceiling: 22_500,
  },
  {
    name: 'verifyGitHub from "keyed/webhooks"',
    source: `import { verifyGitHub } from "keyed/webhooks"; console.log(verifyGitHub);`,
    // 23,091 B on 2026-12-05: the schemes' one pipeline (shared with the batch verifiers) brings
    // the timestamp check into GitHub's bundle too (21,530 B on 2026-12-02).
    ceiling: 23_500,
  },
  {
    name: 'seal + open from "keyed"',
    source: `import { seal, open } from "keyed"; console.log(seal, open);`,
    ceiling: 88_000,
  },
  {
    name: 'mac() from "keyed" (every algorithm)',
    source: `import { mac } from "keyed"; console.log(mac);`,
    ceiling: 79_000,
  },
  {
    name: 'hmacSha256 with import "keyed/wasm" (the WebAssembly kernels)',
    source: `import "keyed/wasm"; import { hmacSha256 } from "keyed/hmac"; ${use} console.log(hmacSha256(k).tag(m));`,
    // 142,892 B on 2026-12-04 after SHA-512's two lanes went (-5.7 KB of module; 150,635 before)
    ceiling: 145_000,
  },
];

const PEER_JOBS: Job[] = [
  {
    name: "@noble/hashes hmac + sha256: tag",
    source: `import { hmac } from "@noble/hashes/hmac.js"; import { sha256 } from "@noble/hashes/sha2.js"; ${use} console.log(hmac(sha256, k, m));`,
  },
  {
    name: "hash-wasm createHMAC + createSHA256: tag",
    source: `import { createHMAC, createSHA256 } from "hash-wasm"; ${use} createHMAC(createSHA256(), k).then((h) => { h.init(); h.update(m); console.log(h.digest()); });`,
  },
];

describe("bundle sizes (esbuild --bundle --minify --format=esm, platform browser)", {
  skip: built ? false : "dist/ not built (npm test runs `npm run build` first)",
}, () => {
  let dir: string;
  before(() => {
    // A project with keyed installed (a link to this checkout) and the peers beside it.
    dir = mkdtempSync(join(tmpdir(), "keyed-bundles-"));
    mkdirSync(join(dir, "node_modules", "@noble"), { recursive: true });
    symlinkSync(root, join(dir, "node_modules", "keyed"), "dir");
    symlinkSync(
      join(root, "node_modules", "hash-wasm"),
      join(dir, "node_modules", "hash-wasm"),
      "dir",
    );
    const noble = join(root, "node_modules", "@noble", "hashes");
    symlinkSync(noble, join(dir, "node_modules", "@noble", "hashes"), "dir");
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const bundle = async (source: string, platform: "browser" | "neutral" = "browser") => {
    const result = await build({
      stdin: { contents: source, resolveDir: dir },
      bundle: true,
      minify: true,
      format: "esm",
      platform,
      write: false,
      logLevel: "error",
    });
    return result.outputFiles[0];
  };
  const size = async (source: string): Promise<number> => (await bundle(source)).contents.length;

  for (const job of KEYED_JOBS) {
    it(`${job.name}: under ${job.ceiling} bytes`, async (t) => {
      const bytes = await size(job.source);
      t.diagnostic(`${job.name}: ${bytes} bytes`);
      assert.ok(
        bytes <= (job.ceiling as number),
        `${bytes} bytes, over the ${job.ceiling} ceiling`,
      );
    });
  }

  it("the WebAssembly kernels reach a browser bundle only through keyed/wasm", async () => {
    const without = await size(KEYED_JOBS[0].source);
    const withWasm = await size(KEYED_JOBS[4].source);
    assert.ok(withWasm - without > 50_000, `keyed/wasm adds only ${withWasm - without} bytes`);
  });

  it("the node:crypto backends reach a bundle only where node:crypto can exist", async () => {
    // Browsers have no node:crypto: package.json's browser field drops keyed's code for it.
    const browser = (await bundle(KEYED_JOBS[0].source)).text;
    assert.ok(!browser.includes("createHmac"), "a browser bundle carries the node:crypto HMAC");
    assert.ok(!browser.includes("getBuiltinModule"), "a browser bundle probes for node:crypto");
    // workerd, Deno and Bun bundles (platform neutral) keep it.
    const neutral = (await bundle(KEYED_JOBS[0].source, "neutral")).text;
    assert.ok(neutral.includes("createHmac"), "a neutral bundle lost the node:crypto HMAC");
  });

  for (const job of PEER_JOBS) {
    it(`peer, for comparison: ${job.name}`, async (t) => {
      t.diagnostic(`${job.name}: ${await size(job.source)} bytes`);
    });
  }
});
