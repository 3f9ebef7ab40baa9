/**
 * seal/open at the edges of each rule: freshness and skew bounds to the second, the smallest
 * token, the u64 ends, and tokens that are validly tagged but malformed inside. The last ones can
 * only be made by someone holding the key, so the test rebuilds the sealing key the way
 * src/safe/envelope.ts documents it (HKDF-SHA256, salt "keyed seal v1", info fields) and tags
 * hand-made bodies with it.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { encodeFields } from "../../src/core/fields.js";
import { open, ReplayWindow, seal } from "../../src/index.js";
import { hkdf } from "../../src/kdf/hkdf.js";
import { mac, macInfo } from "../../src/mac/registry.js";
import { ascii, throwsKeyed } from "../helpers.js";

const key = new Uint8Array(32).fill(0x33);
const payload = ascii("payload");
const T = 1_700_000_000;

/** A token with `body` tagged as seal would tag it (hmac-sha256, id 1). */
function forge(body: Uint8Array, purpose = "p"): Uint8Array {
  const macKey = hkdf("sha256", key, {
    salt: ascii("keyed seal v1"),
    info: encodeFields("keyed seal v1", ["hmac-sha256", purpose]),
    length: macInfo("hmac-sha256").recommendedKeyLength,
  });
  const tag = mac("hmac-sha256", macKey).tagFields(purpose, [body]);
  return Uint8Array.of(...body, ...tag);
}

const u64 = (x: bigint) => {
  const out = new Uint8Array(8);
  for (let i = 7; i >= 0; i--, x >>= 8n) out[i] = Number(x & 0xffn);
  return out;
};

describe("seal/open edges", () => {
  it("the forging helper matches seal exactly (so the cases below are validly tagged)", () => {
    const sealed = seal(key, payload, { purpose: "p", timestamp: T, counter: 5 });
    const body = Uint8Array.of(1, 1, 3, ...u64(BigInt(T)), ...u64(5n), ...payload);
    assert.deepEqual(forge(body), sealed);
  });

  it("the smallest token (no timestamp, no counter, empty payload) opens", () => {
    const token = seal(key, new Uint8Array(0), { purpose: "p" });
    assert.equal(token.length, 3 + 32);
    assert.deepEqual(open(key, token, { purpose: "p" }), { payload: new Uint8Array(0) });
  });

  it("a validly tagged body shorter than the 3-byte header is TAG_INVALID", () => {
    for (const body of [new Uint8Array(0), Uint8Array.of(1), Uint8Array.of(1, 1)]) {
      throwsKeyed(() => open(key, forge(body), { purpose: "p" }), "TAG_INVALID");
    }
  });

  it("refuses a validly tagged token with another version, algorithm id or unknown flag", () => {
    assert.deepEqual(
      open(key, forge(Uint8Array.of(1, 1, 0, 7)), { purpose: "p" }).payload,
      Uint8Array.of(7),
    );
    for (const header of [
      [2, 1, 0],
      [0, 1, 0],
      [1, 2, 0],
      [1, 0, 0],
      [1, 1, 4],
      [1, 1, 8],
      [1, 1, 0x80],
    ]) {
      throwsKeyed(
        () => open(key, forge(Uint8Array.of(...header, 7)), { purpose: "p" }),
        "BAD_INPUT",
        /unsupported token/,
      );
    }
  });

  it("refuses a validly tagged token whose flags claim more than its body holds", () => {
    // Flags say timestamp (8 bytes) and counter (8 bytes): 15 bytes is one short, 16 is enough.
    throwsKeyed(
      () => open(key, forge(Uint8Array.of(1, 1, 3, ...new Uint8Array(15))), { purpose: "p" }),
      "BAD_INPUT",
      /shorter than its header/,
    );
    throwsKeyed(
      () => open(key, forge(Uint8Array.of(1, 1, 1, ...new Uint8Array(7))), { purpose: "p" }),
      "BAD_INPUT",
      /shorter than its header/,
    );
    const exact = open(key, forge(Uint8Array.of(1, 1, 3, ...u64(9n), ...u64(4n))), {
      purpose: "p",
      now: 9,
    });
    assert.deepEqual(exact, { payload: new Uint8Array(0), timestamp: 9, counter: 4n });
  });

  it("maxAgeSeconds + clockSkewSeconds is the last accepted age, to the second", () => {
    const token = seal(key, payload, { purpose: "p", timestamp: T });
    const at = (now: number, maxAgeSeconds: number, clockSkewSeconds = 0) =>
      open(key, token, { purpose: "p", now, maxAgeSeconds, clockSkewSeconds });
    assert.equal(at(T + 60, 60).timestamp, T);
    throwsKeyed(() => at(T + 61, 60), "EXPIRED", /token is 61 s old; at most 60 s/);
    assert.equal(at(T + 65, 60, 5).timestamp, T);
    throwsKeyed(() => at(T + 66, 60, 5), "EXPIRED");
    assert.equal(at(T, 0).timestamp, T);
    throwsKeyed(() => at(T + 1, 0), "EXPIRED");
  });

  it("clockSkewSeconds is the furthest accepted future date, to the second", () => {
    const token = seal(key, payload, { purpose: "p", timestamp: T });
    const at = (now: number, clockSkewSeconds?: number) =>
      open(key, token, { purpose: "p", now, clockSkewSeconds });
    assert.equal(at(T).timestamp, T);
    throwsKeyed(
      () => at(T - 1),
      "NOT_YET_VALID",
      /dated 1 s in the future; the allowed skew is 0 s/,
    );
    assert.equal(at(T - 5, 5).timestamp, T);
    throwsKeyed(() => at(T - 6, 5), "NOT_YET_VALID");
    // Without a timestamp there is nothing to be early or late.
    assert.ok(open(key, seal(key, payload, { purpose: "p" }), { purpose: "p", now: 0 }));
  });

  it("without `now`, open reads the system clock in seconds", () => {
    const nowSeconds = Math.floor(Date.now() / 1000);
    const token = seal(key, payload, { purpose: "p", timestamp: nowSeconds });
    assert.equal(open(key, token, { purpose: "p", maxAgeSeconds: 60 }).timestamp, nowSeconds);
    const old = seal(key, payload, { purpose: "p", timestamp: nowSeconds - 120 });
    throwsKeyed(() => open(key, old, { purpose: "p", maxAgeSeconds: 60 }), "EXPIRED");
  });

  it("open without options is BAD_INPUT, not a TypeError", () => {
    const token = seal(key, payload, { purpose: "p" });
    throwsKeyed(() => open(key, token, undefined as never), "BAD_INPUT", /open takes options/);
  });

  it("time options must be finite, non-negative numbers", () => {
    const token = seal(key, payload, { purpose: "p", timestamp: T });
    for (const name of ["maxAgeSeconds", "clockSkewSeconds", "now"]) {
      for (const bad of [-1, -0.5, Number.NaN, Number.POSITIVE_INFINITY, "5"]) {
        throwsKeyed(
          () => open(key, token, { purpose: "p", [name]: bad } as never),
          "BAD_INPUT",
          new RegExp(name),
        );
      }
    }
    assert.equal(open(key, token, { purpose: "p", now: T, clockSkewSeconds: 0 }).timestamp, T);
  });

  it("counters and timestamps cover 0 to 2^64 - 1 and nothing else", () => {
    const max = 2n ** 64n - 1n;
    const opened = open(key, seal(key, payload, { purpose: "p", counter: max }), { purpose: "p" });
    assert.equal(opened.counter, max);
    assert.equal(
      open(key, seal(key, payload, { purpose: "p", counter: 0 }), { purpose: "p" }).counter,
      0n,
    );
    for (const bad of [-1n, 2n ** 64n, -1, 1.5, 2 ** 53, "1", null]) {
      throwsKeyed(
        () => seal(key, payload, { purpose: "p", counter: bad as bigint }),
        "BAD_INPUT",
        /counter/,
      );
    }
    throwsKeyed(
      () => seal(key, payload, { purpose: "p", timestamp: 2 ** 53 }),
      "BAD_INPUT",
      /timestamp/,
    );
    assert.equal(
      open(key, seal(key, payload, { purpose: "p", timestamp: 0 }), { purpose: "p", now: 0 })
        .timestamp,
      0,
    );
  });

  it("keys of 16 bytes are enough; 15 are not", () => {
    const k16 = new Uint8Array(16).fill(1);
    assert.deepEqual(
      open(k16, seal(k16, payload, { purpose: "p" }), { purpose: "p" }).payload,
      payload,
    );
    throwsKeyed(() => seal(new Uint8Array(15), payload, { purpose: "p" }), "KEY_TOO_SHORT", /16/);
    throwsKeyed(() => open(new Uint8Array(15), payload, { purpose: "p" }), "KEY_TOO_SHORT");
  });

  it("a replay window refuses the second opening and leaves other counters alone", () => {
    const replay = new ReplayWindow({ size: 4 });
    const tokens = [1, 2, 3].map((counter) => seal(key, payload, { purpose: "p", counter }));
    for (const t of tokens) assert.ok(open(key, t, { purpose: "p", replay }));
    throwsKeyed(() => open(key, tokens[1], { purpose: "p", replay }), "REPLAYED", /counter 2/);
    assert.equal(replay.newest, 3n);
  });
});
