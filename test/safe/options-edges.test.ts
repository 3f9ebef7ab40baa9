/**
 * seal and deriveKeys at their argument checks: no options at all, algorithm and method values
 * that are not names (an array that coerces to one included), what the refusals say they got, and
 * the derived keys' property attributes.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { deriveKeys, open, seal } from "../../src/index.js";
import { ascii, throwsKeyed } from "../helpers.js";

const key = new Uint8Array(32).fill(7);
const payload = ascii("hello");

describe("seal and open: options and algorithm", () => {
  it("seal without options is BAD_INPUT, not a TypeError", () => {
    throwsKeyed(() => seal(key, payload, undefined as never), "BAD_INPUT", /seal takes options/);
  });
  it("an algorithm must be a string naming a seal algorithm; the refusal says what it got", () => {
    const cases: [unknown, RegExp][] = [
      [["hmac-sha256"], /got an array\.$/],
      [5, /got 5\.$/],
      ["md5", /got "md5"\.$/],
      [{}, /got an object\.$/],
    ];
    for (const [algorithm, text] of cases) {
      throwsKeyed(
        () => seal(key, payload, { purpose: "p", algorithm: algorithm as never }),
        "UNKNOWN_ALGORITHM",
        text,
      );
      throwsKeyed(
        () =>
          open(key, seal(key, payload, { purpose: "p" }), {
            purpose: "p",
            algorithm: algorithm as never,
          }),
        "UNKNOWN_ALGORITHM",
        text,
      );
    }
  });
});

describe("deriveKeys: options and method", () => {
  it("without options is BAD_INPUT saying what it takes", () => {
    throwsKeyed(
      () => deriveKeys(key, undefined as never),
      "BAD_INPUT",
      /^deriveKeys takes options/,
    );
  });
  it("a method must be one of the two names; the refusal says what it got", () => {
    const cases: [unknown, RegExp][] = [
      [5, /got 5\.$/],
      ["sha1", /got "sha1"\.$/],
      [["blake3"], /got an array\.$/],
      [null, /got null\.$/],
    ];
    for (const [method, text] of cases) {
      throwsKeyed(
        () => deriveKeys(key, { purpose: "p", names: ["a"], method: method as never }),
        "BAD_INPUT",
        text,
      );
    }
  });
  it("each key is an own, enumerable, writable, configurable property", () => {
    const keys = deriveKeys(key, { purpose: "p", names: ["a", "b"] });
    for (const name of ["a", "b"] as const) {
      const d = Object.getOwnPropertyDescriptor(keys, name);
      assert.deepEqual(
        { e: d?.enumerable, w: d?.writable, c: d?.configurable, len: d?.value.length },
        { e: true, w: true, c: true, len: 32 },
      );
    }
  });
});
