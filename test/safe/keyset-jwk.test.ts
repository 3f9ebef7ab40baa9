/**
 * JWK and JWK Sets (RFC 7517, RFC 7518 `kty: "oct"`): keyed's reading and writing, round trips
 * against jose's importJWK/exportJWK (an independent implementation), and the refusals. Signing
 * JWTs with a keyset is the JWT module's business; here the keys themselves are compared, and a
 * JWS signature jose makes is checked against the keyset's key for the same kid.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CompactSign, exportJWK, generateSecret, importJWK } from "jose";
import { bytesToBase64url, type Jwk, Keyset, keyFromJwk, keyToJwk, mac } from "../../src/index.js";
import { keysetMac } from "../../src/safe/keyset.js";
import { ascii, throwsKeyed, toHex } from "../helpers.js";

const key32 = Uint8Array.from({ length: 32 }, (_, i) => 200 - i);
const b64u = (b: Uint8Array) => Buffer.from(b).toString("base64url");

describe("keyFromJwk / keyToJwk", () => {
  it("reads and writes HS256, HS384 and HS512 keys", () => {
    for (const [alg, name] of [
      ["HS256", "hmac-sha256"],
      ["HS384", "hmac-sha384"],
      ["HS512", "hmac-sha512"],
    ] as const) {
      const jwk = keyToJwk(name, key32, { kid: "k1" });
      assert.deepEqual(jwk, { kty: "oct", alg, k: b64u(key32), kid: "k1" });
      const back = keyFromJwk(jwk);
      assert.deepEqual(back, { name, key: key32, kid: "k1" });
      assert.deepEqual(keyFromJwk(JSON.stringify(jwk)), back, "JSON text too");
    }
    assert.deepEqual(keyToJwk("hmac-sha256", key32), { kty: "oct", alg: "HS256", k: b64u(key32) });
  });

  it("refuses what is not a MAC key, or not keyed's policy, with a code each", () => {
    const k = b64u(key32);
    throwsKeyed(
      () => keyFromJwk({ kty: "RSA", alg: "RS256", k } as unknown as Jwk),
      "KEY_UNSUPPORTED",
      /kty/,
    );
    throwsKeyed(() => keyFromJwk({ alg: "HS256", k } as unknown as Jwk), "KEY_FORMAT", /kty/);
    throwsKeyed(() => keyFromJwk({ kty: "oct", k }), "KEY_FORMAT", /no "alg"/);
    throwsKeyed(() => keyFromJwk({ kty: "oct", alg: "A256GCM", k }), "KEY_UNSUPPORTED", /alg/);
    throwsKeyed(
      () => keyFromJwk({ kty: "oct", alg: "HS256", k, use: "enc" }),
      "KEY_UNSUPPORTED",
      /use/,
    );
    throwsKeyed(
      () => keyFromJwk({ kty: "oct", alg: "HS256", k, key_ops: ["encrypt"] }),
      "KEY_UNSUPPORTED",
      /key_ops/,
    );
    throwsKeyed(
      () => keyFromJwk({ kty: "oct", alg: "HS256", k, key_ops: "sign" } as never),
      "KEY_FORMAT",
    );
    throwsKeyed(() => keyFromJwk({ kty: "oct", alg: "HS256" } as Jwk), "KEY_FORMAT", /no "k"/);
    // Malformed k: padding, the standard alphabet, stray characters, non-canonical final bits.
    for (const bad of [
      `${k}=`,
      k.replace(/[-_]/g, "+").replace(/^./, "+"),
      `${k.slice(0, 10)} ${k.slice(10)}`,
      "AB",
    ]) {
      throwsKeyed(
        () => keyFromJwk({ kty: "oct", alg: "HS256", k: bad }),
        "KEY_FORMAT",
        /base64url/,
      );
    }
    // Short keys: the same policy as mac() (16 bytes at least).
    throwsKeyed(
      () => keyFromJwk({ kty: "oct", alg: "HS256", k: b64u(key32.subarray(0, 15)) }),
      "KEY_TOO_SHORT",
    );
    throwsKeyed(() => keyFromJwk({ kty: "oct", alg: "HS256", k: "" }), "KEY_TOO_SHORT");
    throwsKeyed(() => keyToJwk("hmac-sha256", key32.subarray(0, 8)), "KEY_TOO_SHORT");
    throwsKeyed(() => keyToJwk("blake3", key32), "KEY_UNSUPPORTED", /HS256/);
    throwsKeyed(
      () => keyToJwk("hmac-sha256", key32, { kdi: "x" } as never),
      "BAD_INPUT",
      /did you mean "kid"/,
    );
    throwsKeyed(() => keyToJwk("hmac-sha256", key32, { kid: "" }), "BAD_INPUT");
    throwsKeyed(() => keyFromJwk("[1]" as never), "KEY_FORMAT");
    throwsKeyed(() => keyFromJwk('{"kty":"oct","kty":"oct"}'), "KEY_FORMAT", /twice/);
    // Members keyed does not use are ignored (RFC 7517 section 4).
    assert.equal(
      keyFromJwk({ kty: "oct", alg: "HS256", k, ext: true, x5t: "abc" }).name,
      "hmac-sha256",
    );
  });
});

describe("Keyset.fromJwks / toJwks", () => {
  it("round trips through jose's importJWK and exportJWK, both ways", async () => {
    const ks = Keyset.generate("hmac-sha256", { prefix: "raw" });
    const second = ks.add("hmac-sha512", { prefix: "raw", kid: "2026-02" });
    ks.add("hmac-sha384", { prefix: "tink" });
    const set = ks.toJwks();
    assert.equal(set.keys.length, 3);
    assert.equal(set.keys[0].kid, String(ks.primaryId), "the primary comes first");
    for (const jwk of set.keys) {
      const imported = await importJWK(jwk, jwk.alg);
      const exported = await exportJWK(imported as CryptoKey | Uint8Array as never);
      assert.equal(exported.k, jwk.k, "jose reads the same key bytes back");
      const m = keysetMac(ks, jwk.kid as string)!;
      // jose signs a JWS with the imported key; keyed's key for the same kid computes the same MAC.
      const jws = await new CompactSign(ascii("payload"))
        .setProtectedHeader({ alg: jwk.alg as string, kid: jwk.kid })
        .sign(imported);
      const [header, payload, signature] = jws.split(".");
      assert.equal(bytesToBase64url(m.tag(ascii(`${header}.${payload}`))), signature);
    }
    // jose's keys (generateSecret → exportJWK) read by keyed.
    const joseKeys: Record<string, unknown>[] = [];
    for (const [alg, kid] of [
      ["HS256", "a"],
      ["HS384", "b"],
      ["HS512", "17"],
    ] as const) {
      const secret = await generateSecret(alg, { extractable: true });
      joseKeys.push({ ...(await exportJWK(secret)), alg, kid });
    }
    const fromJose = Keyset.fromJwks({ keys: joseKeys as Jwk[] });
    assert.deepEqual(
      fromJose.keys().map((k) => [k.kid, k.algorithm, k.prefix, k.status]),
      [
        ["a", "hmac-sha256", "raw", "enabled"],
        ["b", "hmac-sha384", "raw", "enabled"],
        ["17", "hmac-sha512", "raw", "enabled"],
      ],
    );
    assert.equal(fromJose.get("17")?.id, 17, "a numeric kid is the key id");
    assert.equal(fromJose.keys()[0].primary, true, "the first key is the primary");
    assert.deepEqual(
      fromJose.toJwks().keys.map((k) => k.k),
      joseKeys.map((k) => k.k),
    );
    assert.equal(
      Keyset.fromJwks({ keys: joseKeys as Jwk[] }, { primary: "b" }).get("b")?.primary,
      true,
    );
    throwsKeyed(
      () => Keyset.fromJwks({ keys: joseKeys as Jwk[] }, { primary: "zz" }),
      "KEY_NOT_FOUND",
    );
    assert.equal(second > 0, true);
  });

  it("a keyset read from its own JWK Set keeps kids, ids and keys", () => {
    const ks = Keyset.fromKey("hmac-sha256", key32, { prefix: "raw", id: 99, kid: "primary" });
    ks.add("hmac-sha384", { prefix: "raw", id: 100 });
    const again = Keyset.fromJwks(JSON.stringify(ks.toJwks()));
    assert.deepEqual(
      again.keys(),
      ks.keys().map((k) => ({ ...k, id: k.kid === "primary" ? again.get("primary")!.id : k.id })),
    );
    const m = ascii("x");
    assert.equal(again.verify(m, ks.tag(m)), true);
    assert.equal(toHex(again.tag(m)), toHex(mac("hmac-sha256", key32).tag(m)));
  });

  it("leaves out disabled and destroyed keys; refuses keys with no JWK form", () => {
    const ks = Keyset.generate("hmac-sha256");
    const off = ks.add("hmac-sha256");
    const gone = ks.add("hmac-sha256");
    ks.disable(off);
    ks.destroy(gone);
    assert.deepEqual(
      ks.toJwks().keys.map((k) => k.kid),
      [String(ks.primaryId)],
    );
    ks.add("hmac-sha256", { tagLength: 16 });
    throwsKeyed(() => ks.toJwks(), "KEY_UNSUPPORTED", /full HMAC/);
    throwsKeyed(() => Keyset.generate("blake3").toJwks(), "KEY_UNSUPPORTED");
  });

  it("refuses malformed sets: not an object, no keys, duplicate kids, a bad member", () => {
    const jwk = keyToJwk("hmac-sha256", key32, { kid: "x" });
    throwsKeyed(() => Keyset.fromJwks({ keys: [] }), "KEY_FORMAT", /non-empty/);
    throwsKeyed(() => Keyset.fromJwks({} as never), "KEY_FORMAT");
    throwsKeyed(() => Keyset.fromJwks("not json"), "KEY_FORMAT");
    throwsKeyed(() => Keyset.fromJwks({ keys: [jwk, jwk] }), "KEY_FORMAT", /twice/);
    throwsKeyed(
      () => Keyset.fromJwks({ keys: [jwk, { ...jwk, kid: "y", k: "!" }] }),
      "KEY_FORMAT",
      /keys\[1\]/,
    );
    throwsKeyed(
      () => Keyset.fromJwks({ keys: [jwk] }, { primar: "x" } as never),
      "BAD_INPUT",
      /did you mean/,
    );
    const many = Array.from({ length: 1025 }, (_, i) => ({ ...jwk, kid: `k${i}` }));
    throwsKeyed(() => Keyset.fromJwks({ keys: many }), "KEY_FORMAT", /at most 1024/);
  });
});
