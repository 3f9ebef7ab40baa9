/**
 * Sealed tokens with freshness: `seal` authenticates a payload with an optional timestamp and
 * counter; `open` checks the tag before it parses or acts on anything in the token, then refuses
 * stale, future-dated and replayed tokens, each with its own code.
 *
 * Token layout (docs/fields.md has a worked example):
 *   version (1 byte, 0x01) ‖ algorithm id (1 byte) ‖ flags (1 byte: 1 = timestamp, 2 = counter)
 *   ‖ [timestamp, u64 big-endian seconds] ‖ [counter, u64 big-endian] ‖ payload ‖ tag
 * The tag is `tagFields(purpose, [everything before the tag])` under a key derived from the
 * caller's key for this purpose and algorithm (HKDF-SHA256), so one key can seal for several
 * purposes without a token for one being accepted for another. The receiver names the algorithm;
 * the token's algorithm byte is only checked, never obeyed.
 */

import { assertBytes, assertString, type Bytes, copyBytes } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import { encodeFields } from "../core/fields.js";
import type { MacName } from "../core/mac.js";
import { checkOptions, describeType } from "../core/options.js";
import { hkdf } from "../kdf/hkdf.js";
import { mac, macInfo } from "../mac/registry.js";
import type { ReplayWindow } from "./replay.js";

const VERSION = 1;
const HAS_TIMESTAMP = 1;
const HAS_COUNTER = 2;
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

/** Settings of `seal`. */
export interface SealOptions {
  /** What the token is for; a token opens only under the same purpose. */
  purpose: string;
  /** Seconds since the epoch; open() can then refuse stale and future tokens. */
  timestamp?: number;
  /** A message counter; open() can then refuse replays. */
  counter?: bigint | number;
  /** Default "hmac-sha256". */
  algorithm?: SealAlgorithm;
}

/** A token carrying `payload`, authenticated for `purpose` (see the module comment). */
export function seal(key: Bytes, payload: Bytes, options: SealOptions): Bytes {
  assertBytes(payload, "payload");
  if (options === undefined) {
    throw new KeyedError(
      "BAD_INPUT",
      "seal takes options { purpose, timestamp?, counter?, algorithm? }.",
    );
  }
  checkOptions(options, ["purpose", "timestamp", "counter", "algorithm"], "seal options");
  const { m, id } = sealMac(key, options.purpose, options.algorithm ?? "hmac-sha256");
  const timestamp =
    options.timestamp === undefined ? undefined : u64(options.timestamp, "options.timestamp");
  const counter =
    options.counter === undefined ? undefined : u64(options.counter, "options.counter");
  const bodyLength =
    HEADER + (timestamp === undefined ? 0 : 8) + (counter === undefined ? 0 : 8) + payload.length;
  const token = new Uint8Array(bodyLength + m.tagLength);
  token[0] = VERSION;
  token[1] = id;
  token[2] =
    (timestamp === undefined ? 0 : HAS_TIMESTAMP) | (counter === undefined ? 0 : HAS_COUNTER);
  let o = HEADER;
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
  /** Refuse tokens older than this (EXPIRED); they must then carry a timestamp. */
  maxAgeSeconds?: number;
  /** Tolerated clock difference in seconds (default 0), both ways. */
  clockSkewSeconds?: number;
  /** The current time in seconds (default: the system clock). */
  now?: number;
  /** Refuse counters this window has seen or left behind (REPLAYED); tokens must carry one. */
  replay?: ReplayWindow;
  /** Must match the sealing side; default "hmac-sha256". */
  algorithm?: SealAlgorithm;
}

/** What `open` returns once the token is authentic, fresh and new. */
export interface Opened {
  /** The sealed payload. */
  payload: Bytes;
  /** The token's timestamp, seconds since the epoch, if it has one. */
  timestamp?: number;
  /** The token's counter, if it has one. */
  counter?: bigint;
}

function seconds(value: unknown, name: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new KeyedError("BAD_INPUT", `${name} must be a non-negative number of seconds.`);
  }
  return value;
}

const OPEN_OPTIONS = ["purpose", "maxAgeSeconds", "clockSkewSeconds", "now", "replay", "algorithm"];

/**
 * The payload of a token from `seal`. Throws TAG_INVALID (wrong key, purpose, algorithm or any
 * change to the token), EXPIRED, NOT_YET_VALID or REPLAYED; nothing in the token is read before
 * its tag has been checked.
 */
export function open(key: Bytes, token: Bytes, options: OpenOptions): Opened {
  assertBytes(token, "token");
  if (options === undefined) {
    throw new KeyedError(
      "BAD_INPUT",
      "open takes options { purpose, maxAgeSeconds?, clockSkewSeconds?, now?, replay?, algorithm? }.",
    );
  }
  checkOptions(options, OPEN_OPTIONS, "open options");
  const skew = seconds(options.clockSkewSeconds ?? 0, "options.clockSkewSeconds");
  const maxAge =
    options.maxAgeSeconds === undefined
      ? undefined
      : seconds(options.maxAgeSeconds, "options.maxAgeSeconds");
  const now = seconds(options.now ?? Math.floor(Date.now() / 1000), "options.now");
  const { m, id } = sealMac(key, options.purpose, options.algorithm ?? "hmac-sha256");
  // 1. The tag, over whatever precedes it: nothing is parsed before this.
  const bodyLength = Math.max(0, token.length - m.tagLength);
  const ok = m.verifyFields(
    options.purpose,
    [token.subarray(0, bodyLength)],
    token.subarray(bodyLength),
  );
  m.destroy();
  if (!ok || bodyLength < HEADER) {
    throw new KeyedError(
      "TAG_INVALID",
      "the token's tag does not match: wrong key, purpose or algorithm, or the token was changed.",
    );
  }
  // 2. Authenticated from here on.
  const flags = token[2];
  if (token[0] !== VERSION || token[1] !== id || (flags & ~(HAS_TIMESTAMP | HAS_COUNTER)) !== 0) {
    throw new KeyedError(
      "BAD_INPUT",
      `unsupported token version ${token[0]} or algorithm id ${token[1]}.`,
    );
  }
  let o = HEADER;
  const result: Opened = { payload: new Uint8Array(0) };
  if (flags & HAS_TIMESTAMP) {
    result.timestamp = Number(readU64(token, o));
    o += 8;
  }
  if (flags & HAS_COUNTER) {
    result.counter = readU64(token, o);
    o += 8;
  }
  if (o > bodyLength)
    throw new KeyedError("BAD_INPUT", "the token is shorter than its header says.");
  // 3. Freshness.
  if (maxAge !== undefined) {
    if (result.timestamp === undefined) {
      throw new KeyedError(
        "EXPIRED",
        "maxAgeSeconds was given but the token carries no timestamp.",
      );
    }
    if (now - result.timestamp > maxAge + skew) {
      throw new KeyedError(
        "EXPIRED",
        `the token is ${now - result.timestamp} s old; at most ${maxAge} s (+${skew} s skew) is accepted.`,
      );
    }
  }
  if (result.timestamp !== undefined && result.timestamp - now > skew) {
    throw new KeyedError(
      "NOT_YET_VALID",
      `the token is dated ${result.timestamp - now} s in the future; the allowed skew is ${skew} s.`,
    );
  }
  if (options.replay !== undefined) {
    if (result.counter === undefined) {
      throw new KeyedError(
        "REPLAYED",
        "a replay window was given but the token carries no counter.",
      );
    }
    if (!options.replay.accept(result.counter)) {
      throw new KeyedError(
        "REPLAYED",
        `counter ${result.counter} was seen before or is older than the replay window.`,
      );
    }
  }
  result.payload = copyBytes(token.subarray(o, bodyLength));
  return result;
}
