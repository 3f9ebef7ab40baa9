/**
 * Properties of the webhook verifiers and their request helpers, on attacker-made input:
 * (a) anything in a field the sender controls is answered with a refusal, never an exception;
 * (b) a validly signed request is accepted, and any one-byte change to a signed part is refused;
 * (c) time grows at most linearly with the size of an attacker's field.
 */
import assert from "node:assert/strict";
import { Readable } from "node:stream";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  type HeaderSource,
  type NodeRequest,
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
  type WebhookFailure,
  type WebhookRequest,
} from "../../src/protocols/webhooks.js";
import { assertLinearTime } from "../helpers.js";

const NOW = 1_700_000_000;
const GH = "gh-secret";
const STRIPE = "whsec_stripe_0123";
const SLACK = "slack-signing-secret";
const STANDARD = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const RUNS = { numRuns: 150 };
const ASYNC_RUNS = { numRuns: 40 };

const REASONS: readonly WebhookFailure[] = [
  "missing_header",
  "malformed_header",
  "no_supported_signature",
  "signature_mismatch",
  "timestamp_too_old",
  "timestamp_in_future",
  "body_too_large",
  "body_incomplete",
];

function isRefusal(result: { ok: boolean; reason?: string; message?: string }): void {
  assert.equal(result.ok, false, "an attacker's input was accepted");
  assert.ok(REASONS.includes(result.reason as WebhookFailure), String(result.reason));
  assert.equal(typeof result.message, "string");
}

// --- arbitraries ---------------------------------------------------------------------------------

const printable = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c));
const hexChar = fc.constantFrom(..."0123456789abcdefABCDEFxz ");
const b64Char = fc.constantFrom(..."ABCDEFabcdef0123456789+/= ,");
const anyText = fc.oneof(
  fc.string({ unit: "binary", maxLength: 80 }),
  fc.string({ maxLength: 80 }),
);
const digits = fc.oneof(
  fc.integer({ min: NOW - 1000, max: NOW + 1000 }).map(String),
  fc.string({ unit: fc.constantFrom(..."0123456789 .-+e"), maxLength: 20 }),
);
const hexish = fc.oneof(
  fc.string({ unit: hexChar, minLength: 60, maxLength: 68 }),
  fc.string({ unit: hexChar, maxLength: 80 }),
);
const b64ish = fc.oneof(
  fc.string({ unit: b64Char, minLength: 40, maxLength: 48 }),
  fc.uint8Array({ minLength: 30, maxLength: 34 }).map((b) => Buffer.from(b).toString("base64")),
);
const bodyArb = fc.oneof(fc.uint8Array({ maxLength: 300 }), anyText);
/** A header as frameworks give it: text, several texts, absent. */
const headerArb = (value: fc.Arbitrary<string>) =>
  fc.oneof(
    { weight: 4, arbitrary: value },
    fc.constant(undefined),
    fc.constant(null),
    fc.array(value, { maxLength: 3 }),
  );

const githubHeader = headerArb(
  fc.oneof(
    anyText,
    hexish.map((h) => `sha256=${h}`),
    fc.constant(signGitHub(GH, "other")),
  ),
);
const stripeItem = fc.oneof(
  anyText,
  fc
    .tuple(
      fc.constantFrom("t", "v1", "v0", " t", "v1 ", "T", ""),
      fc.oneof(digits, hexish, anyText),
    )
    .map(([name, value]) => `${name}=${value}`),
);
const stripeHeader = headerArb(
  fc.oneof(
    fc.array(stripeItem, { maxLength: 8 }).map((items) => items.join(",")),
    fc.constant(signStripe(STRIPE, "other", { timestamp: NOW })),
  ),
);
const slackSignature = headerArb(
  fc.oneof(
    anyText,
    fc.tuple(fc.constantFrom("v0=", "v1=", "v", ""), hexish).map(([p, h]) => p + h),
  ),
);
const slackTimestamp = fc.oneof(headerArb(fc.oneof(digits, anyText)), fc.integer({ min: 0 }));
const standardSignature = fc
  .array(
    fc.oneof(
      anyText,
      fc.tuple(fc.constantFrom("v1,", "v1a,", "v2,", "v1", ","), b64ish).map(([p, s]) => p + s),
    ),
    { maxLength: 5 },
  )
  .map((entries) => entries.join(" "));
const standardHeaders = fc
  .tuple(
    fc.record(
      {
        "webhook-id": headerArb(fc.oneof(anyText, fc.constant("msg_1"))),
        "webhook-timestamp": headerArb(fc.oneof(digits, anyText)),
        "webhook-signature": headerArb(standardSignature),
      },
      { requiredKeys: [] },
    ),
    fc.dictionary(
      fc.constantFrom("Webhook-Id", "WEBHOOK-TIMESTAMP", "webhook-Signature", "x", "get"),
      headerArb(anyText),
      { maxKeys: 2 },
    ),
  )
  .map(([known, extra]) => ({ ...extra, ...known }) as unknown as HeaderSource);

// --- request forms ----------------------------------------------------------------------------------

const nodeRequest = (body: Uint8Array | string, headers: object): WebhookRequest =>
  Object.assign(Readable.from([Buffer.from(body)]), { headers }) as unknown as NodeRequest;

/** Header values fetch accepts (no control characters); names are the schemes'. */
const fetchValue = fc.string({ unit: printable, maxLength: 120 });
const fetchRequest = (body: Uint8Array | string, headers: Record<string, string>): Request =>
  new Request("http://127.0.0.1/hook", { method: "POST", body: Buffer.from(body), headers });

// --- (a) attacker input is refused, never thrown ---------------------------------------------------

describe("(a) any attacker input is a refusal, never an exception", () => {
  it("verifyGitHub", () => {
    fc.assert(
      fc.property(bodyArb, githubHeader, (body, header) => {
        isRefusal(verifyGitHub(GH, body, header));
      }),
      RUNS,
    );
  });

  it("verifyStripe", () => {
    fc.assert(
      fc.property(bodyArb, stripeHeader, (body, header) => {
        isRefusal(verifyStripe(STRIPE, body, header, { now: NOW }));
      }),
      RUNS,
    );
  });

  it("verifySlack", () => {
    fc.assert(
      fc.property(bodyArb, slackSignature, slackTimestamp, (body, signature, timestamp) => {
        isRefusal(verifySlack(SLACK, body, { signature, timestamp }, { now: NOW }));
      }),
      RUNS,
    );
  });

  it("verifyStandardWebhook, headers as an object and as fetch Headers", () => {
    fc.assert(
      fc.property(bodyArb, standardHeaders, (body, headers) => {
        isRefusal(verifyStandardWebhook(STANDARD, body, headers, { now: NOW }));
      }),
      RUNS,
    );
    fc.assert(
      fc.property(bodyArb, fetchValue, fetchValue, fetchValue, (body, id, t, signature) => {
        const headers = new Headers({
          "webhook-id": id,
          "webhook-timestamp": t,
          "webhook-signature": signature,
        });
        isRefusal(verifyStandardWebhook(STANDARD, body, headers, { now: NOW }));
      }),
      RUNS,
    );
  });

  it("the request helpers, on node requests (any header values, arrays included)", async () => {
    await fc.assert(
      fc.asyncProperty(
        bodyArb,
        githubHeader,
        stripeHeader,
        slackSignature,
        headerArb(fc.oneof(digits, anyText)),
        standardHeaders,
        async (body, github, stripe, slackSig, slackTime, standard) => {
          const headers = {
            ...(standard as object),
            "x-hub-signature-256": github,
            "stripe-signature": stripe,
            "x-slack-signature": slackSig,
            "x-slack-request-timestamp": slackTime,
          };
          const now = { now: NOW };
          isRefusal(await verifyGitHubRequest(GH, nodeRequest(body, headers)));
          isRefusal(await verifyStripeRequest(STRIPE, nodeRequest(body, headers), now));
          isRefusal(await verifySlackRequest(SLACK, nodeRequest(body, headers), now));
          isRefusal(await verifyStandardWebhookRequest(STANDARD, nodeRequest(body, headers), now));
        },
      ),
      ASYNC_RUNS,
    );
  });

  it("the request helpers, on fetch Requests", async () => {
    const names = [
      "x-hub-signature-256",
      "stripe-signature",
      "x-slack-signature",
      "x-slack-request-timestamp",
      "webhook-id",
      "webhook-timestamp",
      "webhook-signature",
      "content-length",
    ];
    const headersArb = fc.dictionary(fc.constantFrom(...names), fetchValue);
    await fc.assert(
      fc.asyncProperty(bodyArb, headersArb, async (body, headers) => {
        const { "content-length": _, ...sent } = headers;
        const now = { now: NOW };
        isRefusal(await verifyGitHubRequest(GH, fetchRequest(body, sent)));
        isRefusal(await verifyStripeRequest(STRIPE, fetchRequest(body, sent), now));
        isRefusal(await verifySlackRequest(SLACK, fetchRequest(body, sent), now));
        isRefusal(await verifyStandardWebhookRequest(STANDARD, fetchRequest(body, sent), now));
        // A declared length that is false, huge or not a number: still only an answer.
        const declared = { ...sent, "x-declared": headers["content-length"] ?? "" };
        const small = { limit: 10, now: NOW };
        isRefusal(await verifyStripeRequest(STRIPE, fetchRequest(body, declared), small));
      }),
      ASYNC_RUNS,
    );
  });

  it("huge header values and huge header lists", () => {
    const huge = "v1=".padEnd(300_000, "a");
    isRefusal(verifyGitHub(GH, "x", `sha256=${"ab".repeat(150_000)}`));
    isRefusal(
      verifyGitHub(
        GH,
        "x",
        Array.from({ length: 5000 }, () => signGitHub(GH, "x")),
      ),
    );
    isRefusal(verifyStripe(STRIPE, "x", `t=${NOW},${huge}`, { now: NOW }));
    isRefusal(verifySlack(SLACK, "x", { signature: huge, timestamp: "9".repeat(300_000) }));
    const headers = {
      "webhook-id": "x".repeat(300_000),
      "webhook-timestamp": String(NOW),
      "webhook-signature": huge,
    };
    isRefusal(verifyStandardWebhook(STANDARD, "x", headers, { now: NOW }));
  });
});

// --- (b) valid input accepted, one changed byte refused --------------------------------------------

/** `text` with the character at `at` replaced by `by`; undefined when that changes nothing a
 * case-insensitive hex reader would see. */
function changeChar(text: string, at: number, by: string): string | undefined {
  const i = at % text.length;
  if (text[i].toLowerCase() === by.toLowerCase()) return undefined;
  return text.slice(0, i) + by + text.slice(i + 1);
}

function changeByte(body: Uint8Array | string, at: number, by: number): Uint8Array {
  const bytes = Uint8Array.from(Buffer.from(body));
  if (bytes.length === 0) return Uint8Array.of(by);
  bytes[at % bytes.length] ^= by;
  return bytes;
}

const secretArb = fc.oneof(
  fc.string({ minLength: 1, maxLength: 40 }),
  fc.uint8Array({ minLength: 1, maxLength: 70 }),
);
const change = fc.record({
  at: fc.nat(),
  by: fc.integer({ min: 1, max: 255 }),
  char: printable,
});
const tArb = fc.integer({ min: 0, max: 1e11 - 1 }); // seconds: keyed refuses millisecond-sized times

describe("(b) validly signed input is accepted; one changed byte is refused", () => {
  it("verifyGitHub", () => {
    fc.assert(
      fc.property(secretArb, bodyArb, change, (secret, body, { at, by, char }) => {
        const header = signGitHub(secret, body);
        assert.deepEqual(verifyGitHub(secret, body, header), { ok: true });
        assert.deepEqual(verifyGitHub(secret, body, [header]), { ok: true });
        isRefusal(verifyGitHub(secret, changeByte(body, at, by), header));
        const changed = changeChar(header, at, char);
        if (changed !== undefined) isRefusal(verifyGitHub(secret, body, changed));
      }),
      RUNS,
    );
  });

  it("verifyStripe", () => {
    fc.assert(
      fc.property(secretArb, bodyArb, tArb, change, (secret, body, t, { at, by, char }) => {
        const header = signStripe(secret, body, { timestamp: t });
        const now = { now: t };
        assert.deepEqual(verifyStripe(secret, body, header, now), { ok: true, timestamp: t });
        isRefusal(verifyStripe(secret, changeByte(body, at, by), header, now));
        const changed = changeChar(header, at, char);
        if (changed !== undefined) isRefusal(verifyStripe(secret, body, changed, now));
      }),
      RUNS,
    );
  });

  it("verifySlack", () => {
    fc.assert(
      fc.property(secretArb, bodyArb, tArb, change, (secret, body, t, { at, by, char }) => {
        const { signature, timestamp } = signSlack(secret, body, { timestamp: t });
        const now = { now: t };
        const ok = verifySlack(secret, body, { signature, timestamp }, now);
        assert.deepEqual(ok, { ok: true, timestamp: t });
        isRefusal(verifySlack(secret, changeByte(body, at, by), { signature, timestamp }, now));
        const badSignature = changeChar(signature, at, char);
        if (badSignature !== undefined) {
          isRefusal(verifySlack(secret, body, { signature: badSignature, timestamp }, now));
        }
        const badTime = changeChar(timestamp, at, char);
        if (badTime !== undefined) {
          isRefusal(verifySlack(secret, body, { signature, timestamp: badTime }, now));
        }
      }),
      RUNS,
    );
  });

  it("verifyStandardWebhook: body, id, timestamp and signature", () => {
    const idArb = fc.string({ unit: printable, minLength: 1, maxLength: 30 }).filter((id) => {
      return !id.includes(".");
    });
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        bodyArb,
        idArb,
        tArb,
        change,
        (secret, body, id, t, { at, by, char }) => {
          const headers = signStandardWebhook(secret, { id, timestamp: t, body });
          const now = { now: t };
          const ok = verifyStandardWebhook(secret, body, headers, now);
          assert.deepEqual(ok, { ok: true, id, timestamp: t });
          isRefusal(verifyStandardWebhook(secret, changeByte(body, at, by), headers, now));
          for (const name of Object.keys(headers) as (keyof typeof headers)[]) {
            const value = headers[name];
            const i = at % value.length;
            if (value[i] === char) continue; // base64 is case-sensitive: any other char is a change
            const changed = { ...headers, [name]: value.slice(0, i) + char + value.slice(i + 1) };
            isRefusal(verifyStandardWebhook(secret, body, changed, now));
          }
        },
      ),
      RUNS,
    );
  });

  it("the request helpers, node and fetch forms, return the exact body", async () => {
    await fc.assert(
      fc.asyncProperty(bodyArb, tArb, change, async (body, t, { at, by }) => {
        const now = { now: t };
        const bytes = Uint8Array.from(Buffer.from(body));
        const slack = signSlack(SLACK, body, { timestamp: t });
        const headers = {
          "x-hub-signature-256": signGitHub(GH, body),
          "stripe-signature": signStripe(STRIPE, body, { timestamp: t }),
          "x-slack-signature": slack.signature,
          "x-slack-request-timestamp": slack.timestamp,
          ...signStandardWebhook(STANDARD, { id: "msg_1", timestamp: t, body }),
        };
        for (const form of [nodeRequest, fetchRequest]) {
          const results = [
            await verifyGitHubRequest(GH, form(body, headers)),
            await verifyStripeRequest(STRIPE, form(body, headers), now),
            await verifySlackRequest(SLACK, form(body, headers), now),
            await verifyStandardWebhookRequest(STANDARD, form(body, headers), now),
          ];
          for (const result of results) {
            assert.ok(result.ok, result.ok ? "" : result.message);
            assert.deepEqual(result.body, bytes);
          }
          const changed = changeByte(body, at, by);
          isRefusal(await verifyGitHubRequest(GH, form(changed, headers)));
          isRefusal(await verifyStripeRequest(STRIPE, form(changed, headers), now));
          isRefusal(await verifySlackRequest(SLACK, form(changed, headers), now));
          isRefusal(await verifyStandardWebhookRequest(STANDARD, form(changed, headers), now));
        }
      }),
      ASYNC_RUNS,
    );
  });
});

// --- (c) linear time -----------------------------------------------------------------------------

const MB = 1024 * 1024;

/** The 10x larger case against the smaller one (1 MB by default): linear (assertLinearTime). */
function linear(name: string, make: (bytes: number) => () => unknown, size = MB): void {
  assertLinearTime(name, make(size), make(10 * size), { repeats: 4 });
}

/** `unit` repeated to about `bytes` characters, joined by `separator`. */
const repeated = (unit: string, separator: string, bytes: number) =>
  Array.from({ length: Math.ceil(bytes / (unit.length + 1)) }, () => unit).join(separator);

describe("(c) time grows at most linearly with an attacker's field", () => {
  const wrongGitHub = signGitHub(GH, "other");
  const v1 = signStripe(STRIPE, "other", { timestamp: NOW }).split(",")[1];
  const v1Standard = signStandardWebhook(STANDARD, { id: "m", timestamp: NOW, body: "x" })[
    "webhook-signature"
  ];

  it("a body (GitHub, Slack, and a fetch Request read by a request helper)", () => {
    linear("verifyGitHub body", (n) => {
      const body = new Uint8Array(n).fill(0x61);
      return () => isRefusal(verifyGitHub(GH, body, wrongGitHub));
    });
    linear("verifySlack text body", (n) => {
      const body = "é".repeat(n / 2);
      const headers = { signature: `v0=${"0".repeat(64)}`, timestamp: String(NOW) };
      return () => isRefusal(verifySlack(SLACK, body, headers, { now: NOW }));
    });
  });

  it("a header of thousands of comma- or space-separated signatures", () => {
    linear("Stripe-Signature", (n) => {
      const header = `t=${NOW},${repeated(v1, ",", n)}`;
      return () => isRefusal(verifyStripe(STRIPE, "x", header, { now: NOW }));
    });
    linear("Stripe-Signature of empty items", (n) => {
      const header = `${repeated("a=b", ",", n)},t=${NOW}`;
      return () => isRefusal(verifyStripe(STRIPE, "x", header, { now: NOW }));
    });
    linear("webhook-signature", (n) => {
      const headers = {
        "webhook-id": "m",
        "webhook-timestamp": String(NOW),
        "webhook-signature": repeated(v1Standard, " ", n),
      };
      return () => isRefusal(verifyStandardWebhook(STANDARD, "y", headers, { now: NOW }));
    });
  });

  it("under the 64 KiB header cap, thousands of signatures parse in linear time", () => {
    const cap = 6400; // 6.4 KB and 64 KB
    linear(
      "Stripe-Signature under the cap",
      (n) => {
        const header = `t=${NOW},${repeated(v1, ",", n)}`;
        return () => isRefusal(verifyStripe(STRIPE, "x", header, { now: NOW }));
      },
      cap,
    );
    linear(
      "webhook-signature under the cap",
      (n) => {
        const headers = {
          "webhook-id": "m",
          "webhook-timestamp": String(NOW),
          "webhook-signature": repeated(v1Standard, " ", n),
        };
        return () => isRefusal(verifyStandardWebhook(STANDARD, "y", headers, { now: NOW }));
      },
      cap,
    );
  });

  it("a huge single value (signature, timestamp, id)", () => {
    linear("X-Slack-Request-Timestamp", (n) => {
      const headers = { signature: `v0=${"0".repeat(64)}`, timestamp: "1".repeat(n) };
      return () => isRefusal(verifySlack(SLACK, "x", headers, { now: NOW }));
    });
    linear("X-Hub-Signature-256", (n) => {
      const header = `sha256=${"a".repeat(n)}`;
      return () => isRefusal(verifyGitHub(GH, "x", header));
    });
    linear("webhook-id", (n) => {
      const headers = {
        "webhook-id": "i".repeat(n),
        "webhook-timestamp": String(NOW),
        "webhook-signature": v1Standard,
      };
      return () => isRefusal(verifyStandardWebhook(STANDARD, "y", headers, { now: NOW }));
    });
  });
});
