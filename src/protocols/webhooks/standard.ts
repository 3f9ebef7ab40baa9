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
import type { HmacKernel } from "../../mac/hmac.js";
import type { Keyset } from "../../safe/keyset.js";
import type { HttpRequest } from "../http/body.js";
import { assertHeaderSource, getHeader, type HeaderSource } from "../http/headers.js";
import {
  bodyBytes,
  CLOCK_OPTIONS,
  type Clock,
  clockOptions,
  decodeBase64,
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
  type StandardWebhookSigned,
  secretKernel,
  secretKernels,
  stripLimit,
  type TimestampOptions,
  type Verifier,
  verifyBatch,
  verifyOne,
  type WebhookBody,
  type WebhookRefusal,
  type WebhookResult,
  type WebhookSecret,
  type WebhookSecrets,
  withBody,
} from "./common.js";

/** The three headers of a Standard Webhooks message (a type, so that it is a HeaderSource). */
export type StandardWebhookHeaders = {
  /** The message id. */
  "webhook-id": string;
  /** Unix seconds. */
  "webhook-timestamp": string;
  /** Space-separated "v1,<base64>" entries. */
  "webhook-signature": string;
};

/** A message to sign with `signStandardWebhook`. */
export interface StandardWebhookMessage {
  /** The message id (the receiver's idempotency key); no "." (spec: signature scheme). */
  id: string;
  /** When the message is signed: a Date or whole seconds since the epoch. Default: now. */
  timestamp?: TimeInput;
  /** The body, exactly as it will be sent. */
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
  secret: WebhookSecret | Keyset,
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
  options: TimestampOptions & ReplayOptions,
): Promise<WebhookResult<StandardWebhookSigned>>;
export function verifyStandardWebhook(
  secret: WebhookSecrets,
  body: WebhookBody,
  headers: HeaderSource,
  options?: TimestampOptions,
): WebhookResult<StandardWebhookSigned>;
export function verifyStandardWebhook(
  secret: WebhookSecrets,
  body: WebhookBody,
  headers: HeaderSource,
  options?: TimestampOptions & Partial<ReplayOptions>,
): WebhookResult<StandardWebhookSigned> | Promise<WebhookResult<StandardWebhookSigned>> {
  const keys = secretKernels(secret, "standard");
  const data = bodyBytes(body);
  const clock = clockOptions(options, "verifyStandardWebhook");
  return verifyOne(standardVerifier(keys, clock), parseStandardWebhook(data, headers));
}

/** One message of a batch: the raw body and its three headers. */
export interface StandardWebhookDelivery {
  /** The raw body, exactly as received. */
  body: WebhookBody;
  /** The three headers, as `verifyStandardWebhook` takes them. */
  headers: HeaderSource;
}

/**
 * Checks a batch of messages under the same secrets: the answers `verifyStandardWebhook` gives
 * each, in order, with the tags computed for the whole batch at once. Pays for bodies under about
 * 2 KiB (docs/benchmarks.md); with a replay store, a Promise.
 */
export function verifyStandardWebhookMany(
  secret: WebhookSecrets,
  deliveries: readonly StandardWebhookDelivery[],
  options: TimestampOptions & ReplayOptions,
): Promise<WebhookResult<StandardWebhookSigned>[]>;
export function verifyStandardWebhookMany(
  secret: WebhookSecrets,
  deliveries: readonly StandardWebhookDelivery[],
  options?: TimestampOptions,
): WebhookResult<StandardWebhookSigned>[];
export function verifyStandardWebhookMany(
  secret: WebhookSecrets,
  deliveries: readonly StandardWebhookDelivery[],
  options?: TimestampOptions & Partial<ReplayOptions>,
): WebhookResult<StandardWebhookSigned>[] | Promise<WebhookResult<StandardWebhookSigned>[]> {
  const keys = secretKernels(secret, "standard");
  const verifier = standardVerifier(keys, clockOptions(options, "verifyStandardWebhookMany"));
  const parsed = parseDeliveries(deliveries, "{ body, headers }", (d: StandardWebhookDelivery) =>
    parseStandardWebhook(bodyBytes(d.body), d.headers),
  );
  return verifyBatch(verifier, parsed);
}

const standardVerifier = (keys: HmacKernel[], clock: Clock): Verifier => ({
  scheme: "standard",
  keys,
  clock,
  mismatch: "no v1 signature in webhook-signature matches.",
});

function parseStandardWebhook(data: Bytes, headers: HeaderSource): Parsed<StandardWebhookSigned> {
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
  // The message id is signed (it is in the signed content): the spec's idempotency key, and the
  // id a replay store claims.
  return {
    parts: [utf8ToBytes(`${id}.${t}.`), data],
    candidates,
    accepted: { ok: true, id, timestamp },
  };
}

/** Reads the request's raw body once and checks its Standard Webhooks headers. */
export async function verifyStandardWebhookRequest(
  secret: WebhookSecrets,
  request: HttpRequest,
  options?: RequestOptions,
): Promise<RequestResult<StandardWebhookSigned>> {
  secretKernels(secret, "standard");
  clockOptions(stripLimit(options), "verifyStandardWebhookRequest");
  const read = await readForVerify(request, options, CLOCK_OPTIONS, "verifyStandardWebhookRequest");
  if (isRefusal(read)) return read;
  return withBody(
    await verifyStandardWebhook(secret, read.body, request.headers, read.rest),
    read.body,
  );
}
