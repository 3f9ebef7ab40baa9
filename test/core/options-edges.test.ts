/**
 * The option checker and the type describer exactly: every branch of describeType, the edit
 * distance behind "did you mean" at its threshold (insertions, deletions, substitutions, adjacent
 * swaps), ties, and checkOptions' refusals.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkOptions, closestName, describeType, didYouMean } from "../../src/core/options.js";
import { throwsKeyed } from "../helpers.js";

describe("describeType", () => {
  it("names each kind of value, never its contents", () => {
    class Thing {}
    const cases: [unknown, string][] = [
      [null, "null"],
      [undefined, "undefined"],
      ["secret", "a string of length 6"],
      [[1], "an array"],
      [new ArrayBuffer(2), "an ArrayBuffer"],
      [new Uint16Array(2), "a Uint16Array"],
      [new DataView(new ArrayBuffer(1)), "a DataView"],
      [{ a: 1 }, "an object"],
      [new Map(), "an object (Map)"],
      [new Thing(), "an object (Thing)"],
      [Object.create(null), "an object"],
      [{ constructor: { name: 7 } }, "an object"],
      [{ constructor: 1 }, "an object"],
      [3, "a number"],
      [3n, "a bigint"],
      [true, "a boolean"],
      [Symbol("s"), "a symbol"],
      [() => 1, "a function"],
    ];
    for (const [value, text] of cases) assert.equal(describeType(value), text);
  });
});

describe("closestName", () => {
  const nine = ["abcdefghi"]; // a third of 9 letters: at most 3 edits
  it("accepts exactly a third of the letters wrong, by each kind of edit", () => {
    for (const name of [
      "abcdefghi",
      "ABCDEFGHI",
      "abcdefghiXYZ", // 3 insertions
      "XYZabcdefghi",
      "abcdef", // 3 deletions
      "defghi",
      "XYZdefghi", // 3 substitutions
      "abcXYZghi",
      "badcfeghi", // 3 adjacent swaps
      "abcdefgih",
      "bacdefghiXY", // a swap and 2 insertions
      "acbdefgXhi",
    ]) {
      assert.equal(closestName(name, nine), "abcdefghi", name);
    }
  });
  it("refuses one edit more", () => {
    for (const name of [
      "abcdefghiWXYZ",
      "abcde",
      "XYZWefghi",
      "badcfehgi", // 4 swaps
      "bacdefghiXYZ",
      "aabdefga", // 4 edits; a swap rule that checks one letter of two counts 3
      "bifcefghi", // likewise for the other letter
      "zzz",
      "",
    ]) {
      assert.equal(closestName(name, nine), undefined, name);
    }
  });
  it("allows one edit on names too short for a third", () => {
    assert.equal(closestName("x", ["y"]), "y");
    assert.equal(closestName("xy", ["ab"]), undefined);
    assert.equal(closestName("", ["a"]), "a");
    assert.equal(closestName("ba", ["ab"]), "ab");
  });
  it("returns the closest, the first of equals, and none from an empty list", () => {
    assert.equal(closestName("abcx", ["abcd", "abce"]), "abcd");
    assert.equal(closestName("abcx", ["zzzz", "abce", "abcd"]), "abce");
    assert.equal(closestName("tagLenght", ["allowShortTags", "tagLength"]), "tagLength");
    assert.equal(closestName("abcdefgh", ["abcdexyz", "abcdefgz"]), "abcdefgz");
    assert.equal(closestName("x", []), undefined);
  });
});

describe("didYouMean", () => {
  it("says the close name, or nothing", () => {
    assert.equal(didYouMean("signbody", ["signBody", "now"]), ' (did you mean "signBody"?)');
    assert.equal(didYouMean("zzzzzz", ["signBody"]), "");
  });
});

describe("checkOptions", () => {
  it("returns the object, or a frozen empty one for undefined", () => {
    const o = { a: 1 };
    assert.equal(checkOptions(o, ["a", "b"]), o);
    const none = checkOptions(undefined, ["a"]);
    assert.deepEqual(none, {});
    assert.ok(Object.isFrozen(none));
  });
  it("refuses what is not a plain options object, naming where and the options", () => {
    for (const bad of [null, [], "a", 1, true]) {
      throwsKeyed(
        () => checkOptions(bad, ["a", "b"], "f options"),
        "BAD_INPUT",
        /^f options must be an object \{ a, b \}; got /,
      );
    }
    throwsKeyed(
      () => checkOptions(null, ["a"]),
      "BAD_INPUT",
      /^options must be an object \{ a \}; got null\.$/,
    );
  });
  it("refuses unknown names with a suggestion and the list", () => {
    throwsKeyed(
      () => checkOptions({ a: 1, tagLenght: 2 }, ["a", "tagLength"], "m options"),
      "BAD_INPUT",
      /^m options: unknown option "tagLenght" \(did you mean "tagLength"\?\); the options are: a, tagLength\.$/,
    );
    throwsKeyed(
      () => checkOptions({ zzzzzz: 1 }, ["tagLength"]),
      "BAD_INPUT",
      /^options: unknown option "zzzzzz"; the options are: tagLength\.$/,
    );
    throwsKeyed(() => checkOptions({ a: 1 }, []), "BAD_INPUT", /the options are: \(none\)\.$/);
    assert.deepEqual(checkOptions({}, []), {});
  });
});
