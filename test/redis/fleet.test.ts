/**
 * Freshness across a fleet on a real redis-server: four receiver processes (two on node-redis, two
 * on ioredis) share one replay store, one replay window and one failure budget.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  assertAllExactlyOnce,
  assertWindowMatchesModel,
  warmWindowScript,
  windowCounters,
} from "./checks.js";
import { RedisServer, skipWithoutRedis } from "./server.js";
import { startWorkers, type Worker } from "./workers.js";

const CLIENTS = ["node-redis", "ioredis", "node-redis", "ioredis"] as const;
const COUNT = 2000;

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
    await assertAllExactlyOnce(workers, COUNT);
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
    // Once every process has sent its forgeries, the right tag is refused everywhere too. (Each
    // reply's own `valid` was checked when that process finished, which may be before the fleet
    // reached the budget: a race, not a fault.)
    const after = await Promise.all(
      workers.map((w) =>
        w.run<{ valid: string }>({
          op: "budget",
          name: "fleet-key",
          maxFailures: 100,
          forgeries: 0,
        }),
      ),
    );
    for (const r of after) assert.equal(r.valid, "key_retired");
  });
});
