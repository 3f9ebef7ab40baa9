/**
 * Stripe webhooks: `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`, one v1
 * per active secret while a secret is rolled (Stripe Docs, "Check the webhook signatures").
 */

import { type Bytes, bytesToHex } from "../../core/bytes.js";
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

/**
 * The `Stripe-Signature` value: "t=<unix seconds>,v1=<hex HMAC-SHA256 of `${t}.${body}`>", the
 * endpoint secret ("whsec_…") used as its UTF-8 bytes, prefix included.
 */
export function signStripe(
  secret: WebhookSecret | Keyset,
  body: WebhookBody,
  options?: SignTimestampOptions,
): string {
  const kernel = secretKernel(secret, "secret", "text");
  const data = bodyBytes(body);
  const t = String(signTimestamp(options, "signStripe"));
  return `t=${t},v1=${bytesToHex(hmacSha256(kernel, [ascii(`${t}.`), data]))}`;
}

/**
 * Checks a `Stripe-Signature` header: accepted when any `v1` signature matches under any of the
 * secrets (Stripe sends one per active secret while one is rolled) and `t` is within the
 * tolerance. Other schemes (`v0`, test-mode signatures) are ignored.
 */
export function verifyStripe(
  secret: WebhookSecrets,
  body: WebhookBody,
  header: HeaderValue,
  options: TimestampOptions & ReplayOptions,
): Promise<WebhookResult<WebhookSigned>>;
export function verifyStripe(
  secret: WebhookSecrets,
  body: WebhookBody,
  header: HeaderValue,
  options?: TimestampOptions,
): WebhookResult<WebhookSigned>;
export function verifyStripe(
  secret: WebhookSecrets,
  body: WebhookBody,
  header: HeaderValue,
  options?: TimestampOptions & Partial<ReplayOptions>,
): WebhookResult<WebhookSigned> | Promise<WebhookResult<WebhookSigned>> {
  const keys = secretKernels(secret);
  const data = bodyBytes(body);
  const clock = clockOptions(options, "verifyStripe");
  return verifyOne(stripeVerifier(keys, clock), parseStripe(data, header));
}

/** One event of a batch: the raw body and its `Stripe-Signature` value. */
export interface StripeDelivery {
  /** The raw body, exactly as received. */
  body: WebhookBody;
  /** The `Stripe-Signature` value, as `verifyStripe` takes it. */
  header: HeaderValue;
}

/**
 * Checks a batch of events under the same secrets: the answers `verifyStripe` gives each, in
 * order, with the tags computed for the whole batch at once. Pays for bodies under about 2 KiB
 * (docs/benchmarks.md); with a replay store, a Promise.
 */
export function verifyStripeMany(
  secret: WebhookSecrets,
  deliveries: readonly StripeDelivery[],
  options: TimestampOptions & ReplayOptions,
): Promise<WebhookResult<WebhookSigned>[]>;
export function verifyStripeMany(
  secret: WebhookSecrets,
  deliveries: readonly StripeDelivery[],
  options?: TimestampOptions,
): WebhookResult<WebhookSigned>[];
export function verifyStripeMany(
  secret: WebhookSecrets,
  deliveries: readonly StripeDelivery[],
  options?: TimestampOptions & Partial<ReplayOptions>,
): WebhookResult<WebhookSigned>[] | Promise<WebhookResult<WebhookSigned>[]> {
  const keys = secretKernels(secret);
  const verifier = stripeVerifier(keys, clockOptions(options, "verifyStripeMany"));
  const parsed = parseDeliveries(deliveries, "{ body, header }", (d: StripeDelivery) =>
    parseStripe(bodyBytes(d.body), d.header),
  );
  return verifyBatch(verifier, parsed);
}

const stripeVerifier = (keys: HmacKernel[], clock: Clock): Verifier => ({
  scheme: "stripe",
  keys,
  clock,
  mismatch: "no v1 signature in Stripe-Signature matches.",
});

function parseStripe(data: Bytes, header: HeaderValue): Parsed<WebhookSigned> {
  const value = headerValue(header, "header", "Stripe-Signature");
  if (value === undefined) return refuse("missing_header", "no Stripe-Signature header.");
  if (isRefusal(value)) return value;

  let t: string | undefined;
  const signatures: string[] = [];
  for (const item of value.split(",")) {
    const eq = item.indexOf("=");
    if (eq <= 0) {
      return refuse("malformed_header", 'Stripe-Signature items must be "name=value".');
    }
    const name = item.slice(0, eq).trim();
    const text = item.slice(eq + 1).trim();
    if (name === "t") {
      if (t !== undefined) return refuse("malformed_header", "Stripe-Signature has two t= items.");
      t = text;
    } else if (name === "v1") {
      signatures.push(text);
    }
  }
  const timestamp = t === undefined ? undefined : parseTimestamp(t);
  if (t === undefined || timestamp === undefined) {
    return refuse("malformed_header", "Stripe-Signature needs one t= item of unix seconds.");
  }
  if (signatures.length === 0) {
    return refuse("no_supported_signature", "Stripe-Signature carries no v1 signature.");
  }
  // An entry that is not 64 hex digits cannot match; the others may.
  const candidates = signatures
    .map((s) => decodeHex(s, SHA256_BYTES))
    .filter((c): c is Bytes => c !== undefined);
  return {
    parts: [ascii(`${t}.`), data],
    candidates,
    accepted: { ok: true, timestamp },
  };
}

/** Reads the request's raw body once and checks its `Stripe-Signature`. */
export async function verifyStripeRequest(
  secret: WebhookSecrets,
  request: HttpRequest,
  options?: RequestOptions,
): Promise<RequestResult<WebhookSigned>> {
  secretKernels(secret);
  clockOptions(stripLimit(options), "verifyStripeRequest");
  const read = await readForVerify(request, options, CLOCK_OPTIONS, "verifyStripeRequest");
  if (isRefusal(read)) return read;
  const header = getHeader(request.headers, "stripe-signature") as HeaderValue;
  return withBody(await verifyStripe(secret, read.body, header, read.rest), read.body);
}
