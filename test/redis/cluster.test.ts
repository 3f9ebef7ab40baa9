/**
 * A 3-master Redis Cluster from the same redis-server binary: exactly-once and the shared window
 * through node-redis's createCluster and ioredis's Cluster, each script on one slot.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { after, before, describe, it } from "node:test";
import {
  assertAllExactlyOnce,
  assertWindowMatchesModel,
  warmWindowScript,
  windowCounters,
} from "./checks.js";
import { REDIS_CLI, RedisCluster, skipWithoutRedis } from "./server.js";
import { startWorkers, type Worker } from "./workers.js";

const COUNT = 1000;

describe("a fleet of four receivers on a 3-master Redis Cluster", {
  skip: skipWithoutRedis,
}, () => {
  let cluster: RedisCluster;
  let workers: Worker[];
  before(async () => {
    cluster = await RedisCluster.start();
    workers = await startWorkers(
      ["node-redis", "ioredis", "node-redis", "ioredis"],
      cluster.ports,
      {
        cluster: true,
        timeoutMs: 10_000,
      },
    );
  });
  after(async () => {
    const replies = await Promise.all(workers?.map((w) => w.quit()) ?? []);
    for (const r of replies) assert.equal(r.unhandled, 0, "no unhandled rejection");
    await cluster?.stop();
  });

  it("accepts each sealed token and webhook exactly once, with ids on every master", async () => {
    await assertAllExactlyOnce(workers, COUNT);
    for (const port of cluster.ports) {
      const size = spawnSync(REDIS_CLI as string, ["-p", String(port), "dbsize"], {
        encoding: "utf8",
      });
      assert.ok(Number(size.stdout) > 100, `master ${port} holds ${size.stdout.trim()} keys`);
    }
  });

  it("shares one replay window (one slot) across both cluster clients", async () => {
    await warmWindowScript(cluster.ports, "cw", true);
    await assertWindowMatchesModel(
      workers,
      cluster.ports,
      "cw",
      64,
      windowCounters(2n ** 32n - 100n, 150, 9),
    );
  });
});
