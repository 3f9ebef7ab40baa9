/**
 * keyed/redis: replay protection and failure budgets shared by a fleet through Redis, over the
 * caller's own client (node-redis v4/v5 `createClient`/`createCluster`, or ioredis `Redis`/
 * `Cluster`, told apart by shape; keyed has no runtime dependency on either).
 *
 * - `RedisReplayStore`: a `ReplayStore` (claim an id once for a TTL).
 * - `RedisReplayWindow`: the RFC 4303 section 3.4.3 / RFC 6479 sliding window of `ReplayWindow`,
 *   one Lua script per `accept`.
 * - `RedisFailureBudget`: a `FailureBudget` for `new Verifier(mac, { budget })` and
 *   `verifier.check()`.
 *
 * Every operation is one atomic script run (EVALSHA; the script is sent with EVAL when the server
 * does not have it: on first use and after a restart), so no reconnect between two commands can
 * split a check from its write. Fails closed: no answer within `timeoutMs`, a client error or a
 * reply of the wrong shape rejects with KeyedError STORE_UNAVAILABLE, never a `true`. The next
 * call tries Redis again, so keyed recovers by itself when Redis does.
 *
 * Redis Cluster: the keys of one window or budget share the hash tag `{name}`, and a replay
 * store's ids are spread over 256 tags, each with its own epoch key, so every script touches one
 * slot. docs/fleet.md covers deployment, the epoch rule and the failure modes.
 */

import { type Bytes, bytesToBase64url, bytesToHex } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import { checkOptions, describeType } from "../core/options.js";
import { nowSeconds, type TimeInput } from "../core/time.js";
import {
  bounded,
  type Connection,
  checkTimeout,
  integerReply,
  keyPart,
  nonsense,
  type RedisClientLike,
  Script,
  type Send,
  sender,
} from "./redis-client.js";
import { checkWindowSize, replayCounter } from "./replay.js";
import {
  type ClaimOptions,
  claimTimes,
  type ReplayId,
  type ReplayStore,
  replayIdHash,
} from "./store.js";
import { checkMaxFailures, type FailureBudget } from "./verifier.js";

export type {
  IoRedisLike,
  NodeRedisClusterLike,
  NodeRedisLike,
  RedisClientLike,
} from "./redis-client.js";

// --- RedisReplayStore -------------------------------------------------------------------------

/**
 * The epoch of KEYS[1], started when missing (first use, or a Redis that lost its data): at the
 * later of the caller's clock (ARGV[1]) and the server's, rounded up, so that a stale command
 * resent after a restart cannot date the epoch back to before the restart.
 */
const EPOCH_LUA = `local raw = redis.call('GET', KEYS[1])
local epoch
if raw then
  epoch = tonumber(raw)
  if not epoch then return redis.error_reply('KEYED_EPOCH the epoch key does not hold a number') end
else
  local t = redis.call('TIME')
  epoch = math.max(tonumber(t[1]) + 1, math.ceil(tonumber(ARGV[1])))
  redis.call('SET', KEYS[1], string.format('%d', epoch))
end
`;

/**
 * KEYS: epoch key, id key (one hash tag). ARGV: now, validFrom ("-": none), ttl (seconds).
 * 1 = claimed, 0 = claimed before, 2 = acceptable before this epoch (the epoch rule).
 */
const CLAIM =
  new Script(`${EPOCH_LUA}if ARGV[2] ~= '-' and tonumber(ARGV[2]) < epoch then return 2 end
if redis.call('SET', KEYS[2], '1', 'NX', 'EX', ARGV[3]) then return 1 end
return 0`);

/** KEYS: an epoch key; ARGV: now. Starts the epoch if it has none, and answers it. */
const START = new Script(`${EPOCH_LUA}return epoch`);

/** Settings of `RedisReplayStore` (and the connection's `timeoutMs`). */
export interface RedisReplayStoreOptions extends Connection {
  /** The start of every key (default "keyed:replay:"); one prefix per kind of message. */
  keyPrefix?: string;
}

/**
 * A `ReplayStore` on Redis. A claim is one script: the epoch rule (see ReplayStore), then
 * `SET <key> 1 NX EX <ttl>`. Keys: `<prefix>{<tag>}:<id hash>` and `<prefix>{<tag>}:epoch`, where
 * `<tag>` is the first byte of the id's SHA-256 in hex (256 tags spread the ids over a cluster;
 * each tag keeps its own epoch, so a cluster node that restarts empty restarts its own epochs).
 */
export class RedisReplayStore implements ReplayStore {
  /** The start of every key this store writes. */
  readonly keyPrefix: string;
  /** Milliseconds a claim may take before it is STORE_UNAVAILABLE. */
  readonly timeoutMs: number;
  private readonly send: Send;

  constructor(client: RedisClientLike, options: RedisReplayStoreOptions = {}) {
    this.send = sender(client);
    const o = checkOptions<RedisReplayStoreOptions>(
      options,
      ["keyPrefix", "timeoutMs"],
      "RedisReplayStore options",
    );
    this.keyPrefix = keyPart(o.keyPrefix, "options.keyPrefix", "keyed:replay:");
    this.timeoutMs = checkTimeout(o.timeoutMs);
  }

  /** The Redis key that holds `id`'s claim. */
  keyOf(id: ReplayId): string {
    return this.keys(replayIdHash(id))[1];
  }

  private keys(hash: Bytes): [string, string] {
    const tag = `${this.keyPrefix}{${bytesToHex(hash.subarray(0, 1))}}:`;
    return [`${tag}epoch`, tag + bytesToBase64url(hash.subarray(1, 17))];
  }

  /**
   * Starts the epoch of every tag that has none yet, as its first claim would (never earlier than
   * now, so it reopens nothing). On a new Redis, calling it at deployment starts the one validity
   * period of refusals (docs/fleet.md, the epoch rule) then rather than at the first messages.
   * Resolves to the latest epoch start over the tags (Unix seconds): every tag vouches for
   * messages acceptable from then on.
   */
  async startEpochs(options: { now?: TimeInput } = {}): Promise<number> {
    const now = nowSeconds(
      checkOptions<{ now?: TimeInput }>(options, ["now"], "startEpochs options").now,
    );
    // Each tag's script has its own deadline; the first goes alone, so that on a server without
    // the script one EVAL loads it (on a cluster, one per node that lacks it).
    const start = (b: number) =>
      bounded(this.timeoutMs, "starting an epoch", () =>
        START.run(this.send, [this.keys(new Uint8Array([b]))[0]], [String(now)]),
      );
    const first = await start(0);
    const replies = [
      first,
      ...(await Promise.all(Array.from({ length: 255 }, (_, b) => start(b + 1)))),
    ];
    let latest = 0;
    for (const reply of replies) {
      const epoch = integerReply(reply);
      if (epoch === undefined) throw nonsense("starting an epoch", reply);
      latest = Math.max(latest, epoch);
    }
    return latest;
  }

  async claim(id: ReplayId, ttlSeconds: number, options?: ClaimOptions): Promise<boolean> {
    const { ttl, now, validFrom } = claimTimes(ttlSeconds, options);
    const keys = this.keys(replayIdHash(id));
    const reply = await bounded(this.timeoutMs, "a claim", () =>
      CLAIM.run(this.send, keys, [
        String(now),
        validFrom === undefined ? "-" : String(validFrom),
        String(ttl),
      ]),
    );
    const code = integerReply(reply);
    if (code === 1) return true;
    if (code === 0 || code === 2) return false;
    throw nonsense("a claim", reply);
  }
}

// --- RedisReplayWindow ------------------------------------------------------------------------

/**
 * KEYS: the window's state (a hash: hi, lo, size) and its bitmap (a string), one hash tag.
 * ARGV: counter hi, lo (its two 32-bit halves: Lua numbers are doubles), size, ring bytes, and the
 * floor hi, lo: the newest counter this client has seen accepted (hi = -1 for none).
 * The ring holds ringBytes * 8 >= size + 8 bits in byte blocks; moving the newest clears the
 * blocks it passes (RFC 6479, with 8-bit blocks). A state found older than the floor (a Redis that
 * lost it) is moved up to the floor with every passed block marked seen: conservative, it refuses
 * what it cannot vouch for. Returns { accepted (0/1), newest hi, newest lo }.
 */
const WINDOW = new Script(`local cHi, cLo = tonumber(ARGV[1]), tonumber(ARGV[2])
local size, ringBytes = tonumber(ARGV[3]), tonumber(ARGV[4])
local fHi, fLo = tonumber(ARGV[5]), tonumber(ARGV[6])
local ringBits = ringBytes * 8
local meta = redis.call('HMGET', KEYS[1], 'hi', 'lo', 'size')
local tHi, tLo = -1, 0
if meta[1] then
  tHi, tLo = tonumber(meta[1]), tonumber(meta[2])
  if tonumber(meta[3]) ~= size then
    return redis.error_reply('KEYED_SIZE ' .. tostring(meta[3]))
  end
end
local moved = false
local function above(aHi, aLo, bHi, bLo)
  return aHi > bHi or (aHi == bHi and aLo > bLo)
end
local function slide(nHi, nLo, byte)
  local steps = ringBytes
  if tHi >= 0 and nHi - tHi <= 1 then
    steps = math.min(ringBytes, (nHi - tHi) * 536870912 + math.floor(nLo / 8) - math.floor(tLo / 8))
  end
  if steps >= ringBytes then
    redis.call('SETRANGE', KEYS[2], 0, string.rep(byte, ringBytes))
  elseif steps > 0 then
    local start = (math.floor(tLo / 8) + 1) % ringBytes
    local first = math.min(steps, ringBytes - start)
    redis.call('SETRANGE', KEYS[2], start, string.rep(byte, first))
    if steps > first then redis.call('SETRANGE', KEYS[2], 0, string.rep(byte, steps - first)) end
  end
  tHi, tLo, moved = nHi, nLo, true
end
if fHi >= 0 and above(fHi, fLo, tHi, tLo) then slide(fHi, fLo, '\\255') end
local accepted = 0
if above(cHi, cLo, tHi, tLo) then
  slide(cHi, cLo, '\\0')
  redis.call('SETBIT', KEYS[2], cLo % ringBits, 1)
  accepted = 1
elseif tHi - cHi <= 1 and (tHi - cHi) * 4294967296 + tLo - cLo < size then
  local bit = cLo % ringBits
  if redis.call('GETBIT', KEYS[2], bit) == 0 then
    redis.call('SETBIT', KEYS[2], bit, 1)
    accepted = 1
  end
end
if moved then redis.call('HSET', KEYS[1], 'hi', tHi, 'lo', tLo, 'size', size) end
return {accepted, tHi, tLo}`);

const U32 = 0xffff_ffffn;

/** Settings of `RedisReplayWindow` (and the connection's `timeoutMs`). */
export interface RedisReplayWindowOptions extends Connection {
  /** The window's name: every process accepting from one sender uses the same one. */
  name: string;
  /** As ReplayWindow's (default 1024); every process must give the same. */
  size?: number;
  /** The start of its keys (default "keyed:window:"). */
  keyPrefix?: string;
}

/**
 * `ReplayWindow` shared through Redis: each counter accepted at most once across every process,
 * none older than the newest minus `size`. Keys: `<prefix>{<name>}` and `<prefix>{<name>}:bits`.
 */
export class RedisReplayWindow {
  /** The window's name (in its keys' hash tag). */
  readonly name: string;
  /** How many counters below the newest are still accepted once. */
  readonly size: number;
  /** Milliseconds a call may take before it is STORE_UNAVAILABLE. */
  readonly timeoutMs: number;
  private readonly send: Send;
  private readonly keys: [string, string];
  private readonly ringBytes: number;
  /** The newest counter Redis has reported to this process. */
  private seen: bigint | undefined;

  constructor(client: RedisClientLike, options: RedisReplayWindowOptions) {
    this.send = sender(client);
    const o = checkOptions<RedisReplayWindowOptions>(
      options,
      ["name", "size", "keyPrefix", "timeoutMs"],
      "RedisReplayWindow options",
    );
    if (o === undefined || o.name === undefined) {
      throw new KeyedError("BAD_INPUT", "RedisReplayWindow needs options.name.");
    }
    this.name = keyPart(o.name, "options.name");
    this.size = checkWindowSize(o.size ?? 1024);
    this.timeoutMs = checkTimeout(o.timeoutMs);
    const base = `${keyPart(o.keyPrefix, "options.keyPrefix", "keyed:window:")}{${this.name}}`;
    this.keys = [base, `${base}:bits`];
    let bytes = 8;
    while (bytes * 8 < this.size + 8) bytes *= 2;
    this.ringBytes = bytes;
  }

  /** The newest counter this process has seen the window accept, or undefined. */
  get newest(): bigint | undefined {
    return this.seen;
  }

  /**
   * Resolves to true, and `counter` recorded, when no process has had it accepted and it is within
   * the window; false when seen or too old. Counters as ReplayWindow takes them (BAD_INPUT
   * otherwise); STORE_UNAVAILABLE when Redis does not answer (never true then).
   */
  async accept(counter: bigint | number): Promise<boolean> {
    const c = replayCounter(counter);
    const floor = this.seen === undefined ? ["-1", "0"] : halves(this.seen);
    const args = [...halves(c), String(this.size), String(this.ringBytes), ...floor];
    const reply = await bounded(this.timeoutMs, "a window check", () =>
      WINDOW.run(this.send, this.keys, args).catch((error: unknown) => {
        const text = String((error as { message?: unknown })?.message ?? "");
        if (!text.startsWith("KEYED_SIZE")) throw error;
        throw new KeyedError(
          "BAD_INPUT",
          `the window "${this.name}" in Redis has size ${text.slice(11)}; this one was given ${this.size}.`,
        );
      }),
    );
    const [accepted, hi, lo] = Array.isArray(reply) ? reply.map(integerReply) : [];
    if (
      (accepted !== 0 && accepted !== 1) ||
      hi === undefined ||
      lo === undefined ||
      hi < 0 ||
      hi > 0xffff_ffff ||
      lo < 0 ||
      lo > 0xffff_ffff
    ) {
      throw nonsense("a window check", reply);
    }
    const newest = (BigInt(hi) << 32n) | BigInt(lo);
    if (this.seen === undefined || newest > this.seen) this.seen = newest;
    return accepted === 1;
  }
}

function halves(value: bigint): [string, string] {
  return [String(value >> 32n), String(value & U32)];
}

// --- RedisFailureBudget -----------------------------------------------------------------------

/**
 * KEYS: the failure count. ARGV: maxFailures, windowSeconds (0: none). Counts one failure and
 * answers the count. The first failure of a window sets its expiry; a spent budget loses its
 * expiry, so the key stays retired.
 */
const FAIL = new Script(`local n = redis.call('INCR', KEYS[1])
if n >= tonumber(ARGV[1]) then
  redis.call('PERSIST', KEYS[1])
elseif n == 1 and tonumber(ARGV[2]) > 0 then
  redis.call('EXPIRE', KEYS[1], ARGV[2])
end
return n`);

/** Settings of `RedisFailureBudget` (and the connection's `timeoutMs`). */
export interface RedisFailureBudgetOptions extends Connection {
  /** The budget's name: one per key, shared by every instance verifying with that key. */
  name: string;
  /** Failures after which the key is retired, on every instance (see Verifier). */
  maxFailures: number;
  /**
   * Forget failures this many seconds after a window's first one (a rate limit). Default: never,
   * as SP 800-107r1 section 5.3.3 counts failures over the key's life. A spent budget stays spent.
   */
  windowSeconds?: number;
  /** The start of its key (default "keyed:budget:"). */
  keyPrefix?: string;
}

/**
 * A `FailureBudget` in Redis, for `new Verifier(mac, { budget })` with `verifier.check()`: every
 * instance counts into one key, `<prefix>{<name>}` (INCR, and EXPIRE for a window, in one script),
 * so the key is retired everywhere at exactly `maxFailures`.
 */
export class RedisFailureBudget implements FailureBudget {
  /** The budget's name (in its key's hash tag). */
  readonly name: string;
  readonly maxFailures: number;
  /** Seconds after a window's first failure when its count starts over (undefined: never). */
  readonly windowSeconds: number | undefined;
  /** Milliseconds a count may take before it is STORE_UNAVAILABLE. */
  readonly timeoutMs: number;
  private readonly send: Send;
  private readonly key: string;

  constructor(client: RedisClientLike, options: RedisFailureBudgetOptions) {
    this.send = sender(client);
    const o = checkOptions<RedisFailureBudgetOptions>(
      options,
      ["name", "maxFailures", "windowSeconds", "keyPrefix", "timeoutMs"],
      "RedisFailureBudget options",
    );
    if (o === undefined || o.name === undefined || o.maxFailures === undefined) {
      throw new KeyedError(
        "BAD_INPUT",
        "RedisFailureBudget needs options.name and options.maxFailures.",
      );
    }
    this.name = keyPart(o.name, "options.name");
    this.maxFailures = checkMaxFailures(o.maxFailures);
    const w = o.windowSeconds;
    if (w !== undefined && (typeof w !== "number" || !Number.isSafeInteger(w) || w < 1)) {
      throw new KeyedError(
        "BAD_INPUT",
        `options.windowSeconds must be a whole number of seconds of at least 1; got ${typeof w === "number" ? w : describeType(w)}.`,
      );
    }
    this.windowSeconds = w;
    this.timeoutMs = checkTimeout(o.timeoutMs);
    this.key = `${keyPart(o.keyPrefix, "options.keyPrefix", "keyed:budget:")}{${this.name}}`;
  }

  /** See FailureBudget.record: the failures counted before this one, fleet-wide. */
  async record(failed: boolean): Promise<number> {
    const reply = await bounded(this.timeoutMs, "the failure budget", () =>
      failed
        ? FAIL.run(
            this.send,
            [this.key],
            [String(this.maxFailures), String(this.windowSeconds ?? 0)],
          )
        : this.send(this.key, ["GET", this.key]),
    );
    if (!failed && reply === null) return 0;
    // GET answers a bulk string; the script, an integer.
    const n = failed
      ? integerReply(reply)
      : typeof reply === "string" && /^\d{1,15}$/.test(reply)
        ? Number(reply)
        : undefined;
    if (n === undefined || n < (failed ? 1 : 0)) throw nonsense("the failure budget", reply);
    return failed ? n - 1 : n;
  }
}
