/**
 * Regression tests for the adversarial review of SigV4 (issue "Assurance"): items 1 (attacker
 * fields throw), 2 (unsigned x-amz-* headers accepted), 5 (bodyAuthenticated) and 10 (unknown
 * option names ignored). Each test failed before its fix.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  presignUrl,
  type SigV4Request,
  type SigV4VerifyOptions,
  signRequest,
  verifyRequest,
} from "../../src/protocols/sigv4.js";
import { throwsKeyed } from "../helpers.js";
import { refusal } from "./sigv4-refusals.js";

const SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
const DATE = new Date(Date.UTC(2015, 7, 30, 12, 36, 0));
const SIGN = {
  accessKeyId: "AKIDEXAMPLE",
  secretAccessKey: SECRET,
  region: "us-east-1",
  service: "s3",
  date: DATE,
};
const VERIFY: SigV4VerifyOptions = {
  secretAccessKey: SECRET,
  region: "us-east-1",
  service: "s3",
  now: DATE,
};

/** What a plain node:http server does: the URL from the Host header and the request target. */
function fromNodeServer(host: string, target: string, headers: Record<string, string>) {
  return { method: "GET", url: `https://${host}${target}`, headers: { ...headers, host } };
}

function refused(request: unknown, options: unknown = VERIFY): string {
  const verdict = verifyRequest(request as SigV4Request, options as SigV4VerifyOptions);
  assert.equal(verdict.ok, false, JSON.stringify(verdict));
  return verdict.ok ? "" : verdict.message;
}

describe("SigV4 review 1: attacker fields are refused, never thrown", () => {
  const signed = signRequest({ method: "GET", url: "https://api.example.com/o" }, SIGN);

  for (const host of ["a@api.example.com", "api.example.com:99999", "[zz]", "", "h:x", "h\u0000"]) {
    it(`Host ${JSON.stringify(host)}`, () => {
      assert.match(refused(fromNodeServer(host, "/o", signed.headers)), /malformed/);
    });
  }

  it("a URL with a control character or a lone surrogate, and a URL that is not one", () => {
    for (const url of ["https://h/\n", "https://h/\uD800", "nope", "ftp://h/", ""]) {
      assert.match(refused({ method: "GET", url, headers: signed.headers }), /malformed/, url);
    }
  });

  it("a header value with a control character, a bad header name, a bad method", () => {
    const h = signed.headers;
    assert.match(refused({ method: "GET", url: "https://h/", headers: { ...h, x: "a\rb" } }), /./);
    assert.match(
      refused({ method: "GET", url: "https://h/", headers: { ...h, x: ["a", "\n"] } }),
      /./,
    );
    assert.match(refused({ method: "GET", url: "https://h/", headers: { ...h, "a b": "1" } }), /./);
    assert.match(refused({ method: "GE T", url: "https://h/", headers: h }), /./);
    assert.match(refused({ method: "GET", url: "https://h/", headers: [["", "x"]] }), /./);
  });

  it("HTTP/2 pseudo-headers: :authority stands for Host, the others are ignored", () => {
    const url = "https://api.example.com/o";
    const { host: _host, ...rest } = signed.headers;
    const h2 = { ...rest, ":authority": "api.example.com", ":method": "GET", ":path": "/o" };
    const verdict = verifyRequest({ method: "GET", url, headers: h2 }, VERIFY);
    assert.equal(verdict.ok, true, JSON.stringify(verdict));
    // A Host that differs from :authority is malformed (RFC 9113 8.3.1).
    assert.match(
      refused({ method: "GET", url, headers: { ...h2, host: "evil.example.com" } }),
      /:authority/,
    );
    // And a wrong :authority does not pass for the signed host.
    refused({ method: "GET", url, headers: { ...rest, ":authority": "evil.example.com" } });
  });

  it("a secret lookup that answers null or undefined: unknown access key id", () => {
    const request = { method: "GET", url: "https://api.example.com/o", headers: signed.headers };
    for (const answer of [null, undefined]) {
      const options = { ...VERIFY, secretAccessKey: () => answer as never };
      assert.equal(refused(request, options), "unknown access key id");
    }
  });
});

describe("SigV4 review 2: present but unsigned x-amz-* headers", () => {
  const request = { method: "PUT", url: "https://b.s3.amazonaws.com/o", body: "x" };
  const signed = signRequest(request, SIGN);

  it("x-amz-acl added after signing is refused", () => {
    assert.equal(signed.signedHeaders, "host;x-amz-content-sha256;x-amz-date");
    const headers = { ...signed.headers, "x-amz-acl": "public-read" };
    assert.equal(verifyRequest({ ...request, headers: signed.headers }, VERIFY).ok, true);
    assert.deepEqual(
      verifyRequest({ ...request, headers }, VERIFY),
      refusal("the header x-amz-acl is not signed"),
    );
  });

  it("unless the server tolerates it by name", () => {
    const headers = { ...signed.headers, "X-Amz-Acl": "public-read" };
    const options = { ...VERIFY, allowUnsignedHeaders: ["X-Amz-ACL"] };
    assert.equal(verifyRequest({ ...request, headers }, options).ok, true);
    throwsKeyed(
      () => verifyRequest(request, { ...VERIFY, allowUnsignedHeaders: "x-amz-acl" as never }),
      "BAD_INPUT",
      /allowUnsignedHeaders/,
    );
    throwsKeyed(
      () => verifyRequest(request, { ...VERIFY, allowUnsignedHeaders: ["a b"] }),
      "BAD_INPUT",
      /allowUnsignedHeaders/,
    );
  });

  it("presigned URLs too", () => {
    const { url } = presignUrl(
      { method: "GET", url: "https://b.s3.amazonaws.com/o" },
      {
        ...SIGN,
        expiresIn: 60,
      },
    );
    assert.equal(verifyRequest({ method: "GET", url }, VERIFY).ok, true);
    assert.equal(
      refused({ method: "GET", url, headers: { "x-amz-acl": "public-read" } }),
      "the header x-amz-acl is not signed",
    );
  });
});

describe("SigV4 review 5: bodyAuthenticated", () => {
  it("true when the signature covers the body's hash, false otherwise", () => {
    const request = { method: "PUT", url: "https://b.s3.amazonaws.com/o", body: "x" };
    const signed = signRequest(request, SIGN);
    const body = (r: SigV4Request, o: SigV4VerifyOptions = VERIFY) => {
      const verdict = verifyRequest(r, o);
      assert.equal(verdict.ok, true, JSON.stringify(verdict));
      return verdict.ok && verdict.bodyAuthenticated;
    };
    assert.equal(body({ ...request, headers: signed.headers }), true);
    const unsigned = signRequest(request, { ...SIGN, signBody: false });
    const allow = { ...VERIFY, allowUnsignedPayload: true };
    assert.equal(body({ ...request, headers: unsigned.headers }, allow), false);
    // S3 presigned: UNSIGNED-PAYLOAD, any body verifies, and the result says so.
    const { url } = presignUrl({ method: "PUT", url: request.url }, { ...SIGN, expiresIn: 60 });
    assert.equal(body({ method: "PUT", url, body: "anything" }), false);
    // Other services hash the body into a presigned URL.
    const service = { ...SIGN, service: "execute-api", expiresIn: 60 };
    const hashed = presignUrl({ method: "PUT", url: request.url, body: "x" }, service);
    assert.equal(
      body({ method: "PUT", url: hashed.url, body: "x" }, { ...VERIFY, service: "execute-api" }),
      true,
    );
  });
});

describe("SigV4 review 10: unknown option names are refused", () => {
  const request = { method: "GET", url: "https://h/o" };
  it("verifyRequest: accesKeyId is not silently ignored", () => {
    const signed = signRequest(request, { ...SIGN, accessKeyId: "OTHER" });
    throwsKeyed(
      () =>
        verifyRequest({ ...request, headers: signed.headers }, {
          ...VERIFY,
          accesKeyId: "AKIDEXAMPLE",
        } as never),
      "BAD_INPUT",
      /unknown option "accesKeyId" \(did you mean "accessKeyId"\?\)/,
    );
  });
  it("signRequest: signbody; presignUrl: expiresin, contentSha256Header", () => {
    throwsKeyed(
      () => signRequest(request, { ...SIGN, signbody: false } as never),
      "BAD_INPUT",
      /unknown option "signbody" \(did you mean "signBody"\?\)/,
    );
    throwsKeyed(
      () => presignUrl(request, { ...SIGN, expiresIn: 60, expiresin: 60 } as never),
      "BAD_INPUT",
      /did you mean "expiresIn"/,
    );
    throwsKeyed(
      () => presignUrl(request, { ...SIGN, expiresIn: 60, contentSha256Header: true } as never),
      "BAD_INPUT",
      /unknown option "contentSha256Header"/,
    );
  });
});
