import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  durationSeconds,
  nowSeconds,
  toleranceSeconds,
  toUnixSeconds,
} from "../../src/core/time.js";
import { throwsKeyed } from "../helpers.js";

describe("one time convention: a Date or Unix seconds", () => {
  it("a Date and its seconds are the same point", () => {
    const date = new Date("2026-12-02T10:00:00.900Z");
    assert.equal(toUnixSeconds(date, "now"), Math.floor(date.getTime() / 1000));
    assert.equal(toUnixSeconds(1_796_205_600, "now"), 1_796_205_600);
    assert.equal(toUnixSeconds(0, "now"), 0);
  });

  it("milliseconds are refused with a hint, just past the threshold and at Date.now()", () => {
    throwsKeyed(() => toUnixSeconds(Date.now(), "options.now"), "BAD_INPUT", /milliseconds/);
    throwsKeyed(() => toUnixSeconds(1e11, "options.now"), "BAD_INPUT", /Math\.floor/);
    assert.equal(toUnixSeconds(1e11 - 1, "options.now"), 1e11 - 1);
  });

  it("anything else is BAD_INPUT naming the option", () => {
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY, "1700000000", null, 1n]) {
      throwsKeyed(() => toUnixSeconds(bad, "options.now"), "BAD_INPUT", /options\.now/);
    }
    throwsKeyed(() => toUnixSeconds(new Date(Number.NaN), "now"), "BAD_INPUT", /invalid Date/);
    throwsKeyed(() => toUnixSeconds(new Date(-1000), "now"), "BAD_INPUT", /1970/);
  });

  it("nowSeconds reads the clock in whole seconds when absent", () => {
    const before = Math.floor(Date.now() / 1000);
    const now = nowSeconds(undefined);
    assert.ok(Number.isInteger(now) && now >= before && now <= before + 1);
    assert.equal(nowSeconds(new Date(5_000)), 5);
  });

  it("durations are finite and non-negative", () => {
    assert.equal(durationSeconds(0, "d"), 0);
    assert.equal(durationSeconds(1.5, "d"), 1.5);
    for (const bad of [-0.5, Number.NaN, Number.POSITIVE_INFINITY, "3", undefined]) {
      throwsKeyed(() => durationSeconds(bad, "options.d"), "BAD_INPUT", /options\.d/);
    }
  });

  it("toleranceSeconds: the one name, its aliases, the default, and no two that disagree", () => {
    const aliases = ["clockSkewSeconds", "leewaySeconds"];
    assert.equal(toleranceSeconds({}, aliases, 7), 7);
    assert.equal(toleranceSeconds({ toleranceSeconds: 3 }, aliases, 7), 3);
    assert.equal(toleranceSeconds({ clockSkewSeconds: 4 }, aliases, 7), 4);
    assert.equal(toleranceSeconds({ leewaySeconds: 5 }, aliases, 7), 5);
    assert.equal(toleranceSeconds({ toleranceSeconds: 5, leewaySeconds: 5 }, aliases, 7), 5);
    throwsKeyed(
      () => toleranceSeconds({ toleranceSeconds: 5, clockSkewSeconds: 6 }, aliases, 7),
      "BAD_INPUT",
      /toleranceSeconds and options\.clockSkewSeconds/,
    );
    throwsKeyed(() => toleranceSeconds({ leewaySeconds: -1 }, aliases, 7), "BAD_INPUT", /leeway/);
  });
});
