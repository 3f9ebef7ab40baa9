/**
 * verifyRequest's parsing rules, each at the point where it refuses: the Authorization header's
 * fields, the credential, SignedHeaders, X-Amz-Date, the presigned query parameters and
 * X-Amz-Expires at its bounds, the clock skew, x-amz-content-sha256 and the signature's form.
 * Each refusal is asserted whole, reason code and message, as sigv4.test.ts does: the request is
 * changed after signing, so a rule that is skipped shows as another refusal further on (several
 * rules share the code malformed_auth, and only the message tells them apart).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  MAX_PRESIGN_SECONDS,
  presignUrl,
  type SigV4Request,
  type SigV4VerifyOptions,
  signRequest,
  verifyRequest,
} from "../../src/protocols/sigv4.js";
import { throwsKeyed } from "../helpers.js";
import { refusal } from "./sigv4-refusals.js";

const DATE = new Date(Date.UTC(2015, 7, 30, 12, 36, 0));
const SIGN = {
  accessKeyId: "AKIDEXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
  region: "us-east-1",
  service: "service",
  date: DATE,
};
const VERIFY: SigV4VerifyOptions = {
  secretAccessKey: SIGN.secretAccessKey,
  region: "us-east-1",
  service: "service",
  now: DATE,
};
const NEEDS_FIELDS =
  "the Authorization header needs Credential, SignedHeaders (sorted, lower case) and Signature";

/** "ok", or the whole refusal. */
function verdictOf(request: SigV4Request, options: SigV4VerifyOptions = VERIFY) {
  const verdict = verifyRequest(request, options);
  return verdict.ok ? "ok" : verdict;
}

describe("verifyRequest: the Authorization header", () => {
  const request = { method: "GET", url: "https://h/a", headers: { "x-amz-meta": "1" } };
  const signed = signRequest(request, SIGN);
  const withAuth = (authorization: string): SigV4Request => ({
    ...request,
    headers: { ...signed.headers, authorization },
  });
  const edited = (from: string | RegExp, to: string) =>
    verdictOf(withAuth(signed.authorization.replace(from, to)));

  it("the request as signed verifies", () => {
    assert.equal(signed.signedHeaders, "host;x-amz-date;x-amz-meta");
    assert.equal(verdictOf(withAuth(signed.authorization)), "ok");
  });
  it("two Authorization headers", () => {
    const pairs: [string, string][] = Object.entries(signed.headers);
    pairs.push(["Authorization", signed.authorization]);
    assert.deepEqual(
      verdictOf({ ...request, headers: pairs }),
      refusal("several Authorization headers"),
    );
  });
  it("a field without a name, or without =", () => {
    const malformed = "the Authorization header is malformed";
    assert.deepEqual(verdictOf(withAuth(`${signed.authorization}, =x`)), refusal(malformed));
    assert.deepEqual(verdictOf(withAuth(`${signed.authorization}, junk`)), refusal(malformed));
  });
  it("a fourth field, or Signature missing, or an empty credential part", () => {
    assert.deepEqual(
      verdictOf(withAuth(`${signed.authorization}, Foo=bar`)),
      refusal(NEEDS_FIELDS),
    );
    assert.deepEqual(edited("Signature=", "Signaturx="), refusal(NEEDS_FIELDS));
    // The access key id is not in the string to sign: an empty one must not pass.
    assert.deepEqual(edited("Credential=AKIDEXAMPLE/", "Credential=/"), refusal(NEEDS_FIELDS));
    assert.deepEqual(edited("/20150830/", "//"), refusal(NEEDS_FIELDS));
  });
  it("SignedHeaders with a name twice", () => {
    assert.deepEqual(edited("host;x-amz-date;", "host;host;x-amz-date;"), refusal(NEEDS_FIELDS));
  });
  it("SignedHeaders without x-amz-date, or with authorization", () => {
    assert.deepEqual(edited("host;x-amz-date;", "host;"), refusal("X-Amz-Date is not signed"));
    assert.deepEqual(
      edited("SignedHeaders=host;", "SignedHeaders=authorization;host;"),
      refusal("SignedHeaders lists authorization"),
    );
  });
  it("X-Amz-Date twice, or not a date", () => {
    const pairs: [string, string][] = Object.entries(signed.headers);
    pairs.push(["X-Amz-Date", signed.headers["x-amz-date"]]);
    assert.deepEqual(
      verdictOf({ ...request, headers: pairs }),
      refusal("the request needs one X-Amz-Date header"),
    );
    const badDate = { ...signed.headers, "x-amz-date": "20150830T1236Z0" };
    assert.deepEqual(
      verdictOf({ ...request, headers: badDate }),
      refusal("X-Amz-Date is not a date YYYYMMDDTHHMMSSZ"),
    );
  });
  it("a credential scope that does not end in aws4_request", () => {
    assert.deepEqual(
      edited("/aws4_request", "/aws4_requesx"),
      refusal("the credential scope does not end in aws4_request"),
    );
  });
  it("the clock skew allows a time on either side of X-Amz-Date", () => {
    const at = (seconds: number) =>
      verdictOf(withAuth(signed.authorization), {
        ...VERIFY,
        now: new Date(DATE.getTime() + seconds * 1000),
      });
    assert.equal(at(899), "ok");
    assert.equal(at(-899), "ok");
    assert.deepEqual(at(901), refusal("X-Amz-Date is too old"));
  });
  it("toleranceSeconds goes up to a day, and no further", () => {
    const later = new Date(DATE.getTime() + 86_400_000);
    const verdict = verdictOf(withAuth(signed.authorization), {
      ...VERIFY,
      toleranceSeconds: 86_400,
      now: later,
    });
    assert.equal(verdict, "ok");
    throwsKeyed(
      () => verifyRequest(withAuth(signed.authorization), { ...VERIFY, toleranceSeconds: 86_401 }),
      "BAD_INPUT",
    );
  });
  it("a signature of 65 hex digits, either end", () => {
    const form = "the signature is not 64 lower-case hex digits";
    assert.deepEqual(verdictOf(withAuth(`${signed.authorization}0`)), refusal(form));
    assert.deepEqual(edited("Signature=", "Signature=0"), refusal(form));
  });
  it("x-amz-content-sha256 that is neither a hash nor UNSIGNED-PAYLOAD", () => {
    const hashed = signRequest(request, { ...SIGN, contentSha256Header: true });
    assert.equal(verdictOf({ ...request, headers: hashed.headers }), "ok");
    const headers = { ...hashed.headers, "x-amz-content-sha256": "z".repeat(64) };
    assert.deepEqual(
      verdictOf({ ...request, headers }),
      refusal("x-amz-content-sha256 is neither a SHA-256 nor UNSIGNED-PAYLOAD"),
    );
  });
});

describe("verifyRequest: presigned URLs", () => {
  const request = { method: "GET", url: "https://h/a?x=1" };
  const presigned = presignUrl(request, { ...SIGN, expiresIn: 300 });
  const edited = (from: string | RegExp, to: string) =>
    verdictOf({ method: "GET", url: presigned.url.replace(from, to) });

  it("verifies, with its expiry", () => {
    assert.deepEqual(verifyRequest({ method: "GET", url: presigned.url }, VERIFY), {
      ok: true,
      accessKeyId: "AKIDEXAMPLE",
      signedHeaders: ["host"],
      date: DATE,
      presigned: true,
      bodyAuthenticated: true,
      expiresAt: new Date(DATE.getTime() + 300_000),
    });
  });
  it("a parameter twice, or not UTF-8", () => {
    assert.deepEqual(
      verdictOf({ method: "GET", url: `${presigned.url}&X-Amz-Date=20150830T123600Z` }),
      refusal("X-Amz-Date appears more than once"),
    );
    assert.deepEqual(
      edited(/X-Amz-Credential=[^&]*/, "X-Amz-Credential=%FF"),
      refusal("X-Amz-Credential is not UTF-8"),
    );
  });
  it("parameters whose names are not UTF-8 are not auth parameters", () => {
    const other = presignUrl(
      { method: "GET", url: "https://h/a?%FF=1&%FE=2" },
      {
        ...SIGN,
        expiresIn: 300,
      },
    );
    assert.equal(verdictOf({ method: "GET", url: other.url }), "ok");
  });
  it("another algorithm, a malformed credential, a bad date", () => {
    assert.deepEqual(
      edited("X-Amz-Algorithm=AWS4-HMAC-SHA256", "X-Amz-Algorithm=AWS4-HMAC-SHA512"),
      refusal("X-Amz-Algorithm is not AWS4-HMAC-SHA256"),
    );
    assert.deepEqual(
      edited(/X-Amz-Credential=[^&]*/, "X-Amz-Credential=AKIDEXAMPLE%2F20150830"),
      refusal("X-Amz-Credential is malformed"),
    );
    assert.deepEqual(
      edited(/X-Amz-Date=[^&]*/, "X-Amz-Date=20150830"),
      refusal("X-Amz-Date is not a date YYYYMMDDTHHMMSSZ"),
    );
  });
  it("X-Amz-Expires: whole seconds from 1 to 604800", () => {
    const bad = `X-Amz-Expires must be a whole number of seconds from 1 to ${MAX_PRESIGN_SECONDS}`;
    for (const value of ["0", "604801", "x12", "12x", "1234567", ""]) {
      assert.deepEqual(edited("X-Amz-Expires=300", `X-Amz-Expires=${value}`), refusal(bad), value);
    }
    for (const expiresIn of [1, MAX_PRESIGN_SECONDS]) {
      const { url } = presignUrl(request, { ...SIGN, expiresIn });
      assert.equal(verdictOf({ method: "GET", url }), "ok", String(expiresIn));
    }
  });
  it("X-Amz-SignedHeaders that is not lower case", () => {
    assert.deepEqual(
      edited("X-Amz-SignedHeaders=host", "X-Amz-SignedHeaders=Host"),
      refusal("X-Amz-SignedHeaders is not a sorted list of lower-case names"),
    );
  });
});
