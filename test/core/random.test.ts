import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fillNonce, fillRandom, randomBytes } from "../../src/core/random.js";
import { throwsKeyed } from "../helpers.js";

describe("random bytes", () => {
  it("fills buffers past Web Crypto's 65,536-byte limit per call", () => {
    const big = randomBytes(200_000);
    assert.equal(big.length, 200_000);
    // The last chunk is filled too: 4 KiB of zeros from a secure source is not a thing.
    assert.ok(big.subarray(196_000).some((b) => b !== 0));
    assert.equal(randomBytes(0).length, 0);
    throwsKeyed(() => randomBytes(-1), "BAD_INPUT");
  });

  it("draws every nonce at use, each call its own bytes", () => {
    const a = fillNonce(new Uint8Array(12));
    const b = fillNonce(new Uint8Array(12));
    assert.notDeepEqual(a, b);
  });

  it("refuses to run without a secure source rather than fall back to a weak one", () => {
    const saved = Object.getOwnPropertyDescriptor(globalThis, "crypto");
    assert.ok(saved?.configurable, "globalThis.crypto can be replaced for this test");
    Object.defineProperty(globalThis, "crypto", { value: undefined, configurable: true });
    try {
      throwsKeyed(() => fillRandom(new Uint8Array(8)), "BAD_INPUT", /no secure random source/);
    } finally {
      Object.defineProperty(globalThis, "crypto", saved as PropertyDescriptor);
    }
    assert.equal(fillRandom(new Uint8Array(8)).length, 8);
  });
});
