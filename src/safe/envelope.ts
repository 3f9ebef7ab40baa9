/**
 * Sealed tokens with freshness: `seal` authenticates a payload with an optional timestamp and
 * counter; `open` checks the tag before it parses or acts on anything in the token, then refuses
 * stale, future-dated and replayed tokens, each with its own code.
 *
 * Token layout (docs/fields.md has a worked example):
 *   version (1 byte, 0x01) ‖ algorithm id (1 byte) ‖ flags (1 byte: 1 = timestamp, 2 = counter,
 *   4 = key id) ‖ [key id, u32 big-endian] ‖ [timestamp, u64 big-endian seconds]
 *   ‖ [counter, u64 big-endian] ‖ payload ‖ tag
 * The tag is `tagFields(purpose, [everything before the tag])` under a key derived from the
 * caller's key for this purpose and algorithm (HKDF-SHA256), so one key can seal for several
 * purposes without a token for one being accepted for another. The receiver names the algorithm;
 * the token's algorithm byte is only checked, never obeyed.
 *
 * With a Keyset, the primary key seals and the token carries its id (flag 4); `open` reads that id
 * first, the one field read before the tag is checked (it chooses the key, and the tag covers it),
 * and opens with that key when it is enabled, under the algorithm of that key.
 */

import { assertBytes, assertString, type Bytes, copyBytes } from "../core/bytes.js";
import { KeyedError, type KeyedErrorCode } from "../core/errors.js";
import { encodeFields } from "../core/fields.js";
import type { MacName } from "../core/mac.js";
import { checkOptions, describeType } from "../core/options.js";
import { refuse, type Verdict } from "../core/result.js";
import {
  durationSeconds,
  nowSeconds,
  type TimeInput,
  toleranceSeconds,
  toWholeSeconds,
} from "../core/time.js";
import { hkdf } from "../kdf/hkdf.js";
import { mac, macInfo } from "../mac/registry.js";
import type { Keyset } from "./keyset.js";
import { type KeysetView, keysetView } from "./keyset-access.js";
import type { ReplayWindow } from "./replay.js";
import { type ClaimFailure, claimOnce, type ReplayStore } from "./store.js";

const VERSION = 1;
const HAS_TIMESTAMP = 1;
const HAS_COUNTER = 2;
const HAS_KEY_ID = 4;
const HEADER = 3;
const MAX_U64 = (1n << 64n) - 1n;

/** The algorithms a token may use, with their stable one-byte ids. */
export const SEAL_ALGORITHMS = {
  /** HMAC-SHA256, the default. */
  "hmac-sha256": 1,
  /** HMAC-SHA384. */
  "hmac-sha384": 2,
  /** HMAC-SHA512. */
  "hmac-sha512": 3,
  /** HMAC-SHA3-256. */
  "hmac-sha3-256": 4,
  /** HMAC-SHA3-512. */
  "hmac-sha3-512": 5,
  /** KMAC128. */
  kmac128: 6,
  /** KMAC256. */
  kmac256: 7,
  /** Keyed BLAKE3. */
  blake3: 8,
  /** CMAC-AES128. */
  "cmac-aes128": 9,
  /** CMAC-AES256. */
  "cmac-aes256": 10,
} as const satisfies Partial<Record<MacName, number>>;
/** A MAC `seal` and `open` take: a name of `SEAL_ALGORITHMS`. */
export type SealAlgorithm = keyof typeof SEAL_ALGORITHMS;

const SALT = new TextEncoder().encode("keyed seal v1");

/** The key a seal or open uses: bytes (with `algorithm`), or a keyset key (with its MAC). */
interface SealKey {
  bytes: Bytes;
  algorithm: unknown;
  /** The keyset key's id, written into the token. */
  keyId: number | undefined;
}

/** The keyset key `keyId` as a seal key, or undefined when it is not enabled or not a seal MAC. */
function keysetSealKey(keyset: KeysetView, keyId: number): SealKey | undefined {
  const info = keyset.get(keyId);
  if (info?.status !== "enabled" || info.algorithm === undefined) return undefined;
  if (!Object.hasOwn(SEAL_ALGORITHMS, info.algorithm)) return undefined;
  const bytes = keyset.keyBytes(keyId);
  return bytes === undefined ? undefined : { bytes, algorithm: info.algorithm, keyId };
}

/** seal's key: the bytes and options.algorithm, or the keyset's primary (options.algorithm unset). */
function sealingKey(key: unknown, algorithm: unknown): SealKey {
  const keyset = keysetView(key);
  if (keyset === undefined) {
    return { bytes: key as Bytes, algorithm: algorithm ?? "hmac-sha256", keyId: undefined };
  }
  refuseAlgorithmWithKeyset(algorithm);
  const primary = keyset.primaryId;
  const found = keysetSealKey(keyset, primary);
  if (found === undefined) {
    throw new KeyedError(
      "UNKNOWN_ALGORITHM",
      `the keyset's primary key is ${keyset.get(primary)?.algorithm}; seal takes one of ${Object.keys(SEAL_ALGORITHMS).join(", ")}.`,
    );
  }
  return found;
}

function refuseAlgorithmWithKeyset(algorithm: unknown): void {
  if (algorithm !== undefined) {
    throw new KeyedError(
      "BAD_INPUT",
      "options.algorithm goes with a key; with a keyset, each key's own MAC is used.",
    );
  }
}

function sealMac(key: Bytes, purpose: string, algorithm: unknown) {
  assertBytes(key, "key");
  assertString(purpose, "options.purpose");
  if (typeof algorithm !== "string" || !Object.hasOwn(SEAL_ALGORITHMS, algorithm)) {
    throw new KeyedError(
      "UNKNOWN_ALGORITHM",
      `seal and open take one of ${Object.keys(SEAL_ALGORITHMS).join(", ")}; got ${typeof algorithm === "string" || typeof algorithm === "number" ? JSON.stringify(algorithm) : describeType(algorithm)}.`,
    );
  }
  if (key.length < 16)
    throw new KeyedError("KEY_TOO_SHORT", `key must be at least 16 bytes; got ${key.length}.`);
  const name = algorithm as SealAlgorithm;
  const macKey = hkdf("sha256", key, {
    salt: SALT,
    info: encodeFields("keyed seal v1", [name, purpose]),
    length: macInfo(name).recommendedKeyLength,
  });
  const m = mac(name, macKey);
  macKey.fill(0);
  return { m, id: SEAL_ALGORITHMS[name] };
}

function writeU64(out: Uint8Array, offset: number, value: bigint): void {
  for (let i = 7; i >= 0; i--) {
    out[offset + i] = Number(value & 0xffn);
    value >>= 8n;
  }
}

function readU64(bytes: Uint8Array, offset: number): bigint {
  let value = 0n;
  for (let i = 0; i < 8; i++) value = (value << 8n) | BigInt(bytes[offset + i]);
  return value;
}

function u64(value: unknown, name: string): bigint {
  const v = typeof value === "number" && Number.isSafeInteger(value) ? BigInt(value) : value;
  if (typeof v !== "bigint" || v < 0n || v > MAX_U64) {
    throw new KeyedError(
      "BAD_INPUT",
      `${name} must be a whole number (or bigint) from 0 to 2^64 - 1.`,
    );
  }
  return v;
}

/** A seal timestamp: a Date, or whole seconds (a number or bigint) below the milliseconds range. */
function sealTimestamp(value: unknown): bigint {
  const seconds = typeof value === "bigint" ? Number(u64(value, "options.timestamp")) : value;
  return BigInt(toWholeSeconds(seconds, "options.timestamp"));
}

/** Settings of `seal`. */
export interface SealOptions {
  /** What the token is for; a token opens only under the same purpose. */
  purpose: string;
  /**
   * When the token was made: a Date or whole seconds since the epoch (not milliseconds: those are
   * refused with a hint). open() can then refuse stale and future tokens.
   */
  timestamp?: TimeInput;
  /** A message counter; open() can then refuse replays. */
  counter?: bigint | number;
  /** Default "hmac-sha256". */
  algorithm?: SealAlgorithm;
}

/**
 * A token carrying `payload`, authenticated for `purpose` (see the module comment), under `key` or
 * a keyset's primary key (whose id the token then carries).
 */
export function seal(key: Bytes | Keyset, payload: Bytes, options: SealOptions): Bytes {
  assertBytes(payload, "payload");
  if (options === undefined) {
    throw new KeyedError(
      "BAD_INPUT",
      "seal takes options { purpose, timestamp?, counter?, algorithm? }.",
    );
  }
  checkOptions(options, ["purpose", "timestamp", "counter", "algorithm"], "seal options");
  const sealKey = sealingKey(key, options.algorithm);
  let sealed: ReturnType<typeof sealMac>;
  try {
    sealed = sealMac(sealKey.bytes, options.purpose, sealKey.algorithm);
  } finally {
    if (sealKey.keyId !== undefined) sealKey.bytes.fill(0);
  }
  const { m, id } = sealed;
  const keyId = sealKey.keyId;
  const timestamp = options.timestamp === undefined ? undefined : sealTimestamp(options.timestamp);
  const counter =
    options.counter === undefined ? undefined : u64(options.counter, "options.counter");
  const bodyLength =
    HEADER +
    (keyId === undefined ? 0 : 4) +
    (timestamp === undefined ? 0 : 8) +
    (counter === undefined ? 0 : 8) +
    payload.length;
  const token = new Uint8Array(bodyLength + m.tagLength);
  token[0] = VERSION;
  token[1] = id;
  token[2] =
    (keyId === undefined ? 0 : HAS_KEY_ID) |
    (timestamp === undefined ? 0 : HAS_TIMESTAMP) |
    (counter === undefined ? 0 : HAS_COUNTER);
  let o = HEADER;
  if (keyId !== undefined) {
    new DataView(token.buffer).setUint32(o, keyId);
    o += 4;
  }
  if (timestamp !== undefined) {
    writeU64(token, o, timestamp);
    o += 8;
  }
  if (counter !== undefined) {
    writeU64(token, o, counter);
    o += 8;
  }
  token.set(payload, o);
  token.set(m.tagFields(options.purpose, [token.subarray(0, bodyLength)]), bodyLength);
  m.destroy();
  return token;
}

/** Settings of `open`: the same purpose and algorithm as the sealing side, and the checks to make. */
export interface OpenOptions {
  /** The purpose the token was sealed for; any other purpose fails with TAG_INVALID. */
  purpose: string;
  /** Refuse tokens older than this (`expired`); they must then carry a timestamp. */
  maxAgeSeconds?: number;
  /** Tolerated clock difference in seconds (default 0), both ways. */
  toleranceSeconds?: number;
  /** @deprecated The old name of `toleranceSeconds`, accepted for one release. */
  clockSkewSeconds?: number;
  /** The current time: a Date or seconds since the epoch (default: the system clock). */
  now?: TimeInput;
  /** Refuse counters this window has seen or left behind (`replayed`); tokens must carry one. */
  replay?: ReplayWindow;
  /** Must match the sealing side; default "hmac-sha256". */
  algorithm?: SealAlgorithm;
}

/** What `open` returns once the token is authentic, fresh and new. */
export interface Opened {
  /** The sealed payload. */
  payload: Bytes;
  /** The id of the keyset key that sealed the token (opened with a keyset). */
  keyId?: number;
  /** Seconds since the epoch, when the token carries a timestamp. */
  timestamp?: number;
  /** The token's counter, if it has one. */
  counter?: bigint;
}

/** Why `tryOpen` refused a token; `open` throws the KeyedError code beside each. */
export type OpenFailure =
  /** TAG_INVALID: wrong key, purpose or algorithm, or the token was changed. */
  | "tag_invalid"
  /** BAD_INPUT: authentic, but a version, algorithm id or layout this keyed does not read. */
  | "malformed"
  /** EXPIRED: older than maxAgeSeconds (+ tolerance), or no timestamp where one is needed. */
  | "expired"
  /** NOT_YET_VALID: dated in the future beyond the tolerance. */
  | "not_yet_valid"
  /** REPLAYED: a counter the replay window has seen or left behind, or no counter. */
  | "replayed"
  /** KEY_NOT_FOUND: opened with a keyset, the token names no enabled key of it (or names none). */
  | "unknown_key";

/** What `tryOpen` answers: the opened token, or a refusal. */
export type OpenResult = Verdict<Opened, OpenFailure>;

const OPEN_CODES = {
  tag_invalid: "TAG_INVALID",
  malformed: "BAD_INPUT",
  expired: "EXPIRED",
  not_yet_valid: "NOT_YET_VALID",
  replayed: "REPLAYED",
  unknown_key: "KEY_NOT_FOUND",
} as const satisfies Record<OpenFailure, KeyedErrorCode>;

const OPEN_OPTIONS = [
  "purpose",
  "maxAgeSeconds",
  "toleranceSeconds",
  "clockSkewSeconds",
  "now",
  "replay",
  "algorithm",
];

/** The checked options of open/tryOpen (the caller's own: these throw). */
interface OpenPlan {
  /** The keyset opened with, if any: the algorithm comes from the key the token names. */
  keyset: KeysetView | undefined;
  purpose: string;
  tolerance: number;
  maxAge: number | undefined;
  now: number;
  replay: ReplayWindow | undefined;
  algorithm: unknown;
}

function openPlan(key: unknown, options: OpenOptions): OpenPlan {
  if (options === undefined) {
    throw new KeyedError(
      "BAD_INPUT",
      "open takes options { purpose, maxAgeSeconds?, toleranceSeconds?, now?, replay?, algorithm? }.",
    );
  }
  const o = checkOptions<OpenOptions>(options, OPEN_OPTIONS, "open options");
  const keyset = keysetView(key);
  if (keyset !== undefined) refuseAlgorithmWithKeyset(o.algorithm);
  return {
    keyset,
    purpose: o.purpose,
    tolerance: toleranceSeconds(o, ["clockSkewSeconds"], 0),
    maxAge:
      o.maxAgeSeconds === undefined
        ? undefined
        : durationSeconds(o.maxAgeSeconds, "options.maxAgeSeconds"),
    now: nowSeconds(o.now),
    replay: o.replay,
    algorithm: o.algorithm ?? "hmac-sha256",
  };
}

/**
 * `open` without exceptions for what the token holds: `{ ok: true, payload, timestamp?, counter? }`
 * or `{ ok: false, reason, message }` (reasons: `OpenFailure`). Only the caller's own arguments
 * throw (a key or options that are not valid, a token that is not bytes). Nothing in the token is
 * read before its tag has been checked.
 */
export function tryOpen(key: Bytes | Keyset, token: Bytes, options: OpenOptions): OpenResult {
  assertBytes(token, "token");
  return openWithPlan(key, token, openPlan(key, options));
}

function openWithPlan(key: Bytes | Keyset, token: Bytes, plan: OpenPlan): OpenResult {
  let openKey: SealKey;
  const keyset = plan.keyset;
  if (keyset !== undefined) {
    // The key id, the one field read before the tag: it chooses the key, and the tag covers it.
    const keyId =
      token.length >= HEADER + 4 && (token[2] & HAS_KEY_ID) !== 0
        ? new DataView(token.buffer, token.byteOffset).getUint32(HEADER)
        : undefined;
    const found = keyId === undefined ? undefined : keysetSealKey(keyset, keyId);
    if (found === undefined) {
      assertString(plan.purpose, "options.purpose");
      return refuse(
        "unknown_key",
        keyId === undefined
          ? "the token names no key, and a keyset opens only tokens sealed with one of its keys."
          : `the token names key ${keyId}, which this keyset does not hold enabled (for a seal MAC).`,
      );
    }
    openKey = found;
  } else {
    openKey = { bytes: key as Bytes, algorithm: plan.algorithm, keyId: undefined };
  }
  let opening: ReturnType<typeof sealMac>;
  try {
    opening = sealMac(openKey.bytes, plan.purpose, openKey.algorithm);
  } finally {
    if (openKey.keyId !== undefined) openKey.bytes.fill(0);
  }
  const { m, id } = opening;
  // 1. The tag, over whatever precedes it: nothing is parsed before this.
  const bodyLength = Math.max(0, token.length - m.tagLength);
  const ok = m.verifyFields(
    plan.purpose,
    [token.subarray(0, bodyLength)],
    token.subarray(bodyLength),
  );
  m.destroy();
  if (!ok || bodyLength < HEADER) {
    return refuse(
      "tag_invalid",
      "the token's tag does not match: wrong key, purpose or algorithm, or the token was changed.",
    );
  }
  // 2. Authenticated from here on.
  const flags = token[2];
  const known = HAS_TIMESTAMP | HAS_COUNTER | (plan.keyset !== undefined ? HAS_KEY_ID : 0);
  if (token[0] !== VERSION || token[1] !== id || (flags & ~known) !== 0) {
    return refuse(
      "malformed",
      `unsupported token version ${token[0]} or algorithm id ${token[1]}.`,
    );
  }
  let o = HEADER + (openKey.keyId === undefined ? 0 : 4);
  let timestamp: number | undefined;
  let counter: bigint | undefined;
  if (flags & HAS_TIMESTAMP) {
    timestamp = Number(readU64(token, o));
    o += 8;
  }
  if (flags & HAS_COUNTER) {
    counter = readU64(token, o);
    o += 8;
  }
  if (o > bodyLength) return refuse("malformed", "the token is shorter than its header says.");
  // 3. Freshness.
  const { now, tolerance, maxAge } = plan;
  if (maxAge !== undefined) {
    if (timestamp === undefined) {
      return refuse("expired", "maxAgeSeconds was given but the token carries no timestamp.");
    }
    if (now - timestamp > maxAge + tolerance) {
      return refuse(
        "expired",
        `the token is ${now - timestamp} s old; at most ${maxAge} s (+${tolerance} s tolerance) is accepted.`,
      );
    }
  }
  if (timestamp !== undefined && timestamp - now > tolerance) {
    return refuse(
      "not_yet_valid",
      `the token is dated ${timestamp - now} s in the future; the allowed skew is ${tolerance} s (toleranceSeconds).`,
    );
  }
  if (plan.replay !== undefined) {
    if (counter === undefined) {
      return refuse("replayed", "a replay window was given but the token carries no counter.");
    }
    if (!plan.replay.accept(counter)) {
      return refuse(
        "replayed",
        `counter ${counter} was seen before or is older than the replay window.`,
      );
    }
  }
  const opened: { ok: true } & Opened = {
    ok: true,
    payload: copyBytes(token.subarray(o, bodyLength)),
  };
  if (openKey.keyId !== undefined) opened.keyId = openKey.keyId;
  if (timestamp !== undefined) opened.timestamp = timestamp;
  if (counter !== undefined) opened.counter = counter;
  return opened;
}

/**
 * The payload of a token from `seal`. Throws TAG_INVALID (wrong key, purpose, algorithm or any
 * change to the token), EXPIRED, NOT_YET_VALID or REPLAYED; nothing in the token is read before
 * its tag has been checked. `tryOpen` gives the same answers as a result instead of exceptions.
 */
export function open(key: Bytes | Keyset, token: Bytes, options: OpenOptions): Opened {
  const result = tryOpen(key, token, options);
  if (!result.ok) throw new KeyedError(OPEN_CODES[result.reason], result.message);
  const { ok: _, ...opened } = result;
  return opened;
}

export interface OpenOnceOptions extends OpenOptions {
  /** Required: the token's validity, from its timestamp (which it must then carry). */
  maxAgeSeconds: number;
  /** Where the token is claimed: `MemoryReplayStore`, or `RedisReplayStore` for a fleet. */
  replayStore: ReplayStore;
}

/** Why `openOnce` refused: `OpenFailure`, or a store that could not answer. */
export type OpenOnceFailure = OpenFailure | ClaimFailure;

/** What `openOnce` answers: the opened token, or a refusal (`replayed`, `store_unavailable` too). */
export type OpenOnceResult = Verdict<Opened, OpenOnceFailure>;

/**
 * `tryOpen`, then the token claimed in `replayStore` for the rest of its validity, so that it opens
 * once across every process sharing the store. The token is verified (tag, then freshness) first,
 * so forgeries and stale tokens never reach the store. `replayed` is also the answer for a token
 * that was acceptable before the store's epoch (a store that restarted empty: see ReplayStore);
 * `store_unavailable` when the store cannot answer. Never rejects for what the token or the store
 * holds; only the caller's own arguments throw, as in `tryOpen` (and `maxAgeSeconds` and
 * `replayStore` are required).
 */
export async function openOnce(
  key: Bytes | Keyset,
  token: Bytes,
  options: OpenOnceOptions,
): Promise<OpenOnceResult> {
  assertBytes(token, "token");
  const { replayStore, ...rest } = (options ?? {}) as Partial<OpenOnceOptions>;
  if (replayStore === undefined || rest.maxAgeSeconds === undefined) {
    throw new KeyedError(
      "BAD_INPUT",
      "openOnce needs options.replayStore and options.maxAgeSeconds (the claim lasts as long as the token is valid).",
    );
  }
  const plan = openPlan(key, rest as OpenOptions);
  const opened = openWithPlan(key, token, plan);
  if (!opened.ok) return opened;
  // maxAgeSeconds was given, so an opened token carries a timestamp.
  const timestamp = opened.timestamp as number;
  const claim = await claimOnce(replayStore, token, {
    validFrom: timestamp,
    validUntil: timestamp + (plan.maxAge as number) + plan.tolerance,
    now: plan.now,
  });
  return claim.ok ? opened : claim;
}
