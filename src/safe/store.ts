/**
 * Replay stores: "has this message been accepted before?" answered once per message id, in one
 * process (`MemoryReplayStore`) or across a fleet (`RedisReplayStore` in `keyed/redis`), and
 * `claimOnce`, the one step a verifier takes after a message verified: claim its id for the rest
 * of its validity and answer in the refusal shape (src/core/result.ts).
 *
 * The epoch rule. A store vouches only for ids claimed since it started keeping records (its
 * epoch); a store that lost its records (a process restart, a Redis restarted empty) cannot tell
 * an id it never saw from one it forgot. So a claim carries the time its message was issued
 * (`validFrom`, its signed timestamp), and a message issued before the store's epoch is refused as
 * replayed: it may have been accepted by the store's earlier life. Such a message stops mattering
 * when its validity ends, so the refusal lasts at most one validity period. docs/fleet.md has the
 * reasoning and the failure modes.
 *
 * Ids are any bytes or text of any length; stores keep only a SHA-256 of them (so a key's size is
 * bounded whatever the id), never the id itself.
 */

import { assertBytes, type Bytes, bytesToBase64url, utf8ToBytes } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import { checkOptions, describeType } from "../core/options.js";
import { refuse, type Verdict } from "../core/result.js";
import { nowSeconds, type TimeInput } from "../core/time.js";
import { sha256 } from "../hash/sha256.js";

/** A message id: text (hashed as UTF-8) or bytes. */
export type ReplayId = string | Bytes;

/** The times of a claim beside its TTL (see `ReplayStore.claim`). */
export interface ClaimOptions {
  /**
   * When the message was issued (its signed timestamp), as a Date or Unix seconds. A store
   * refuses a message issued before its epoch (the epoch rule, module comment). Without it the
   * rule cannot apply, and the claim is a plain "once within ttlSeconds" (right for ids that
   * carry no time, such as a GitHub delivery id, where a store that lost its records may accept
   * an id again). `claimOnce` always gives it.
   */
  validFrom?: TimeInput;
  /** The current time, a Date or Unix seconds. Default: the system clock. */
  now?: TimeInput;
}

/**
 * Remembers message ids for a time. Implementations: `MemoryReplayStore` (one process) and
 * `RedisReplayStore` (`keyed/redis`, a fleet).
 *
 * The third argument beyond `claim(id, ttlSeconds)` is there for the epoch rule: a store that
 * restarted empty can only refuse the messages its earlier life may have accepted if it knows when
 * each message became acceptable (`validFrom`), and a test or a verifier with its own clock needs
 * to give `now`.
 */
export interface ReplayStore {
  /**
   * Resolves to true exactly once per id within `ttlSeconds` (and false for every other claim of
   * it then, or when the message was acceptable before the store's epoch). `ttlSeconds` is a
   * number of seconds above 0 (rounded up to whole seconds); anything else is BAD_INPUT. Rejects
   * with a KeyedError: BAD_INPUT for the caller's own arguments, STORE_UNAVAILABLE when the store
   * cannot answer (full, unreachable, too slow): never resolves true then.
   */
  claim(id: ReplayId, ttlSeconds: number, options?: ClaimOptions): Promise<boolean>;
}

/** Longest accepted claim TTL: 2^31 - 1 seconds (68 years; Redis's EX takes any 64-bit count). */
const MAX_TTL = 2 ** 31 - 1;

/** Whole seconds above 0, from a TTL; BAD_INPUT for anything else (a TTL of 0 claims nothing). */
export function claimTtl(ttl: unknown): number {
  if (typeof ttl !== "number" || !Number.isFinite(ttl) || ttl <= 0 || ttl > MAX_TTL) {
    throw new KeyedError(
      "BAD_INPUT",
      `ttlSeconds must be a number of seconds above 0 and at most ${MAX_TTL}; got ${
        typeof ttl === "number" ? ttl : describeType(ttl)
      }.`,
    );
  }
  return Math.ceil(ttl);
}

/** The checked times of a claim: now, validFrom (both Unix seconds) and the whole-second TTL. */
export function claimTimes(
  ttlSeconds: unknown,
  options: ClaimOptions | undefined,
): { ttl: number; now: number; validFrom: number | undefined } {
  const ttl = claimTtl(ttlSeconds);
  const o = checkOptions<ClaimOptions>(options, ["validFrom", "now"], "claim options");
  const now = nowSeconds(o.now);
  const validFrom =
    o.validFrom === undefined ? undefined : nowSeconds(o.validFrom, "options.validFrom");
  return { ttl, now, validFrom };
}

/** SHA-256 of an id (UTF-8 for text): what a store keeps. BAD_INPUT when it is neither. */
export function replayIdHash(id: unknown): Bytes {
  if (typeof id === "string") return sha256(utf8ToBytes(id));
  assertBytes(id, "id");
  return sha256(id);
}

/** The rejection of a store that cannot answer. */
export function storeUnavailable(message: string): KeyedError {
  return new KeyedError("STORE_UNAVAILABLE", message);
}

/** Settings of `MemoryReplayStore`. */
export interface MemoryReplayStoreOptions {
  /** Most ids held at once (default 100,000). When full of live ids, claims are refused. */
  maxEntries?: number;
}

/**
 * A replay store in this process's memory: bounded by `maxEntries`; expired ids are dropped when
 * room is needed; when full of live ids a claim rejects with STORE_UNAVAILABLE rather than forget
 * an id that is still valid. Its epoch starts when it was made (or at its first claim's `now`,
 * if earlier): a restarted process has forgotten what it accepted before.
 */
export class MemoryReplayStore implements ReplayStore {
  /** The most ids it holds; when full of live ids, a claim is STORE_UNAVAILABLE. */
  readonly maxEntries: number;
  /** Id hash (base64url) to the second its claim expires. */
  private readonly entries = new Map<string, number>();
  /** The earliest expiry seen by the last sweep: no sweep frees anything before then. */
  private nextExpiry = Number.NEGATIVE_INFINITY;
  private readonly made = Math.floor(Date.now() / 1000);
  private epoch: number | undefined;

  constructor(options: MemoryReplayStoreOptions = {}) {
    const o = checkOptions<MemoryReplayStoreOptions>(
      options,
      ["maxEntries"],
      "MemoryReplayStore options",
    );
    const max = o.maxEntries ?? 100_000;
    if (!Number.isSafeInteger(max) || max < 1) {
      throw new KeyedError(
        "BAD_INPUT",
        `maxEntries must be a whole number of at least 1; got ${typeof max === "number" ? max : describeType(max)}.`,
      );
    }
    this.maxEntries = max;
  }

  /** Ids held now (live or expired but not yet dropped). */
  get size(): number {
    return this.entries.size;
  }

  async claim(id: ReplayId, ttlSeconds: number, options?: ClaimOptions): Promise<boolean> {
    const { ttl, now, validFrom } = claimTimes(ttlSeconds, options);
    const key = bytesToBase64url(replayIdHash(id));
    this.epoch ??= Math.min(this.made, now);
    if (validFrom !== undefined && validFrom < this.epoch) return false;
    const expires = this.entries.get(key);
    if (expires !== undefined && expires > now) return false;
    if (expires === undefined && this.entries.size >= this.maxEntries) {
      this.sweep(now);
      if (this.entries.size >= this.maxEntries) {
        throw storeUnavailable(
          `the memory replay store holds ${this.maxEntries} live ids (maxEntries); it refuses ` +
            "new ones rather than forget one that is still valid.",
        );
      }
    }
    this.entries.delete(key);
    this.entries.set(key, now + ttl);
    return true;
  }

  /** Drops expired ids; at most once per earliest expiry, so a full store costs O(1) per claim. */
  private sweep(now: number): void {
    if (now < this.nextExpiry) return;
    let next = Number.POSITIVE_INFINITY;
    for (const [key, expires] of this.entries) {
      if (expires <= now) this.entries.delete(key);
      else if (expires < next) next = expires;
    }
    this.nextExpiry = next;
  }
}

// --- claimOnce: the step after a verifier ----------------------------------------------------------

/** Why `claimOnce` refused a verified message. */
export type ClaimFailure =
  /** The id was claimed before within its validity, or the message predates the store's epoch. */
  | "replayed"
  /** The store did not answer in time, failed, or answered nonsense: refused, not accepted. */
  | "store_unavailable";

/** What `claimOnce` answers: `{ ok: true }`, or `replayed` / `store_unavailable`. */
export type ClaimResult = Verdict<object, ClaimFailure>;

/** Settings of `claimOnce`: the message's validity, in the one time convention. */
export interface ClaimOnceOptions {
  /**
   * When the message was issued: its signed timestamp (a Date or Unix seconds; negative values
   * count as 0). The epoch rule refuses messages issued before the store's epoch. Leave it out
   * only for ids that carry no time (a GitHub delivery id): the rule cannot protect those.
   */
  validFrom?: TimeInput;
  /** The last second at which the verifier accepts it (timestamp + max age + tolerance). */
  validUntil: TimeInput;
  /** The current time (the verifier's): a Date or Unix seconds. Default: the system clock. */
  now?: TimeInput;
}

const CLAIM_ONCE_OPTIONS = ["validFrom", "validUntil", "now"];

/** Seconds from a Date or a number, where a clamped negative number means 0. */
function moment(value: unknown, name: string): number {
  return nowSeconds(typeof value === "number" && value < 0 ? 0 : value, name);
}

/** BAD_INPUT unless `value` is a ReplayStore (an object with a `claim` method). */
export function assertReplayStore(value: unknown, name: string): asserts value is ReplayStore {
  if (
    value === null ||
    typeof value !== "object" ||
    typeof (value as ReplayStore).claim !== "function"
  ) {
    throw new KeyedError(
      "BAD_INPUT",
      `${name} must be a ReplayStore (MemoryReplayStore, RedisReplayStore); got ${describeType(value)}.`,
    );
  }
}

/** What a verified message is claimed by: its id and validity (see `claimOnce`). */
export interface ReplayClaim {
  id: ReplayId;
  validFrom: number | undefined;
  validUntil: number;
  now: number;
}

/**
 * A verifier's answer with an optional replay store: without one, `result` as it is; with one,
 * a Promise of it once the message `claim()` names was claimed (`replayed` or `store_unavailable`
 * otherwise). Only an accepted message is claimed, so forgeries never fill the store; `claim()`
 * may refuse instead (a token with nothing to be remembered by).
 */
export function claimAccepted<R extends { ok: boolean }, F extends { ok: false }>(
  result: R,
  store: ReplayStore | undefined,
  claim: () => ReplayClaim | F,
): R | Promise<R | F | (ClaimResult & { ok: false })> {
  if (store === undefined) return result;
  if (!result.ok) return Promise.resolve(result);
  const c = claim();
  if ("ok" in c) return Promise.resolve(c);
  const { id, validFrom, validUntil, now } = c;
  return claimOnce(store, id, { validFrom, validUntil, now }).then((answer) =>
    answer.ok ? result : answer,
  );
}

/**
 * Claims the id of a message that has verified, for the rest of its validity (TTL: validUntil -
 * now, rounded up, at least 1 s), and answers `{ ok: true }` or a refusal (`replayed`,
 * `store_unavailable`). Never rejects for what the store does: a store that rejects, throws, is
 * slow beyond its own timeout or resolves to anything but a boolean gives `store_unavailable`.
 * Only the caller's own arguments throw (BAD_INPUT): a store that is not one, an id that is not
 * text or bytes, times that are not times, or a `validUntil` already past (check freshness first).
 */
export async function claimOnce(
  store: ReplayStore,
  id: ReplayId,
  options: ClaimOnceOptions,
): Promise<ClaimResult> {
  assertReplayStore(store, "replayStore");
  if (typeof id !== "string") assertBytes(id, "id");
  if (options === undefined) {
    throw new KeyedError("BAD_INPUT", "claimOnce takes options { validFrom, validUntil, now? }.");
  }
  const o = checkOptions<ClaimOnceOptions>(options, CLAIM_ONCE_OPTIONS, "claimOnce options");
  if (o.validUntil === undefined) {
    throw new KeyedError("BAD_INPUT", "claimOnce needs options.validUntil.");
  }
  const now = nowSeconds(o.now);
  const validFrom =
    o.validFrom === undefined ? undefined : moment(o.validFrom, "options.validFrom");
  const validUntil = moment(o.validUntil, "options.validUntil");
  if (validUntil < now) {
    throw new KeyedError(
      "BAD_INPUT",
      `validUntil (${validUntil}) is before now (${now}): refuse expired messages before claiming them.`,
    );
  }
  const ttl = claimTtl(Math.floor(validUntil - now) + 1);
  let claimed: unknown;
  try {
    claimed = await store.claim(id, ttl, validFrom === undefined ? { now } : { validFrom, now });
  } catch (error) {
    return refuse(
      "store_unavailable",
      `the replay store did not answer: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (claimed === true) return { ok: true };
  if (claimed === false) {
    return refuse(
      "replayed",
      "this message id was accepted before within its validity, or the message predates the replay store's records (a restarted store).",
    );
  }
  return refuse(
    "store_unavailable",
    `the replay store answered ${describeType(claimed)} where a boolean was expected.`,
  );
}
