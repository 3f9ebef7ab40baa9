/**
 * What a new user meets in the first five minutes (issue 18): the hints that say what to do, and
 * one answer to the case of algorithm names.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isMacName, mac, macNames, seal, tryOpen } from "../../src/index.js";
import { throwsKeyed } from "../helpers.js";

const key = new Uint8Array(32).fill(1);

describe("a string where bytes are expected says how to decode it", () => {
  const m = mac("hmac-sha256", key);
  const message = new Uint8Array(3);
  it("hex text: hexToBytes", () => {
    throwsKeyed(() => m.verify(message, "a1b2c3d4e5f6" as never), "BAD_INPUT", /hexToBytes/);
  });
  it("base64url text: base64urlToBytes", () => {
    throwsKeyed(() => m.verify(message, "q83v-_Abcd12" as never), "BAD_INPUT", /base64urlToBytes/);
  });
  it("base64 text: base64ToBytes", () => {
    throwsKeyed(() => m.verify(message, "q83v+/Abcd12" as never), "BAD_INPUT", /base64ToBytes/);
  });
  it("plain text: utf8ToBytes", () => {
    throwsKeyed(() => m.tag("hello, world" as never), "BAD_INPUT", /utf8ToBytes/);
  });
  it("not a string at all: the type, and utf8ToBytes for text", () => {
    throwsKeyed(() => m.tag(42 as never), "BAD_INPUT", /got a number\. Encode text/);
  });
});

describe("algorithm names: lower case everywhere, with a hint", () => {
  it("isMacName is a guard that accepts exactly macNames()", () => {
    for (const name of macNames()) assert.equal(isMacName(name), true, name);
    for (const name of ["HMAC-SHA256", "sha256", "", "toString", undefined, 5]) {
      assert.equal(isMacName(name), false, String(name));
    }
    const fromEnv: string = "blake3";
    if (isMacName(fromEnv)) assert.equal(mac(fromEnv, key).algorithm, "blake3"); // no cast
  });
  it("upper case and a bare hash name are refused with the name meant", () => {
    throwsKeyed(() => mac("HMAC-SHA256" as never, key), "UNKNOWN_ALGORITHM", /"hmac-sha256"\?/);
    throwsKeyed(() => mac("sha256" as never, key), "UNKNOWN_ALGORITHM", /"hmac-sha256"\?/);
    throwsKeyed(() => mac("blake33" as never, key), "UNKNOWN_ALGORITHM", /"blake3"\?/);
    throwsKeyed(() => mac("rot13" as never, key), "UNKNOWN_ALGORITHM", /lower case/);
  });
  it("the lookup remembers its last name, and answers only for that name", () => {
    // mac() keeps the last algorithm found; a different name, or none, must not get it.
    for (const name of ["blake3", "hmac-sha256", "blake3", "blake3", "poly1305"] as const) {
      assert.equal(mac(name, key).algorithm, name);
      throwsKeyed(() => mac(undefined as never, key), "BAD_INPUT", /name must be a string/);
      throwsKeyed(() => mac(name.toUpperCase() as never, key), "UNKNOWN_ALGORITHM");
      assert.equal(mac(name, key).algorithm, name);
    }
  });
});

describe("seal and open: seconds, not milliseconds", () => {
  it("a millisecond timestamp is refused with a hint; seconds round-trip", () => {
    throwsKeyed(
      () => seal(key, new Uint8Array(1), { purpose: "p", timestamp: Date.now() }),
      "BAD_INPUT",
      /looks like milliseconds.*Math\.floor\(Date\.now\(\) \/ 1000\)/,
    );
    const t = Math.floor(Date.now() / 1000);
    const token = seal(key, new Uint8Array(1), { purpose: "p", timestamp: t });
    assert.equal(tryOpen(key, token, { purpose: "p", maxAgeSeconds: 60 }).ok, true);
  });
});
