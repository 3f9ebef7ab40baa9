/**
 * Byte and field encodings exactly: keyed's length-prefixed fields and the TupleHash form against
 * independent reference encoders, left/right_encode past one byte, the refusals of fieldBytes,
 * assertInteger's bounds, base64 errors that a later group must not hide, and wipe.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { assertInteger, base64ToBytes, base64urlToBytes, wipe } from "../../src/core/bytes.js";
import { encodeFields, encodeFieldsTuple, leftEncode, rightEncode } from "../../src/core/fields.js";
import { throwsKeyed } from "../helpers.js";

const utf8 = (s: string) => new TextEncoder().encode(s);
const u32 = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
/** Big-endian bytes of n, at least one (a reference for left/right_encode). */
const be = (n: number) => {
  const hex = n.toString(16);
  return [...Buffer.from(hex.length % 2 ? `0${hex}` : hex, "hex")];
};

function referenceFields(purpose: string, fields: (string | Uint8Array)[]): Uint8Array {
  const p = utf8(purpose);
  const out = [1, ...u32(p.length), ...p, ...u32(fields.length)];
  for (const f of fields) {
    const b = typeof f === "string" ? utf8(f) : f;
    out.push(...u32(b.length), ...b);
  }
  return Uint8Array.from(out);
}

function referenceTuple(purpose: string, fields: (string | Uint8Array)[]): Uint8Array {
  const items = [
    Uint8Array.of(1),
    utf8(purpose),
    ...fields.map((f) => (typeof f === "string" ? utf8(f) : f)),
  ];
  const out: number[] = [];
  for (const b of items) {
    const bits = be(b.length * 8);
    out.push(bits.length, ...bits, ...b);
  }
  return Uint8Array.from(out);
}

const big = Uint8Array.from({ length: 70000 }, (_, i) => (i * 31) & 255);
const cases: [string, (string | Uint8Array)[]][] = [
  ["", []],
  ["p", [""]],
  ["purpose ü", ["a", Uint8Array.of(1, 2, 3), "", "bc"]],
  ["x".repeat(300), [big, "tail"]],
];

describe("field encodings match independent reference encoders", () => {
  it("keyed's length-prefixed form", () => {
    for (const [p, f] of cases) assert.deepEqual(encodeFields(p, f), referenceFields(p, f));
  });
  it("the TupleHash form", () => {
    for (const [p, f] of cases) assert.deepEqual(encodeFieldsTuple(p, f), referenceTuple(p, f));
  });
  it("left_encode and right_encode past one byte", () => {
    for (const x of [0, 1, 255, 256, 65535, 65536, 2 ** 40 + 5, 2 ** 53 - 1]) {
      assert.deepEqual([...leftEncode(x)], [be(x).length, ...be(x)], String(x));
      assert.deepEqual([...rightEncode(x)], [...be(x), be(x).length], String(x));
    }
  });
});

describe("fieldBytes refusals", () => {
  it("fields that are not an array, or not bytes or text", () => {
    throwsKeyed(() => encodeFields("p", "ab" as never), "BAD_INPUT", /fields must be an array/);
    throwsKeyed(
      () => encodeFieldsTuple("p", "ab" as never),
      "BAD_INPUT",
      /fields must be an array/,
    );
    throwsKeyed(() => encodeFields("p", [1 as never]), "BAD_INPUT", /fields\[0\] must be/);
    throwsKeyed(() => encodeFields("p", ["a", [1] as never]), "BAD_INPUT", /fields\[1\] must be/);
  });
  it("more than 2^32-1 fields, or a field longer than 2^32-1 bytes", () => {
    const many = new Proxy([], { get: (t, k) => (k === "length" ? 2 ** 32 : Reflect.get(t, k)) });
    throwsKeyed(() => encodeFields("p", many), "BAD_INPUT", /at most 4294967295 fields/);
    const huge = new Proxy(new Uint8Array(1), {
      get: (t, k) => (k === "length" ? 2 ** 40 : Reflect.get(t, k)),
    });
    throwsKeyed(() => encodeFields("p", [huge]), "BAD_INPUT", /fields\[0\] is 1099511627776 bytes/);
  });
});

describe("assertInteger bounds", () => {
  it("accepts min and max, refuses one past each and non-integers, saying what it got", () => {
    assert.equal(assertInteger(3, "n", 3, 9), 3);
    assert.equal(assertInteger(9, "n", 3, 9), 9);
    throwsKeyed(
      () => assertInteger(2, "n", 3, 9),
      "BAD_INPUT",
      /^n must be a whole number from 3 to 9; got 2\.$/,
    );
    throwsKeyed(() => assertInteger(10, "n", 3, 9), "BAD_INPUT", /got 10\.$/);
    throwsKeyed(() => assertInteger(3.5, "n", 3, 9), "BAD_INPUT", /got 3\.5\.$/);
    throwsKeyed(() => assertInteger("4", "n", 3, 9), "BAD_INPUT", /got a string of length 1\.$/);
    throwsKeyed(() => assertInteger(2 ** 53, "n", 0, 2 ** 60), "BAD_INPUT");
  });
});

describe("base64: a bad group stays bad", () => {
  it("an invalid character earlier is not forgiven by a valid last group", () => {
    throwsKeyed(() => base64ToBytes("!AAAAAA="), "BAD_ENCODING");
    throwsKeyed(() => base64ToBytes("!AAAAA=="), "BAD_ENCODING");
    throwsKeyed(() => base64urlToBytes("!AAAAAA"), "BAD_ENCODING");
    assert.deepEqual(base64ToBytes("AAAAAAA="), new Uint8Array(5));
  });
});

describe("wipe", () => {
  it("zeroes every array it is given", () => {
    const a = Uint8Array.of(1, 2);
    const b = Int32Array.of(-1, 5);
    const c = Uint32Array.of(7);
    wipe(a, b, c);
    assert.deepEqual([...a, ...b, ...c], [0, 0, 0, 0, 0]);
  });
});
