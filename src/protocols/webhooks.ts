/**
 * Webhook signatures: GitHub, Stripe, Slack and Standard Webhooks (standardwebhooks.com), all
 * HMAC-SHA256, always checked on the raw bytes of the request body; and small adapters that read
 * those bytes once, with a size limit, from a node:http request or a fetch `Request`.
 *
 * Every verifier answers `{ ok: true, … }` or `{ ok: false, reason, message }`: a wrong, missing,
 * malformed or stale signature is an answer, never an exception. KeyedError is thrown only for
 * programming errors: arguments of the wrong type, an empty secret, a body that was already read.
 *
 * The signature is checked before the timestamp, so a `timestamp_*` reason means the request is
 * authentic but outside the tolerance (a replay or a clock problem), not a forgery.
 *
 * Webhook secrets are often shorter than keyed's 16-byte key minimum (the provider chooses them),
 * so short secrets are accepted here; an empty one never is.
 */
import {
  assertBytes,
  assertInteger,
  type Bytes,
  base64ToBytes,
  bytesToBase64,
  bytesToHex,
  concatBytes,
  hexToBytes,
  utf8ToBytes,
} from "../core/bytes.js";
import { equal } from "../core/equal.js";
import { KeyedError } from "../core/errors.js";
import { checkOptions, describeType } from "../core/options.js";
import { redactKeyMaterial } from "../core/redact.js";
import { isRefusal, type Refusal, refuse } from "../core/result.js";
import { SHA256, sha256 } from "../hash/sha256.js";
import { HmacKernel } from "../mac/hmac.js";

/** A webhook secret: text (used as its UTF-8 bytes) or raw bytes. */
export type WebhookSecret = string | Bytes;
/** One secret, or several while a secret is being rotated (any of them may match). */
export type WebhookSecrets = WebhookSecret | readonly WebhookSecret[];
/** The request body exactly as received: bytes, or the exact text (encoded as UTF-8). */
export type WebhookBody = Bytes | string;

/** Why a webhook was refused. */
export type WebhookFailure =
  /** The signature (or timestamp, or id) header is absent or empty. */
  | "missing_header"
  /** A header is there but does not have the scheme's format. */
  | "malformed_header"
  /** The signature header carries no signature of a scheme this verifier knows (v1, v0…). */
  | "no_supported_signature"
  /** No signature in the header matches the body under any of the secrets. */
  | "signature_mismatch"
  /** Authentic, but signed longer ago than the tolerance. */
  | "timestamp_too_old"
  /** Authentic, but dated further in the future than the tolerance. */
  | "timestamp_in_future"
  /** The request body is larger than the `limit` of the request helpers. */
  | "body_too_large"
  /** The request helpers could not read the body to its end (the client went away). */
  | "body_incomplete";

/** A refused webhook: `{ ok: false, reason, message }`. */
export type WebhookRefusal = Refusal<WebhookFailure>;

/** `{ ok: true }` with what the scheme authenticates besides the body, or a refusal. */
export type WebhookResult<T extends object = object> =
  | ({
      /** The signature matches (and the timestamp, where the scheme has one, is fresh). */
      readonly ok: true;
    } & T)
  | WebhookRefusal;

/** What a verified Stripe or Slack webhook authenticates besides the body. */
export interface WebhookSigned {
  /** When the sender signed, in seconds since the epoch (checked against the tolerance). */
  readonly timestamp: number;
}

/** What a verified Standard Webhooks message authenticates besides the body. */
export interface StandardWebhookSigned extends WebhookSigned {
  /** The message id, the key to deduplicate deliveries on. */
  readonly id: string;
}

/** Timestamp checks (Stripe, Slack, Standard Webhooks). */
export interface TimestampOptions {
  /** Largest accepted difference from `now`, both ways, in seconds. Default 300. */
  toleranceSeconds?: number;
  /** The current time in seconds since the epoch. Default: the system clock. */
  now?: number;
}

/** The signing time of `signStripe`, `signSlack` (tests and senders). */
export interface SignTimestampOptions {
  /** Seconds since the epoch. Default: now. */
  timestamp?: number;
}

/**
 * One header's value as frameworks hand it over: the text, several texts (node:http's string[],
 * `req.headersDistinct`, AWS Lambda's `multiValueHeaders`), or null/undefined when absent.
 */
export type HeaderValue = string | readonly string[] | null | undefined;

/**
 * A fetch `Headers`, or an object of header values such as node:http's `IncomingHttpHeaders`,
 * `req.headersDistinct` or Lambda's `headers` / `multiValueHeaders` (names in any case).
 */
export type HeaderSource =
  | {
      /** The value of header `name` (any case), or null. */
      get(name: string): string | null;
    }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

const DEFAULT_TOLERANCE_SECONDS = 300;
const SHA256_BYTES = 32;
/**
 * The longest header value read, in characters. The schemes' headers are under 1 KB even with
 * several signatures, and node:http refuses more than 16 KiB of headers in all; a longer value is
 * refused before it is split, decoded or hashed, so a huge header costs nothing to refuse.
 */
const MAX_HEADER_CHARS = 64 * 1024;
/** Unix seconds as decimal digits; 15 digits keep the value a safe integer. */
const TIMESTAMP = /^[0-9]{1,15}$/;

// --- arguments -----------------------------------------------------------------------------------

function secretBytes(secret: unknown, name: string): Bytes {
  let key: Bytes;
  if (typeof secret === "string") key = utf8ToBytes(secret);
  else if (secret instanceof Uint8Array) {
    assertBytes(secret, name);
    key = secret;
  } else {
    throw new KeyedError(
      "BAD_INPUT",
      `${name} must be a string or a Uint8Array (the webhook secret); got ${describeType(secret)}.`,
    );
  }
  if (key.length === 0) {
    throw new KeyedError(
      "KEY_TOO_SHORT",
      `${name} is empty: is the webhook secret configured? (An unset environment variable reads as "".)`,
    );
  }
  return key;
}

/** The list of secrets to try, each checked; `decode` turns one secret into key bytes. */
function secretList(
  secrets: unknown,
  decode: (secret: unknown, name: string) => Bytes = secretBytes,
): Bytes[] {
  if (!Array.isArray(secrets)) return [decode(secrets, "secret")];
  if (secrets.length === 0) {
    throw new KeyedError("BAD_INPUT", "secret is an empty array: give at least one secret.");
  }
  return secrets.map((s, i) => decode(s, `secret[${i}]`));
}

function bodyBytes(body: unknown): Bytes {
  if (typeof body === "string") return utf8ToBytes(body);
  if (body instanceof Uint8Array) {
    assertBytes(body, "body");
    return body;
  }
  throw new KeyedError(
    "BAD_INPUT",
    `body must be the raw request body, as a Uint8Array or the exact string received; got ${describeType(body)}. ` +
      "Verify before parsing JSON: a parsed and re-serialized body does not match the signature.",
  );
}

/**
 * One header's value as the wire means it: absent (null, undefined, "" or []), one value (a string
 * or a one-element array), or, when it was sent more than once, a refusal: a signature, timestamp
 * or id header means one thing. `argument` names the parameter in BAD_INPUT messages, `header` the
 * header in refusals. Only a value of another type (a programming error) throws.
 */
function headerValue(
  value: unknown,
  argument: string,
  header: string,
): string | undefined | WebhookRefusal {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") {
    if (value.length > MAX_HEADER_CHARS) {
      return refuse(
        "malformed_header",
        `${header} is ${value.length} characters long; the longest accepted is ${MAX_HEADER_CHARS}.`,
      );
    }
    return value === "" ? undefined : value;
  }
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) {
    if (value.length <= 1) return headerValue(value[0], argument, header);
    return refuse(
      "malformed_header",
      `${header} appears ${value.length} times; it must appear once.`,
    );
  }
  throw new KeyedError(
    "BAD_INPUT",
    `${argument} must be the header's text (a string, or an array of strings as node:http and ` +
      `Lambda's multiValueHeaders give it), or null/undefined when absent; got ${describeType(value)}.`,
  );
}

/**
 * The value of header `name` (lower case) in `headers`, names compared case-insensitively. Values
 * under names that differ only in case (a Lambda event keeps the sender's spelling) are all
 * returned, as the repeated header they are.
 */
function getHeader(headers: HeaderSource, name: string): unknown {
  if (typeof headers.get === "function") {
    return (headers as { get(name: string): unknown }).get(name);
  }
  const record = headers as Readonly<Record<string, unknown>>;
  const found: unknown[] = [];
  for (const key of Object.keys(record)) {
    const value = record[key];
    if (value !== undefined && value !== null && key.toLowerCase() === name) found.push(value);
  }
  if (found.length <= 1) return found[0];
  const values: unknown[] = [];
  for (const value of found) {
    if (Array.isArray(value)) values.push(...value);
    else values.push(value);
  }
  return values;
}

function assertHeaders(headers: unknown): asserts headers is HeaderSource {
  if (headers === null || typeof headers !== "object") {
    throw new KeyedError(
      "BAD_INPUT",
      `headers must be a fetch Headers or an object of header values (as node:http's req.headers); got ${describeType(headers)}.`,
    );
  }
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

interface Clock {
  tolerance: number;
  now: number;
}

const CLOCK_OPTIONS = ["toleranceSeconds", "now"] as const;

function clockOptions(options: unknown, where: string): Clock {
  const o = checkOptions<TimestampOptions>(options, CLOCK_OPTIONS, `${where} options`);
  const tolerance =
    o.toleranceSeconds === undefined
      ? DEFAULT_TOLERANCE_SECONDS
      : assertInteger(o.toleranceSeconds, "options.toleranceSeconds", 0, Number.MAX_SAFE_INTEGER);
  if (o.now !== undefined && (typeof o.now !== "number" || !Number.isFinite(o.now))) {
    throw new KeyedError(
      "BAD_INPUT",
      `options.now must be the current time in seconds since the epoch; got ${typeof o.now === "number" ? o.now : describeType(o.now)}.`,
    );
  }
  return { tolerance, now: o.now ?? Date.now() / 1000 };
}

function signTimestamp(options: unknown, where: string): number {
  const o = checkOptions<SignTimestampOptions>(options, ["timestamp"], `${where} options`);
  if (o.timestamp === undefined) return nowSeconds();
  return assertInteger(o.timestamp, "options.timestamp", 0, Number.MAX_SAFE_INTEGER);
}

// --- shared checks -------------------------------------------------------------------------------

/**
 * Prepared HMAC-SHA256 keys of recently seen secrets: a receiver checks many requests under one
 * secret, and preparing a key costs more than tagging a short body. Keyed by the secret's SHA-256
 * in a private field, and printed redacted (`util.inspect`, `JSON.stringify`), so that logging it
 * shows no secret; the least recently used entry is wiped when full.
 */
export class PreparedWebhookKeys {
  readonly #kernels = new Map<string, HmacKernel>();
  /** How many prepared keys are kept. */
  readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  /** How many prepared keys are held now. */
  get size(): number {
    return this.#kernels.size;
  }

  /** @internal The prepared kernel for `key`, made on first use (keyed's verifiers call it). */
  kernel(key: Bytes): HmacKernel {
    const id = bytesToHex(sha256(key));
    const cached = this.#kernels.get(id);
    if (cached !== undefined) {
      this.#kernels.delete(id);
      this.#kernels.set(id, cached);
      return cached;
    }
    const kernel = new HmacKernel(SHA256, key);
    this.#kernels.set(id, kernel);
    if (this.#kernels.size > this.limit) {
      const [oldest, evicted] = this.#kernels.entries().next().value as [string, HmacKernel];
      evicted.wipe();
      this.#kernels.delete(oldest);
    }
    return kernel;
  }

  /** Wipes and forgets every prepared key (after a secret was retired, say). */
  clear(): void {
    for (const kernel of this.#kernels.values()) kernel.wipe();
    this.#kernels.clear();
  }
}
redactKeyMaterial(PreparedWebhookKeys, (self) => ({ size: self.size, limit: self.limit }));

/** The process-wide cache the webhook functions use; `clear()` it to drop retired secrets. */
export const preparedWebhookKeys = new PreparedWebhookKeys(32);

/** HMAC-SHA256 over the concatenated parts (webhook secrets may be short: no key policy here). */
function hmacSha256(key: Bytes, parts: readonly Bytes[]): Bytes {
  const message = parts.length === 1 ? parts[0] : concatBytes(...parts);
  const out = new Uint8Array(32);
  preparedWebhookKeys.kernel(key).compute(message, out);
  return out;
}

/**
 * True when any candidate equals HMAC(key, parts) for any key. Every comparison is made (constant
 * time each), so the time does not tell which secret or which signature matched.
 */
function anyMatches(keys: readonly Bytes[], parts: readonly Bytes[], candidates: Bytes[]): boolean {
  let found = false;
  for (const key of keys) {
    const expected = hmacSha256(key, parts);
    for (const candidate of candidates) found = equal(expected, candidate) || found;
    expected.fill(0);
  }
  return found;
}

function decodeHex(text: string, length: number): Bytes | undefined {
  if (text.length !== 2 * length) return undefined;
  try {
    return hexToBytes(text);
  } catch {
    return undefined;
  }
}

function decodeBase64(text: string, length: number): Bytes | undefined {
  try {
    const bytes = base64ToBytes(text);
    return bytes.length === length ? bytes : undefined;
  } catch {
    return undefined;
  }
}

function parseTimestamp(text: string): number | undefined {
  return TIMESTAMP.test(text) ? Number(text) : undefined;
}

function checkClock(timestamp: number, clock: Clock): WebhookRefusal | undefined {
  const age = clock.now - timestamp;
  if (age > clock.tolerance) {
    return refuse(
      "timestamp_too_old",
      `the request was signed ${Math.round(age)} s ago; the tolerance is ${clock.tolerance} s.`,
    );
  }
  if (-age > clock.tolerance) {
    return refuse(
      "timestamp_in_future",
      `the request is dated ${Math.round(-age)} s in the future; the tolerance is ${clock.tolerance} s.`,
    );
  }
  return undefined;
}

const ascii = utf8ToBytes;

// --- GitHub --------------------------------------------------------------------------------------

const GITHUB_PREFIX = "sha256=";

/**
 * The `X-Hub-Signature-256` value GitHub sends: "sha256=" and the hex HMAC-SHA256 of the body
 * under the webhook secret.
 */
export function signGitHub(secret: WebhookSecret, body: WebhookBody): string {
  const key = secretBytes(secret, "secret");
  const tag = hmacSha256(key, [bodyBytes(body)]);
  return GITHUB_PREFIX + bytesToHex(tag);
}

/** Checks an `X-Hub-Signature-256` header against the raw body. */
export function verifyGitHub(
  secret: WebhookSecrets,
  body: WebhookBody,
  header: HeaderValue,
): WebhookResult {
  const keys = secretList(secret);
  const data = bodyBytes(body);
  const value = headerValue(header, "header", "X-Hub-Signature-256");
  if (value === undefined) return refuse("missing_header", "no X-Hub-Signature-256 header.");
  if (isRefusal(value)) return value;
  const candidate = value.startsWith(GITHUB_PREFIX)
    ? decodeHex(value.slice(GITHUB_PREFIX.length), SHA256_BYTES)
    : undefined;
  if (candidate === undefined) {
    return refuse(
      "malformed_header",
      'X-Hub-Signature-256 must be "sha256=" followed by 64 hex digits.',
    );
  }
  if (!anyMatches(keys, [data], [candidate])) {
    return refuse("signature_mismatch", "the X-Hub-Signature-256 signature does not match.");
  }
  return { ok: true };
}

// --- Stripe --------------------------------------------------------------------------------------

/**
 * The `Stripe-Signature` value: "t=<unix seconds>,v1=<hex HMAC-SHA256 of `${t}.${body}`>", the
 * endpoint secret ("whsec_…") used as its UTF-8 bytes, prefix included.
 */
export function signStripe(
  secret: WebhookSecret,
  body: WebhookBody,
  options?: SignTimestampOptions,
): string {
  const key = secretBytes(secret, "secret");
  const data = bodyBytes(body);
  const t = String(signTimestamp(options, "signStripe"));
  return `t=${t},v1=${bytesToHex(hmacSha256(key, [ascii(`${t}.`), data]))}`;
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
  options?: TimestampOptions,
): WebhookResult<WebhookSigned> {
  const keys = secretList(secret);
  const data = bodyBytes(body);
  const clock = clockOptions(options, "verifyStripe");
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
  if (!anyMatches(keys, [ascii(`${t}.`), data], candidates)) {
    return refuse("signature_mismatch", "no v1 signature in Stripe-Signature matches.");
  }
  return checkClock(timestamp, clock) ?? { ok: true, timestamp };
}

// --- Slack ---------------------------------------------------------------------------------------

/** The `X-Slack-Signature` and `X-Slack-Request-Timestamp` header values. */
/** What `signSlack` returns: the two header values to send. */
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
  secret: WebhookSecret,
  body: WebhookBody,
  options?: SignTimestampOptions,
): SlackSignature {
  const key = secretBytes(secret, "secret");
  const data = bodyBytes(body);
  const timestamp = String(signTimestamp(options, "signSlack"));
  const tag = hmacSha256(key, [ascii(`v0:${timestamp}:`), data]);
  return { signature: `v0=${bytesToHex(tag)}`, timestamp };
}

/** Checks Slack's `X-Slack-Signature` over the body and `X-Slack-Request-Timestamp`. */
export function verifySlack(
  secret: WebhookSecrets,
  body: WebhookBody,
  headers: SlackHeaders,
  options?: TimestampOptions,
): WebhookResult<WebhookSigned> {
  const keys = secretList(secret);
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

// --- Standard Webhooks ---------------------------------------------------------------------------

const STANDARD_PREFIX = "whsec_";

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
  /** Seconds since the epoch. Default: now. */
  timestamp?: number;
  /** The body, exactly as it will be sent. */
  body: WebhookBody;
}

/** A Standard Webhooks secret: "whsec_" + base64 (the prefix is optional), or the raw key bytes. */
function standardSecret(secret: unknown, name: string): Bytes {
  if (typeof secret !== "string") return secretBytes(secret, name);
  const text = secret.startsWith(STANDARD_PREFIX) ? secret.slice(STANDARD_PREFIX.length) : secret;
  let key: Bytes;
  try {
    key = base64ToBytes(text);
  } catch {
    throw new KeyedError(
      "BAD_ENCODING",
      `${name} must be "whsec_" followed by the key in base64 (as the provider shows it).`,
    );
  }
  if (key.length === 0) throw new KeyedError("KEY_TOO_SHORT", `${name} holds an empty key.`);
  return key;
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
  const key = standardSecret(secret, "secret");
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
      ? nowSeconds()
      : assertInteger(message.timestamp, "message.timestamp", 0, Number.MAX_SAFE_INTEGER),
  );
  const tag = hmacSha256(key, [utf8ToBytes(`${id}.${timestamp}.`), data]);
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
): WebhookResult<StandardWebhookSigned> {
  const keys = secretList(secret, standardSecret);
  const data = bodyBytes(body);
  const clock = clockOptions(options, "verifyStandardWebhook");
  assertHeaders(headers);
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

// --- reading requests ----------------------------------------------------------------------------

/** A node:http `IncomingMessage`, or anything with its shape. */
export interface NodeRequest {
  /** Header values by lower-case name, as node:http gives them. */
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** True once the body has been read (it can be read only once). */
  readonly readableEnded?: boolean;
  /** A chunk of the body. */
  on(event: "data", listener: (chunk: Uint8Array | string) => void): unknown;
  /** The end of the body, or the connection closing. */
  on(event: "end" | "close", listener: () => void): unknown;
  /** A read error. */
  on(event: "error", listener: (error: Error) => void): unknown;
  /** Detaches a listener `on` attached. */
  removeListener(event: string, listener: (...args: never[]) => void): unknown;
}

/** A fetch `Request` (Node 18+, Deno, Bun, Workers), or anything with its shape. */
export interface FetchRequest {
  /** The request's Headers. */
  readonly headers: {
    /** The value of header `name` (any case), or null. */
    get(name: string): string | null;
  };
  /** Firefox's Request has no `body` stream (undefined): then `arrayBuffer()` is read. */
  readonly body: ReadableStream<Uint8Array> | null | undefined;
  /** True once the body has been read (it can be read only once). */
  readonly bodyUsed: boolean;
  /** The whole body; used where `body` is undefined. */
  arrayBuffer?(): Promise<ArrayBuffer>;
}

/** What the request helpers read the body from: a node:http request or a fetch Request. */
export type WebhookRequest = NodeRequest | FetchRequest;

/** How much of a body `readRawBody` and the request helpers read. */
export interface ReadBodyOptions {
  /** Largest body accepted, in bytes. Default 1 MiB. */
  limit?: number;
}

/** Request helpers: the body limit plus the scheme's timestamp options. */
export interface RequestOptions extends ReadBodyOptions, TimestampOptions {}

/** A verified request carries its body, read once: parse it from here. */
export type RequestResult<T extends object = object> = WebhookResult<
  {
    /** The raw body that was verified: parse it now, not before. */
    readonly body: Bytes;
  } & T
>;

const DEFAULT_LIMIT = 1024 * 1024;

function isFetchRequest(request: WebhookRequest): request is FetchRequest {
  return "bodyUsed" in request && typeof request.headers?.get === "function";
}

/** Errors that mean the client went away mid-body: the request helpers answer body_incomplete. */
const incompleteBodies = new WeakSet<Error>();

function incomplete(error: Error): Error {
  incompleteBodies.add(error);
  return error;
}

function tooLarge(limit: number): KeyedError {
  return new KeyedError("LENGTH", `the request body is larger than the limit of ${limit} bytes.`);
}

function alreadyRead(): KeyedError {
  return new KeyedError(
    "BAD_INPUT",
    "the request body was already read (by a body parser?). Verify on the raw bytes: read them " +
      "first (readRawBody, express.raw(), …) and parse JSON after verifying.",
  );
}

/** Throws LENGTH early when the declared Content-Length is over the limit. */
function checkDeclaredLength(value: unknown, limit: number): void {
  if (typeof value === "string" && /^[0-9]+$/.test(value) && Number(value) > limit) {
    throw tooLarge(limit);
  }
}

function concatChunks(chunks: Uint8Array[], total: number): Bytes {
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

async function readFetchBody(request: FetchRequest, limit: number): Promise<Bytes> {
  if (request.bodyUsed) throw alreadyRead();
  checkDeclaredLength(request.headers.get("content-length") ?? undefined, limit);
  if (request.body === null) return new Uint8Array(0);
  if (request.body === undefined) {
    // Firefox: a Request made in the browser holds its body in memory already.
    if (request.arrayBuffer === undefined) {
      throw new KeyedError("BAD_INPUT", "the request has neither a body stream nor arrayBuffer().");
    }
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await request.arrayBuffer());
    } catch (error) {
      throw incomplete(error instanceof Error ? error : new Error(String(error)));
    }
    if (bytes.length > limit) throw tooLarge(limit);
    return bytes;
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch (error) {
      throw incomplete(error instanceof Error ? error : new Error(String(error)));
    }
    const { done, value } = next;
    if (done) break;
    if (!(value instanceof Uint8Array)) {
      await reader.cancel();
      throw new KeyedError("BAD_INPUT", "the request body stream must yield Uint8Array chunks.");
    }
    total += value.length;
    if (total > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return concatChunks(chunks, total);
}

function readNodeBody(request: NodeRequest, limit: number): Promise<Bytes> {
  if (request.readableEnded === true) return Promise.reject(alreadyRead());
  try {
    checkDeclaredLength(getHeader(request.headers, "content-length"), limit);
  } catch (error) {
    return Promise.reject(error);
  }
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let total = 0;
    let settled = false;
    const finish = (error: Error | undefined) => {
      if (settled) return;
      settled = true;
      request.removeListener("data", onData);
      request.removeListener("end", onEnd);
      request.removeListener("error", onError);
      request.removeListener("close", onClose);
      if (error) reject(error);
      else resolve(concatChunks(chunks, total));
    };
    // Over the limit, the rest of the body is let through unread, so that the caller can still
    // answer 413 (with "Connection: close") on the same connection.
    const onData = (chunk: Uint8Array | string) => {
      if (typeof chunk === "string") {
        finish(
          new KeyedError(
            "BAD_INPUT",
            "the request yields text (setEncoding was called): the raw bytes are needed.",
          ),
        );
        return;
      }
      total += chunk.length;
      if (total > limit) finish(tooLarge(limit));
      else chunks.push(chunk);
    };
    const onEnd = () => finish(undefined);
    const onError = (error: Error) => finish(incomplete(error));
    const onClose = () =>
      finish(
        incomplete(new KeyedError("BAD_INPUT", "the request closed before its body was complete.")),
      );
    request.on("data", onData);
    request.on("end", onEnd);
    request.on("error", onError);
    request.on("close", onClose);
  });
}

/**
 * The raw body of a node:http request or a fetch `Request`, read once, as bytes. Throws LENGTH
 * (before reading when Content-Length says so) if it is larger than `limit`, and BAD_INPUT if
 * the body was already consumed; when the client goes away mid-body, rejects with the stream's
 * error (or BAD_INPUT if the stream just closed).
 */
export async function readRawBody(
  request: WebhookRequest,
  options?: ReadBodyOptions,
): Promise<Bytes> {
  const o = checkOptions<ReadBodyOptions>(options, ["limit"], "readRawBody options");
  const limit =
    o.limit === undefined
      ? DEFAULT_LIMIT
      : assertInteger(o.limit, "options.limit", 0, Number.MAX_SAFE_INTEGER);
  if (request === null || typeof request !== "object" || typeof request.headers !== "object") {
    throw new KeyedError(
      "BAD_INPUT",
      `request must be a node:http IncomingMessage or a fetch Request; got ${describeType(request)}.`,
    );
  }
  if (isFetchRequest(request)) return readFetchBody(request, limit);
  if (typeof (request as NodeRequest).on !== "function") {
    throw new KeyedError(
      "BAD_INPUT",
      "request must be a node:http IncomingMessage or a fetch Request.",
    );
  }
  return readNodeBody(request as NodeRequest, limit);
}

/**
 * Reads the body for a request helper: the bytes, or a refusal when the body is too large or the
 * client went away, so that nothing the client does makes a request helper throw.
 */
async function readForVerify(
  request: WebhookRequest,
  options: unknown,
  optionNames: readonly string[],
  where: string,
): Promise<{ body: Bytes; rest: Record<string, unknown> } | WebhookRefusal> {
  const { limit, ...rest } = checkOptions(options, ["limit", ...optionNames], `${where} options`);
  try {
    return {
      body: await readRawBody(request, limit === undefined ? {} : { limit: limit as number }),
      rest,
    };
  } catch (error) {
    if (error instanceof KeyedError && error.code === "LENGTH") {
      return refuse("body_too_large", error.message);
    }
    if (error instanceof Error && incompleteBodies.has(error)) {
      return refuse("body_incomplete", `the request body could not be read: ${error.message}`);
    }
    throw error;
  }
}

function withBody<T extends object>(result: WebhookResult<T>, body: Bytes): RequestResult<T> {
  return result.ok ? { ...result, body } : result;
}

/** Reads the request's raw body once and checks its `X-Hub-Signature-256`. */
export async function verifyGitHubRequest(
  secret: WebhookSecrets,
  request: WebhookRequest,
  options?: ReadBodyOptions,
): Promise<RequestResult> {
  secretList(secret);
  const read = await readForVerify(request, options, [], "verifyGitHubRequest");
  if ("ok" in read) return read;
  const header = getHeader(request.headers, "x-hub-signature-256") as HeaderValue;
  return withBody(verifyGitHub(secret, read.body, header), read.body);
}

/** Reads the request's raw body once and checks its `Stripe-Signature`. */
export async function verifyStripeRequest(
  secret: WebhookSecrets,
  request: WebhookRequest,
  options?: RequestOptions,
): Promise<RequestResult<WebhookSigned>> {
  secretList(secret);
  clockOptions(stripLimit(options), "verifyStripeRequest");
  const read = await readForVerify(request, options, CLOCK_OPTIONS, "verifyStripeRequest");
  if ("ok" in read) return read;
  const header = getHeader(request.headers, "stripe-signature") as HeaderValue;
  return withBody(verifyStripe(secret, read.body, header, read.rest), read.body);
}

/** Reads the request's raw body once and checks its Slack signature headers. */
export async function verifySlackRequest(
  secret: WebhookSecrets,
  request: WebhookRequest,
  options?: RequestOptions,
): Promise<RequestResult<WebhookSigned>> {
  secretList(secret);
  clockOptions(stripLimit(options), "verifySlackRequest");
  const read = await readForVerify(request, options, CLOCK_OPTIONS, "verifySlackRequest");
  if ("ok" in read) return read;
  const headers = request.headers;
  const slack = {
    signature: getHeader(headers, "x-slack-signature") as HeaderValue,
    timestamp: getHeader(headers, "x-slack-request-timestamp") as HeaderValue,
  };
  return withBody(verifySlack(secret, read.body, slack, read.rest), read.body);
}

/** Reads the request's raw body once and checks its Standard Webhooks headers. */
export async function verifyStandardWebhookRequest(
  secret: WebhookSecrets,
  request: WebhookRequest,
  options?: RequestOptions,
): Promise<RequestResult<StandardWebhookSigned>> {
  secretList(secret, standardSecret);
  clockOptions(stripLimit(options), "verifyStandardWebhookRequest");
  const read = await readForVerify(request, options, CLOCK_OPTIONS, "verifyStandardWebhookRequest");
  if ("ok" in read) return read;
  return withBody(verifyStandardWebhook(secret, read.body, request.headers, read.rest), read.body);
}

/** The options without `limit`, so that option errors throw before the body is read. */
function stripLimit(options: unknown): unknown {
  if (options === null || typeof options !== "object" || Array.isArray(options)) return options;
  const { limit: _limit, ...rest } = options as Record<string, unknown>;
  return rest;
}
