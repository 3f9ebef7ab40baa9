/**
 * What the webhook schemes share: secrets, bodies, header values, the clock, the prepared-key
 * cache, and the constant-time check of a candidate signature against every secret.
 */
import {
  assertBytes,
  type Bytes,
  base64ToBytes,
  bytesToHex,
  hexToBytes,
  utf8ToBytes,
} from "../../core/bytes.js";
import { PreparedKeyCache } from "../../core/cache.js";
import { equal } from "../../core/equal.js";
import { KeyedError } from "../../core/errors.js";
import { checkOptions, describeType } from "../../core/options.js";
import { redactKeyMaterial } from "../../core/redact.js";
import { isRefusal, type Refusal, refuse } from "../../core/result.js";
import { nowSeconds, type TimeInput, toleranceSeconds, toWholeSeconds } from "../../core/time.js";
import { SHA256 } from "../../hash/sha256.js";
import { HmacKernel } from "../../mac/hmac.js";
import type { Keyset } from "../../safe/keyset.js";
import { type KeysetView, keysetView } from "../../safe/keyset-access.js";
import {
  assertReplayStore,
  claimAccepted,
  type ReplayClaim,
  type ReplayStore,
} from "../../safe/store.js";
import {
  type BodyFailure,
  type HttpRequest,
  type ReadBodyOptions,
  readBodyOrRefuse,
} from "../http/body.js";

/** A webhook secret: text (used as its UTF-8 bytes) or raw bytes. */
export type WebhookSecret = string | Bytes;
/**
 * One secret, several while a secret is being rotated (any of them may match), or a Keyset whose
 * enabled HMAC-SHA256 keys are the secrets (its primary signs).
 */
export type WebhookSecrets = WebhookSecret | readonly WebhookSecret[] | Keyset;
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
  /** The request helpers could not read the body (too large, or the client went away). */
  | BodyFailure
  /** With a `replayStore`: authentic and fresh, but this message was accepted before. */
  | "replayed"
  /** With a `replayStore`: the store did not answer in time (or at all); refused, fail closed. */
  | "store_unavailable";

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
  /** The current time: a Date or seconds since the epoch. Default: the system clock. */
  now?: TimeInput;
}

/**
 * Replay protection shared by every instance of a receiver (docs/fleet.md): once the signature
 * and the timestamp are good, the message is claimed in the store for the rest of its validity;
 * a message claimed before is `replayed`, a store that cannot answer `store_unavailable`. With a
 * store, the verifier answers with a Promise.
 */
export interface ReplayOptions {
  /** Where accepted messages are remembered: a MemoryReplayStore, or keyed/redis's RedisReplayStore. */
  replayStore: ReplayStore;
}

/** The webhook verifiers' options: the clock, and a replay store when the fleet shares one. */
export type VerifyOptions = TimestampOptions & Partial<ReplayOptions>;

/** The signing time of `signStripe`, `signSlack`, `signStandardWebhook` (tests and senders). */
export interface SignTimestampOptions {
  /** When the message is signed: a Date or whole seconds since the epoch. Default: now. */
  timestamp?: TimeInput;
}

const DEFAULT_TOLERANCE_SECONDS = 300;
export const SHA256_BYTES = 32;
/**
 * The longest header value read, in characters. The schemes' headers are under 1 KB even with
 * several signatures, and node:http refuses more than 16 KiB of headers in all; a longer value is
 * refused before it is split, decoded or hashed, so a huge header costs nothing to refuse.
 */
const MAX_HEADER_CHARS = 64 * 1024;
/** Unix seconds as decimal digits; 15 digits keep the value a safe integer. */
const TIMESTAMP = /^[0-9]{1,15}$/;

// --- arguments -----------------------------------------------------------------------------------

export function secretBytes(secret: unknown, name: string): Bytes {
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

/** How a scheme reads a secret given as text: its UTF-8 bytes, or Standard Webhooks' "whsec_…". */
export type SecretScheme = "text" | "standard";

const STANDARD_PREFIX = "whsec_";

/** A Standard Webhooks secret: "whsec_" + base64 (the prefix is optional), or the raw key bytes. */
export function standardSecret(secret: unknown, name: string): Bytes {
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

/** The HMAC-SHA256 kernel of a keyset key (the keyset prepared it once). */
function keysetKernel(keyset: KeysetView, id: number): HmacKernel {
  return keyset.kernel(id) as HmacKernel;
}

/** The webhook secrets of a keyset: its enabled HMAC-SHA256 keys (the schemes' MAC). */
function keysetKernels(keyset: KeysetView): HmacKernel[] {
  const kernels: HmacKernel[] = [];
  for (const info of keyset.keys()) {
    if (info.status === "enabled" && info.algorithm === "hmac-sha256") {
      kernels.push(keysetKernel(keyset, info.id));
    }
  }
  if (kernels.length === 0) {
    throw new KeyedError(
      "BAD_INPUT",
      "the keyset has no enabled hmac-sha256 key: webhook signatures are HMAC-SHA256.",
    );
  }
  return kernels;
}

/**
 * The prepared kernel of one secret, checked as `secretBytes` / `standardSecret` check it; for a
 * keyset, its primary key (which must be HMAC-SHA256).
 */
export function secretKernel(secret: unknown, name: string, scheme: SecretScheme): HmacKernel {
  const keyset = keysetView(secret);
  if (keyset !== undefined) {
    const primary = keyset.get(keyset.primaryId);
    if (primary?.algorithm !== "hmac-sha256") {
      throw new KeyedError(
        "BAD_INPUT",
        `${name}: the keyset's primary key is ${primary?.algorithm}; webhook signatures are HMAC-SHA256.`,
      );
    }
    return keysetKernel(keyset, keyset.primaryId);
  }
  if (typeof secret === "string" && secret.length > 0) {
    return preparedWebhookKeys.forText(secret, scheme, () =>
      scheme === "standard" ? standardSecret(secret, name) : utf8ToBytes(secret),
    );
  }
  return preparedWebhookKeys.kernel(
    scheme === "standard" ? standardSecret(secret, name) : secretBytes(secret, name),
  );
}

/**
 * The prepared kernels of the secrets to try (one, or a rotation list), each checked. A secret
 * seen before costs a map lookup: no encoding, decoding or hashing of it per request.
 */
export function secretKernels(secrets: unknown, scheme: SecretScheme = "text"): HmacKernel[] {
  const keyset = keysetView(secrets);
  if (keyset !== undefined) return keysetKernels(keyset);
  if (!Array.isArray(secrets)) return [secretKernel(secrets, "secret", scheme)];
  if (secrets.length === 0) {
    throw new KeyedError("BAD_INPUT", "secret is an empty array: give at least one secret.");
  }
  return secrets.map((s, i) => secretKernel(s, `secret[${i}]`, scheme));
}

export function bodyBytes(body: unknown): Bytes {
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
export function headerValue(
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

export interface Clock {
  tolerance: number;
  now: number;
  replayStore: ReplayStore | undefined;
}

export const CLOCK_OPTIONS = ["toleranceSeconds", "now", "replayStore"] as const;

export function clockOptions(options: unknown, where: string): Clock {
  const o = checkOptions<VerifyOptions>(options, CLOCK_OPTIONS, `${where} options`);
  const replayStore = o.replayStore;
  if (replayStore !== undefined) assertReplayStore(replayStore, "options.replayStore");
  return {
    tolerance: toleranceSeconds(o, [], DEFAULT_TOLERANCE_SECONDS),
    now: nowSeconds(o.now),
    replayStore,
  };
}

export function signTimestamp(options: unknown, where: string): number {
  const o = checkOptions<SignTimestampOptions>(options, ["timestamp"], `${where} options`);
  return o.timestamp === undefined
    ? nowSeconds(undefined)
    : toWholeSeconds(o.timestamp, "options.timestamp");
}

// --- shared checks -------------------------------------------------------------------------------

/**
 * Prepared HMAC-SHA256 keys of recently seen secrets, in the one bounded cache of prepared keys
 * (core/cache.ts): a receiver checks many requests under one secret, and preparing a key costs
 * more than tagging a short body. Secrets given as text are looked up by their text (one cache per
 * way of reading it), secrets given as bytes by their bytes (core/cache.ts `getFor`); all of it in
 * private fields, printed redacted, the least recently used entry wiped when a cache is full.
 */
export class PreparedWebhookKeys {
  readonly #text: PreparedKeyCache<HmacKernel>;
  readonly #standard: PreparedKeyCache<HmacKernel>;
  readonly #bytes: PreparedKeyCache<HmacKernel>;
  /** How many prepared keys are kept for each way a secret can be given. */
  readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
    this.#text = new PreparedKeyCache(limit);
    this.#standard = new PreparedKeyCache(limit);
    this.#bytes = new PreparedKeyCache(limit);
  }

  /** How many prepared keys are held now. */
  get size(): number {
    return this.#text.size + this.#standard.size + this.#bytes.size;
  }

  /** @internal The prepared kernel for `key`, made on first use (keyed's verifiers call it). */
  kernel(key: Bytes): HmacKernel {
    return this.#bytes.getFor(key, 0, () => new HmacKernel(SHA256, key));
  }

  /** @internal The kernel for a secret given as text; `decode` runs on first use only. */
  forText(secret: string, scheme: SecretScheme, decode: () => Bytes): HmacKernel {
    const cache = scheme === "standard" ? this.#standard : this.#text;
    return cache.get(secret, () => {
      const key = decode();
      const kernel = new HmacKernel(SHA256, key);
      key.fill(0);
      return kernel;
    });
  }

  /** Wipes and forgets every prepared key (after a secret was retired, say). */
  clear(): void {
    this.#text.clear();
    this.#standard.clear();
    this.#bytes.clear();
  }
}
redactKeyMaterial(PreparedWebhookKeys, (self) => ({ size: self.size, limit: self.limit }));

/** The process-wide cache the webhook functions use; `clear()` it to drop retired secrets. */
export const preparedWebhookKeys = new PreparedWebhookKeys(32);

/** One computed tag at a time: wiped after every comparison. */
const expected = new Uint8Array(32);

/** HMAC-SHA256 over the concatenated parts, into `out` (webhook secrets may be short: no policy). */
export function hmacSha256(
  kernel: HmacKernel,
  parts: readonly Bytes[],
  out: Bytes = new Uint8Array(32),
): Bytes {
  kernel.computeParts(parts, out);
  return out;
}

/**
 * True when any candidate equals HMAC(key, parts) for any key. Every comparison is made (constant
 * time each), so the time does not tell which secret or which signature matched.
 */
function anyMatches(
  kernels: readonly HmacKernel[],
  parts: readonly Bytes[],
  candidates: readonly Bytes[],
  firstTag?: Bytes,
): boolean {
  let found = false;
  for (let k = 0; k < kernels.length; k++) {
    kernels[k].computeParts(parts, expected);
    found = equalsAny(expected, candidates) || found;
    // The tag under the first secret: the message's replay id, whichever v1 entries the sender
    // (or someone replaying) put in the header.
    if (k === 0 && firstTag !== undefined) firstTag.set(expected);
    expected.fill(0);
  }
  return found;
}

/** Whether `tag` equals any candidate: every candidate compared, each in constant time. */
function equalsAny(tag: Bytes, candidates: readonly Bytes[]): boolean {
  let found = false;
  for (const candidate of candidates) found = equal(tag, candidate) || found;
  return found;
}

/**
 * The replay id of a message whose scheme has no signed id: its tag under the first secret, with
 * the scheme's name in front (the store hashes it).
 */
function tagId(scheme: string, tag: Bytes): string {
  return `${scheme}:${bytesToHex(tag)}`;
}

export function decodeHex(text: string, length: number): Bytes | undefined {
  if (text.length !== 2 * length) return undefined;
  try {
    return hexToBytes(text);
  } catch {
    return undefined;
  }
}

export function decodeBase64(text: string, length: number): Bytes | undefined {
  try {
    const bytes = base64ToBytes(text);
    return bytes.length === length ? bytes : undefined;
  } catch {
    return undefined;
  }
}

export function parseTimestamp(text: string): number | undefined {
  return TIMESTAMP.test(text) ? Number(text) : undefined;
}

export function checkClock(timestamp: number, clock: Clock): WebhookRefusal | undefined {
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

export const ascii = utf8ToBytes;

// --- one pipeline for one webhook and for a batch ------------------------------------------------

/**
 * A webhook whose headers parsed: what the sender signed, the signatures offered, and the answer
 * when one of them matches. Each scheme's parser makes it or a refusal; `verifyOne` and
 * `verifyBatch` do the rest the same way for every scheme.
 */
export interface SignedWebhook<T extends Authenticated> {
  /** The signed content, in order: hashed part by part alone, joined once for a batch. */
  readonly parts: readonly Bytes[];
  /** The header's signatures, decoded; those of the wrong form were dropped (they cannot match). */
  readonly candidates: readonly Bytes[];
  /**
   * The answer once a signature matched and the timestamp (if any) is fresh. Its `timestamp` is
   * checked against the clock after the signature (GitHub signs none); its `id`, where the scheme
   * signs one, is claimed against replays (else the tag under the first secret is).
   */
  readonly accepted: { readonly ok: true } & T;
}

/** What a scheme may authenticate besides the body: a timestamp, a message id. */
export type Authenticated = Partial<StandardWebhookSigned>;

/** A parser's answer: the signed webhook, or why its headers were refused. */
export type Parsed<T extends Authenticated> = SignedWebhook<T> | WebhookRefusal;

/** How a scheme's verifier answers, besides what its parser read: one per call, single or batch. */
export interface Verifier {
  /** The replay id's prefix: "github", "stripe", "slack", "standard". */
  readonly scheme: string;
  /** The secrets' prepared kernels (one, a rotation list, or a keyset's enabled keys). */
  readonly keys: readonly HmacKernel[];
  readonly clock: Clock;
  /** The signature_mismatch message, naming the scheme's header. */
  readonly mismatch: string;
  /** Where nothing is signed but the body (GitHub): how long an accepted delivery stays claimed. */
  readonly replaySeconds?: number;
}

/** The answer to a parsed webhook once its signatures were checked. */
function answer<T extends Authenticated>(
  verifier: Verifier,
  signed: SignedWebhook<T>,
  matched: boolean,
): WebhookResult<T> {
  if (!matched) return refuse("signature_mismatch", verifier.mismatch);
  const { timestamp } = signed.accepted;
  const stale = timestamp === undefined ? undefined : checkClock(timestamp, verifier.clock);
  return stale ?? signed.accepted;
}

/**
 * The claim of an accepted message: its signed id, or its tag under the first secret, valid from
 * its signed timestamp for the tolerance; without a timestamp, from now for `replaySeconds`.
 */
function claimOf(
  verifier: Verifier,
  signed: SignedWebhook<Authenticated>,
  firstTag: Bytes,
): ReplayClaim {
  const { scheme, clock } = verifier;
  const { id: signedId, timestamp } = signed.accepted;
  const id = signedId === undefined ? tagId(scheme, firstTag) : `${scheme}:${signedId}`;
  const now = clock.now;
  if (timestamp === undefined) {
    const seconds = Math.max(1, verifier.replaySeconds ?? 1);
    return { id, validFrom: undefined, validUntil: now + seconds, now };
  }
  return { id, validFrom: timestamp, validUntil: timestamp + clock.tolerance, now };
}

/**
 * The answer to one webhook: as it is without a replay store; with one, a Promise of it after an
 * accepted message was claimed. Only an accepted message is claimed, so forgeries never fill the
 * store.
 */
export function verifyOne<T extends Authenticated>(
  verifier: Verifier,
  parsed: Parsed<T>,
): WebhookResult<T> | Promise<WebhookResult<T>> {
  const store = verifier.clock.replayStore;
  if (isRefusal(parsed)) return claimAccepted(parsed, store, noClaim);
  const firstTag = store === undefined ? undefined : new Uint8Array(SHA256_BYTES);
  const matched = anyMatches(verifier.keys, parsed.parts, parsed.candidates, firstTag);
  const result = answer(verifier, parsed, matched);
  return claimAccepted<WebhookResult<T>, never>(result, store, () =>
    claimOf(verifier, parsed, firstTag as Bytes),
  );
}

const noClaim = (): never => {
  throw new Error("unreachable: a refusal is never claimed");
};

/**
 * HMAC-SHA256 of each signed content (its parts in order), tag i to out[32·i ..): contents from
 * node:crypto's crossover on go there part by part, as in the single verifier; the rest are
 * joined once, into one buffer wiped after, and tagged through the kernel's batch path (the
 * WebAssembly SIMD lanes, four short messages a call).
 */
export function tagBatch(
  kernel: HmacKernel,
  contents: readonly (readonly Bytes[])[],
  out: Bytes,
): void {
  const own: number[] = [];
  let joinedLength = 0;
  for (let i = 0; i < contents.length; i++) {
    const parts = contents[i];
    let total = 0;
    for (const part of parts) total += part.length;
    if (kernel.servesNatively(total)) {
      kernel.computeParts(parts, out.subarray(i * SHA256_BYTES, (i + 1) * SHA256_BYTES));
    } else {
      own.push(i);
      if (parts.length > 1) joinedLength += total;
    }
  }
  if (own.length === 0) return;
  const joined = new Uint8Array(joinedLength);
  let at = 0;
  const messages = own.map((i) => {
    const parts = contents[i];
    if (parts.length === 1) return parts[0];
    const from = at;
    for (const part of parts) {
      joined.set(part, at);
      at += part.length;
    }
    return joined.subarray(from, at);
  });
  if (own.length === contents.length) {
    kernel.computeMany(messages, out);
  } else {
    const tags = new Uint8Array(own.length * SHA256_BYTES);
    kernel.computeMany(messages, tags);
    for (let j = 0; j < own.length; j++) {
      out.set(tags.subarray(j * SHA256_BYTES, (j + 1) * SHA256_BYTES), own[j] * SHA256_BYTES);
    }
    tags.fill(0);
  }
  joined.fill(0);
}

/**
 * The answers to a batch of webhooks under the same secrets, in order: the same answers as
 * `verifyOne` on each, with every secret's tags computed for the whole batch at once (the
 * WebAssembly kernels' SIMD lanes take four short messages a call). Each candidate is compared in
 * constant time, every one against every secret's tag. With a replay store, the accepted messages
 * are claimed in order, so of two copies of one message in a batch the second is `replayed`.
 */
export function verifyBatch<T extends Authenticated>(
  verifier: Verifier,
  parsed: readonly Parsed<T>[],
): WebhookResult<T>[] | Promise<WebhookResult<T>[]> {
  const { keys, clock } = verifier;
  const store = clock.replayStore;
  const slots = new Int32Array(parsed.length).fill(-1);
  const contents: (readonly Bytes[])[] = [];
  for (let i = 0; i < parsed.length; i++) {
    const p = parsed[i];
    if (isRefusal(p)) continue;
    slots[i] = contents.length;
    contents.push(p.parts);
  }
  const count = contents.length;
  const tags = new Uint8Array(count * SHA256_BYTES);
  const firstTags = store === undefined ? undefined : new Uint8Array(count * SHA256_BYTES);
  const matched = new Uint8Array(count);
  if (count > 0) {
    for (let k = 0; k < keys.length; k++) {
      tagBatch(keys[k], contents, tags);
      for (let i = 0; i < parsed.length; i++) {
        const slot = slots[i];
        if (slot < 0) continue;
        const tag = tags.subarray(slot * SHA256_BYTES, (slot + 1) * SHA256_BYTES);
        matched[slot] |= Number(equalsAny(tag, (parsed[i] as SignedWebhook<T>).candidates));
      }
      if (k === 0) firstTags?.set(tags);
    }
    tags.fill(0);
  }
  const results = parsed.map((p, i) =>
    isRefusal(p) ? p : answer(verifier, p, matched[slots[i]] === 1),
  );
  if (store === undefined) return results;
  // claimAccepted asks for each claim (its id made from the tag) before it returns, so the tags
  // under the first secret, forgeries' valid tags among them, are wiped once the claims are made.
  const claims = results.map((result, i) =>
    claimAccepted<WebhookResult<T>, never>(result, store, () => {
      const slot = slots[i];
      const firstTag = (firstTags as Bytes).subarray(
        slot * SHA256_BYTES,
        (slot + 1) * SHA256_BYTES,
      );
      return claimOf(verifier, parsed[i] as SignedWebhook<T>, firstTag);
    }),
  );
  firstTags?.fill(0);
  return Promise.all(claims);
}

/**
 * The parsed deliveries of a batch verifier, each read by `parse` (an object each, or BAD_INPUT);
 * a programming error in one names its index.
 */
export function parseDeliveries<D extends object, T extends Authenticated>(
  deliveries: unknown,
  shape: string,
  parse: (delivery: D) => Parsed<T>,
): Parsed<T>[] {
  if (!Array.isArray(deliveries)) {
    throw new KeyedError(
      "BAD_INPUT",
      `deliveries must be an array of ${shape}; got ${describeType(deliveries)}.`,
    );
  }
  // An index loop, not map(): a hole in a sparse array is a delivery that is not an object.
  const parsed: Parsed<T>[] = [];
  for (let i = 0; i < deliveries.length; i++) {
    const delivery: unknown = deliveries[i];
    if (delivery === null || typeof delivery !== "object") {
      throw new KeyedError(
        "BAD_INPUT",
        `deliveries[${i}] must be an object ${shape}; got ${describeType(delivery)}.`,
      );
    }
    try {
      parsed.push(parse(delivery as D));
    } catch (error) {
      if (error instanceof KeyedError) {
        throw new KeyedError(error.code, `deliveries[${i}]: ${error.message}`);
      }
      throw error;
    }
  }
  return parsed;
}

// --- request helpers -----------------------------------------------------------------------------

/** Request helpers: the body limit plus the scheme's timestamp options. */
export interface RequestOptions extends ReadBodyOptions, TimestampOptions, Partial<ReplayOptions> {}

/** A verified request carries its body, read once: parse it from here. */
export type RequestResult<T extends object = object> = WebhookResult<
  {
    /** The raw body that was verified: parse it now, not before. */
    readonly body: Bytes;
  } & T
>;

/**
 * Reads the body for a request helper after checking its options (so that option errors throw
 * before the body is read): the bytes and the options less `limit`, or a refusal.
 */
export async function readForVerify(
  request: HttpRequest,
  options: unknown,
  optionNames: readonly string[],
  where: string,
): Promise<{ body: Bytes; rest: Record<string, unknown> } | Refusal<BodyFailure>> {
  const { limit, ...rest } = checkOptions(options, ["limit", ...optionNames], `${where} options`);
  const body = await readBodyOrRefuse(request, limit);
  return body instanceof Uint8Array ? { body, rest } : body;
}

export function withBody<T extends object>(
  result: WebhookResult<T>,
  body: Bytes,
): RequestResult<T> {
  return result.ok ? { ...result, body } : result;
}

/** The options without `limit`, so that option errors throw before the body is read. */
export function stripLimit(options: unknown): unknown {
  if (options === null || typeof options !== "object" || Array.isArray(options)) return options;
  const { limit: _limit, ...rest } = options as Record<string, unknown>;
  return rest;
}
