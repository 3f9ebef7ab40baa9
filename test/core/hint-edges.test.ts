/**
 * The hint a string gets where bytes are expected (issue 18): which decoder it names, at the edges
 * of each shape. Hex is at least 4 whole bytes; base64url at least 8 characters with a - or _;
 * base64 at least 2 whole groups, padded or not, with a digit, +, / or =. Anything else, and text,
 * gets the hint that names both. A value that is not a string is told to encode text.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { assertBytes } from "../../src/core/bytes.js";
import { KeyedError } from "../../src/core/errors.js";

/** Which hint assertBytes gives for `value`. */
function hintFor(value: unknown): string {
  try {
    assertBytes(value, "tag");
  } catch (error) {
    assert.ok(error instanceof KeyedError && error.code === "BAD_INPUT", String(error));
    const m = error.message;
    if (m.includes("hexToBytes()")) return "hex";
    if (m.includes("base64ToBytes()")) return "base64";
    if (m.includes("base64urlToBytes()")) return "base64url";
    if (m.includes("If it is text")) return "either";
    if (m.includes("Encode text with utf8ToBytes()")) return "encode";
    return `no hint: ${m}`;
  }
  return "accepted";
}

const cases: [string, unknown[]][] = [
  ["hex", ["a1b2c3d4", "A1B2C3D4E5F6"]],
  ["base64url", ["q83v-_Ab", "q83v-_Abcd"]],
  ["base64", ["q83v+/Ab", "q83vAb12", "q83v+/Abcd==", "q83v+/Abcde="]],
  [
    "either",
    [
      "hello, world",
      // hex: 3 bytes, an odd digit count, a character either side
      "a1b2c3",
      "a1b2c3d4e",
      "xa1b2c3d4",
      "a1b2c3d4x",
      // base64url: 7 characters, a character outside the alphabet either side, no - or _ in it
      "q83v-_A",
      "!q83v-_Ab",
      "q83v-_Ab!",
      "abcdefgh",
      // base64: 7 characters, a character outside either side, padding after 1 or 2 characters
      "q83v+/A",
      "!!!!q83v+/Ab",
      "q83v+/Ab!",
      "q83v+/Abc==",
      "q83v+/Abc=",
    ],
  ],
  ["encode", [42, null, undefined, [1, 2]]],
];

describe("assertBytes' hint for what it got", () => {
  for (const [hint, values] of cases) {
    it(hint, () => {
      for (const value of values) assert.equal(hintFor(value), hint, String(value));
    });
  }
  it("bytes get no hint: they are accepted", () => {
    assert.equal(hintFor(new Uint8Array(2)), "accepted");
  });
});
