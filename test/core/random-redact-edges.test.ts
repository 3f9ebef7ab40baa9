/**
 * The random source's refusals and chunking, and redactKeyMaterial's printing paths: toJSON, the
 * inspect hook with and without Node's inspect, a summary, and properties callers may redefine.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { inspect } from "node:util";
import { fillRandom, randomBytes } from "../../src/core/random.js";
import { REDACTED, redactKeyMaterial } from "../../src/core/redact.js";
import { throwsKeyed } from "../helpers.js";

function withCrypto(value: unknown, fn: () => void): void {
  const saved = Object.getOwnPropertyDescriptor(globalThis, "crypto");
  Object.defineProperty(globalThis, "crypto", { value, configurable: true, writable: true });
  try {
    fn();
  } finally {
    if (saved) Object.defineProperty(globalThis, "crypto", saved);
  }
}

describe("fillRandom", () => {
  it("refuses a runtime without crypto.getRandomValues", () => {
    for (const c of [undefined, {}, { getRandomValues: 1 }]) {
      withCrypto(c, () =>
        throwsKeyed(() => fillRandom(new Uint8Array(4)), "BAD_INPUT", /no secure random source/),
      );
    }
  });
  it("fills more than one 65,536-byte chunk, to the end", () => {
    const out = fillRandom(new Uint8Array(65536 * 2 + 10));
    for (const at of [0, 65536, 131072]) {
      assert.ok(
        out.subarray(at, at + 10).some((b) => b !== 0),
        String(at),
      );
    }
  });
});

describe("randomBytes", () => {
  it("takes a whole length from 0", () => {
    assert.equal(randomBytes(0).length, 0);
    assert.equal(randomBytes(33).length, 33);
    throwsKeyed(() => randomBytes(-1), "BAD_INPUT", /from 0 to 2147483647/);
    throwsKeyed(() => randomBytes(1.5), "BAD_INPUT");
  });
});

describe("redactKeyMaterial", () => {
  class Holder {
    secret = "s3cr3t";
    size = 3;
  }
  redactKeyMaterial(Holder, (h) => ({ size: h.size }));
  class Bare {
    secret = "s3cr3t";
  }
  redactKeyMaterial(Bare);
  const hook = Symbol.for("nodejs.util.inspect.custom");

  it("serializes the summary and a redacted key, never the secret", () => {
    assert.equal(JSON.stringify(new Holder()), `{"size":3,"key":"${REDACTED}"}`);
    assert.equal(JSON.stringify(new Bare()), '{"key":"[redacted]"}');
  });
  it("prints through Node's inspect, and as JSON text without it", () => {
    assert.equal(inspect(new Holder()), "Holder { size: 3, key: '[redacted]' }");
    const h = new Holder() as unknown as Record<symbol, (...a: unknown[]) => string>;
    assert.equal(h[hook](0, {}), 'Holder {"size":3,"key":"[redacted]"}');
  });
  it("leaves both methods writable and configurable", () => {
    for (const name of ["toJSON", hook]) {
      const d = Object.getOwnPropertyDescriptor(Holder.prototype, name);
      assert.equal(d?.writable, true);
      assert.equal(d?.configurable, true);
      assert.equal(typeof d?.value, "function");
    }
  });
});
