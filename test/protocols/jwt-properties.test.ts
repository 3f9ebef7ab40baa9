/**
 * Properties of verifyJws and verifyJwt on attacker-made tokens: (a) a token of any shape is a
 * refusal, never an exception; (b) a validly made token is accepted, and any one changed character
 * (of header, payload or signature) is refused; (c) time grows at most linearly with its size.
 */
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  type JwsAlgorithm,
  signJws,
  signJwt,
  verifyJws,
  verifyJwt,
} from "../../src/protocols/jwt.js";
import { assertLinearTime } from "../helpers.js";

const KEY = Uint8Array.from({ length: 64 }, (_, i) => i * 13 + 5);
const ALL = { algorithms: ["HS256", "HS384", "HS512"] as JwsAlgorithm[] };
const NOW = 1_700_000_000;
const RUNS = { numRuns: Number(process.env.RUNS ?? 200) };
const REASONS = [
  "malformed",
  "alg_not_allowed",
  "crit_unsupported",
  "typ_mismatch",
  "signature_mismatch",
  "payload_not_json",
  "claim_invalid",
  "missing_claim",
  "expired",
  "not_yet_valid",
  "issued_in_future",
  "issuer_mismatch",
  "audience_mismatch",
];

function isRefusal(result: { ok: boolean; reason?: string; message?: string }): void {
  assert.equal(result.ok, false, "an attacker's token was accepted");
  assert.ok(REASONS.includes(result.reason as string), String(result.reason));
  assert.equal(typeof result.message, "string");
}

const b64url = (data: string | Uint8Array) => Buffer.from(data).toString("base64url");

// --- (a) ------------------------------------------------------------------------------------------

const jsonText = fc.oneof(
  fc.json(),
  fc
    .record(
      {
        alg: fc.oneof(fc.constantFrom("HS256", "HS384", "HS512", "none", "RS256"), fc.jsonValue()),
        typ: fc.oneof(fc.constantFrom("JWT", "at+jwt"), fc.jsonValue()),
        crit: fc.jsonValue(),
        b64: fc.jsonValue(),
      },
      { requiredKeys: [] },
    )
    .map((o) => JSON.stringify(o)),
);
/** A segment: base64url of JSON, of bytes, or text that need not be base64url at all. */
const segment = fc.oneof(
  jsonText.map((json) => b64url(json)),
  jsonText.map((json) => b64url(`\ufeff${json}`)),
  fc.uint8Array({ maxLength: 80 }).map(b64url),
  fc.uint8Array({ maxLength: 80 }).map((b) => Buffer.from(b).toString("base64")),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
);
const tokenArb = fc.oneof(
  fc.tuple(segment, segment, segment).map((parts) => parts.join(".")),
  fc.array(segment, { maxLength: 6 }).map((parts) => parts.join(".")),
  fc.string({ unit: "binary", maxLength: 200 }),
);
const optionsArb = fc.record(
  {
    typ: fc.constantFrom("JWT", "at+jwt"),
    payload: fc.oneof(fc.string(), fc.uint8Array({ maxLength: 20 })),
  },
  { requiredKeys: [] },
);

describe("(a) a token of any shape is a refusal, never an exception", () => {
  it("verifyJws and verifyJwt", () => {
    fc.assert(
      fc.property(tokenArb, optionsArb, (token, options) => {
        isRefusal(verifyJws(token, KEY, { ...ALL, ...options }));
        const { payload: _, ...jwtOptions } = options;
        isRefusal(verifyJwt(token, KEY, { ...ALL, ...jwtOptions, now: NOW, audience: "me" }));
      }),
      RUNS,
    );
  });

  it("a valid MAC over attacker-chosen header and payload JSON: refused or a JSON object", () => {
    // The attacker cannot make the MAC; this checks the parsing after it under every input shape.
    fc.assert(
      fc.property(jsonText, jsonText, fc.constantFrom("HS256", "HS384", "HS512"), (h, p, alg) => {
        const input = `${b64url(h)}.${b64url(p)}`;
        const hash = { HS256: "sha256", HS384: "sha384", HS512: "sha512" }[alg];
        const token = `${input}.${createHmac(hash, KEY).update(input).digest("base64url")}`;
        const jws = verifyJws(token, KEY, ALL);
        if (!jws.ok) isRefusal(jws);
        const jwt = verifyJwt(token, KEY, { ...ALL, now: NOW });
        if (!jwt.ok) isRefusal(jwt);
        else assert.ok(typeof jwt.payload === "object" && !Array.isArray(jwt.payload));
      }),
      RUNS,
    );
  });
});

// --- (b) ------------------------------------------------------------------------------------------

const claimsArb = fc.record(
  {
    sub: fc.string(),
    iss: fc.string(),
    exp: fc.integer({ min: NOW + 1, max: NOW + 10_000 }),
    nbf: fc.integer({ min: NOW - 10_000, max: NOW }),
    iat: fc.integer({ min: NOW - 10_000, max: NOW }),
    data: fc.jsonValue(),
  },
  { requiredKeys: [] },
);
const algArb = fc.constantFrom<JwsAlgorithm>("HS256", "HS384", "HS512");
const replacement = fc.constantFrom(..."AQgw-_azZ09.=+/ \u00e9");

function changeChar(token: string, at: number, by: string): string | undefined {
  const i = at % token.length;
  return token[i] === by ? undefined : token.slice(0, i) + by + token.slice(i + 1);
}

describe("(b) a validly made token is accepted; one changed character is refused", () => {
  it("verifyJwt", () => {
    fc.assert(
      fc.property(claimsArb, algArb, fc.nat(), replacement, (claims, alg, at, by) => {
        const token = signJwt(claims, KEY, { alg });
        const ok = verifyJwt(token, KEY, { algorithms: [alg], now: NOW });
        assert.ok(ok.ok, ok.ok ? "" : ok.message);
        assert.deepEqual(ok.payload, JSON.parse(JSON.stringify(claims)));
        const changed = changeChar(token, at, by);
        if (changed !== undefined) isRefusal(verifyJwt(changed, KEY, { ...ALL, now: NOW }));
      }),
      RUNS,
    );
  });

  it("verifyJws, attached and detached", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 200 }),
        algArb,
        fc.nat(),
        replacement,
        (p, alg, at, by) => {
          const token = signJws(p, KEY, { alg });
          const ok = verifyJws(token, KEY, { algorithms: [alg] });
          assert.ok(ok.ok);
          assert.deepEqual(ok.payload, p);
          const changed = changeChar(token, at, by);
          if (changed !== undefined) isRefusal(verifyJws(changed, KEY, ALL));
          const detached = signJws(p, KEY, { alg, detached: true });
          assert.ok(verifyJws(detached, KEY, { algorithms: [alg], payload: p }).ok);
          if (p.length > 0) {
            const other = p.slice();
            other[at % p.length] ^= 1;
            isRefusal(verifyJws(detached, KEY, { algorithms: [alg], payload: other }));
          }
        },
      ),
      RUNS,
    );
  });
});

// --- (c) ------------------------------------------------------------------------------------------

const MB = 1024 * 1024;

/** Time for a 1 MB and a 10 MB field: linear (assertLinearTime). */
function linear(name: string, make: (bytes: number) => () => unknown): void {
  assertLinearTime(name, make(MB), make(10 * MB));
}

describe("(c) time grows at most linearly with the token", () => {
  const header = b64url('{"alg":"HS256"}');
  const signature = b64url(new Uint8Array(32));
  const options = { ...ALL, now: NOW };

  it("a huge payload, header or signature segment", () => {
    linear("payload segment", (n) => {
      const token = `${header}.${"A".repeat(n)}.${signature}`;
      return () => isRefusal(verifyJwt(token, KEY, options));
    });
    linear("header segment", (n) => {
      const json = `{"alg":"HS256","x":"${"a".repeat(n)}"}`;
      const token = `${b64url(json)}.e30.${signature}`;
      return () => isRefusal(verifyJwt(token, KEY, options));
    });
    linear("signature segment", (n) => {
      const token = `${header}.e30.${"A".repeat(n)}`;
      return () => isRefusal(verifyJws(token, KEY, ALL));
    });
  });

  it("a header over 64 KiB and a signature of the wrong length are refused undecoded", () => {
    const long = `${b64url(`{"alg":"HS256","x":"${"a".repeat(49_200)}"}`)}.e30.${signature}`;
    const refusal = verifyJwt(long, KEY, options);
    assert.equal(refusal.ok ? "" : refusal.reason, "malformed");
    assert.match(refusal.ok ? "" : refusal.message, /header segment is 656\d\d characters long/);
    const wrongLength = verifyJws(`${header}.e30.${"A".repeat(44)}`, KEY, ALL);
    assert.equal(wrongLength.ok ? "" : wrongLength.reason, "signature_mismatch");
  });

  it("a token of many segments or of nested JSON", () => {
    linear("dots", (n) => {
      const token = ".".repeat(n);
      return () => isRefusal(verifyJws(token, KEY, ALL));
    });
    linear("nested header", (n) => {
      const token = `${b64url("[".repeat(n / 2))}.e30.${signature}`;
      return () => isRefusal(verifyJwt(token, KEY, options));
    });
  });
});
