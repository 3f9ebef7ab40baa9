/**
 * Slack request signing: `X-Slack-Signature: v0=<hex HMAC-SHA256 of "v0:timestamp:body">` with
 * `X-Slack-Request-Timestamp` (Slack API, "Verifying requests from Slack").
 */
import { bytesToHex } from "../../core/bytes.js";
import { KeyedError } from "../../core/errors.js";
import { describeType } from "../../core/options.js";
import { isRefusal, refuse } from "../../core/result.js";
import type { HttpRequest } from "../http/body.js";
import { getHeader, type HeaderValue } from "../http/headers.js";
import {
  anyMatches,
  ascii,
  bodyBytes,
  CLOCK_OPTIONS,
  checkClock,
  clockOptions,
  decodeHex,
  headerValue,
  hmacSha256,
  parseTimestamp,
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
  type WebhookBody,
  type WebhookResult,
  type WebhookSecret,
  type WebhookSecrets,
  withBody,
} from "./common.js";

/** The `X-Slack-Signature` and `X-Slack-Request-Timestamp` header values. */
export interface SlackSignature {
  signature: string;
  timestamp: string;
}

/** What `verifySlack` reads: the two headers' values (null or undefined when absent). */
export interface SlackHeaders {
  signature: HeaderValue;
  timestamp: HeaderValue | number;
}

/** Slack's v0 scheme: "v0=" and the hex HMAC-SHA256 of `v0:${timestamp}:${body}`. */
export function signSlack(
  secret: WebhookSecret,
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
  options?: TimestampOptions,
): WebhookResult<{ readonly timestamp: number }> {
  const keys = secretKernels(secret);
  const data = bodyBytes(body);
  const clock = clockOptions(options, "verifySlack");
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
  if (!anyMatches(keys, [ascii(`v0:${t}:`), data], [candidate])) {
    return refuse("signature_mismatch", "the X-Slack-Signature signature does not match.");
  }
  return checkClock(timestamp, clock) ?? { ok: true, timestamp };
}

/** Reads the request's raw body once and checks its Slack signature headers. */
export async function verifySlackRequest(
  secret: WebhookSecrets,
  request: HttpRequest,
  options?: RequestOptions,
): Promise<RequestResult<{ readonly timestamp: number }>> {
  secretKernels(secret);
  clockOptions(stripLimit(options), "verifySlackRequest");
  const read = await readForVerify(request, options, CLOCK_OPTIONS, "verifySlackRequest");
  if (isRefusal(read)) return read;
  const headers = request.headers;
  const slack = {
    signature: getHeader(headers, "x-slack-signature") as HeaderValue,
    timestamp: getHeader(headers, "x-slack-request-timestamp") as HeaderValue,
  };
  return withBody(verifySlack(secret, read.body, slack, read.rest), read.body);
}
