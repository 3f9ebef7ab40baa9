/**
 * keyed's own keyset JSON (src/safe/keyset-json.ts) and the strict JSON reader under every
 * keyset format (src/safe/json.ts): round trips, and each malformed document refused with
 * KEY_FORMAT (or KEY_UNSUPPORTED for a later format version), never read as something else.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { bytesToBase64, Keyset } from "../../src/index.js";
import { JsonNumber, parseStrictJson } from "../../src/safe/json.js";
import { ascii, throwsKeyed } from "../helpers.js";

const key = Uint8Array.from({ length: 32 }, (_, i) => i + 7);
const good = {
  keyedKeyset: 1,
  primaryKeyId: 5,
  keys: [
    {
      keyId: 5,
      algorithm: "blake3",
      tagLength: 32,
      prefix: "tink",
      status: "enabled",
      key: bytesToBase64(key),
    },
    {
      keyId: 6,
      kid: "old",
      algorithm: "kmac128",
      tagLength: 16,
      prefix: "legacy",
      status: "disabled",
      key: bytesToBase64(key),
    },
    { keyId: 7, prefix: "raw", status: "destroyed" },
  ],
};
const text = (doc: unknown) => JSON.stringify(doc);
const withKey = (i: number, changes: Record<string, unknown>) => {
  const doc = structuredClone(good);
  Object.assign(doc.keys[i], changes);
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete (doc.keys[i] as Record<string, unknown>)[name];
  }
  return text(doc);
};

describe("keyed's keyset JSON", () => {
  it("reads every state, kids and algorithms, and writes them back the same", () => {
    const ks = Keyset.fromKeyedJson(text(good));
    assert.deepEqual(
      ks.keys().map((k) => [k.id, k.kid, k.algorithm, k.tagLength, k.prefix, k.status, k.primary]),
      [
        [5, "5", "blake3", 32, "tink", "enabled", true],
        [6, "old", "kmac128", 16, "legacy", "disabled", false],
        [7, "7", undefined, undefined, "raw", "destroyed", false],
      ],
    );
    const again = Keyset.fromKeyedJson(ks.toKeyedJson());
    assert.deepEqual(again.keys(), ks.keys());
    const m = ascii("m");
    assert.equal(again.verify(m, ks.tag(m)), true);
    again.enable(6);
    ks.enable(6);
    ks.setPrimary(6);
    assert.equal(again.verify(m, ks.tag(m)), true, "the disabled key kept its bytes");
  });

  it("refuses each malformed document with KEY_FORMAT", () => {
    const cases: [string, RegExp][] = [
      ["[]", /JSON object/],
      [text({ ...good, keyedKeyset: "1" }), /version number/],
      [text({ ...good, keys: {} }), /must be an array/],
      [text({ ...good, extra: 1 }), /unknown member/],
      [text({ ...good, primaryKeyId: -1 }), /0 to 2\^32 - 1/],
      [withKey(0, { keyId: 4294967296 }), /keyId/],
      [withKey(0, { status: "ENABLED" }), /status "ENABLED" is not one of/],
      [withKey(0, { prefix: "TINK" }), /prefix/],
      [withKey(0, { kid: "" }), /kid is empty/],
      [withKey(0, { kid: 5 }), /kid must be a string/],
      [withKey(0, { algorithm: 3 }), /algorithm must be a string/],
      [withKey(0, { tagLength: 0 }), /tagLength/],
      [withKey(0, { tagLength: "32" }), /tagLength/],
      [withKey(0, { tagLength: undefined }), /tagLength/],
      [withKey(0, { key: undefined }), /key must be a string/],
      [withKey(0, { key: "not base64!" }), /standard base64/],
      [withKey(2, { key: bytesToBase64(key) }), /destroyed but carries a key/],
      [withKey(0, { colour: "blue" }), /unknown member "colour"/],
      [withKey(1, { keyId: 5 }), /twice/],
      [text({ ...good, keys: [1] }), /must be an object/],
    ];
    for (const [doc, pattern] of cases)
      throwsKeyed(() => Keyset.fromKeyedJson(doc), "KEY_FORMAT", pattern);
    throwsKeyed(
      () => Keyset.fromKeyedJson(text({ ...good, keyedKeyset: 2 })),
      "KEY_UNSUPPORTED",
      /version 2/,
    );
    throwsKeyed(
      () => Keyset.fromKeyedJson(text({ ...good, primaryKeyId: undefined })),
      "KEYSET_PRIMARY",
    );
    throwsKeyed(
      () => Keyset.fromKeyedJson(text({ ...good, primaryKeyId: 6 })),
      "KEYSET_PRIMARY",
      /disabled/,
    );
    throwsKeyed(() => Keyset.fromKeyedJson(text({ ...good, keys: [] })), "KEY_FORMAT", /no keys/);
    throwsKeyed(() => Keyset.fromKeyedJson(withKey(0, { algorithm: "md5" })), "UNKNOWN_ALGORITHM");
    throwsKeyed(
      () => Keyset.fromKeyedJson(withKey(0, { algorithm: "poly1305" })),
      "KEY_UNSUPPORTED",
    );
    throwsKeyed(
      () => Keyset.fromKeyedJson(withKey(0, { key: bytesToBase64(key.subarray(0, 31)) })),
      "KEY_LENGTH",
    );
    throwsKeyed(() => Keyset.fromKeyedJson(42 as never), "BAD_INPUT");
  });
});

describe("the strict JSON reader", () => {
  it("reads RFC 8259 JSON: escapes, surrogate pairs, numbers kept as written, empty containers", () => {
    const value = parseStrictJson(
      ' \t\r\n{"a": "x\\n\\t\\"\\\\\\/\\b\\f\\r\\u0041\\ud83d\\ude00😀", "n": -12.5e+3, "o": {}, "l": [], "t": true, "f": false, "z": null, "__proto__": 1}',
      "test",
    ) as Record<string, unknown>;
    assert.equal(value.a, 'x\n\t"\\/\b\f\rA😀😀');
    assert.ok(value.n instanceof JsonNumber);
    assert.equal((value.n as JsonNumber).text, "-12.5e+3");
    assert.deepEqual(Object.keys(value.o as object), []);
    assert.deepEqual(value.l, []);
    assert.deepEqual([value.t, value.f, value.z], [true, false, null]);
    assert.equal(Object.getPrototypeOf(value), null);
    assert.equal(Object.hasOwn(value, "__proto__"), true, "an own member, never a prototype");
    assert.deepEqual(parseStrictJson("\ufeff[1]", "bom"), [new JsonNumber("1")]);
  });

  it("refuses what JSON is not, naming the offset and never the text", () => {
    const bad = [
      "",
      "{",
      '{"a" 1}',
      '{"a": 1,}',
      "[1,]",
      "[1 2]",
      "01",
      "1.",
      "-",
      "+1",
      ".5",
      "NaN",
      "'a'",
      '"a',
      '"\u0001"',
      '"\\x41"',
      '"\\u12"',
      '"\\ud83d"',
      '"\\ud83d\\u0041"',
      '"\\ude00"',
      '"\ud83d"',
      '"\ude00x"',
      "[1] // comment",
      "[1] [2]",
      "{a: 1}",
      "tru",
    ];
    for (const doc of bad) {
      throwsKeyed(
        () => parseStrictJson(doc, "the secret document"),
        "KEY_FORMAT",
        /not valid JSON: .* at offset \d+/,
      );
    }
    try {
      parseStrictJson('{"key": "c2VjcmV0", }', "doc");
    } catch (error) {
      assert.equal(String(error).includes("c2VjcmV0"), false);
    }
  });
});
