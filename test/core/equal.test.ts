import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { equal } from "../../src/index.js";
import { atOffset, notBytes, throwsKeyed } from "../helpers.js";

describe("equal", () => {
  it("is true exactly when the bytes are the same", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.uint8Array({ maxLength: 64 }), (a, b) => {
        assert.equal(equal(a, b), Buffer.from(a).equals(Buffer.from(b)));
        assert.equal(equal(a, a.slice()), true);
      }),
      { numRuns: 1000 },
    );
  });
  it("is false on a length mismatch, even for a prefix", () => {
    assert.equal(equal(Uint8Array.of(1, 2, 3), Uint8Array.of(1, 2)), false);
    assert.equal(equal(Uint8Array.of(1, 2), Uint8Array.of(1, 2, 0)), false);
    assert.equal(equal(new Uint8Array(0), Uint8Array.of(0)), false);
    assert.equal(equal(new Uint8Array(0), new Uint8Array(0)), true);
  });
  it("notices a difference in any single bit, at every length and position", () => {
    for (let length = 1; length <= 41; length++) {
      const a = new Uint8Array(length).fill(0x5a);
      for (let bit = 0; bit < 8 * length; bit++) {
        const b = a.slice();
        b[bit >> 3] ^= 1 << (bit & 7);
        assert.equal(equal(a, b), false, `length ${length}, bit ${bit}`);
        assert.equal(equal(atOffset(b, 3), a), false, `length ${length}, bit ${bit}, offset view`);
      }
    }
  });
  it("compares subarray views by content", () => {
    const a = Uint8Array.of(9, 8, 7);
    assert.equal(equal(atOffset(a, 1), atOffset(a, 6)), true);
  });
  it("refuses non-bytes arguments", () => {
    for (const [, value] of notBytes()) {
      throwsKeyed(() => equal(value as Uint8Array, new Uint8Array(1)), "BAD_INPUT", /^a /);
      throwsKeyed(() => equal(new Uint8Array(1), value as Uint8Array), "BAD_INPUT", /^b /);
    }
  });
});
