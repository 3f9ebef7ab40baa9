/** Checks shared by the fleet and cluster tests. */
import assert from "node:assert/strict";
import { Cluster, Redis } from "ioredis";
import { RedisReplayWindow } from "../../src/safe/redis.js";
import { ReplayWindow } from "../../src/safe/replay.js";
import { shuffle } from "./worker.js";
import type { Worker } from "./workers.js";

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

/**
 * Every worker verifies and claims the same `count` sealed tokens, then the same `count` Standard
 * Webhooks messages, all at once; each must be accepted exactly once over all of them.
 */
export async function assertAllExactlyOnce(workers: Worker[], count: number): Promise<void> {
  const { epoch } = await workers[0].run<{ epoch: number }>({ op: "start-epochs" });
  const timestamp = epoch + 1; // issued after every tag's epoch started
  for (const kind of ["seal", "webhook"] as const) {
    const replies = await Promise.all(
      workers.map((w, k) =>
        w.run<{ accepted: number[]; reasons: Record<string, number> }>({
          op: "messages",
          kind,
          from: 0,
          to: count,
          timestamp,
          now: timestamp,
          seed: 17 + k,
        }),
      ),
    );
    assertExactlyOnce(replies, count);
  }
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
export async function warmWindowScript(
  ports: number[],
  name: string,
  cluster = false,
): Promise<void> {
  const io = cluster
    ? new Cluster(ports.map((port) => ({ host: "127.0.0.1", port })))
    : new Redis(ports[0], "127.0.0.1");
  try {
    await new RedisReplayWindow(io, { name, keyPrefix: "warm:" }).accept(0n);
  } finally {
    io.disconnect();
  }
}
