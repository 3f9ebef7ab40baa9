import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { KeyedError } from "../../src/core/errors.js";
import { open, ReplayWindow, seal, tryOpen } from "../../src/index.js";
import { ascii, throwsKeyed } from "../helpers.js";

const key = new Uint8Array(32).fill(7);
const T = 1_800_000_000;

describe("tryOpen: open's answers as a result", () => {
  it("ok carries the payload, timestamp and counter", () => {
    const token = seal(key, ascii("hi"), { purpose: "p", timestamp: T, counter: 9n });
    const r = tryOpen(key, token, { purpose: "p", now: T });
    assert.ok(r.ok);
    assert.deepEqual([...r.payload], [...ascii("hi")]);
    assert.equal(r.timestamp, T);
    assert.equal(r.counter, 9n);
  });

  it("each refusal has its reason, and open throws the matching code", () => {
    const token = seal(key, ascii("x"), { purpose: "p", timestamp: T, counter: 1 });
    const changed = token.slice();
    changed[4] ^= 1;
    const window = new ReplayWindow();
    window.accept(1n);
    const cases: [Uint8Array, object, string, string][] = [
      [changed, { now: T }, "tag_invalid", "TAG_INVALID"],
      [token, { now: T + 100, maxAgeSeconds: 10 }, "expired", "EXPIRED"],
      [token, { now: T - 100 }, "not_yet_valid", "NOT_YET_VALID"],
      [token, { now: T, replay: window }, "replayed", "REPLAYED"],
      [new Uint8Array(0), {}, "tag_invalid", "TAG_INVALID"],
    ];
    for (const [t, extra, reason, code] of cases) {
      const r = tryOpen(key, t, { purpose: "p", ...extra });
      assert.equal(r.ok, false);
      assert.equal(!r.ok && r.reason, reason);
      assert.equal(!r.ok && typeof r.message, "string");
      throwsKeyed(() => open(key, t, { purpose: "p", ...extra }), code);
    }
  });

  it("the caller's own mistakes still throw", () => {
    const token = seal(key, ascii("x"), { purpose: "p" });
    throwsKeyed(() => tryOpen(key, token, { purpose: "p", nwo: 1 } as never), "BAD_INPUT", /now/);
    throwsKeyed(() => tryOpen(new Uint8Array(3), token, { purpose: "p" }), "KEY_TOO_SHORT");
    throwsKeyed(() => tryOpen(key, "token" as never, { purpose: "p" }), "BAD_INPUT");
  });

  it("now and timestamp take a Date or seconds; milliseconds are refused with a hint", () => {
    const token = seal(key, ascii("x"), { purpose: "p", timestamp: new Date(T * 1000) });
    assert.equal(open(key, token, { purpose: "p", now: new Date(T * 1000) }).timestamp, T);
    throwsKeyed(
      () => seal(key, ascii("x"), { purpose: "p", timestamp: T * 1000 }),
      "BAD_INPUT",
      /milliseconds/,
    );
    throwsKeyed(() => open(key, token, { purpose: "p", now: T * 1000 }), "BAD_INPUT", /seconds/);
  });

  it("toleranceSeconds is the name; clockSkewSeconds stays as an alias", () => {
    const token = seal(key, ascii("x"), { purpose: "p", timestamp: T });
    for (const name of ["toleranceSeconds", "clockSkewSeconds"]) {
      assert.ok(tryOpen(key, token, { purpose: "p", now: T - 5, [name]: 5 }).ok, name);
      assert.equal(tryOpen(key, token, { purpose: "p", now: T - 6, [name]: 5 }).ok, false, name);
    }
    assert.throws(
      () => open(key, token, { purpose: "p", toleranceSeconds: 1, clockSkewSeconds: 2 }),
      KeyedError,
    );
  });

  it("ReplayWindow takes the counters seal takes: bigints and whole numbers", () => {
    const w = new ReplayWindow();
    assert.equal(w.accept(3), true);
    assert.equal(w.accept(3n), false);
    throwsKeyed(() => w.accept(Number.MAX_SAFE_INTEGER + 1), "BAD_INPUT");
  });
});
