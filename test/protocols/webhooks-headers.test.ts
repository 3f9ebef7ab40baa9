/**
 * Header values as frameworks hand them over (node:http's IncomingHttpHeaders and headersDistinct,
 * Lambda's multiValueHeaders, fetch's Headers), the one option checker, and redacted printing of
 * the prepared-key cache.
 */
import assert from "node:assert/strict";
import type { IncomingHttpHeaders } from "node:http";
import { Readable } from "node:stream";
import { describe, it } from "node:test";
import { inspect } from "node:util";
import {
  type NodeRequest,
  preparedWebhookKeys,
  signGitHub,
  signSlack,
  signStandardWebhook,
  signStripe,
  verifyGitHub,
  verifyGitHubRequest,
  verifySlack,
  verifySlackRequest,
  verifyStandardWebhook,
  verifyStripe,
  verifyStripeRequest,
  type WebhookResult,
} from "../../src/protocols/webhooks.js";
import { throwsKeyed } from "../helpers.js";

const NOW = 1_700_000_000;
const body = '{"event":"ping"}';

function refused(result: WebhookResult, reason: string): void {
  assert.equal(result.ok, false, `expected a refusal (${reason})`);
  if (!result.ok) assert.equal(result.reason, reason, result.message);
}

const nodeRequest = (headers: IncomingHttpHeaders) =>
  Object.assign(Readable.from([Buffer.from(body)]), { headers }) as Readable & NodeRequest;

describe("array header values", () => {
  it("node's IncomingHttpHeaders and fetch's Headers type-check without casts", () => {
    const github = signGitHub("s", body);
    const node: IncomingHttpHeaders = { "x-hub-signature-256": github };
    assert.equal(verifyGitHub("s", body, node["x-hub-signature-256"]).ok, true);
    const fetchHeaders = new Headers({ "x-hub-signature-256": github });
    assert.equal(verifyGitHub("s", body, fetchHeaders.get("x-hub-signature-256")).ok, true);
    const standard = signStandardWebhook("whsec_AAAAAAAAAAAAAAAAAAAAAA==", {
      id: "msg_1",
      timestamp: NOW,
      body,
    });
    const distinct: NodeJS.Dict<string[]> = {
      "webhook-id": [standard["webhook-id"]],
      "webhook-timestamp": [standard["webhook-timestamp"]],
      "webhook-signature": [standard["webhook-signature"]],
    };
    for (const headers of [standard as IncomingHttpHeaders, new Headers(standard), distinct]) {
      const result = verifyStandardWebhook("whsec_AAAAAAAAAAAAAAAAAAAAAA==", body, headers, {
        now: NOW,
      });
      assert.equal(result.ok, true);
    }
    const slack = signSlack("k", body, { timestamp: NOW });
    const lambda: { [name: string]: string[] | undefined } = {
      "X-Slack-Signature": [slack.signature],
      "X-Slack-Request-Timestamp": [slack.timestamp],
    };
    const result = verifySlack(
      "k",
      body,
      { signature: lambda["X-Slack-Signature"], timestamp: lambda["X-Slack-Request-Timestamp"] },
      { now: NOW },
    );
    assert.equal(result.ok, true);
  });

  it("one value is that value; several values are a refusal, never an exception", () => {
    const stripe = signStripe("whsec_x", body, { timestamp: NOW });
    assert.equal(verifyStripe("whsec_x", body, [stripe], { now: NOW }).ok, true);
    refused(verifyStripe("whsec_x", body, [stripe, stripe], { now: NOW }), "malformed_header");
    refused(verifyStripe("whsec_x", body, [], { now: NOW }), "missing_header");
    const slack = signSlack("k", body, { timestamp: NOW });
    const twice = { signature: [slack.signature, slack.signature], timestamp: slack.timestamp };
    refused(verifySlack("k", body, twice, { now: NOW }), "malformed_header");
    const twoTimes = { signature: slack.signature, timestamp: [slack.timestamp, "1"] };
    refused(verifySlack("k", body, twoTimes, { now: NOW }), "malformed_header");
  });

  it("names that differ only in case are the header sent twice", () => {
    const secret = "whsec_AAAAAAAAAAAAAAAAAAAAAA==";
    const standard = signStandardWebhook(secret, { id: "msg_1", timestamp: NOW, body });
    const doubled = { ...standard, "Webhook-Id": "msg_2" };
    refused(verifyStandardWebhook(secret, body, doubled, { now: NOW }), "malformed_header");
  });

  it("the request helpers refuse a repeated header instead of joining it", async () => {
    const github = signGitHub("s", body);
    const one = await verifyGitHubRequest("s", nodeRequest({ "x-hub-signature-256": github }));
    assert.equal(one.ok, true);
    const multi = nodeRequest({ "x-hub-signature-256": [github, github] });
    refused(await verifyGitHubRequest("s", multi), "malformed_header");
    const stripe = signStripe("whsec_x", body, { timestamp: NOW });
    const twice = nodeRequest({ "stripe-signature": [stripe, stripe] });
    refused(await verifyStripeRequest("whsec_x", twice, { now: NOW }), "malformed_header");
    const slack = signSlack("k", body, { timestamp: NOW });
    const slackTwice = nodeRequest({
      "x-slack-signature": [slack.signature, slack.signature],
      "x-slack-request-timestamp": slack.timestamp,
    });
    refused(await verifySlackRequest("k", slackTwice, { now: NOW }), "malformed_header");
  });
});

describe("header length", () => {
  it("a value over 64 KiB is refused before it is parsed; 64 KiB is read", () => {
    const stripe = signStripe("whsec_x", body, { timestamp: NOW });
    const at = (n: number) => `${stripe},v0=${"0".repeat(n - stripe.length - 4)}`;
    assert.equal(at(65536).length, 65536);
    assert.equal(verifyStripe("whsec_x", body, at(65536), { now: NOW }).ok, true);
    const long = verifyStripe("whsec_x", body, at(65537), { now: NOW });
    refused(long, "malformed_header");
    assert.match(long.ok ? "" : long.message, /Stripe-Signature is 65537 characters long/);
  });
});

describe("options go through the one checker", () => {
  it("unknown names are BAD_INPUT naming the function, with a did-you-mean", async () => {
    const header = signStripe("whsec_x", body, { timestamp: NOW });
    throwsKeyed(
      () => verifyStripe("whsec_x", body, header, { toleranceSecond: 5 } as never),
      "BAD_INPUT",
      /^verifyStripe options: unknown option "toleranceSecond" \(did you mean "toleranceSeconds"\?\)/,
    );
    throwsKeyed(
      () => signSlack("k", body, { timestmp: NOW } as never),
      "BAD_INPUT",
      /^signSlack options: unknown option "timestmp" \(did you mean "timestamp"\?\)/,
    );
    await assert.rejects(verifyGitHubRequest("s", nodeRequest({}), { limt: 5 } as never), {
      message: /^verifyGitHubRequest options: unknown option "limt" \(did you mean "limit"\?\)/,
    });
    throwsKeyed(
      () => verifyStripe("whsec_x", body, header, "now" as never),
      "BAD_INPUT",
      /got a string of length 3/,
    );
  });
});

describe("the prepared-key cache prints redacted", () => {
  it("util.inspect and JSON.stringify show no secret byte, as text or hex", () => {
    const secret = "very-secret-webhook-key-0123";
    const bytes = Uint8Array.from({ length: 24 }, (_, i) => 0xa0 + i);
    verifyGitHub(secret, body, signGitHub(secret, body));
    verifyGitHub(bytes, body, signGitHub(bytes, body));
    assert.ok(preparedWebhookKeys.size >= 2);
    const secretHex = Buffer.from(secret).toString("hex");
    const bytesHex = Buffer.from(bytes).toString("hex");
    const printed = [
      inspect(preparedWebhookKeys, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
      inspect(preparedWebhookKeys, { customInspect: false, depth: 10, showHidden: true }),
      inspect({ cache: preparedWebhookKeys }),
      JSON.stringify(preparedWebhookKeys),
      JSON.stringify({ cache: preparedWebhookKeys }),
    ];
    for (const text of printed) {
      assert.ok(!text.includes(secret), text);
      for (const hexText of [secretHex, bytesHex]) {
        assert.ok(!text.toLowerCase().includes(hexText.slice(0, 16)), text);
      }
      assert.ok(!text.includes("160, 161, 162"), text); // the bytes as inspect prints them
    }
    assert.match(printed[0], /^PreparedWebhookKeys \{.*key: '\[redacted\]'/s);
    assert.deepEqual(JSON.parse(printed[3]), {
      size: preparedWebhookKeys.size,
      limit: 32,
      key: "[redacted]",
    });
  });

  it("clear() wipes and forgets every prepared key", () => {
    verifyGitHub("s", body, signGitHub("s", body));
    preparedWebhookKeys.clear();
    assert.equal(preparedWebhookKeys.size, 0);
    assert.equal(verifyGitHub("s", body, signGitHub("s", body)).ok, true);
  });
});
