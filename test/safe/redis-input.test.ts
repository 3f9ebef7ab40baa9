/**
 * keyed/redis against fake clients: shapes told apart, bad input refused with BAD_INPUT, and a
 * client that rejects, throws, hangs or answers nonsense gives STORE_UNAVAILABLE, never a `true`.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { KeyedError } from "../../src/core/errors.js";
import {
  type RedisClientLike,
  RedisFailureBudget,
  RedisReplayStore,
  RedisReplayWindow,
} from "../../src/safe/redis.js";
import { throwsKeyed } from "../helpers.js";

type Answer = (args: string[]) => unknown;

/** The three client shapes, each recording the commands it was sent. */
function fakes(answer: Answer) {
  const sent: { shape: string; key?: string; args: string[] }[] = [];
  const io = {
    call: (command: string, ...rest: string[]) => {
      sent.push({ shape: "ioredis", args: [command, ...rest] });
      return answer([command, ...rest]);
    },
    sendCommand: () => assert.fail("ioredis is driven through call()"),
  };
  const node = {
    sendCommand: (args: string[]) => {
      sent.push({ shape: "node-redis", args });
      return answer(args);
    },
  };
  const cluster = {
    getSlotMaster: () => ({}),
    sendCommand: (key: string, readonly: boolean, args: string[]) => {
      assert.equal(readonly, false);
      sent.push({ shape: "node-redis cluster", key, args });
      return answer(args);
    },
  };
  return { sent, clients: [io, node, cluster] as unknown as RedisClientLike[] };
}

const unavailable = (e: unknown) => e instanceof KeyedError && e.code === "STORE_UNAVAILABLE";
const badInput = (e: unknown) => e instanceof KeyedError && e.code === "BAD_INPUT";
const now = 1_800_000_000;

describe("keyed/redis clients", () => {
  it("tells node-redis, a node-redis cluster and ioredis apart, routing by the first key", async () => {
    const { sent, clients } = fakes(async () => 1);
    for (const c of clients)
      assert.equal(await new RedisReplayStore(c).claim("id", 5, { now }), true);
    assert.deepEqual(
      sent.map((s) => s.shape),
      ["ioredis", "node-redis", "node-redis cluster"],
    );
    const [first] = sent;
    assert.equal(first.args[0], "EVALSHA");
    assert.equal(first.args[2], "2");
    assert.match(first.args[3], /^keyed:replay:\{[0-9a-f]{2}\}:epoch$/);
    assert.equal(first.args[4], new RedisReplayStore(clients[0]).keyOf("id"));
    assert.equal(sent[2].key, first.args[3], "cluster routed by the first key");
    assert.equal(first.args[3].slice(0, 17), first.args[4].slice(0, 17), "one hash tag");
  });

  it("sends the whole script with EVAL after NOSCRIPT (first use, a restarted server)", async () => {
    const { sent, clients } = fakes(async (args) => {
      if (args[0] === "EVALSHA") throw new Error("NOSCRIPT No matching script. Please use EVAL.");
      return [0, 0, 1];
    });
    assert.equal(await new RedisReplayWindow(clients[1], { name: "w" }).accept(1n), false);
    assert.deepEqual(
      sent.map((s) => s.args[0]),
      ["EVALSHA", "EVAL"],
    );
  });

  it("refuses what is not a client", () => {
    for (const bad of [null, undefined, {}, { call: 1 }, "redis://", () => 0]) {
      throwsKeyed(() => new RedisReplayStore(bad as never), "BAD_INPUT", /node-redis/);
    }
  });
});

describe("keyed/redis fails closed", () => {
  const failures: [string, Answer][] = [
    ["rejects", () => Promise.reject(new Error("ECONNREFUSED"))],
    ["rejects with a non-Error", () => Promise.reject(42)],
    [
      "throws",
      () => {
        throw new Error("closed");
      },
    ],
    ["NOSCRIPT, then EVAL rejects", () => Promise.reject(new Error("NOSCRIPT"))],
    ["hangs", () => new Promise(() => {})],
    ["answers OK", async () => "OK"],
    ["answers a string 1", async () => "1"],
    ["answers 7", async () => 7],
    ["answers null", async () => null],
    ["answers an object", async () => ({ ok: 1 })],
    ["answers [2, 0]", async () => [2, 0, 0]],
    ["answers [1, -1, 0]", async () => [1, -1, 0]],
    ["answers [1, 2^32, 0]", async () => [1, 2 ** 32, 0]],
    ["answers a non-promise", () => 1],
  ];
  for (const [what, answer] of failures) {
    it(`gives STORE_UNAVAILABLE when the client ${what}`, async () => {
      for (const client of fakes(answer).clients) {
        const options = { timeoutMs: 30 };
        const store = new RedisReplayStore(client, options);
        await assert.rejects(store.claim("id", 10, { now }), unavailable);
        if (what !== "answers 7") await assert.rejects(store.startEpochs({ now }), unavailable);
        const window = new RedisReplayWindow(client, { name: "w", ...options });
        await assert.rejects(window.accept(5n), unavailable);
        const budget = new RedisFailureBudget(client, { name: "b", maxFailures: 3, ...options });
        // A GET may answer null (no failures yet) or a digit string; everything else is nonsense.
        if (what !== "answers null" && what !== "answers a string 1") {
          await assert.rejects(budget.record(false), unavailable);
        }
        if (what !== "answers 7") await assert.rejects(budget.record(true), unavailable);
      }
    });
  }

  it("has no unhandled rejection when a reply comes after the timeout", async () => {
    const seen: unknown[] = [];
    const listener = (reason: unknown) => seen.push(reason);
    process.on("unhandledRejection", listener);
    try {
      const late = fakes(
        () => new Promise((_, reject) => setTimeout(() => reject(new Error("late")), 40)),
      );
      await assert.rejects(
        new RedisReplayStore(late.clients[0], { timeoutMs: 10 }).claim("id", 5),
        unavailable,
      );
      await new Promise((r) => setTimeout(r, 80));
      assert.deepEqual(seen, []);
    } finally {
      process.off("unhandledRejection", listener);
    }
  });
});

describe("keyed/redis bad input", () => {
  const { clients } = fakes(async () => 1);
  const client = clients[1];

  it("hashes ids of any bytes and length into a bounded key", () => {
    const store = new RedisReplayStore(client);
    fc.assert(
      fc.property(
        fc.oneof(fc.uint8Array({ maxLength: 5000 }), fc.string({ unit: "binary" })),
        (id) => {
          assert.match(store.keyOf(id), /^keyed:replay:\{[0-9a-f]{2}\}:[A-Za-z0-9_-]{22}$/);
        },
      ),
    );
    assert.notEqual(store.keyOf("a"), store.keyOf("b"));
    assert.equal(store.keyOf("é"), store.keyOf(new TextEncoder().encode("é")));
  });

  it("refuses counters outside 0 .. 2^64 - 1 before sending anything", async () => {
    const { sent, clients: c } = fakes(async () => [1, 0, 0]);
    const window = new RedisReplayWindow(c[0], { name: "w" });
    for (const bad of [-1n, 2n ** 64n, 2n ** 70n, -1, 1.5, 2 ** 53, Number.NaN, "5", null]) {
      await assert.rejects(window.accept(bad as bigint), badInput);
    }
    assert.equal(sent.length, 0);
    assert.equal(await window.accept(2n ** 64n - 1n), true);
    assert.deepEqual(sent[0].args.slice(5, 7), ["4294967295", "4294967295"]);
  });

  it("refuses TTLs of 0 or less, and times that are not times", async () => {
    const store = new RedisReplayStore(client);
    for (const ttl of [0, -5, Number.NaN, Number.POSITIVE_INFINITY, "10", 2 ** 40]) {
      await assert.rejects(store.claim("id", ttl as number), badInput);
    }
    await assert.rejects(store.claim("id", 5, { now: -1 }), badInput);
    await assert.rejects(store.claim("id", 5, { validFrom: "x" as never }), badInput);
    await assert.rejects(store.claim(17 as never, 5), badInput);
  });

  it("refuses bad options", () => {
    throwsKeyed(() => new RedisReplayStore(client, { keyPrefix: "a{b}" }), "BAD_INPUT");
    throwsKeyed(() => new RedisReplayStore(client, { timeoutMs: 0 }), "BAD_INPUT");
    throwsKeyed(
      () => new RedisReplayStore(client, { timeout: 5 } as never),
      "BAD_INPUT",
      /timeoutMs/,
    );
    throwsKeyed(() => new RedisReplayWindow(client, {} as never), "BAD_INPUT", /name/);
    throwsKeyed(() => new RedisReplayWindow(client, { name: "" }), "BAD_INPUT");
    throwsKeyed(() => new RedisReplayWindow(client, { name: "x}" }), "BAD_INPUT");
    throwsKeyed(() => new RedisReplayWindow(client, { name: "w", size: 0 }), "BAD_INPUT");
    throwsKeyed(() => new RedisFailureBudget(client, { name: "b" } as never), "BAD_INPUT");
    throwsKeyed(() => new RedisFailureBudget(client, { name: "b", maxFailures: 0 }), "BAD_INPUT");
    throwsKeyed(
      () => new RedisFailureBudget(client, { name: "b", maxFailures: 3, windowSeconds: 0.5 }),
      "BAD_INPUT",
    );
  });

  it("reports a window created with another size as BAD_INPUT", async () => {
    const { clients: c } = fakes(() => Promise.reject(new Error("KEYED_SIZE 64")));
    await assert.rejects(
      new RedisReplayWindow(c[0], { name: "w", size: 128 }).accept(1n),
      (e: unknown) => {
        return badInput(e) && /size 64/.test((e as Error).message);
      },
    );
  });
});
