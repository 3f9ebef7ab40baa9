/**
 * JWS / JWT with keysets (issue 14): the token carries the key id in its `kid` header and the
 * verifier picks the key by it. Interop both ways with jose (an independent implementation) over
 * one JWK Set, and kid rotation.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { exportJWK, importJWK, type JWK, jwtVerify, SignJWT } from "jose";
import type { JwkSet } from "../../src/index.js";
import { bytesToBase64url, Keyset } from "../../src/index.js";
import { signJws, signJwt, verifyJws, verifyJwt } from "../../src/protocols/jwt.js";
import { throwsKeyed } from "../helpers.js";

const NOW = 1_800_000_000;
const bytes = (seed: number, n: number) =>
  Uint8Array.from({ length: n }, (_, i) => (seed + i * 7) & 255);

function jwks(
  ...keys: { kid: string; alg: "HS256" | "HS384" | "HS512"; key: Uint8Array }[]
): JwkSet {
  return {
    keys: keys.map(({ kid, alg, key }) => ({
      kty: "oct" as const,
      alg,
      kid,
      k: bytesToBase64url(key),
    })),
  };
}

/**
 * jose's key lookup for a set of symmetric keys (its createLocalJWKSet is for public keys): the
 * JWK whose kid the header names, as a jose user writes it.
 */
const byKid = (set: JwkSet) => async (header: { kid?: string; alg?: string }) => {
  const jwk = set.keys.find((k) => k.kid === header.kid);
  if (jwk === undefined) throw new Error(`no key ${header.kid}`);
  return importJWK(jwk as JWK, header.alg);
};

const keyA = bytes(1, 32);
const keyB = bytes(9, 32);
const set = jwks({ kid: "a", alg: "HS256", key: keyA }, { kid: "b", alg: "HS256", key: keyB });

describe("JWT with a keyset", () => {
  it("keyed signs with the primary and names it in kid; jose verifies with the same JWK Set", async () => {
    const ks = Keyset.fromJwks(set, { primary: "b" });
    const token = signJwt({ sub: "alice", exp: NOW + 60 }, ks, { alg: "HS256" });
    const header = JSON.parse(Buffer.from(token.split(".")[0], "base64url").toString());
    assert.equal(header.kid, "b");
    const { payload, protectedHeader } = await jwtVerify(token, byKid(set), {
      currentDate: new Date(NOW * 1000),
    });
    assert.equal(payload.sub, "alice");
    assert.equal(protectedHeader.kid, "b");
  });

  it("jose signs with kid a or b; keyed verifies each through the keyset built from the set", async () => {
    const ks = Keyset.fromJwks(set);
    for (const [kid, key] of [
      ["a", keyA],
      ["b", keyB],
    ] as const) {
      const token = await new SignJWT({ sub: kid })
        .setProtectedHeader({ alg: "HS256", kid })
        .setExpirationTime(NOW + 60)
        .sign(key);
      const r = verifyJwt(token, ks, { algorithms: ["HS256"], now: NOW });
      assert.ok(r.ok, r.ok ? "" : r.message);
      assert.equal(r.payload.sub, kid);
      // The kid is authenticated: naming the other key is a mismatch, not a success.
      const [, p, s] = token.split(".");
      const other = bytesToBase64url(
        new TextEncoder().encode(JSON.stringify({ alg: "HS256", kid: kid === "a" ? "b" : "a" })),
      );
      const swapped = verifyJwt(`${other}.${p}.${s}`, ks, { algorithms: ["HS256"], now: NOW });
      assert.equal(!swapped.ok && swapped.reason, "signature_mismatch");
    }
  });

  it("rotation: new tokens carry the new kid, old ones verify until their key is disabled", async () => {
    const ks = Keyset.fromJwks(jwks({ kid: "a", alg: "HS256", key: keyA }));
    const old = signJwt({ n: 1 }, ks, { alg: "HS256" });
    const id = ks.add("hmac-sha256", { prefix: "raw", kid: "c" } as never);
    ks.setPrimary(id);
    const fresh = signJwt({ n: 2 }, ks, { alg: "HS256" });
    const kidOf = (t: string) =>
      JSON.parse(Buffer.from(t.split(".")[0], "base64url").toString()).kid;
    assert.equal(kidOf(old), "a");
    assert.equal(kidOf(fresh), "c");
    for (const t of [old, fresh]) assert.ok(verifyJwt(t, ks, { algorithms: ["HS256"] }).ok);
    // jose, given the exported set, agrees.
    const exported = ks.toJwks();
    for (const t of [old, fresh]) await jwtVerify(t, byKid(exported));
    ks.disable(ks.get("a")!.id);
    const r = verifyJwt(old, ks, { algorithms: ["HS256"] });
    assert.equal(!r.ok && r.reason, "unknown_kid");
    assert.ok(verifyJwt(fresh, ks, { algorithms: ["HS256"] }).ok);
  });

  it("an unknown, disabled or wrongly typed kid is a refusal; no kid tries every enabled key", () => {
    const ks = Keyset.fromJwks(set);
    const byA = signJws("x", keyA, { alg: "HS256", header: { kid: "zz" } });
    for (const kid of ["zz", 5, null, ""]) {
      const token = signJws("x", keyA, { alg: "HS256", header: { kid } });
      const r = verifyJws(token, ks, { algorithms: ["HS256"] });
      assert.equal(!r.ok && r.reason, "unknown_kid", String(kid));
    }
    assert.equal(verifyJws(byA, ks, { algorithms: ["HS256"] }).ok, false);
    const noKid = signJws("x", keyB, { alg: "HS256" });
    assert.ok(verifyJws(noKid, ks, { algorithms: ["HS256"] }).ok);
    // A kid of another algorithm's key does not verify an HS256 token.
    const mixed = Keyset.fromJwks(jwks({ kid: "h", alg: "HS384", key: bytes(3, 48) }));
    const r = verifyJws(signJws("x", keyA, { alg: "HS256", header: { kid: "h" } }), mixed, {
      algorithms: ["HS256", "HS384"],
    });
    assert.equal(!r.ok && r.reason, "unknown_kid");
  });

  it("the caller's own mistakes throw: a primary of another MAC, a short key, a clashing kid", async () => {
    const ks = Keyset.fromJwks(set);
    throwsKeyed(() => signJwt({}, ks, { alg: "HS384" }), "BAD_INPUT", /hmac-sha384/);
    throwsKeyed(
      () => signJwt({}, ks, { alg: "HS256", header: { kid: "other" } }),
      "BAD_INPUT",
      /kid/,
    );
    const short = Keyset.fromKey("hmac-sha256", bytes(5, 20), { prefix: "raw" });
    throwsKeyed(() => signJwt({}, short, { alg: "HS256" }), "KEY_TOO_SHORT");
    throwsKeyed(() => verifyJwt("a.b.c", short, { algorithms: ["HS256"] }), "KEY_TOO_SHORT");
    assert.ok((await exportJWK(keyA)).k);
  });
});
