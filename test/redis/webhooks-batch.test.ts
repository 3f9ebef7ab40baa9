/**
 * The webhook batch verifiers on a real redis-server: two receivers (ioredis and node-redis)
 * verify overlapping batches of the same Stripe events against one RedisReplayStore, and every
 * event is accepted exactly once across both; a paused Redis refuses what would have been
 * accepted (store_unavailable, fail closed), and only that.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Redis } from "ioredis";
import { createClient } from "redis";
import { signStripe, verifyStripeMany } from "../../src/protocols/webhooks.js";
import { RedisReplayStore } from "../../src/safe/redis.js";
import { countingStore } from "../helpers.js";
import { RedisServer, skipWithoutRedis } from "./server.js";

const SECRET = "whsec_fleet_batch";
const FORGER = "whsec_not_ours";

describe("webhook batches on one Redis, two receivers", { skip: skipWithoutRedis }, () => {
  let server: RedisServer;
  let io: Redis;
  let nr: ReturnType<typeof createClient>;

  before(async () => {
    server = await RedisServer.start();
    io = new Redis(server.port, "127.0.0.1", { maxRetriesPerRequest: null });
    io.on("error", () => {});
    nr = createClient({
      url: `redis://127.0.0.1:${server.port}`,
      socket: { reconnectStrategy: () => 50 },
    });
    nr.on("error", () => {});
    await nr.connect();
    await new Promise((r) => (io.status === "ready" ? r(0) : io.once("ready", r)));
    // The store's epochs start now, as at a deployment: messages signed from then on are
    // acceptable (docs/fleet.md, the epoch rule).
    await new RedisReplayStore(io, { timeoutMs: 10_000 }).startEpochs();
  });
  after(async () => {
    io?.disconnect();
    await nr?.destroy();
    await server?.stop();
  });

  it("accepts each event exactly once across overlapping batches; forgeries never claimed", async () => {
    // Signed after the store's epochs began (older ones would be refused as replayed).
    const now = Math.floor(Date.now() / 1000) + 60;
    const events = Array.from({ length: 60 }, (_, i) => {
      const body = `{"id":"evt_${i}","n":${"x".repeat(i * 7)}}`;
      return { body, header: signStripe(SECRET, body, { timestamp: now - (i % 50) }) };
    });
    const forged = events.slice(0, 5).map((e) => ({
      body: e.body,
      header: signStripe(FORGER, e.body, { timestamp: now }),
    }));
    const countA = countingStore(new RedisReplayStore(io, { timeoutMs: 10_000 }));
    const countB = countingStore(new RedisReplayStore(nr, { timeoutMs: 10_000 }));
    const [a, b] = [countA.store, countB.store];
    // Receiver A gets events 0-39 (each twice in its batch), B gets 20-59, both at once.
    const batchA = [...events.slice(0, 40), ...forged, ...events.slice(0, 40)];
    const batchB = [...events.slice(20, 60), ...events.slice(20, 60)];
    const [answersA, answersB] = await Promise.all([
      verifyStripeMany(SECRET, batchA, { replayStore: a, now }),
      verifyStripeMany(SECRET, batchB, { replayStore: b, now }),
    ]);
    const accepted = new Map<string, number>();
    const count = (batch: typeof batchA, answers: typeof answersA) =>
      answers.forEach((r, i) => {
        if (r.ok) accepted.set(batch[i].body, (accepted.get(batch[i].body) ?? 0) + 1);
        else assert.ok(["replayed", "signature_mismatch"].includes(r.reason), r.reason);
      });
    count(batchA, answersA);
    count(batchB, answersB);
    assert.equal(accepted.size, 60, "every event accepted once somewhere");
    for (const [body, n] of accepted)
      assert.equal(n, 1, `${body.slice(0, 12)} accepted ${n} times`);
    for (let i = 40; i < 45; i++) {
      const r = answersA[i];
      assert.equal(r.ok ? "ok" : r.reason, "signature_mismatch");
    }
    // Claimed: every authentic delivery (each event four times over), never a forgery.
    assert.equal(countA.claims + countB.claims, 160);
  });

  it("a paused Redis: the accepted ones are store_unavailable, the refusals keep their reason", async () => {
    const now = Math.floor(Date.now() / 1000) + 5;
    const fresh = (n: number) => {
      const body = `{"id":"paused_${n}"}`;
      return { body, header: signStripe(SECRET, body, { timestamp: now }) };
    };
    const forged = { body: "{}", header: signStripe(FORGER, "{}", { timestamp: now }) };
    const store = new RedisReplayStore(io, { timeoutMs: 200 });
    server.pause();
    try {
      const answers = await verifyStripeMany(SECRET, [fresh(1), forged, fresh(2)], {
        replayStore: store,
        now,
      });
      assert.deepEqual(
        answers.map((r) => (r.ok ? "ok" : r.reason)),
        ["store_unavailable", "signature_mismatch", "store_unavailable"],
      );
    } finally {
      server.resume();
    }
    // Recovered: new events are accepted once Redis answers again. (The paused claims may still
    // have reached Redis after their timeout, so the same events may now be "replayed": fail
    // closed, docs/fleet.md.)
    const again = await verifyStripeMany(SECRET, [fresh(3), fresh(4)], {
      replayStore: new RedisReplayStore(io, { timeoutMs: 10_000 }),
      now,
    });
    assert.deepEqual(
      again.map((r) => r.ok),
      [true, true],
    );
  });
});
