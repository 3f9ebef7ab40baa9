/**
 * The webhook verifiers' parsing rules at their edges: Stripe-Signature items with no name or with
 * spaces, Standard Webhooks entries without a version, Slack's headers argument, the future-clock
 * refusal, and the request helpers' body limit for every scheme; with a replay store, how long a
 * claim lasts and which tag names a message.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  signGitHub,
  signSlack,
  signStandardWebhook,
  signStripe,
  verifyGitHub,
  verifyGitHubRequest,
  verifySlack,
  verifySlackRequest,
  verifyStandardWebhook,
  verifyStandardWebhookRequest,
  verifyStripe,
  verifyStripeRequest,
  type WebhookResult,
} from "../../src/protocols/webhooks.js";
import { MemoryReplayStore } from "../../src/safe/store.js";
import { throwsKeyed } from "../helpers.js";

const NOW = 1_700_000_000;
const body = '{"id":1}';

function reasonOf(result: WebhookResult): string {
  return result.ok ? "ok" : result.reason;
}

describe("verifyStripe: the items of Stripe-Signature", () => {
  const header = signStripe("whsec_x", body, { timestamp: NOW });
  const [t, v1] = header.split(",");

  it("an item with an empty name is malformed, even beside a good signature", () => {
    assert.equal(reasonOf(verifyStripe("whsec_x", body, header, { now: NOW })), "ok");
    assert.equal(
      reasonOf(verifyStripe("whsec_x", body, `${header},=x`, { now: NOW })),
      "malformed_header",
    );
  });
  it("spaces around names and values are trimmed", () => {
    const [tName, tValue] = t.split("=");
    const spaced = ` ${tName} = ${tValue} , ${v1} `;
    assert.deepEqual(verifyStripe("whsec_x", body, spaced, { now: NOW }), {
      ok: true,
      timestamp: NOW,
    });
  });
  it("a request dated in the future says by how much", () => {
    const r = verifyStripe("whsec_x", body, header, { now: NOW - 301 });
    assert.equal(reasonOf(r), "timestamp_in_future");
    assert.match(r.ok ? "" : r.message, /(?<!-)\b301 s\b/);
  });
});

describe("verifyStandardWebhook: the entries of webhook-signature", () => {
  const key = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  const headers = signStandardWebhook(key, { id: "msg_1", timestamp: NOW, body });

  it("an entry without a comma has no version: not a v1 signature", () => {
    const verify = (signature: string) =>
      reasonOf(
        verifyStandardWebhook(
          key,
          body,
          { ...headers, "webhook-signature": signature },
          {
            now: NOW,
          },
        ),
      );
    // Without a comma an entry has no version, whatever it starts with.
    for (const signature of ["v1a", headers["webhook-signature"].replace(",", "")]) {
      assert.equal(verify(signature), "no_supported_signature", signature);
    }
    assert.equal(verify(`v1a ${headers["webhook-signature"]}`), "ok");
  });
});

describe("verifySlack: the headers argument", () => {
  it("must be an object", () => {
    for (const headers of ["v0=00", 1, undefined]) {
      throwsKeyed(() => verifySlack("s", body, headers as never), "BAD_INPUT");
    }
  });
});

describe("the request helpers refuse a body over the limit, for every scheme", () => {
  const post = (headers: Record<string, string>) =>
    new Request("http://127.0.0.1/hook", { method: "POST", body, headers });
  const limit = body.length - 1;

  it("Stripe", async () => {
    const headers = { "stripe-signature": signStripe("whsec_x", body, { timestamp: NOW }) };
    const options = { now: NOW };
    assert.equal(reasonOf(await verifyStripeRequest("whsec_x", post(headers), options)), "ok");
    const r = await verifyStripeRequest("whsec_x", post(headers), { ...options, limit });
    assert.equal(reasonOf(r), "body_too_large");
  });
  it("Slack", async () => {
    const s = signSlack("s", body, { timestamp: NOW });
    const headers = { "x-slack-signature": s.signature, "x-slack-request-timestamp": s.timestamp };
    assert.equal(reasonOf(await verifySlackRequest("s", post(headers), { now: NOW })), "ok");
    const r = await verifySlackRequest("s", post(headers), { now: NOW, limit });
    assert.equal(reasonOf(r), "body_too_large");
  });
  it("Standard Webhooks", async () => {
    const key = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const headers = signStandardWebhook(key, { id: "msg_1", timestamp: NOW, body });
    const ok = await verifyStandardWebhookRequest(key, post(headers), { now: NOW });
    assert.equal(reasonOf(ok), "ok");
    const r = await verifyStandardWebhookRequest(key, post(headers), { now: NOW, limit });
    assert.equal(reasonOf(r), "body_too_large");
  });
});

describe("with a replay store", () => {
  // The real clock: a memory store's epoch starts when it is made.
  const T = Math.floor(Date.now() / 1000);
  const reasonAt = async (result: WebhookResult | Promise<WebhookResult>) => reasonOf(await result);

  it("GitHub: a claim lasts replaySeconds from now, at least 1 s", async () => {
    const store = new MemoryReplayStore();
    const header = signGitHub("s", body);
    const at = (now: number) =>
      reasonAt(verifyGitHub("s", body, header, { now, replayStore: store, replaySeconds: 10 }));
    assert.equal(await at(T), "ok");
    assert.equal(await at(T + 5), "replayed");
    assert.equal(await at(T + 12), "ok"); // the claim of T has expired
  });
  it("GitHub: the id is the tag under the first secret, whichever secret signed", async () => {
    const store = new MemoryReplayStore();
    const header = signGitHub("a", body);
    const verify = (secrets: string[], h = header, b = body) =>
      reasonAt(verifyGitHub(secrets, b, h, { now: T, replayStore: store }));
    assert.equal(await verify(["a", "b"]), "ok");
    assert.equal(await verify(["a", "c"]), "replayed"); // b retired: still the same message
    const other = '{"id":2}';
    assert.equal(await verify(["a", "b"], signGitHub("a", other), other), "ok");
  });
  it("the timestamped schemes claim until the tolerance runs out", async () => {
    const store = new MemoryReplayStore();
    const o = { now: T, replayStore: store };
    const stripe = () =>
      reasonAt(verifyStripe("whsec_x", body, signStripe("whsec_x", body, { timestamp: T }), o));
    const s = signSlack("s", body, { timestamp: T });
    const slack = () => reasonAt(verifySlack("s", body, s, o));
    const key = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const headers = signStandardWebhook(key, { id: "msg_1", timestamp: T, body });
    const standard = () => reasonAt(verifyStandardWebhook(key, body, headers, o));
    for (const verify of [stripe, slack, standard]) {
      assert.equal(await verify(), "ok");
      assert.equal(await verify(), "replayed");
    }
  });
  it("a bad replayStore throws before the request body is read", async () => {
    const request = new Request("http://127.0.0.1/hook", { method: "POST", body });
    await assert.rejects(verifyGitHubRequest("s", request, { replayStore: 5 as never }), {
      code: "BAD_INPUT",
    });
    assert.equal(request.bodyUsed, false);
  });
});
