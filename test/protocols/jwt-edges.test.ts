/**
 * verifyJwt's clock rules at their boundaries: maxAgeSeconds with the leeway, the default clock in
 * seconds, and the refusals of alg "none" and of an over-long header before it is decoded.
 */
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { describe, it } from "node:test";
import { signJwt, verifyJwt } from "../../src/protocols/jwt.js";

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
