/**
 * One receiver process for the fleet tests, driven by JSON lines on stdin, answering JSON lines on
 * stdout. It keeps one Redis client (node-redis or ioredis, a server or a cluster) for its life,
 * so the fault tests can kill and restart Redis under it.
 */
import { createInterface } from "node:readline";
import { Cluster, Redis } from "ioredis";
import { createClient, createCluster } from "redis";
import { hmac } from "../../src/mac/hmac.js";
import { signStandardWebhook, verifyStandardWebhook } from "../../src/protocols/webhooks.js";
import { openOnce, seal } from "../../src/safe/envelope.js";
import {
  type RedisClientLike,
  RedisFailureBudget,
  RedisReplayStore,
  RedisReplayWindow,
} from "../../src/safe/redis.js";
import { claimOnce } from "../../src/safe/store.js";
import { Verifier } from "../../src/safe/verifier.js";

export interface Connect {
  op: "connect";
  client: "node-redis" | "ioredis";
  ports: number[];
  cluster?: boolean;
  timeoutMs?: number;
}
export interface Messages {
  op: "messages";
  kind: "seal" | "webhook";
  /** Message numbers [from, to), each processed once by this worker, in a shuffled order. */
  from: number;
  to: number;
  /** The messages' timestamp, and the verifier's clock. */
  timestamp: number;
  now: number;
  seed: number;
  concurrency?: number;
  /** These message numbers instead of [from, to). */
  numbers?: number[];
  /** Start no message after this many milliseconds (the rest are left out of the reply). */
  deadlineMs?: number;
}
export interface WindowJob {
  op: "window";
  name: string;
  size: number;
  counters: string[];
  concurrency?: number;
}
export interface BudgetJob {
  op: "budget";
  name: string;
  maxFailures: number;
  forgeries: number;
}
export type Job = Connect | Messages | WindowJob | BudgetJob | { op: "start-epochs" | "quit" };

export const SEAL_KEY = new Uint8Array(32).fill(7);
export const WHSEC = `whsec_${Buffer.from("fleet-test-secret-32-bytes-long!").toString("base64")}`;
export const PURPOSE = "fleet-test";
export const MAX_AGE = 600;

export function sealed(i: number, timestamp: number): Uint8Array {
  return seal(SEAL_KEY, new TextEncoder().encode(`token ${i}`), { purpose: PURPOSE, timestamp });
}
export function webhook(i: number, timestamp: number) {
  const body = JSON.stringify({ i });
  return { body, headers: signStandardWebhook(WHSEC, { id: `msg_${i}`, timestamp, body }) };
}

/** A small deterministic shuffle (xorshift), so each worker has its own order. */
export function shuffle<T>(items: T[], seed: number): T[] {
  let x = seed | 1;
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const j = (x >>> 0) % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Runs `task` over `items` with at most `limit` in flight. */
async function pool<T, R>(items: T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]);
    }
  });
  await Promise.all(lanes);
  return results;
}

const unhandled: string[] = [];
process.on("unhandledRejection", (reason) => unhandled.push(String(reason)));

let client: RedisClientLike | undefined;
let close: () => Promise<void> = async () => {};
let timeoutMs = 500;

async function connect(job: Connect): Promise<object> {
  timeoutMs = job.timeoutMs ?? 500;
  const nodes = job.ports.map((port) => ({ host: "127.0.0.1", port }));
  if (job.client === "ioredis") {
    const io = job.cluster ? new Cluster(nodes) : new Redis(job.ports[0], "127.0.0.1");
    io.on("error", () => {});
    await new Promise((resolve) => io.once("ready", resolve));
    client = io;
    close = async () => {
      io.disconnect();
    };
  } else if (job.cluster) {
    const c = createCluster({
      rootNodes: nodes.map((n) => ({ url: `redis://${n.host}:${n.port}` })),
    });
    c.on("error", () => {});
    await c.connect();
    client = c;
    close = async () => {
      await c.close();
    };
  } else {
    const c = createClient({
      url: `redis://127.0.0.1:${job.ports[0]}`,
      socket: { reconnectStrategy: () => 50 },
    });
    c.on("error", () => {});
    await c.connect();
    client = c;
    close = async () => {
      c.destroy();
    };
  }
  return {};
}

function store(): RedisReplayStore {
  return new RedisReplayStore(client as RedisClientLike, { timeoutMs });
}

async function messages(job: Messages): Promise<object> {
  const replayStore = store();
  const numbers = shuffle(
    job.numbers ?? Array.from({ length: job.to - job.from }, (_, k) => job.from + k),
    job.seed,
  );
  const reasons: Record<string, number> = {};
  const accepted: number[] = [];
  const messages: string[] = [];
  let slowestMs = 0;
  let lastOkAt = 0;
  const began = performance.now();
  await pool(numbers, job.concurrency ?? 64, async (i) => {
    const start = performance.now();
    if (job.deadlineMs !== undefined && start - began > job.deadlineMs) return;
    let reason: string;
    if (job.kind === "seal") {
      const r = await openOnce(SEAL_KEY, sealed(i, job.timestamp), {
        purpose: PURPOSE,
        maxAgeSeconds: MAX_AGE,
        now: job.now,
        replayStore,
      });
      reason = r.ok ? "ok" : r.reason;
      if (!r.ok && messages.length < 3 && r.reason !== "replayed") messages.push(r.message);
    } else {
      const { body, headers } = webhook(i, job.timestamp);
      const v = verifyStandardWebhook(WHSEC, body, headers, { now: job.now });
      if (!v.ok) reason = v.reason;
      else {
        const c = await claimOnce(replayStore, v.id, {
          validFrom: v.timestamp,
          validUntil: v.timestamp + 300,
          now: job.now,
        });
        reason = c.ok ? "ok" : c.reason;
        if (!c.ok && messages.length < 3 && c.reason !== "replayed") messages.push(c.message);
      }
    }
    slowestMs = Math.max(slowestMs, performance.now() - start);
    reasons[reason] = (reasons[reason] ?? 0) + 1;
    if (reason === "ok") {
      accepted.push(i);
      lastOkAt = Date.now();
    }
  });
  return { accepted, reasons, slowestMs, messages, lastOkAt };
}

async function window(job: WindowJob): Promise<object> {
  const w = new RedisReplayWindow(client as RedisClientLike, {
    name: job.name,
    size: job.size,
    timeoutMs,
  });
  const results = await pool(job.counters, job.concurrency ?? 8, (c) => w.accept(BigInt(c)));
  return { accepted: job.counters.filter((_, k) => results[k]) };
}

async function budget(job: BudgetJob): Promise<object> {
  const b = new RedisFailureBudget(client as RedisClientLike, {
    name: job.name,
    maxFailures: job.maxFailures,
    timeoutMs,
  });
  const key = new Uint8Array(32).fill(9);
  const verifier = new Verifier(hmac("sha256", key), { budget: b });
  const message = new TextEncoder().encode("budget test");
  const good = hmac("sha256", key).tag(message);
  const reasons: Record<string, number> = {};
  await pool(
    Array.from({ length: job.forgeries }, (_, i) => i),
    16,
    async (i) => {
      const forged = new Uint8Array(good);
      forged[i % 32] ^= 1 + (i % 255);
      const r = await verifier.check(message, forged);
      const reason = r.ok ? "ok" : r.reason;
      reasons[reason] = (reasons[reason] ?? 0) + 1;
    },
  );
  const valid = await verifier.check(message, good);
  return { reasons, valid: valid.ok ? "ok" : valid.reason };
}

async function startEpochs(): Promise<object> {
  return { epoch: await store().startEpochs() };
}

async function handle(job: Job): Promise<object> {
  switch (job.op) {
    case "connect":
      return connect(job);
    case "messages":
      return messages(job);
    case "window":
      return window(job);
    case "budget":
      return budget(job);
    case "start-epochs":
      return startEpochs();
    case "quit":
      await close();
      return {};
  }
}

if (process.argv[1] === import.meta.filename) {
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    const job = JSON.parse(line) as Job;
    let reply: object;
    try {
      reply = { ok: true, ...(await handle(job)), unhandled: unhandled.length };
    } catch (error) {
      reply = { ok: false, error: String(error) };
    }
    process.stdout.write(`${JSON.stringify(reply)}\n`);
    if (job.op === "quit") break;
  }
  process.exit(0);
}
