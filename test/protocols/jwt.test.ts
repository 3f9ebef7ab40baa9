import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import fc from "fast-check";
import { jwtKeyCacheSize } from "../../src/protocols/jwt/common.js";
import {
  clearJwtKeyCache,
  type JwsAlgorithm,
  type JwtClaims,
  type JwtResult,
  signJws,
  signJwt,
  verifyJws,
  verifyJwt,
} from "../../src/protocols/jwt.js";
import { atOffset, notBytes, throwsKeyed } from "../helpers.js";
import { rfcSection } from "../rfc-text.js";
import { readVectorJson, skipUnless, vectorPath } from "../vectors.js";

/** Independent oracles on node:crypto and Buffer. */
const b64url = (data: string | Uint8Array): string => Buffer.from(data).toString("base64url");
const fromB64url = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text, "base64url"));
const HASH: Record<JwsAlgorithm, string> = { HS256: "sha256", HS384: "sha384", HS512: "sha512" };
const macB64url = (alg: JwsAlgorithm, key: Uint8Array, input: string): string =>
  createHmac(HASH[alg], key).update(input).digest("base64url");

/** A compact JWS built by hand: any header and payload text, signed by node:crypto. */
function handmade(
  header: string | Uint8Array,
  payload: string | Uint8Array,
  key: Uint8Array,
  alg: JwsAlgorithm = "HS256",
): string {
  const input = `${b64url(header)}.${b64url(payload)}`;
  return `${input}.${macB64url(alg, key, input)}`;
}

function refused(result: { ok: boolean; reason?: string; message?: string }, reason: string): void {
  assert.equal(result.ok, false, `expected a refusal (${reason})`);
  assert.equal(result.reason, reason, result.message);
}

const KEY = Uint8Array.from({ length: 64 }, (_, i) => i * 7 + 1);
const KEY32 = KEY.subarray(0, 32);
const HS256 = { algorithms: ["HS256"] } as const;

// --- RFC 7515 appendix A.1 -----------------------------------------------------------------------

// RFC 7515 A.1.1: the JWK "k" and the compact serialization (small known answers from the RFC).
const A1_KEY =
  "AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow";
const A1_TOKEN =
  "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9" +
  ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ" +
  ".dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const A1_EXP = 1300819380;

/** The numbers of the "[n, n, …]" array that follows `phrase` in `text`. */
function octetsAfter(text: string, phrase: string): Uint8Array {
  const at = text.indexOf(phrase);
  assert.ok(at >= 0, `no "${phrase}"`);
  const open = text.indexOf("[", at);
  const close = text.indexOf("]", open);
  return Uint8Array.from(
    text
      .slice(open + 1, close)
      .split(",")
      .map((n) => Number(n.trim())),
  );
}

describe("RFC 7515 appendix A.1 (HS256)", () => {
  it("verifies the example as a JWT, on the exact bytes of its CRLF-laden header", () => {
    const key = fromB64url(A1_KEY);
    const result = verifyJwt(A1_TOKEN, key, { ...HS256, now: A1_EXP - 1 });
    assert.ok(result.ok, JSON.stringify(result));
    assert.deepEqual(result.header, { typ: "JWT", alg: "HS256" });
    assert.deepEqual(result.payload, {
      iss: "joe",
      exp: A1_EXP,
      "http://example.com/is_root": true,
    });
    refused(verifyJwt(A1_TOKEN, key, { ...HS256, now: A1_EXP }), "expired");
    const [h, p] = A1_TOKEN.split(".");
    assert.equal(A1_TOKEN.split(".")[2], macB64url("HS256", key, `${h}.${p}`));
  });

  const file = "rfc/rfc7515_test_vectors.txt";
  it("the shared RFC text: key, octets, signature and serialization", {
    skip: skipUnless(file),
  }, () => {
    const text = rfcSection(vectorPath(file) as string, "A.1.");
    const k = /"k":"([^"]+)"/.exec(text)?.[1].replace(/\s+/g, "");
    assert.equal(k, A1_KEY);
    const end = text.indexOf("A.1.2.");
    const start = text.lastIndexOf("purposes only):", end);
    const token = text.slice(start + "purposes only):".length, end).replace(/\s+/g, "");
    assert.equal(token, A1_TOKEN);
    const [h, p, s] = token.split(".");
    // The header and payload octets (CRLF and leading spaces included) are what is signed.
    assert.deepEqual(fromB64url(h), octetsAfter(text, "Protected Header) in this example"));
    assert.deepEqual(fromB64url(p), octetsAfter(text, "is the JWS Payload:"));
    assert.deepEqual(fromB64url(s), octetsAfter(text, "JWS Signature octet sequence:"));
    const result = verifyJws(token, fromB64url(k as string), HS256);
    assert.ok(result.ok);
    assert.deepEqual(result.payload, octetsAfter(text, "is the JWS Payload:"));
  });
});

// --- RFC 7520 (JOSE cookbook) -----------------------------------------------------------------------

/** The indented block of lines just above "Figure n:" in the shared RFC 7520 text. */
function figure(text: string, n: number): string {
  const lines = text.split("\n");
  const at = lines.findIndex((line) => line.trim().startsWith(`Figure ${n}:`));
  assert.ok(at > 0, `no Figure ${n}`);
  let i = at - 1;
  while (lines[i].trim() === "") i--;
  const block: string[] = [];
  while (i >= 0 && lines[i].trim() !== "") block.unshift(lines[i--]);
  return block.join("\n");
}

describe("RFC 7520 HS256 examples", () => {
  const file = "rfc/rfc7520_test_vectors.txt";
  const load = () => {
    const text = readFileSync(vectorPath(file) as string, "utf8");
    const jwk = JSON.parse(figure(text, 5)) as { k: string; kid: string };
    const compact = (n: number) => figure(text, n).replace(/\s+/g, "");
    const payloadSegment = compact(47).split(".")[1];
    return { text, jwk, key: fromB64url(jwk.k), compact, payload: fromB64url(payloadSegment) };
  };

  it("4.4: signJws reproduces Figure 34 and verifyJws accepts it", {
    skip: skipUnless(file),
  }, () => {
    const { jwk, key, compact, payload } = load();
    const figure34 = compact(34);
    assert.equal(signJws(payload, key, { alg: "HS256", header: { kid: jwk.kid } }), figure34);
    const result = verifyJws(figure34, key, HS256);
    assert.ok(result.ok);
    assert.deepEqual(result.payload, payload);
    assert.match(new TextDecoder().decode(result.payload), /^It’s a dangerous business, Frodo/);
    assert.deepEqual(result.header, { alg: "HS256", kid: jwk.kid });
    // The payload is text, not a JSON object: a JWT verifier refuses it after the MAC passes.
    refused(verifyJwt(figure34, key, HS256), "payload_not_json");
  });

  it("4.5: detached content (Figure 41)", { skip: skipUnless(file) }, () => {
    const { jwk, key, compact, payload } = load();
    const figure41 = compact(41);
    assert.equal(
      signJws(payload, key, { alg: "HS256", header: { kid: jwk.kid }, detached: true }),
      figure41,
    );
    assert.ok(verifyJws(figure41, key, { ...HS256, payload }).ok);
    assert.ok(
      verifyJws(figure41, key, { ...HS256, payload: new TextDecoder().decode(payload) }).ok,
    );
    refused(
      verifyJws(figure41, key, { ...HS256, payload: payload.subarray(1) }),
      "signature_mismatch",
    );
    refused(verifyJws(figure41, key, HS256), "signature_mismatch"); // read as an empty payload
    refused(verifyJws(compact(34), key, { ...HS256, payload }), "malformed"); // not detached
  });

  it('4.6: the protected header {"alg":"HS256"} gives Figure 48\'s signature', {
    skip: skipUnless(file),
  }, () => {
    const { key, compact, payload } = load();
    const token = signJws(payload, key, { alg: "HS256" });
    assert.equal(token, `${compact(47)}.${compact(48)}`);
    assert.equal(token.split(".")[0], compact(45));
    assert.ok(verifyJws(token, key, HS256).ok);
  });
});

// --- Wycheproof json_web_signature_test.json -----------------------------------------------------------

interface JwsGroup {
  comment: string;
  private?: { kty?: string; alg?: string; k?: string };
  tests: { tcId: number; comment: string; jws: string; result: string; flags: string[] }[];
}

/**
 * Cases whose label this verifier does not follow, each checked for the verdict given here:
 * - 367 and 370 carry the byte-identical token of tcId 357, which is "valid"; the file labels
 *   them "invalid" (C2SP/wycheproof issue 236). keyed accepts all three.
 * - 372 and 373 have a "?" inside a base64url segment and are labelled "valid" (for libraries that
 *   skip bad characters); RFC 7515 section 2 and 5.2 say such segments fail to decode, and the
 *   MAC was made over the segments without "?". Wycheproof's own Java test lists them as
 *   expected failures. keyed refuses them.
 */
const DISPUTED: Record<number, { ok: boolean; why: string }> = {
  367: { ok: true, why: "same token as tcId 357 (valid)" },
  370: { ok: true, why: "same token as tcId 357 (valid)" },
  372: { ok: false, why: "'?' in base64url: not base64url" },
  373: { ok: false, why: "'?' in base64url: not base64url" },
};

describe("Wycheproof JWS", () => {
  const path = "wycheproof/json_web_signature_test.json";
  it("json_web_signature_test.json: HS256 groups give the file's verdict; other groups are refused", {
    skip: skipUnless(path),
  }, (t) => {
    const data = readVectorJson<{ numberOfTests: number; testGroups: JwsGroup[] }>(path);
    const isHs256 = (g: JwsGroup) => g.private?.kty === "oct" && g.private.alg === "HS256";
    const hsKeys = data.testGroups.filter(isHs256).map((g) => fromB64url(g.private?.k as string));
    const counts = {
      total: 0,
      hs256: 0,
      hs256Valid: 0,
      hs256Invalid: 0,
      disputed: 0,
      otherRefused: 0,
    };
    for (const group of data.testGroups) {
      for (const test of group.tests) {
        counts.total++;
        const id = `tcId ${test.tcId} (${group.comment}: ${test.comment})`;
        if (isHs256(group)) {
          counts.hs256++;
          const key = fromB64url(group.private?.k as string);
          const result = verifyJws(test.jws, key, HS256);
          const disputed = DISPUTED[test.tcId];
          const expected = disputed ? disputed.ok : test.result === "valid";
          if (disputed) counts.disputed++;
          else if (expected) counts.hs256Valid++;
          else counts.hs256Invalid++;
          assert.equal(result.ok, expected, `${id}: ${result.ok ? "accepted" : result.message}`);
          continue;
        }
        // RSA, EC, "none" and key-use cases: an HS256-only verifier must refuse them, whatever
        // HS256 key it holds.
        for (const key of hsKeys) {
          const result = verifyJws(test.jws, key, HS256);
          assert.equal(result.ok, false, id);
        }
        counts.otherRefused++;
      }
    }
    assert.equal(counts.total, data.numberOfTests);
    assert.equal(counts.hs256, 40);
    assert.equal(Object.keys(DISPUTED).length, counts.disputed);
    t.diagnostic(
      `${counts.total} cases: ${counts.hs256} in HS256 groups (${counts.hs256Valid} valid and ` +
        `${counts.hs256Invalid} invalid as labelled, ${counts.disputed} disputed labels checked as ` +
        `documented), ${counts.otherRefused} of other groups refused by an HS256-only verifier`,
    );
  });
});

// --- signing and verifying ---------------------------------------------------------------------------

describe("signJwt / verifyJwt", () => {
  const algs: JwsAlgorithm[] = ["HS256", "HS384", "HS512"];

  it("sign-then-verify for every algorithm, equal to a node:crypto MAC (property)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...algs),
        fc.uint8Array({ minLength: 64, maxLength: 100 }),
        fc.record({ sub: fc.string(), data: fc.jsonValue() }),
        (alg, key, claims) => {
          const token = signJwt(claims, key, { alg });
          const [h, p, s] = token.split(".");
          assert.deepEqual(JSON.parse(Buffer.from(h, "base64url").toString()), { alg, typ: "JWT" });
          assert.equal(s, macB64url(alg, key, `${h}.${p}`));
          const result = verifyJwt(token, key, { algorithms: [alg] });
          assert.ok(result.ok);
          assert.deepEqual(result.payload, JSON.parse(JSON.stringify(claims)));
        },
      ),
    );
  });

  it("refuses tampering anywhere in the token (property)", () => {
    const token = signJwt({ sub: "alice", admin: false }, KEY32, { alg: "HS256" });
    fc.assert(
      fc.property(fc.nat({ max: token.length - 1 }), fc.constantFrom(..."AQgw-_x"), (at, c) => {
        fc.pre(token[at] !== "." && token[at] !== c);
        const tampered = token.slice(0, at) + c + token.slice(at + 1);
        const result = verifyJwt(tampered, KEY32, HS256);
        assert.equal(result.ok, false, tampered);
      }),
    );
    refused(
      verifyJwt(
        token,
        KEY32.map((b) => b ^ 1),
        HS256,
      ),
      "signature_mismatch",
    );
  });

  it("headers: typ JWT by default, extra parameters, typ check", () => {
    const token = signJwt({ a: 1 }, KEY32, { alg: "HS256", header: { kid: "k1" } });
    const result = verifyJwt(token, KEY32, { ...HS256, typ: "application/JWT" });
    assert.ok(result.ok);
    assert.deepEqual(result.header, { alg: "HS256", typ: "JWT", kid: "k1" });
    const at = signJwt({ a: 1 }, KEY32, { alg: "HS256", header: { typ: "at+jwt" } });
    assert.ok(verifyJwt(at, KEY32, { ...HS256, typ: "at+JWT" }).ok);
    refused(verifyJwt(at, KEY32, { ...HS256, typ: "JWT" }), "typ_mismatch");
    refused(
      verifyJwt(signJws("{}", KEY32, { alg: "HS256" }), KEY32, { ...HS256, typ: "JWT" }),
      "typ_mismatch",
    );
  });
});

describe("algorithm confusion and key length (RFC 7518 3.2, RFC 8725 3.1)", () => {
  it("refuses none, other algorithms and algorithms not in the list", () => {
    const unsecured = `${b64url('{"alg":"none"}')}.${b64url('{"sub":"x"}')}.`;
    refused(verifyJwt(unsecured, KEY32, HS256), "alg_not_allowed");
    refused(verifyJwt(`${unsecured}${b64url("sig")}`, KEY32, HS256), "alg_not_allowed");
    for (const alg of ["RS256", "ES256", "PS256", "hs256", "HS256 ", "HS1", ""]) {
      refused(
        verifyJwt(handmade(JSON.stringify({ alg }), "{}", KEY32), KEY32, HS256),
        "alg_not_allowed",
      );
    }
    const hs512 = signJwt({ sub: "x" }, KEY, { alg: "HS512" });
    refused(verifyJwt(hs512, KEY, HS256), "alg_not_allowed");
    assert.ok(verifyJwt(hs512, KEY, { algorithms: ["HS256", "HS512"] }).ok);
    refused(verifyJwt(handmade('{"alg":["HS256"]}', "{}", KEY32), KEY32, HS256), "malformed");
    refused(verifyJwt(handmade("{}", "{}", KEY32), KEY32, HS256), "malformed");
  });

  it("refuses crit and unencoded payloads (RFC 7515 4.1.11, RFC 7797)", () => {
    refused(
      verifyJwt(handmade('{"alg":"HS256","crit":["exp"],"exp":1}', "{}", KEY32), KEY32, HS256),
      "crit_unsupported",
    );
    refused(
      verifyJws(handmade('{"alg":"HS256","b64":false}', "{}", KEY32), KEY32, HS256),
      "crit_unsupported",
    );
    assert.ok(verifyJws(handmade('{"alg":"HS256","b64":true}', "{}", KEY32), KEY32, HS256).ok);
  });

  it("keys must be at least the hash length: 32, 48, 64 bytes", () => {
    const sizes: [JwsAlgorithm, number][] = [
      ["HS256", 32],
      ["HS384", 48],
      ["HS512", 64],
    ];
    for (const [alg, size] of sizes) {
      const key = KEY.subarray(0, size);
      const token = signJwt({}, key, { alg });
      assert.ok(verifyJwt(token, key, { algorithms: [alg] }).ok);
      throwsKeyed(
        () => signJwt({}, key.subarray(1), { alg }),
        "KEY_TOO_SHORT",
        new RegExp(`${alg} keys must be at least ${size}`),
      );
      throwsKeyed(() => verifyJwt(token, key.subarray(1), { algorithms: [alg] }), "KEY_TOO_SHORT");
      throwsKeyed(() => signJws("x", key.subarray(1), { alg }), "KEY_TOO_SHORT");
    }
    // A verifier that allows HS512 needs a 64-byte key, even for its HS256 tokens.
    throwsKeyed(
      () =>
        verifyJwt(signJwt({}, KEY32, { alg: "HS256" }), KEY32, { algorithms: ["HS256", "HS512"] }),
      "KEY_TOO_SHORT",
      /HS512/,
    );
  });
});

describe("malformed tokens", () => {
  const token = signJwt({ sub: "x" }, KEY32, { alg: "HS256" });
  const [h, p, s] = token.split(".");
  // The last of 43 characters carries 4 bits and 2 unused ones, which must be zero (RFC 4648 3.5).
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const nonCanonical = s.slice(0, -1) + alphabet[alphabet.indexOf(s.slice(-1)) ^ 1];

  it("wrong segment counts, padding, whitespace, non-canonical base64url", () => {
    for (const bad of [
      "",
      h,
      `${h}.${p}`,
      `${h}.${p}.${s}.`,
      `${h}.${p}.${s}.${s}`,
      `${h}.${h}.${p}.${p}.${s}`, // JWE-shaped
      `${h}.${p}.${s}=`,
      `${h}=.${p}.${s}`,
      `${h}.${p}.${s} `,
      ` ${h}.${p}.${s}`,
      `${h}.${p}.${s.slice(0, 10)}+${s.slice(11)}`,
      `${h}.${p}.${nonCanonical}`,
      `.${p}.${s}`,
      `${h}.${p}.${s.slice(0, 41)}`, // 41 characters: an impossible base64url length
    ]) {
      const result = verifyJwt(bad, KEY32, HS256);
      assert.equal(result.ok, false, bad);
      assert.ok(["malformed", "signature_mismatch"].includes(result.ok ? "" : result.reason), bad);
    }
    refused(verifyJwt(`${h}.${p}.${s}=`, KEY32, HS256), "malformed");
    refused(verifyJwt(`${h}.${p}`, KEY32, HS256), "malformed");
    refused(verifyJwt(`${h}.${p}.${nonCanonical}`, KEY32, HS256), "malformed");
    refused(verifyJwt(`${h}.${p}.${s.slice(0, 41)}`, KEY32, HS256), "malformed");
    refused(verifyJwt(`${h}.${p}.`, KEY32, HS256), "signature_mismatch"); // empty signature
    refused(verifyJwt(`${h}.${p}.${s.slice(0, 40)}`, KEY32, HS256), "signature_mismatch"); // truncated to 30 bytes
  });

  it("headers and payloads that are not JSON objects", () => {
    const headerNotUtf8 = `${b64url(Uint8Array.from([0x7b, 0xff, 0x7d]))}.${p}`;
    refused(
      verifyJwt(`${headerNotUtf8}.${macB64url("HS256", KEY32, headerNotUtf8)}`, KEY32, HS256),
      "malformed",
    );
    refused(verifyJwt(handmade('["HS256"]', "{}", KEY32), KEY32, HS256), "malformed");
    refused(verifyJwt(handmade('{"alg":"HS256"', "{}", KEY32), KEY32, HS256), "malformed");
    for (const payload of ["[1]", "null", "42", '"text"', "{", "", Uint8Array.from([0xc3])]) {
      const t = handmade('{"alg":"HS256"}', payload, KEY32);
      refused(verifyJwt(t, KEY32, HS256), "payload_not_json");
      assert.ok(verifyJws(t, KEY32, HS256).ok); // a JWS payload may be anything
    }
  });

  it("a UTF-8 byte order mark before the header or payload JSON is refused (RFC 8259 8.1)", () => {
    const bom = (json: string) => Uint8Array.from([0xef, 0xbb, 0xbf, ...Buffer.from(json)]);
    refused(verifyJwt(handmade(bom('{"alg":"HS256"}'), "{}", KEY32), KEY32, HS256), "malformed");
    refused(verifyJws(handmade(bom('{"alg":"HS256"}'), "{}", KEY32), KEY32, HS256), "malformed");
    const payloadBom = handmade('{"alg":"HS256"}', bom('{"sub":"a"}'), KEY32);
    refused(verifyJwt(payloadBom, KEY32, HS256), "payload_not_json");
    assert.ok(verifyJws(payloadBom, KEY32, HS256).ok); // a JWS payload is bytes, not JSON
    assert.ok(verifyJwt(handmade('{"alg":"HS256"}', ' {"sub":"a"}', KEY32), KEY32, HS256).ok);
  });

  it("options go through the one checker: did-you-mean, the function named", () => {
    const t = handmade('{"alg":"HS256"}', "{}", KEY32);
    throwsKeyed(
      () => verifyJwt(t, KEY32, { algorithms: ["HS256"], leewaySecond: 1 } as never),
      "BAD_INPUT",
      /^verifyJwt options: unknown option "leewaySecond" \(did you mean "leewaySeconds"\?\)/,
    );
    throwsKeyed(
      () => verifyJws(t, KEY32, "HS256" as never),
      "BAD_INPUT",
      /^verifyJws options must be .*got a string of length 5/,
    );
    throwsKeyed(() => verifyJws(42 as never, KEY32, HS256), "BAD_INPUT", /got a number/);
  });
});

describe("claims (RFC 7519 4.1)", () => {
  const sign = (claims: JwtClaims) => signJwt(claims, KEY32, { alg: "HS256" });
  const at = (token: string, now: number, more: object = {}): JwtResult =>
    verifyJwt(token, KEY32, { ...HS256, now, ...more });
  const T = 1_700_000_000;

  it("exp: refused from exp on, plus the leeway", () => {
    const token = sign({ exp: T });
    assert.ok(at(token, T - 1).ok);
    assert.ok(at(token, T - 0.001).ok);
    refused(at(token, T), "expired");
    assert.ok(at(token, T + 9, { leewaySeconds: 10 }).ok);
    refused(at(token, T + 10, { leewaySeconds: 10 }), "expired");
    refused(verifyJwt(token, KEY32, HS256), "expired"); // system clock
  });

  it("nbf and iat: not before, and not issued in the future beyond the leeway", () => {
    const nbf = sign({ nbf: T });
    assert.ok(at(nbf, T).ok);
    refused(at(nbf, T - 1), "not_yet_valid");
    assert.ok(at(nbf, T - 5, { leewaySeconds: 5 }).ok);
    const iat = sign({ iat: T });
    assert.ok(at(iat, T).ok);
    refused(at(iat, T - 1), "issued_in_future");
    assert.ok(at(iat, T - 1, { leewaySeconds: 1 }).ok);
    refused(at(iat, T + 61, { maxAgeSeconds: 60 }), "expired");
    assert.ok(at(iat, T + 60, { maxAgeSeconds: 60 }).ok);
    refused(at(sign({}), T, { maxAgeSeconds: 60 }), "missing_claim");
  });

  it("registered claims of the wrong type are refused, not trusted", () => {
    for (const claims of [
      '{"exp":"9999999999"}',
      '{"nbf":null}',
      '{"iat":[1]}',
      '{"iss":1}',
      '{"sub":{}}',
      '{"aud":[1]}',
      '{"jti":true}',
    ]) {
      refused(verifyJwt(handmade('{"alg":"HS256"}', claims, KEY32), KEY32, HS256), "claim_invalid");
    }
  });

  it("requiredClaims, issuer and audience", () => {
    const token = sign({ iss: "https://issuer", aud: ["api", "web"], sub: "u1" });
    refused(at(token, T, { requiredClaims: ["exp"] }), "missing_claim");
    assert.ok(at(token, T, { requiredClaims: ["sub"], audience: "api" }).ok);
    assert.ok(at(token, T, { issuer: ["other", "https://issuer"], audience: ["web"] }).ok);
    refused(at(token, T, { issuer: "other", audience: "api" }), "issuer_mismatch");
    refused(at(token, T, { audience: "mobile" }), "audience_mismatch");
    // RFC 7519 4.1.3: a token with aud is refused by a verifier that does not name itself.
    refused(at(token, T), "audience_mismatch");
    refused(at(sign({}), T, { audience: "api" }), "audience_mismatch");
    refused(at(sign({}), T, { issuer: "https://issuer" }), "issuer_mismatch");
    assert.ok(at(sign({ aud: "api" }), T, { audience: "api" }).ok);
  });
});

describe("bad arguments", () => {
  const token = signJwt({}, KEY32, { alg: "HS256" });

  it("keys, tokens and payloads of the wrong type", () => {
    for (const [, value] of notBytes()) {
      throwsKeyed(() => verifyJwt(token, value as Uint8Array, HS256), "BAD_INPUT", /^key /);
      throwsKeyed(() => signJwt({}, value as Uint8Array, { alg: "HS256" }), "BAD_INPUT", /^key /);
      throwsKeyed(() => verifyJws(token, value as Uint8Array, HS256), "BAD_INPUT", /^key /);
    }
    for (const value of [undefined, null, 42, ["a.b.c"], new Uint8Array(3)]) {
      throwsKeyed(
        () => verifyJwt(value as never, KEY32, HS256),
        "BAD_INPUT",
        /^token must be a string/,
      );
    }
    throwsKeyed(() => signJws(42 as never, KEY32, { alg: "HS256" }), "BAD_INPUT", /^payload /);
    throwsKeyed(
      () => verifyJws(token, KEY32, { ...HS256, payload: 42 as never }),
      "BAD_INPUT",
      /options.payload/,
    );
    assert.ok(verifyJwt(token, atOffset(KEY32), HS256).ok);
    assert.ok(
      verifyJws(signJws(atOffset(Uint8Array.of(1, 2, 3)), KEY32, { alg: "HS256" }), KEY32, HS256)
        .ok,
    );
  });

  it("options: algorithms are required and checked", () => {
    throwsKeyed(() => verifyJwt(token, KEY32, undefined as never), "BAD_INPUT", /options must be/);
    throwsKeyed(() => verifyJwt(token, KEY32, {} as never), "BAD_INPUT", /options.algorithms/);
    throwsKeyed(
      () => verifyJwt(token, KEY32, { algorithms: [] }),
      "BAD_INPUT",
      /options.algorithms/,
    );
    throwsKeyed(
      () => verifyJwt(token, KEY32, { algorithms: ["none"] as never }),
      "BAD_INPUT",
      /never accepted/,
    );
    throwsKeyed(
      () => verifyJwt(token, KEY32, { algorithms: ["RS256"] as never }),
      "UNKNOWN_ALGORITHM",
    );
    throwsKeyed(() => verifyJwt(token, KEY32, { algorithms: "HS256" as never }), "BAD_INPUT");
    throwsKeyed(
      () => verifyJwt(token, KEY32, { ...HS256, leeway: 5 } as never),
      "BAD_INPUT",
      /unknown option "leeway"/,
    );
    throwsKeyed(
      () => verifyJwt(token, KEY32, { ...HS256, leewaySeconds: -1 }),
      "BAD_INPUT",
      /leewaySeconds/,
    );
    throwsKeyed(
      () => verifyJwt(token, KEY32, { ...HS256, now: Number.NaN }),
      "BAD_INPUT",
      /options.now/,
    );
    throwsKeyed(
      () => verifyJwt(token, KEY32, { ...HS256, audience: [] }),
      "BAD_INPUT",
      /options.audience/,
    );
    throwsKeyed(
      () => verifyJwt(token, KEY32, { ...HS256, typ: 1 as never }),
      "BAD_INPUT",
      /options.typ/,
    );
    throwsKeyed(
      () => verifyJws(token, KEY32, { ...HS256, exp: 1 } as never),
      "BAD_INPUT",
      /unknown option/,
    );
  });

  it("signing options and claims", () => {
    throwsKeyed(() => signJwt({}, KEY32, { alg: "none" as never }), "BAD_INPUT", /never accepted/);
    throwsKeyed(() => signJwt({}, KEY32, { alg: "RS256" as never }), "UNKNOWN_ALGORITHM");
    throwsKeyed(() => signJwt({}, KEY32, undefined as never), "BAD_INPUT", /options must be/);
    throwsKeyed(
      () => signJwt([] as never, KEY32, { alg: "HS256" }),
      "BAD_INPUT",
      /^claims must be an object/,
    );
    throwsKeyed(
      () => signJwt(null as never, KEY32, { alg: "HS256" }),
      "BAD_INPUT",
      /^claims must be an object/,
    );
    throwsKeyed(
      () => signJwt({ exp: "tomorrow" } as never, KEY32, { alg: "HS256" }),
      "BAD_INPUT",
      /exp must be a number/,
    );
    throwsKeyed(
      () => signJwt({ n: 1n }, KEY32, { alg: "HS256" }),
      "BAD_INPUT",
      /cannot be serialized/,
    );
    throwsKeyed(
      () => signJwt({}, KEY32, { alg: "HS256", header: { alg: "HS512" } }),
      "BAD_INPUT",
      /differs/,
    );
    throwsKeyed(
      () => signJwt({}, KEY32, { alg: "HS256", header: { crit: ["x"] } }),
      "BAD_INPUT",
      /crit/,
    );
    throwsKeyed(
      () => signJwt({}, KEY32, { alg: "HS256", header: [] as never }),
      "BAD_INPUT",
      /options.header/,
    );
    throwsKeyed(
      () => signJws("x", KEY32, { alg: "HS256", detached: "yes" as never }),
      "BAD_INPUT",
      /detached/,
    );
  });
});

describe("prepared verification keys", () => {
  it("caches a raw key's kernel, never serves it for changed key bytes, and clears", () => {
    clearJwtKeyCache();
    const key = new Uint8Array(32).fill(7);
    const now = 1_700_000_000;
    const token = signJwt({ sub: "a", iat: now }, key, { alg: "HS256" });
    const verify = (k: Uint8Array) => verifyJwt(token, k, { algorithms: ["HS256"], now }).ok;
    assert.equal(verify(key), true);
    assert.equal(verify(key), true);
    assert.equal(jwtKeyCacheSize(), 1, "one entry for one key, used twice");
    // The same array with other bytes is another key: refused, not matched by the cached kernel.
    key[0] ^= 1;
    assert.equal(verify(key), false);
    assert.equal(jwtKeyCacheSize(), 2);
    key[0] ^= 1;
    assert.equal(verify(key), true);
    // One algorithm's kernel never serves another's (HS384 under a 48-byte key).
    const long = new Uint8Array(48).fill(7);
    const t384 = signJwt({ sub: "a", iat: now }, long, { alg: "HS384" });
    assert.equal(verifyJwt(t384, long, { algorithms: ["HS256", "HS384"], now }).ok, true);
    assert.equal(jwtKeyCacheSize(), 3);
    for (let i = 0; i < 40; i++) verify(new Uint8Array(32).fill(i + 100));
    assert.equal(jwtKeyCacheSize(), 32, "bounded");
    clearJwtKeyCache();
    assert.equal(jwtKeyCacheSize(), 0);
    assert.equal(verify(key), true);
  });
});
