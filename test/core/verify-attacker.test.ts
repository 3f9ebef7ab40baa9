/**
 * verify and verifyFields against an attacker, for every MAC in macNames(): any message bytes and
 * any tag bytes, of any length, get a boolean, never an exception; and true only for a tag that
 * tag() (or tagFields()) made for that very message.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { type Mac, type MacName, mac, macInfo, macNames } from "../../src/index.js";

/** A key of the size generateKey uses, fixed so that failures reproduce. */
function keyFor(name: MacName): Uint8Array {
  const key = new Uint8Array(macInfo(name).recommendedKeyLength);
  for (let i = 0; i < key.length; i++) key[i] = (i * 37 + name.length) & 0xff;
  return key;
}

/** A prepared key; SipHash-2-4's 8-byte tags are under the 10-byte minimum and need the flag. */
function prepare(name: MacName): Mac {
  const info = macInfo(name);
  const short = info.tagLength - info.nonceLength < info.minTagLength;
  return mac(name, keyFor(name), short ? { allowShortTags: true } : undefined);
}

/** Poly1305 keys authenticate one message: a fresh Mac per use; any other is prepared once. */
function macSource(name: MacName): () => Mac {
  if (macInfo(name).oneTime) return () => prepare(name);
  const m = prepare(name);
  return () => m;
}

/** Calls `verify` and insists on a boolean; an exception fails the property with its text. */
function answer(verify: () => unknown): boolean {
  const result = verify();
  assert.equal(typeof result, "boolean");
  return result as boolean;
}

const bytes = (maxLength: number) => fc.uint8Array({ maxLength });
const field = fc.oneof(bytes(40), fc.string({ maxLength: 20 }));
/** Ways to spoil a valid tag: flip one bit, cut it, extend it, or swap in random bytes. */
const spoil = fc.oneof(
  fc.record({
    kind: fc.constant("flip" as const),
    at: fc.nat(),
    bit: fc.integer({ min: 0, max: 7 }),
  }),
  fc.record({ kind: fc.constant("cut" as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant("extend" as const),
    extra: fc.uint8Array({ minLength: 1, maxLength: 8 }),
  }),
  fc.record({ kind: fc.constant("replace" as const), with: bytes(80) }),
);
type Spoil = typeof spoil extends fc.Arbitrary<infer T> ? T : never;

function spoiled(tag: Uint8Array, how: Spoil): Uint8Array {
  switch (how.kind) {
    case "flip": {
      const out = Uint8Array.from(tag);
      out[how.at % out.length] ^= 1 << how.bit;
      return out;
    }
    case "cut":
      return tag.slice(0, how.at % tag.length);
    case "extend":
      return Uint8Array.from([...tag, ...how.extra]);
    case "replace":
      return how.with;
  }
}

const sameBytes = (a: Uint8Array, b: Uint8Array) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

const RUNS = { numRuns: 60 };

describe("verify and verifyFields answer any bytes with a boolean, true only for real tags", () => {
  for (const name of macNames()) {
    const get = macSource(name);
    it(`${name}: arbitrary message and tag bytes`, () => {
      fc.assert(
        fc.property(bytes(300), bytes(100), (message, tag) => {
          assert.equal(
            answer(() => get().verify(message, tag)),
            false,
          );
        }),
        RUNS,
      );
    });
    it(`${name}: a tag made by tag() verifies; spoiled in any way, it does not`, () => {
      fc.assert(
        fc.property(bytes(300), spoil, bytes(300), (message, how, other) => {
          const tag = get().tag(message);
          assert.equal(
            answer(() => get().verify(message, tag)),
            true,
          );
          const bad = spoiled(tag, how);
          // A "replacement" that happens to equal the tag is not a spoiled tag.
          if (!sameBytes(bad, tag))
            assert.equal(
              answer(() => get().verify(message, bad)),
              false,
            );
          if (!sameBytes(other, message)) {
            assert.equal(
              answer(() => get().verify(other, tag)),
              false,
            );
          }
        }),
        RUNS,
      );
    });
    it(`${name}: verifyFields with arbitrary purpose, fields and tag`, () => {
      fc.assert(
        fc.property(
          fc.string({ maxLength: 20 }),
          fc.array(field, { maxLength: 5 }),
          bytes(100),
          spoil,
          (purpose, fields, tag, how) => {
            assert.equal(
              answer(() => get().verifyFields(purpose, fields, tag)),
              false,
            );
            const real = get().tagFields(purpose, fields);
            assert.equal(
              answer(() => get().verifyFields(purpose, fields, real)),
              true,
            );
            const bad = spoiled(real, how);
            if (!sameBytes(bad, real)) {
              assert.equal(
                answer(() => get().verifyFields(purpose, fields, bad)),
                false,
              );
            }
            // The same bytes under another purpose, or split differently, are another message.
            assert.equal(
              answer(() => get().verifyFields(`${purpose}.`, fields, real)),
              false,
            );
          },
        ),
        RUNS,
      );
    });
  }
});
