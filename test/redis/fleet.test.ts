/**
 * Freshness across a fleet on a real redis-server: four receiver processes (two on node-redis, two
 * on ioredis) share one replay store, one replay window and one failure budget.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Redis } from "ioredis";
import { RedisReplayWindow } from "../../src/safe/redis.js";
import { ReplayWindow } from "../../src/safe/replay.js";
import { RedisServer, skipWithoutRedis } from "./server.js";
import { shuffle } from "./worker.js";
import { startWorkers, type Worker } from "./workers.js";

const CLIENTS = ["node-redis", "ioredis", "node-redis", "ioredis"] as const;
const COUNT = 2000;

/** Every message accepted exactly once over all workers; every other answer `replayed`. */
export function assertExactlyOnce(
  replies: { accepted: number[]; reasons: Record<string, number>; messages?: string[] }[],
  count: number,
): void {
  const seen = new Map<number, number>();
  for (const r of replies) for (const i of r.accepted) seen.set(i, (seen.get(i) ?? 0) + 1);
  assert.equal(
    seen.size,
    count,
    `every message accepted: ${JSON.stringify(replies.map((r) => [r.reasons, r.messages]))}`,
  );
  for (const [i, n] of seen) assert.equal(n, 1, `message ${i} accepted ${n} times`);
  let replayed = 0;
  for (const r of replies) {
    for (const [reason, n] of Object.entries(r.reasons)) {
      if (reason === "replayed") replayed += n;
      else assert.equal(reason, "ok", `unexpected reason ${reason}`);
    }
  }
  assert.equal(replayed, count * (replies.length - 1));
}

/** Feeds `workers` the same counters, each worker in its own order; compares with one window. */
export async function assertWindowMatchesModel(
  workers: Worker[],
  monitorPorts: number[],
  name: string,
  size: number,
  counters: bigint[],
): Promise<void> {
  const meta = `keyed:window:{${name}}`;
  const order: bigint[] = [];
  const bases = monitorPorts.map((port) => new Redis(port, "127.0.0.1"));
  const monitors = await Promise.all(
    bases.map(async (base) => {
      const m = await base.monitor();
      m.on("monitor", (_time: string, args: string[]) => {
        if (args[0].toUpperCase() === "EVALSHA" && args[3] === meta) {
          order.push((BigInt(args[5]) << 32n) | BigInt(args[6]));
        }
      });
      return m;
    }),
  );
  try {
    const replies = await Promise.all(
      workers.map((w, k) =>
        w.run<{ accepted: string[] }>({
          op: "window",
          name,
          size,
          counters: shuffle(counters, 1000 + k).map(String),
        }),
      ),
    );
    const total = counters.length * workers.length;
    for (let i = 0; i < 200 && order.length < total; i++)
      await new Promise((r) => setTimeout(r, 10));
    assert.equal(order.length, total, "MONITOR saw every call");
    const model = new ReplayWindow({ size });
    const expected = new Set(order.filter((c) => model.accept(c)).map(String));
    const got = replies.flatMap((r) => r.accepted);
    assert.equal(new Set(got).size, got.length, "no counter accepted twice");
    assert.deepEqual(new Set(got), expected);
    assert.ok(expected.size > 10 && expected.size < counters.length, "a test that can fail");
  } finally {
    for (const m of monitors) m.disconnect();
    for (const b of bases) b.disconnect();
  }
}

/** Counters around `base`: spread over ~3 windows, with duplicates. */
export function windowCounters(base: bigint, n: number, seed: number): bigint[] {
  const out: bigint[] = [];
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    out.push(base + BigInt(x % 200));
    if (i % 5 === 0) out.push(out[out.length - 1]);
  }
  return out;
}

/** Scripts loaded before MONITOR starts, so it sees only the calls under test. */
export async function warmWindowScript(ports: number[], name: string): Promise<void> {
  const io = new Redis(ports[0], "127.0.0.1");
  try {
    await new RedisReplayWindow(io, { name, keyPrefix: "warm:" }).accept(0n);
  } finally {
    io.disconnect();
  }
}

describe("a fleet of four receivers on one Redis", { skip: skipWithoutRedis }, () => {
  let server: RedisServer;
  let workers: Worker[];

  before(async () => {
    server = await RedisServer.start();
    // Correctness, not latency: a generous timeout, as the machine may be busy.
    workers = await startWorkers([...CLIENTS], [server.port], { timeoutMs: 10_000 });
  });
  after(async () => {
    const replies = await Promise.all(workers?.map((w) => w.quit()) ?? []);
    for (const r of replies) assert.equal(r.unhandled, 0, "no unhandled rejection");
    await server?.stop();
  });

  it("accepts each of 2,000 sealed tokens and 2,000 Standard Webhooks messages exactly once", async () => {
    const { epoch } = await workers[0].run<{ epoch: number }>({ op: "start-epochs" });
    // Webhooks tolerate 300 s both ways, so they are acceptable from timestamp - 300: after the epoch.
    const timestamp = epoch + 301;
    for (const kind of ["seal", "webhook"] as const) {
      const replies = await Promise.all(
        workers.map((w, k) =>
          w.run<{ accepted: number[]; reasons: Record<string, number> }>({
            op: "messages",
            kind,
            from: 0,
            to: COUNT,
            timestamp,
            now: timestamp,
            seed: 17 + k,
          }),
        ),
      );
      assertExactlyOnce(replies, COUNT);
    }
  });

  it("shares one replay window: the accepted set equals one window fed in Redis's order", async () => {
    await warmWindowScript([server.port], "w");
    const bases = [0n, 2n ** 32n - 100n, 2n ** 64n - 200n];
    for (const [k, base] of bases.entries()) {
      await assertWindowMatchesModel(
        workers,
        [server.port],
        `w${k}`,
        64,
        windowCounters(base, 150, k + 1),
      );
    }
  });

  it("retires the key at exactly maxFailures across four processes", async () => {
    const replies = await Promise.all(
      workers.map((w) =>
        w.run<{ reasons: Record<string, number>; valid: string }>({
          op: "budget",
          name: "fleet-key",
          maxFailures: 100,
          forgeries: 60,
        }),
      ),
    );
    const sum = (reason: string) => replies.reduce((n, r) => n + (r.reasons[reason] ?? 0), 0);
    assert.equal(sum("tag_invalid"), 100);
    assert.equal(sum("key_retired"), 140);
    assert.equal(sum("ok"), 0);
    for (const r of replies) assert.equal(r.valid, "key_retired");
  });
});
