/**
 * The protocol verifiers take what Node and fetch hand over, as they are typed: this file must
 * type-check under `strict` (npm run typecheck), and the calls must work at run time.
 */
import assert from "node:assert/strict";
import type { IncomingHttpHeaders } from "node:http";
import { describe, it } from "node:test";
import { signRequest, verifyRequest } from "../../src/protocols/sigv4.js";
import {
  signGitHub,
  signStandardWebhook,
  verifyGitHub,
  verifyStandardWebhook,
} from "../../src/protocols/webhooks.js";

const secret = "It's a Secret to Everybody";
const body = "Hello, World!";

describe("Node's IncomingHttpHeaders and fetch's Headers, as typed", () => {
  it("verifyGitHub takes req.headers[name] (string | string[] | undefined)", () => {
    const headers: IncomingHttpHeaders = { "x-hub-signature-256": signGitHub(secret, body) };
    assert.equal(verifyGitHub(secret, body, headers["x-hub-signature-256"]).ok, true);
    const several: IncomingHttpHeaders = { "x-hub-signature-256": undefined };
    assert.equal(verifyGitHub(secret, body, several["x-hub-signature-256"]).ok, false);
  });

  it("verifyStandardWebhook takes req.headers and a fetch Headers", () => {
    const key = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const signed = signStandardWebhook(key, { id: "msg_1", body, timestamp: 1_700_000_000 });
    const node: IncomingHttpHeaders = { ...signed };
    const fetchHeaders = new Headers(signed);
    for (const headers of [node, fetchHeaders]) {
      assert.equal(verifyStandardWebhook(key, body, headers, { now: 1_700_000_000 }).ok, true);
    }
  });

  it("verifyRequest takes { headers: req.headers } and a fetch Headers", () => {
    const options = { region: "us-east-1", service: "execute-api" };
    const request = { method: "POST", url: "https://api.example.com/items", body };
    const signed = signRequest(request, {
      ...options,
      date: 1_700_000_000,
      accessKeyId: "AKID",
      secretAccessKey: "secret",
    });
    const node: IncomingHttpHeaders = { ...signed.headers, "x-forwarded-for": undefined };
    for (const headers of [node, new Headers(signed.headers)]) {
      const verdict = verifyRequest(
        { ...request, headers },
        { ...options, now: 1_700_000_000, secretAccessKey: "secret" },
      );
      assert.equal(verdict.ok, true, verdict.ok ? "" : verdict.message);
    }
  });
});
