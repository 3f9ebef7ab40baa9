/**
 * open and Verifier against an attacker. open's documented shape is to throw: for bytes that seal
 * did not make it may only ever throw a KeyedError coded TAG_INVALID, EXPIRED, NOT_YET_VALID or
 * REPLAYED (nothing else, no other error type) and never return. Verifier.verify answers any tag,
 * bytes or not, with a boolean.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  KeyedError,
  mac,
  macInfo,
  macNames,
  open,
  ReplayWindow,
  seal,
  Verifier,
} from "../../src/index.js";
import { SEAL_ALGORITHMS, type SealAlgorithm } from "../../src/safe/envelope.js";

const KEY = new Uint8Array(32).fill(0x5a);
const NOW = 1_800_000_000;
const REFUSALS = new Set(["TAG_INVALID", "EXPIRED", "NOT_YET_VALID", "REPLAYED"]);
const ALGORITHMS = Object.keys(SEAL_ALGORITHMS) as SealAlgorithm[];

type Outcome = { opened: Uint8Array } | { refused: string };

/** open as a refusal: anything but a KeyedError with one of open's codes fails the property. */
function attempt(token: Uint8Array, algorithm: SealAlgorithm, strict: boolean): Outcome {
  try {
    const options = strict
      ? { purpose: "p", algorithm, now: NOW, maxAgeSeconds: 60, replay: new ReplayWindow() }
      : { purpose: "p", algorithm, now: NOW, clockSkewSeconds: 1000 };
    return { opened: open(KEY, token, options).payload };
  } catch (error) {
    assert.ok(error instanceof KeyedError, `open threw ${String(error)}`);
    assert.ok(REFUSALS.has(error.code), `open threw ${error.code}: ${error.message}`);
    return { refused: error.code };
  }
}

const algorithm = fc.constantFrom(...ALGORITHMS);
const token = fc.record({
  payload: fc.uint8Array({ maxLength: 200 }),
  timestamp: fc.option(fc.integer({ min: NOW - 120, max: NOW + 120 }), { nil: undefined }),
  counter: fc.option(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), { nil: undefined }),
});

describe("open refuses every token seal did not make, only with its documented codes", () => {
  it("arbitrary bytes, of any length, under every algorithm", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        algorithm,
        fc.boolean(),
        (bytes, a, strict) => {
          assert.deepEqual(attempt(bytes, a, strict), { refused: "TAG_INVALID" });
        },
      ),
      { numRuns: 300 },
    );
  });
  it("a sealed token opens; bit-flipped, cut, extended or spliced, it is TAG_INVALID", () => {
    fc.assert(
      fc.property(
        token,
        algorithm,
        fc.nat(),
        fc.integer({ min: 0, max: 7 }),
        fc.uint8Array({ minLength: 1, maxLength: 8 }),
        (t, a, at, bit, extra) => {
          const sealed = seal(KEY, t.payload, {
            purpose: "p",
            algorithm: a,
            timestamp: t.timestamp,
            counter: t.counter,
          });
          assert.deepEqual(attempt(sealed, a, false), { opened: t.payload });
          const flipped = Uint8Array.from(sealed);
          flipped[at % flipped.length] ^= 1 << bit;
          const cut = sealed.slice(0, at % sealed.length);
          const extended = Uint8Array.from([...sealed, ...extra]);
          // The header of one token in front of the body of another.
          const other = seal(KEY, extra, { purpose: "p", algorithm: a });
          const spliced = Uint8Array.from([...sealed.subarray(0, 3), ...other.subarray(3)]);
          for (const bad of [flipped, cut, extended]) {
            assert.deepEqual(attempt(bad, a, false), { refused: "TAG_INVALID" });
            assert.deepEqual(attempt(bad, a, true), { refused: "TAG_INVALID" });
          }
          if (sealed[2] !== other[2]) {
            assert.deepEqual(attempt(spliced, a, false), { refused: "TAG_INVALID" });
          }
          // Another purpose or algorithm is another key: refused too.
          const elsewhere = ALGORITHMS[(ALGORITHMS.indexOf(a) + 1) % ALGORITHMS.length];
          assert.deepEqual(attempt(sealed, elsewhere, false), { refused: "TAG_INVALID" });
        },
      ),
      { numRuns: 150 },
    );
  });
  it("a valid token's freshness refusals are documented codes too", () => {
    fc.assert(
      fc.property(token, algorithm, (t, a) => {
        const sealed = seal(KEY, t.payload, {
          purpose: "p",
          algorithm: a,
          timestamp: t.timestamp,
          counter: t.counter,
        });
        const outcome = attempt(sealed, a, true);
        const fresh = t.timestamp !== undefined && NOW - t.timestamp <= 60 && t.timestamp <= NOW;
        if (fresh && t.counter !== undefined) assert.deepEqual(outcome, { opened: t.payload });
        else assert.ok("refused" in outcome && outcome.refused !== "TAG_INVALID");
      }),
      { numRuns: 150 },
    );
  });
});

describe("Verifier.verify answers any tag with a boolean", () => {
  /** Tags that are not bytes at all, and byte tags of every length. */
  const anyTag = fc.oneof(
    fc.uint8Array({ maxLength: 100 }),
    fc.anything(),
    fc.constantFrom(null, undefined, new Uint16Array(8), new ArrayBuffer(32), "00".repeat(32)),
  );
  for (const name of macNames().filter((n) => n !== "poly1305" && !n.startsWith("siphash"))) {
    it(`${name}: arbitrary messages and tags are false and counted; a real tag is true`, () => {
      const m = mac(name, new Uint8Array(macInfo(name).recommendedKeyLength).fill(7));
      const v = new Verifier(m, { maxFailures: 1_000_000 });
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 200 }), anyTag, (message, tag) => {
          const before = v.status().failures;
          const result = v.verify(message, tag);
          assert.equal(result, false);
          assert.equal(v.status().failures, before + 1);
          assert.equal(v.verify(message, m.tag(message)), true);
          assert.equal(v.verifyFields("p", [message], tag), false);
        }),
        { numRuns: 40 },
      );
    });
  }
  it("a retired key answers false even to a real tag", () => {
    const m = mac("hmac-sha256", KEY);
    const v = new Verifier(m, { maxFailures: 3 });
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 50 }), fc.anything(), (message, tag) => {
        v.verify(message, tag);
        if (v.status().state === "KEY_RETIRED") {
          assert.equal(v.verify(message, m.tag(message)), false);
        }
      }),
      { numRuns: 20 },
    );
    assert.equal(v.status().state, "KEY_RETIRED");
  });
});
