/**
 * Standard Webhooks (standardwebhooks.com, "Signature scheme"): HMAC-SHA256 of
 * `${webhook-id}.${webhook-timestamp}.${body}` under the base64 secret after "whsec_", sent as a
 * space-separated list of "v1,<base64>" entries.
 */
import { type Bytes, bytesToBase64, utf8ToBytes } from "../../core/bytes.js";
import { KeyedError } from "../../core/errors.js";
import { describeType } from "../../core/options.js";
import { isRefusal, refuse } from "../../core/result.js";
import { nowSeconds, type TimeInput, toWholeSeconds } from "../../core/time.js";
import type { HttpRequest } from "../http/body.js";
import { assertHeaderSource, getHeader, type HeaderSource } from "../http/headers.js";
import {
  anyMatches,
  bodyBytes,
  CLOCK_OPTIONS,
  checkClock,
  clockOptions,
  decodeBase64,
  headerValue,
  hmacSha256,
  parseTimestamp,
  type RequestOptions,
  type RequestResult,
  readForVerify,
  SHA256_BYTES,
  secretKernel,
  secretKernels,
  stripLimit,
  type TimestampOptions,
  type WebhookBody,
  type WebhookRefusal,
  type WebhookResult,
  type WebhookSecret,
  type WebhookSecrets,
  withBody,
} from "./common.js";

/** The three headers of a Standard Webhooks message (a type, so that it is a HeaderSource). */
export type StandardWebhookHeaders = {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
};

export interface StandardWebhookMessage {
  /** The message id (the receiver's idempotency key); no "." (spec: signature scheme). */
  id: string;
  /** When the message is signed: a Date or whole seconds since the epoch. Default: now. */
  timestamp?: TimeInput;
  body: WebhookBody;
}

/** The one value of header `name`, or a refusal when it is absent or repeated. */
function oneHeader(headers: HeaderSource, name: string): string | WebhookRefusal {
  const value = headerValue(getHeader(headers, name), `headers["${name}"]`, name);
  return value ?? refuse("missing_header", `no ${name} header.`);
}

function checkMessageId(id: string): boolean {
  return id.length > 0 && !id.includes(".");
}

/**
 * Signs a message as the Standard Webhooks spec has it: HMAC-SHA256 of `${id}.${timestamp}.${body}`
 * under the decoded secret, sent as "v1,<base64>". Returns the three headers to send.
 */
export function signStandardWebhook(
  secret: WebhookSecret,
  message: StandardWebhookMessage,
): StandardWebhookHeaders {
  const kernel = secretKernel(secret, "secret", "standard");
  if (message === null || typeof message !== "object") {
    throw new KeyedError(
      "BAD_INPUT",
      `message must be an object { id, timestamp?, body }; got ${describeType(message)}.`,
    );
  }
  const { id } = message;
  if (typeof id !== "string" || !checkMessageId(id)) {
    throw new KeyedError(
      "BAD_INPUT",
      'message.id must be a non-empty string without "." (it is "."-delimited in the signed content).',
    );
  }
  const data = bodyBytes(message.body);
  const timestamp = String(
    message.timestamp === undefined
      ? nowSeconds(undefined)
      : toWholeSeconds(message.timestamp, "message.timestamp"),
  );
  const tag = hmacSha256(kernel, [utf8ToBytes(`${id}.${timestamp}.`), data]);
  return {
    "webhook-id": id,
    "webhook-timestamp": timestamp,
    "webhook-signature": `v1,${bytesToBase64(tag)}`,
  };
}

/**
 * Checks a Standard Webhooks message: any `v1` entry of the space-separated `webhook-signature`
 * list may match (the sender signs with old and new secrets during a rotation); other versions
 * (`v1a`, asymmetric) are ignored. On success, `id` is the idempotency key to deduplicate on.
 */
export function verifyStandardWebhook(
  secret: WebhookSecrets,
  body: WebhookBody,
  headers: HeaderSource,
  options?: TimestampOptions,
): WebhookResult<{ readonly id: string; readonly timestamp: number }> {
  const keys = secretKernels(secret, "standard");
  const data = bodyBytes(body);
  const clock = clockOptions(options, "verifyStandardWebhook");
  assertHeaderSource(headers);
  const id = oneHeader(headers, "webhook-id");
  if (typeof id !== "string") return id;
  const t = oneHeader(headers, "webhook-timestamp");
  if (typeof t !== "string") return t;
  const list = oneHeader(headers, "webhook-signature");
  if (typeof list !== "string") return list;
  if (!checkMessageId(id)) {
    return refuse("malformed_header", 'webhook-id must not contain ".".');
  }
  const timestamp = parseTimestamp(t);
  if (timestamp === undefined) {
    return refuse("malformed_header", "webhook-timestamp must be unix seconds.");
  }
  const candidates: Bytes[] = [];
  let v1Entries = 0;
  for (const entry of list.split(" ")) {
    const comma = entry.indexOf(",");
    if (comma < 0 || entry.slice(0, comma) !== "v1") continue;
    v1Entries++;
    const candidate = decodeBase64(entry.slice(comma + 1), SHA256_BYTES);
    if (candidate !== undefined) candidates.push(candidate);
  }
  if (v1Entries === 0) {
    return refuse("no_supported_signature", "webhook-signature carries no v1 signature.");
  }
  if (!anyMatches(keys, [utf8ToBytes(`${id}.${t}.`), data], candidates)) {
    return refuse("signature_mismatch", "no v1 signature in webhook-signature matches.");
  }
  return checkClock(timestamp, clock) ?? { ok: true, id, timestamp };
}

/** Reads the request's raw body once and checks its Standard Webhooks headers. */
export async function verifyStandardWebhookRequest(
  secret: WebhookSecrets,
  request: HttpRequest,
  options?: RequestOptions,
): Promise<RequestResult<{ readonly id: string; readonly timestamp: number }>> {
  secretKernels(secret, "standard");
  clockOptions(stripLimit(options), "verifyStandardWebhookRequest");
  const read = await readForVerify(request, options, CLOCK_OPTIONS, "verifyStandardWebhookRequest");
  if (isRefusal(read)) return read;
  return withBody(verifyStandardWebhook(secret, read.body, request.headers, read.rest), read.body);
}
