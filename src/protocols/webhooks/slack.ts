/**
 * Slack request signing: `X-Slack-Signature: v0=<hex HMAC-SHA256 of "v0:timestamp:body">` with
 * `X-Slack-Request-Timestamp` (Slack API, "Verifying requests from Slack").
 */

import { type Bytes, bytesToHex } from "../../core/bytes.js";
import { KeyedError } from "../../core/errors.js";
import { describeType } from "../../core/options.js";
import { isRefusal, refuse } from "../../core/result.js";
import type { HmacKernel } from "../../mac/hmac.js";
import type { Keyset } from "../../safe/keyset.js";
import type { HttpRequest } from "../http/body.js";
import { getHeader, type HeaderValue } from "../http/headers.js";
import {
  ascii,
  bodyBytes,
  CLOCK_OPTIONS,
  type Clock,
  clockOptions,
  decodeHex,
  headerValue,
  hmacSha256,
  type Parsed,
  parseDeliveries,
  parseTimestamp,
  type ReplayOptions,
  type RequestOptions,
  type RequestResult,
  readForVerify,
  SHA256_BYTES,
  type SignTimestampOptions,
  secretKernel,
  secretKernels,
  signTimestamp,
  stripLimit,
  type TimestampOptions,
  type Verifier,
  verifyBatch,
  verifyOne,
  type WebhookBody,
  type WebhookResult,
  type WebhookSecret,
  type WebhookSecrets,
  type WebhookSigned,
  withBody,
} from "./common.js";

/** The `X-Slack-Signature` and `X-Slack-Request-Timestamp` header values. */
export interface SlackSignature {
  /** X-Slack-Signature: "v0=" and 64 hex digits. */
  signature: string;
  /** X-Slack-Request-Timestamp: unix seconds. */
  timestamp: string;
}

/** What `verifySlack` reads: the two headers' values (null or undefined when absent). */
export interface SlackHeaders {
  /** The X-Slack-Signature value. */
  signature: HeaderValue;
  /** The X-Slack-Request-Timestamp value (or the number it holds). */
  timestamp: HeaderValue | number;
}

/** Slack's v0 scheme: "v0=" and the hex HMAC-SHA256 of `v0:${timestamp}:${body}`. */
export function signSlack(
  secret: WebhookSecret | Keyset,
  body: WebhookBody,
  options?: SignTimestampOptions,
): SlackSignature {
  const kernel = secretKernel(secret, "secret", "text");
  const data = bodyBytes(body);
  const timestamp = String(signTimestamp(options, "signSlack"));
  const tag = hmacSha256(kernel, [ascii(`v0:${timestamp}:`), data]);
  return { signature: `v0=${bytesToHex(tag)}`, timestamp };
}

/** Checks Slack's `X-Slack-Signature` over the body and `X-Slack-Request-Timestamp`. */
export function verifySlack(
  secret: WebhookSecrets,
  body: WebhookBody,
  headers: SlackHeaders,
  options: TimestampOptions & ReplayOptions,
): Promise<WebhookResult<WebhookSigned>>;
export function verifySlack(
  secret: WebhookSecrets,
  body: WebhookBody,
  headers: SlackHeaders,
  options?: TimestampOptions,
): WebhookResult<WebhookSigned>;
export function verifySlack(
  secret: WebhookSecrets,
  body: WebhookBody,
  headers: SlackHeaders,
  options?: TimestampOptions & Partial<ReplayOptions>,
): WebhookResult<WebhookSigned> | Promise<WebhookResult<WebhookSigned>> {
  const keys = secretKernels(secret);
  const data = bodyBytes(body);
  const clock = clockOptions(options, "verifySlack");
  return verifyOne(slackVerifier(keys, clock), parseSlack(data, headers));
}

/** One request of a batch: the raw body and its two Slack headers. */
export interface SlackDelivery {
  /** The raw body, exactly as received. */
  body: WebhookBody;
  /** The two headers' values, as `verifySlack` takes them. */
  headers: SlackHeaders;
}

/**
 * Checks a batch of requests under the same secrets: the answers `verifySlack` gives each, in
 * order, with the tags computed for the whole batch at once. Pays for bodies under about 2 KiB
 * (docs/benchmarks.md); with a replay store, a Promise.
 */
export function verifySlackMany(
  secret: WebhookSecrets,
  deliveries: readonly SlackDelivery[],
  options: TimestampOptions & ReplayOptions,
): Promise<WebhookResult<WebhookSigned>[]>;
export function verifySlackMany(
  secret: WebhookSecrets,
  deliveries: readonly SlackDelivery[],
  options?: TimestampOptions,
): WebhookResult<WebhookSigned>[];
export function verifySlackMany(
  secret: WebhookSecrets,
  deliveries: readonly SlackDelivery[],
  options?: TimestampOptions & Partial<ReplayOptions>,
): WebhookResult<WebhookSigned>[] | Promise<WebhookResult<WebhookSigned>[]> {
  const keys = secretKernels(secret);
  const verifier = slackVerifier(keys, clockOptions(options, "verifySlackMany"));
  const parsed = parseDeliveries(deliveries, "{ body, headers }", (d: SlackDelivery) =>
    parseSlack(bodyBytes(d.body), d.headers),
  );
  return verifyBatch(verifier, parsed);
}

const slackVerifier = (keys: HmacKernel[], clock: Clock): Verifier => ({
  scheme: "slack",
  keys,
  clock,
  mismatch: "the X-Slack-Signature signature does not match.",
});

function parseSlack(data: Bytes, headers: SlackHeaders): Parsed<WebhookSigned> {
  if (headers === null || typeof headers !== "object") {
    throw new KeyedError(
      "BAD_INPUT",
      `headers must be an object { signature, timestamp } (the X-Slack-Signature and X-Slack-Request-Timestamp values); got ${describeType(headers)}.`,
    );
  }
  const signature = headerValue(headers.signature, "headers.signature", "X-Slack-Signature");
  const rawTimestamp =
    typeof headers.timestamp === "number" && Number.isSafeInteger(headers.timestamp)
      ? String(headers.timestamp)
      : headers.timestamp;
  const t = headerValue(rawTimestamp, "headers.timestamp", "X-Slack-Request-Timestamp");
  if (signature === undefined) return refuse("missing_header", "no X-Slack-Signature header.");
  if (t === undefined) return refuse("missing_header", "no X-Slack-Request-Timestamp header.");
  if (isRefusal(signature)) return signature;
  if (isRefusal(t)) return t;
  const timestamp = parseTimestamp(t);
  if (timestamp === undefined) {
    return refuse("malformed_header", "X-Slack-Request-Timestamp must be unix seconds.");
  }
  if (!signature.startsWith("v")) {
    return refuse("malformed_header", 'X-Slack-Signature must be "v0=" and 64 hex digits.');
  }
  if (!signature.startsWith("v0=")) {
    return refuse("no_supported_signature", "X-Slack-Signature is not a v0 signature.");
  }
  const candidate = decodeHex(signature.slice(3), SHA256_BYTES);
  if (candidate === undefined) {
    return refuse("malformed_header", 'X-Slack-Signature must be "v0=" and 64 hex digits.');
  }
  return {
    parts: [ascii(`v0:${t}:`), data],
    candidates: [candidate],
    accepted: { ok: true, timestamp },
  };
}

/** Reads the request's raw body once and checks its Slack signature headers. */
export async function verifySlackRequest(
  secret: WebhookSecrets,
  request: HttpRequest,
  options?: RequestOptions,
): Promise<RequestResult<WebhookSigned>> {
  secretKernels(secret);
  clockOptions(stripLimit(options), "verifySlackRequest");
  const read = await readForVerify(request, options, CLOCK_OPTIONS, "verifySlackRequest");
  if (isRefusal(read)) return read;
  const headers = request.headers;
  const slack = {
    signature: getHeader(headers, "x-slack-signature") as HeaderValue,
    timestamp: getHeader(headers, "x-slack-request-timestamp") as HeaderValue,
  };
  return withBody(await verifySlack(secret, read.body, slack, read.rest), read.body);
}
