/**
 * equalPrefix at its edges: a candidate read from an offset (the tag after a nonce), offsets past
 * the candidate's end, and zero-length expectations. Each case is checked against a plain model.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { equalPrefix } from "../../src/core/equal.js";

/** The answer equalPrefix must give, written the obvious way. */
function model(expected: Uint8Array, length: number, candidate: Uint8Array, offset: number) {
  if (offset > candidate.length) return false;
  const rest = candidate.subarray(offset);
  if (rest.length !== length) return false;
  for (let i = 0; i < length; i++) if (rest[i] !== expected[i]) return false;
  return true;
}

describe("equalPrefix edges", () => {
  it("agrees with the model for every offset, length and content", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 40 }),
        fc.nat(40),
        fc.uint8Array({ maxLength: 60 }),
        fc.nat(30),
        (expected, rawLength, candidate, offset) => {
          const length = Math.min(rawLength, expected.length);
          assert.equal(
            equalPrefix(expected, length, candidate, offset),
            model(expected, length, candidate, offset),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("is true for the tag after a nonce, and false when the nonce length is off by one", () => {
    const tag = Uint8Array.from({ length: 16 }, (_, i) => 100 + i);
    for (const nonceLength of [1, 7, 8, 12, 24]) {
      const token = new Uint8Array(nonceLength + 16).fill(0xab);
      token.set(tag, nonceLength);
      assert.equal(equalPrefix(tag, 16, token, nonceLength), true, `nonce ${nonceLength}`);
      assert.equal(equalPrefix(tag, 16, token, nonceLength - 1), false);
      assert.equal(equalPrefix(tag, 16, token, nonceLength + 1), false);
    }
  });

  it("is false when the offset is past the candidate's end, even for an empty expectation", () => {
    const candidate = Uint8Array.of(1, 2, 3);
    assert.equal(equalPrefix(new Uint8Array(0), 0, candidate, 3), true);
    assert.equal(equalPrefix(new Uint8Array(0), 0, candidate, 4), false);
    assert.equal(equalPrefix(new Uint8Array(0), 0, new Uint8Array(0), 1), false);
    assert.equal(equalPrefix(Uint8Array.of(3), 1, candidate, 2), true);
    assert.equal(equalPrefix(Uint8Array.of(3), 1, candidate, 5), false);
  });

  it("compares only the first `length` bytes of `expected`", () => {
    const expected = Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
    assert.equal(equalPrefix(expected, 10, expected.subarray(0, 10)), true);
    assert.equal(equalPrefix(expected, 10, expected), false);
    assert.equal(equalPrefix(expected, 9, expected.subarray(0, 10)), false);
  });
});
