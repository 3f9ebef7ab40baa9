/**
 * Redis failing under running receivers: killed in the middle of a run, restarted empty, paused,
 * slowed down. Fails closed (STORE_UNAVAILABLE, never an acceptance), recovers by itself, and a
 * Redis that restarted empty does not reopen the replay window (the epoch rule, docs/fleet.md).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Redis } from "ioredis";
import { createClient } from "redis";
import { KeyedError } from "../../src/core/errors.js";
import {
  type RedisClientLike,
  RedisFailureBudget,
  RedisReplayStore,
  RedisReplayWindow,
} from "../../src/safe/redis.js";
import { claimOnce } from "../../src/safe/store.js";
import { RedisServer, skipWithoutRedis } from "./server.js";
import { startWorkers, type Worker } from "./workers.js";

interface MessagesReply {
  accepted: number[];
  reasons: Record<string, number>;
  lastOkAt: number;
  slowestMs: number;
}

const TIMEOUT_MS = 300;

describe("Redis killed and restarted empty under two running receivers", {
  skip: skipWithoutRedis,
}, () => {
  let server: RedisServer;
  let workers: Worker[];
  before(async () => {
    server = await RedisServer.start();
    workers = await startWorkers(["node-redis", "ioredis"], [server.port], {
      timeoutMs: TIMEOUT_MS,
    });
  });
  after(async () => {
    for (const w of workers ?? []) w.kill();
    await server?.stop();
  });

  it("refuses with store_unavailable only, then holds the epoch rule and resumes", async () => {
    const { epoch } = await workers[0].run<{ epoch: number }>({ op: "start-epochs" });
    // Messages issued just after the epoch started (webhooks accept 300 s either way).
    const timestamp = epoch + 1;
    const job = (from: number, to: number, at: number, deadlineMs?: number) => ({
      op: "messages" as const,
      kind: "webhook" as const,
      from,
      to,
      timestamp: at,
      now: at,
      seed: 5,
      concurrency: 16,
      deadlineMs,
    });
    // 1. SIGKILL in the middle of a run.
    const running = workers.map((w, k) =>
      w.run<MessagesReply>({ ...job(0, 100_000, timestamp, 1500), seed: k + 1 }),
    );
    await new Promise((r) => setTimeout(r, 500));
    await server.kill();
    const killedAt = Date.now();
    const during = await Promise.all(running);
    const seen = new Set<number>();
    for (const r of during) {
      assert.deepEqual(
        Object.keys(r.reasons)
          .filter((x) => !["ok", "replayed", "store_unavailable"].includes(x))
          .sort(),
        [],
      );
      assert.ok((r.reasons.store_unavailable ?? 0) > 0, "refusals after the kill");
      assert.ok(r.lastOkAt <= killedAt + 50, `accepted ${r.lastOkAt - killedAt} ms after the kill`);
      for (const i of r.accepted) {
        assert.ok(!seen.has(i), `message ${i} accepted twice`);
        seen.add(i);
      }
    }
    assert.ok(seen.size > 0, "accepted before the kill");
    // 2. Down: every answer is store_unavailable, within the timeout.
    const down = await Promise.all(workers.map((w) => w.run<MessagesReply>(job(0, 40, timestamp))));
    for (const r of down) {
      assert.deepEqual(r.reasons, { store_unavailable: 40 });
      assert.ok(r.slowestMs < TIMEOUT_MS + 250, `slowest ${r.slowestMs} ms`);
    }
    // 3. Restarted empty, same processes: once reconnected, the old messages (those accepted
    // before the kill among them) are refused, as the store cannot vouch for them.
    // The restart comes after the old messages' date, as it would in life: a new epoch after it.
    while (Date.now() / 1000 < timestamp + 1.1) await new Promise((r) => setTimeout(r, 50));
    await server.launch();
    // Those accepted before the kill, and others never seen.
    const old = [
      ...[...seen].slice(0, 1000),
      ...Array.from({ length: 1000 }, (_, k) => 300_000 + k),
    ];
    let afterRestart: MessagesReply[] = [];
    for (let attempt = 0; attempt < 40; attempt++) {
      afterRestart = await Promise.all(
        workers.map((w) => w.run<MessagesReply>({ ...job(0, 0, timestamp), numbers: old })),
      );
      if (afterRestart.every((r) => r.reasons.store_unavailable === undefined)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    for (const r of afterRestart) {
      assert.deepEqual(r.reasons, { replayed: old.length }, JSON.stringify(r.reasons));
    }
    assert.ok(seen.size > 0);
    // New messages, acceptable only after the new epoch started: each accepted exactly once.
    const later = Math.ceil(Date.now() / 1000) + 2;
    const fresh = await Promise.all(
      workers.map((w) => w.run<MessagesReply>(job(200_000, 201_000, later))),
    );
    const accepted = fresh.flatMap((r) => r.accepted);
    assert.equal(accepted.length, 1000);
    assert.equal(new Set(accepted).size, 1000);
    // No crash, no unhandled rejection.
    for (const w of workers) assert.equal((await w.quit()).unhandled, 0);
  });
});

/** Each client kind, connected to `port`, with its error events handled. */
async function clients(port: number): Promise<[string, RedisClientLike, () => void][]> {
  const io = new Redis(port, "127.0.0.1", { maxRetriesPerRequest: null });
  io.on("error", () => {});
  const nr = createClient({
    url: `redis://127.0.0.1:${port}`,
    socket: { reconnectStrategy: () => 50 },
  });
  nr.on("error", () => {});
  await nr.connect();
  await new Promise((r) => (io.status === "ready" ? r(0) : io.once("ready", r)));
  return [
    ["ioredis", io, () => io.disconnect()],
    ["node-redis", nr, () => nr.destroy()],
  ];
}

async function rejectsUnavailable(work: Promise<unknown>, startedAt: number) {
  await assert.rejects(
    work,
    (e: unknown) => e instanceof KeyedError && e.code === "STORE_UNAVAILABLE",
  );
  return performance.now() - startedAt;
}

describe("a slow Redis", { skip: skipWithoutRedis }, () => {
  let server: RedisServer;
  before(async () => {
    server = await RedisServer.start();
  });
  after(async () => {
    await server?.stop();
  });

  for (const how of ["SIGSTOP", "DEBUG SLEEP"] as const) {
    it(`(${how}) gives STORE_UNAVAILABLE within timeoutMs + 50 ms, then recovers`, async () => {
      const timeoutMs = 200;
      const all = await clients(server.port);
      const blocker = new Redis(server.port, "127.0.0.1");
      try {
        const now = Math.floor(Date.now() / 1000) + 5;
        for (const [name, client] of all) {
          const store = new RedisReplayStore(client, { timeoutMs });
          const window = new RedisReplayWindow(client, { name: `slow-${name}-${how}`, timeoutMs });
          const budget = new RedisFailureBudget(client, {
            name: `slow-${name}-${how}`,
            maxFailures: 5,
            timeoutMs,
          });
          assert.equal(await store.claim(`${name}-${how}-warm`, 60, { now, validFrom: now }), true);
          assert.equal(await window.accept(1n), true);
          if (how === "SIGSTOP") server.pause();
          else void blocker.call("DEBUG", "SLEEP", "1").catch(() => {});
          await new Promise((r) => setTimeout(r, 20));
          const t0 = performance.now();
          // A plain timer of the same length, started with them: how late this busy machine fires
          // timers is the machine's, not keyed's; keyed may add at most 50 ms to it.
          const control = new Promise<number>((r) =>
            setTimeout(() => r(performance.now() - t0), timeoutMs),
          );
          const took = await Promise.all([
            rejectsUnavailable(store.claim(`${name}-${how}-a`, 60, { now, validFrom: now }), t0),
            rejectsUnavailable(window.accept(2n), t0),
            rejectsUnavailable(budget.record(true), t0),
            (async () => {
              const r = await claimOnce(store, `${name}-${how}-b`, {
                validFrom: now,
                validUntil: now + 60,
                now,
              });
              assert.equal(r.ok ? "ok" : r.reason, "store_unavailable");
              return performance.now() - t0;
            })(),
          ]);
          const fired = await control;
          for (const ms of took) {
            assert.ok(
              ms >= timeoutMs - 5 && ms <= Math.max(timeoutMs, fired) + 50,
              `${name}: refused after ${ms} ms (timeoutMs ${timeoutMs}, a plain timer fired after ${fired} ms)`,
            );
          }
          if (how === "SIGSTOP") server.resume();
          // Recovery: calls are answered again. (A claim that timed out may still land when Redis
          // wakes up, so each attempt claims a new id.)
          let claimed: boolean | undefined;
          for (let i = 0; i < 50 && claimed === undefined; i++) {
            claimed = await store
              .claim(`${name}-${how}-c${i}`, 60, { now, validFrom: now })
              .catch(() => undefined);
          }
          assert.equal(claimed, true);
          assert.equal(await window.accept(3n), true);
        }
      } finally {
        server.resume();
        blocker.disconnect();
        for (const [, , close] of all) close();
      }
    });
  }
});
