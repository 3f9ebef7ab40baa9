/**
 * The Redis connection under keyed/redis (safe/redis.ts): the client shapes keyed accepts
 * (node-redis v4/v5 and ioredis, single node or cluster, told apart by shape), one command
 * sender over each, Lua scripts run by EVALSHA with an EVAL fallback, and the time bound that
 * makes every call fail closed (STORE_UNAVAILABLE, never an acceptance).
 */
import { bytesToHex, utf8ToBytes } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import { describeType } from "../core/options.js";
import { sha1 } from "../hash/sha1.js";
import { storeUnavailable } from "./store.js";

/** ioredis `Redis` or `Cluster`: `call(command, ...args)`. */
export interface IoRedisLike {
  /** Sends one command; resolves with Redis's reply. */
  call(command: string, ...args: string[]): Promise<unknown>;
}
/** node-redis `createClient()`: `sendCommand(args)`. */
export interface NodeRedisLike {
  /** Sends one command (its words); resolves with Redis's reply. */
  sendCommand(args: string[]): Promise<unknown>;
}
/** node-redis `createCluster()`: `sendCommand(firstKey, isReadonly, args)`. */
export interface NodeRedisClusterLike {
  /** Sends one command to the master of `firstKey`'s slot; resolves with Redis's reply. */
  sendCommand(firstKey: string, isReadonly: boolean, args: string[]): Promise<unknown>;
  /** The master node of a hash slot (how keyed tells a cluster client apart). */
  getSlotMaster(slot: number): unknown;
}
/** A Redis client keyed can use: node-redis or ioredis, a single server or a cluster. */
export type RedisClientLike = IoRedisLike | NodeRedisLike | NodeRedisClusterLike;

/** Sends one command whose keys are all in `key`'s slot. */
export type Send = (key: string, args: string[]) => Promise<unknown>;

const CLIENT_HINT =
  "a node-redis client or cluster (createClient / createCluster) or an ioredis Redis or Cluster";

/** A client call's result, which must be a Promise (both clients answer with one). */
function promised(result: unknown): Promise<unknown> {
  if (typeof (result as { then?: unknown } | null)?.then === "function") {
    return result as Promise<unknown>;
  }
  return Promise.reject(nonsense("a command", result));
}

/** How to talk to `client`, found by its shape (ioredis first: it has a `sendCommand` too). */
export function sender(client: unknown): Send {
  const c = client as Record<string, unknown> | null;
  if (c !== null && typeof c === "object") {
    if (typeof c.call === "function") {
      const io = client as IoRedisLike;
      return (_key, args) => promised(io.call(args[0], ...args.slice(1)));
    }
    if (typeof c.sendCommand === "function") {
      if (typeof c.getSlotMaster === "function") {
        const cluster = client as NodeRedisClusterLike;
        return (key, args) => promised(cluster.sendCommand(key, false, args));
      }
      const node = client as NodeRedisLike;
      return (_key, args) => promised(node.sendCommand(args));
    }
  }
  throw new KeyedError("BAD_INPUT", `client must be ${CLIENT_HINT}; got ${describeType(client)}.`);
}

/** What every Redis-backed object takes beside its own options. */
export interface Connection {
  /** Milliseconds to wait for Redis before refusing with STORE_UNAVAILABLE. Default 500. */
  timeoutMs?: number;
}

export function checkTimeout(value: unknown): number {
  const ms = value ?? 500;
  if (typeof ms !== "number" || !Number.isFinite(ms) || ms <= 0 || ms > 60_000) {
    throw new KeyedError(
      "BAD_INPUT",
      `options.timeoutMs must be a number of milliseconds above 0 and at most 60000; got ${
        typeof ms === "number" ? ms : describeType(ms)
      }.`,
    );
  }
  return ms;
}

/** A key part: text, at most 200 characters, without braces (they would move the hash tag). */
export function keyPart(value: unknown, name: string, fallback?: string): string {
  const v = value ?? fallback;
  if (
    typeof v !== "string" ||
    v.length > 200 ||
    /[{}]/.test(v) ||
    (fallback === undefined && v === "")
  ) {
    throw new KeyedError(
      "BAD_INPUT",
      `${name} must be ${fallback === undefined ? "a non-empty" : "a"} string of at most 200 characters without "{" or "}"; got ${
        typeof v === "string" ? JSON.stringify(v.slice(0, 40)) : describeType(v)
      }.`,
    );
  }
  return v;
}

/** A Lua script, run by EVALSHA, sent whole with EVAL when the server lacks it. */
export class Script {
  private sha: string | undefined;
  constructor(readonly source: string) {}

  private digest(): string {
    this.sha ??= bytesToHex(sha1(utf8ToBytes(this.source)));
    return this.sha;
  }

  async run(send: Send, keys: string[], args: string[]): Promise<unknown> {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await send(keys[0], ["EVALSHA", this.digest(), ...tail]);
    } catch (error) {
      // First use on this server, or it restarted (the script cache is not persisted): EVAL
      // runs the script and caches it on the node that holds the keys' slot.
      if (!String((error as { message?: unknown })?.message ?? "").startsWith("NOSCRIPT")) {
        throw error;
      }
      return await send(keys[0], ["EVAL", this.source, ...tail]);
    }
  }
}

/**
 * `work()` with a deadline: STORE_UNAVAILABLE after `ms`, or when it rejects or throws. Its late
 * outcome is always handled, so nothing becomes an unhandled rejection.
 */
export function bounded<T>(ms: number, what: string, work: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(storeUnavailable(`Redis did not answer ${what} within ${ms} ms.`)),
      ms,
    );
    let pending: Promise<T>;
    try {
      pending = work();
    } catch (error) {
      pending = Promise.reject(error);
    }
    Promise.resolve(pending).then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(
          error instanceof KeyedError
            ? error
            : storeUnavailable(
                `Redis failed ${what}: ${error instanceof Error ? error.message : String(error)}`,
              ),
        );
      },
    );
  });
}

/** An integer reply: node-redis and ioredis both give numbers (RESP2 and RESP3). */
export function integerReply(value: unknown): number | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) ? value : undefined;
}

export function nonsense(what: string, reply: unknown): KeyedError {
  return storeUnavailable(
    `Redis answered ${what} with ${describeType(reply)}, which keyed does not expect.`,
  );
}
