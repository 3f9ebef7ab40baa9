import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkOptions, closestName, describeType, didYouMean } from "../../src/core/options.js";
import { deriveKeys, hkdf, mac, open, ReplayWindow, seal, Verifier } from "../../src/index.js";
import { throwsKeyed } from "../helpers.js";

describe("checkOptions: the one option checker", () => {
  const allowed = ["purpose", "maxAgeSeconds", "clockSkewSeconds"];

  it("returns the object, or an empty one for undefined", () => {
    const o = { purpose: "x" };
    assert.equal(checkOptions(o, allowed), o);
    assert.deepEqual(checkOptions(undefined, allowed), {});
  });

  it("refuses what is not a plain object, naming the options it takes", () => {
    for (const bad of [null, 1, "x", [], true]) {
      throwsKeyed(
        () => checkOptions(bad, allowed, "open options"),
        "BAD_INPUT",
        /^open options must be an object \{ purpose, maxAgeSeconds, clockSkewSeconds \}/,
      );
    }
  });

  it("refuses an unknown name with the closest known one", () => {
    throwsKeyed(
      () => checkOptions({ maxAgeSecond: 1 }, allowed),
      "BAD_INPUT",
      /unknown option "maxAgeSecond" \(did you mean "maxAgeSeconds"\?\)/,
    );
    throwsKeyed(() => checkOptions({ PURPOSE: 1 }, allowed), "BAD_INPUT", /did you mean "purpose"/);
    throwsKeyed(
      () => checkOptions({ zzz: 1 }, allowed),
      "BAD_INPUT",
      /unknown option "zzz"; the options are: purpose/,
    );
    throwsKeyed(() => checkOptions({ a: 1 }, []), "BAD_INPUT", /the options are: \(none\)/);
  });

  it("every options object of the core and safe layers goes through it", () => {
    const key = new Uint8Array(32).fill(1);
    throwsKeyed(
      () => mac("hmac-sha256", key, { taglength: 16 } as never),
      "BAD_INPUT",
      /did you mean "tagLength"/,
    );
    throwsKeyed(
      () => hkdf("sha256", key, { length: 32, slat: key } as never),
      "BAD_INPUT",
      /did you mean "salt"/,
    );
    throwsKeyed(
      () => seal(key, key, { purpose: "p", timestmp: 1 } as never),
      "BAD_INPUT",
      /did you mean "timestamp"/,
    );
    const token = seal(key, key, { purpose: "p" });
    throwsKeyed(
      () => open(key, token, { purpose: "p", maxAge: 5 } as never),
      "BAD_INPUT",
      /unknown option "maxAge"/,
    );
    throwsKeyed(
      () => deriveKeys(key, { purpose: "p", names: ["a"], lenght: 32 } as never),
      "BAD_INPUT",
      /did you mean "length"/,
    );
    throwsKeyed(
      () => new Verifier(mac("hmac-sha256", key), { maxFailure: 3 } as never),
      "BAD_INPUT",
      /did you mean "maxFailures"/,
    );
    throwsKeyed(() => new ReplayWindow({ sise: 64 } as never), "BAD_INPUT", /did you mean "size"/);
  });
});

describe("closestName and didYouMean", () => {
  it("suggest only names within a third of their letters", () => {
    assert.equal(closestName("accesKeyId", ["accessKeyId", "region"]), "accessKeyId");
    assert.equal(closestName("signbody", ["signBody"]), "signBody");
    assert.equal(closestName("tagLnegth", ["tagLength"]), "tagLength"); // a swap counts once
    assert.equal(closestName("banana", ["tagLength", "purpose"]), undefined);
    assert.equal(closestName("x", []), undefined);
    assert.equal(didYouMean("nope", ["purpose"]), "");
  });
});

describe("describeType: what a value is, never what it holds", () => {
  it("names the type", () => {
    assert.equal(describeType(null), "null");
    assert.equal(describeType(undefined), "undefined");
    assert.equal(describeType("secret"), "a string of length 6");
    assert.equal(describeType([1]), "an array");
    assert.equal(describeType(new ArrayBuffer(2)), "an ArrayBuffer");
    assert.equal(describeType(new Uint16Array(2)), "a Uint16Array");
    assert.equal(describeType({}), "an object");
    assert.equal(describeType(new Map()), "an object (Map)");
    assert.equal(describeType(Object.create(null)), "an object");
    assert.equal(describeType(5), "a number");
    assert.equal(describeType(5n), "a bigint");
  });
});
