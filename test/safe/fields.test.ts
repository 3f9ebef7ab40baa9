import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { tupleHash } from "../../src/hazmat.js";
import {
  encodeFields,
  encodeFieldsTuple,
  type Field,
  kmac128,
  mac,
  macInfo,
  macNames,
} from "../../src/index.js";
import { ascii, hex, throwsKeyed, toHex } from "../helpers.js";

const fieldList = fc.array(fc.oneof(fc.string({ maxLength: 6 }), fc.uint8Array({ maxLength: 6 })), {
  maxLength: 5,
});
const asBytes = (fields: Field[]) => fields.map((f) => (typeof f === "string" ? ascii(f) : f));
const same = (a: Field[], b: Field[]) =>
  a.length === b.length && asBytes(a).every((x, i) => toHex(x) === toHex(asBytes(b)[i]));

describe("canonical field encoding", () => {
  it("the worked example of docs/fields.md", () => {
    assert.equal(
      toHex(encodeFields("login", ["alice", hex("0102")])),
      "01" +
        "00000005" +
        toHex(ascii("login")) +
        "00000002" +
        "00000005" +
        toHex(ascii("alice")) +
        "00000002" +
        "0102",
    );
  });
  it("('ab', 'c') and ('a', 'bc') differ, and so do the empty cases", () => {
    assert.notDeepEqual(encodeFields("p", ["ab", "c"]), encodeFields("p", ["a", "bc"]));
    assert.notDeepEqual(encodeFields("p", []), encodeFields("p", [""]));
    assert.notDeepEqual(encodeFields("p", ["", ""]), encodeFields("p", [""]));
    assert.notDeepEqual(encodeFields("pa", ["b"]), encodeFields("p", ["ab"]));
  });
  it("distinct (purpose, fields) never share an encoding, in either form (property)", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 5 }),
        fieldList,
        fc.string({ maxLength: 5 }),
        fieldList,
        (p1, f1, p2, f2) => {
          const equalInputs = ascii(p1).join() === ascii(p2).join() && same(f1, f2);
          assert.equal(toHex(encodeFields(p1, f1)) === toHex(encodeFields(p2, f2)), equalInputs);
          assert.equal(
            toHex(encodeFieldsTuple(p1, f1)) === toHex(encodeFieldsTuple(p2, f2)),
            equalInputs,
          );
        },
      ),
      { numRuns: 5000 },
    );
  });
  it("the KMAC form is TupleHash's encoding: KMAC's fields match SP 800-185 item by item", () => {
    // TupleHash absorbs exactly encode_string of each item, so the two must agree on the items
    // (version byte, purpose, fields): compare through TupleHash of the same items.
    const items = [Uint8Array.of(1), ascii("purpose"), ascii("a"), hex("ff00")];
    const viaEncoding = encodeFieldsTuple("purpose", ["a", hex("ff00")]);
    assert.equal(
      toHex(viaEncoding),
      toHex(Uint8Array.from(items.flatMap((i) => [1, i.length * 8, ...i]))),
    );
    assert.equal(tupleHash(128, items, 32).length, 32);
  });
  it("refuses what does not fit", () => {
    throwsKeyed(() => encodeFields(5 as unknown as string, []), "BAD_INPUT", /purpose/);
    throwsKeyed(() => encodeFields("p", "ab" as unknown as Field[]), "BAD_INPUT", /array/);
    throwsKeyed(() => encodeFields("p", [1 as unknown as Field]), "BAD_INPUT", /fields\[0\]/);
    // The one type describer names what was given.
    throwsKeyed(
      () => encodeFields("p", ["a", new Uint16Array(2) as unknown as Field]),
      "BAD_INPUT",
      /fields\[1\] must be a Uint8Array or a string; got a Uint16Array\./,
    );
    throwsKeyed(
      () => encodeFields("p", { length: 1 } as unknown as Field[]),
      "BAD_INPUT",
      /fields must be an array .*; got an object\./,
    );
    throwsKeyed(
      () => encodeFields("p", ["a", null as unknown as Field]),
      "BAD_INPUT",
      /fields\[1\]/,
    );
  });
});

describe("tagFields and verifyFields on every Mac", () => {
  it("every algorithm tags fields, binds the purpose and refuses a re-split", () => {
    for (const name of macNames()) {
      const info = macInfo(name);
      const key = new Uint8Array(info.keyLength ?? 32).fill(3);
      const options = info.tagLength < info.minTagLength ? { allowShortTags: true } : undefined;
      const fresh = () => mac(name, key, options);
      const t = fresh().tagFields("purpose", ["ab", "c"]);
      assert.equal(fresh().verifyFields("purpose", ["ab", "c"], t), true, name);
      assert.equal(fresh().verifyFields("purpose", ["a", "bc"], t), false, name);
      assert.equal(fresh().verifyFields("other", ["ab", "c"], t), false, name);
    }
  });
  it("is the tag of the canonical encoding (keyed's form, TupleHash form for KMAC)", () => {
    const key = new Uint8Array(32).fill(1);
    assert.deepEqual(
      mac("hmac-sha256", key).tagFields("p", ["x"]),
      mac("hmac-sha256", key).tag(encodeFields("p", ["x"])),
    );
    assert.deepEqual(
      kmac128(key).tagFields("p", ["x"]),
      kmac128(key).tag(encodeFieldsTuple("p", ["x"])),
    );
  });
});
