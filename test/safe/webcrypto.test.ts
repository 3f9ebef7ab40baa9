/**
 * WebCrypto interop on Node (globalThis.crypto.subtle). The checks live in webcrypto-checks.mjs,
 * a plain ES module without Node APIs, so the browser harness runs the very same checks against
 * dist/index.js in Chromium.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as keyed from "../../src/index.js";
// @ts-expect-error: a plain JavaScript module, shared with the browser harness.
import { webcryptoChecks } from "./webcrypto-checks.mjs";

describe("WebCrypto interop (Node)", () => {
  it("every check of webcrypto-checks.mjs passes against globalThis.crypto.subtle", async () => {
    const results = (await webcryptoChecks(keyed, globalThis.crypto.subtle)) as {
      name: string;
      ok: boolean;
      detail: string;
    }[];
    assert.ok(results.length >= 17, `${results.length} checks ran`);
    const failed = results.filter((r) => !r.ok).map((r) => `${r.name}: ${r.detail}`);
    assert.deepEqual(failed, []);
  });
});
