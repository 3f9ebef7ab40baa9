/**
 * verifyJwt's clock rules at their boundaries: maxAgeSeconds with the leeway, the default clock in
 * seconds, and the refusals of alg "none" and of an over-long header before it is decoded; the
 * compact form's rules, each where it decides the reason: the segment count, a padded header, a
 * payload that is not base64url (refused before the MAC), a signature of another length (not
 * decoded), and verifyJws's typ option.
 */
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { describe, it } from "node:test";
import { signJwt, verifyJws, verifyJwt } from "../../src/protocols/jwt.js";
import { throwsKeyed } from "../helpers.js";

const key = new Uint8Array(32).fill(9);
const b64u = (s: string | Buffer) => Buffer.from(s).toString("base64url");
/** A compact JWS made by hand (node:crypto), so any header can be tagged. */
function handMade(header: string, payload: string): string {
  const body = `${b64u(header)}.${b64u(payload)}`;
  return `${body}.${createHmac("sha256", key).update(body).digest("base64url")}`;
}

describe("verifyJwt clock edges", () => {
  it("maxAgeSeconds allows the leeway on top, to the second", () => {
    const token = signJwt({ iat: 1000 }, key, { alg: "HS256" });
    const o = { algorithms: ["HS256"] as const, maxAgeSeconds: 100, leewaySeconds: 10 };
    assert.equal(verifyJwt(token, key, { ...o, now: 1110 }).ok, true);
    const late = verifyJwt(token, key, { ...o, now: 1111 });
    assert.equal(late.ok, false);
    assert.equal(!late.ok && late.reason, "expired");
    assert.match(!late.ok ? late.message : "", /issued 111 s ago; maxAgeSeconds is 100/);
  });
  it("the default clock is in seconds", () => {
    const t = Math.floor(Date.now() / 1000);
    const token = signJwt({ iat: t - 5, nbf: t - 5, exp: t + 600 }, key, { alg: "HS256" });
    assert.equal(verifyJwt(token, key, { algorithms: ["HS256"] }).ok, true);
  });
});

describe("verifyJwt header refusals", () => {
  it('alg "none" is refused with its own message', () => {
    const r = verifyJwt(handMade('{"alg":"none"}', "{}"), key, { algorithms: ["HS256"] });
    assert.equal(!r.ok && r.reason, "alg_not_allowed");
    assert.match(!r.ok ? r.message : "", /alg "none" \(an unsecured JWS\) is never accepted/);
    const other = verifyJwt(handMade('{"alg":"HS512"}', "{}"), key, { algorithms: ["HS256"] });
    assert.match(!other.ok ? other.message : "", /alg "HS512" is not among the accepted: HS256/);
  });
  it("a header segment over 64 KiB is malformed; one just under is read", () => {
    const pad = (n: number) => `{"alg":"HS256","x":"${"a".repeat(n)}"}`;
    // 3 bytes to 4 characters: a header of 49,152 bytes is exactly 65,536 characters.
    const exact = handMade(pad(49152 - 22), "{}");
    assert.equal(exact.split(".")[0].length, 65536);
    assert.equal(verifyJwt(exact, key, { algorithms: ["HS256"] }).ok, true);
    const over = handMade(pad(49152 - 22 + 3), "{}");
    const r = verifyJwt(over, key, { algorithms: ["HS256"] });
    assert.equal(!r.ok && r.reason, "malformed");
  });
});

describe("compact serialization edges", () => {
  const HS256 = { algorithms: ["HS256"] } as const;
  const token = signJwt({ sub: "x" }, key, { alg: "HS256" });
  const [h, p, s] = token.split(".");
  const reasonOf = (t: string) => {
    const r = verifyJwt(t, key, HS256);
    return r.ok ? "ok" : r.reason;
  };

  it("the refusal of a wrong segment count gives the count", () => {
    for (const [bad, count] of [
      [`${h}.${p}`, 2],
      [`${h}.${p}.${s}.${s}`, 4],
    ] as const) {
      const r = verifyJwt(bad, key, HS256);
      assert.equal(!r.ok && r.reason, "malformed");
      assert.match(!r.ok ? r.message : "", new RegExp(`\\b${count}\\b`));
    }
  });
  it("a token without a dot is malformed, even when it starts like a header", () => {
    assert.equal(h.length % 4, 0);
    const r = verifyJwt(`${h}A`, key, HS256);
    assert.equal(!r.ok && r.reason, "malformed");
    assert.match(!r.ok ? r.message : "", /\b1\b/); // one segment
  });
  it("a padded header is malformed, even under a valid MAC", () => {
    const header = '{"alg":"HS256","x":12}'; // 22 bytes: base64 pads it with "=="
    const padded = Buffer.from(header).toString("base64").replace(/\+/g, "-").replace(/\//g, "_");
    assert.ok(padded.endsWith("=="));
    const body = `${padded}.${b64u("{}")}`;
    const signed = `${body}.${createHmac("sha256", key).update(body).digest("base64url")}`;
    assert.equal(reasonOf(signed), "malformed");
    assert.equal(reasonOf(handMade(header, "{}")), "ok");
  });
  it("a payload that is not base64url is malformed before the MAC is checked", () => {
    assert.equal(reasonOf(`${h}.a+b.${s}`), "malformed");
  });
  it("a signature of another length does not match, and is not decoded", () => {
    // 42 characters whose last one has non-zero unused bits: not canonical, never looked at.
    const short = `${s.slice(0, 41)}B`;
    assert.equal(reasonOf(`${h}.${p}.${short}`), "signature_mismatch");
  });
  it("verifyJws's typ must be a string", () => {
    throwsKeyed(() => verifyJws(token, key, { ...HS256, typ: 1 as never }), "BAD_INPUT");
    assert.equal(verifyJws(token, key, { ...HS256, typ: "JWT" }).ok, true);
  });
});
