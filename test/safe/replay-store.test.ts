/** MemoryReplayStore, claimOnce, openOnce and the Verifier's failure budgets (no Redis needed). */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { KeyedError } from "../../src/core/errors.js";
import { hmac } from "../../src/mac/hmac.js";
import { openOnce, seal } from "../../src/safe/envelope.js";
import {
  type ClaimOptions,
  claimOnce,
  MemoryReplayStore,
  type ReplayId,
  type ReplayStore,
} from "../../src/safe/store.js";
import { type FailureBudget, MemoryFailureBudget, Verifier } from "../../src/safe/verifier.js";
import { throwsKeyed } from "../helpers.js";

const rejectsKeyed = (work: Promise<unknown>, code: string) =>
  assert.rejects(work, (e: unknown) => e instanceof KeyedError && e.code === code);

/** A store that records its calls and answers what it is told. */
class SpyStore implements ReplayStore {
  calls: [ReplayId, number, ClaimOptions | undefined][] = [];
  constructor(private readonly answer: () => unknown) {}
  claim(id: ReplayId, ttl: number, options?: ClaimOptions): Promise<boolean> {
    this.calls.push([id, ttl, options]);
    return this.answer() as Promise<boolean>;
  }
}

describe("MemoryReplayStore", () => {
  it("claims an id once within its TTL, and again after it expires", async () => {
    const store = new MemoryReplayStore();
    assert.equal(await store.claim("a", 10, { now: 1000 }), true);
    assert.equal(await store.claim("a", 10, { now: 1009 }), false);
    assert.equal(await store.claim(new TextEncoder().encode("a"), 10, { now: 1009 }), false);
    assert.equal(await store.claim("b", 10, { now: 1009 }), true);
    assert.equal(await store.claim("a", 10, { now: 1010 }), true);
  });

  it("matches a model (a map of expiry times) on random claims", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            id: fc.integer({ min: 0, max: 5 }),
            ttl: fc.integer({ min: 1, max: 5 }),
            dt: fc.integer({ min: 0, max: 3 }),
          }),
          { maxLength: 60 },
        ),
        async (steps) => {
          const store = new MemoryReplayStore({ maxEntries: 100 });
          const model = new Map<number, number>();
          let now = 5000;
          for (const { id, ttl, dt } of steps) {
            now += dt;
            const expected = !((model.get(id) ?? 0) > now);
            if (expected) model.set(id, now + ttl);
            assert.equal(await store.claim(`id${id}`, ttl, { now }), expected);
          }
        },
      ),
    );
  });

  it("refuses (STORE_UNAVAILABLE) rather than forget a live id when full, and makes room from expired ones", async () => {
    const store = new MemoryReplayStore({ maxEntries: 3 });
    for (const id of ["a", "b", "c"]) assert.equal(await store.claim(id, 10, { now: 100 }), true);
    await rejectsKeyed(store.claim("d", 10, { now: 105 }), "STORE_UNAVAILABLE");
    assert.equal(await store.claim("a", 10, { now: 105 }), false, "still remembered");
    assert.equal(await store.claim("d", 10, { now: 110 }), true, "expired ids dropped");
    assert.ok(store.size <= 3);
  });

  it("applies the epoch rule: refuses messages acceptable before its first claim", async () => {
    const store = new MemoryReplayStore();
    assert.equal(await store.claim("first", 10, { now: 1000, validFrom: 1000 }), true);
    assert.equal(await store.claim("older", 10, { now: 1001, validFrom: 999 }), false);
    assert.equal(await store.claim("newer", 10, { now: 1001, validFrom: 1000 }), true);
    assert.equal(await store.claim("no time", 10, { now: 1001 }), true);
  });

  it("edges: the longest TTL, a store of one entry, the epoch from its creation, the sweep's next expiry", async () => {
    // 2^31 - 1 seconds is the longest TTL (2^31 is refused above).
    assert.equal(await new MemoryReplayStore().claim("a", 2 ** 31 - 1, { now: 1 }), true);
    // maxEntries: 1 is a store.
    const one = new MemoryReplayStore({ maxEntries: 1 });
    assert.equal(await one.claim("a", 10, { now: 1 }), true);
    await rejectsKeyed(one.claim("b", 10, { now: 2 }), "STORE_UNAVAILABLE");
    // The epoch is the store's creation (or an earlier first `now`): a message issued after the
    // store was made is accepted even when the first claim comes later.
    const made = Math.floor(Date.now() / 1000);
    const store = new MemoryReplayStore();
    assert.equal(await store.claim("m", 10, { now: made + 100, validFrom: made + 50 }), true);
    assert.equal(await store.claim("n", 10, { now: made + 101, validFrom: made - 5 }), false);
    // A full store sweeps again from its earliest live expiry, not its latest.
    const full = new MemoryReplayStore({ maxEntries: 2 });
    assert.equal(await full.claim("soon", 10, { now: 0 }), true); // expires at 10
    assert.equal(await full.claim("late", 100, { now: 0 }), true); // expires at 100
    await rejectsKeyed(full.claim("c", 10, { now: 1 }), "STORE_UNAVAILABLE");
    assert.equal(await full.claim("d", 10, { now: 20 }), true, "'soon' expired at 10: room");
  });

  it("hashes ids of any bytes and length", async () => {
    const store = new MemoryReplayStore();
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 3000 }), async (id) => {
        const fresh = await store.claim(id, 60, { now: 1 });
        if (fresh) assert.equal(await store.claim(Uint8Array.from(id), 60, { now: 1 }), false);
      }),
    );
    assert.equal(await store.claim("x".repeat(1 << 20), 60, { now: 1 }), true);
  });

  it("refuses bad arguments with BAD_INPUT", async () => {
    const store = new MemoryReplayStore();
    for (const ttl of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31, "10", undefined]) {
      await rejectsKeyed(store.claim("a", ttl as number), "BAD_INPUT");
    }
    for (const id of [42, null, undefined, [1], new ArrayBuffer(4)]) {
      await rejectsKeyed(store.claim(id as unknown as string, 10), "BAD_INPUT");
    }
    await rejectsKeyed(store.claim("a", 10, { nowSeconds: 5 } as never), "BAD_INPUT");
    await rejectsKeyed(store.claim("a", 10, { now: Date.now() }), "BAD_INPUT");
    for (const maxEntries of [0, 1.5, "9", -1]) {
      throwsKeyed(() => new MemoryReplayStore({ maxEntries: maxEntries as number }), "BAD_INPUT");
    }
    throwsKeyed(() => new MemoryReplayStore({ max: 5 } as never), "BAD_INPUT", /maxEntries/);
  });
});

describe("claimOnce", () => {
  const times = { validFrom: 990, validUntil: 1100, now: 1000 };

  it("claims for the rest of the validity, passing validFrom and now", async () => {
    const spy = new SpyStore(async () => true);
    assert.deepEqual(await claimOnce(spy, "id", times), { ok: true });
    assert.deepEqual(spy.calls, [["id", 101, { validFrom: 990, now: 1000 }]]);
    await claimOnce(spy, "id", { validFrom: -50, validUntil: new Date(1000_000), now: 1000 });
    assert.deepEqual(spy.calls[1], ["id", 1, { validFrom: 0, now: 1000 }]);
    await claimOnce(spy, "delivery", { validUntil: 1060, now: 1000 }); // no time of its own
    assert.deepEqual(spy.calls[2], ["delivery", 61, { now: 1000 }]);
  });

  it("answers replayed and store_unavailable, never rejecting for the store", async () => {
    const answers: [() => unknown, string][] = [
      [async () => false, "replayed"],
      [() => Promise.reject(new Error("ECONNRESET")), "store_unavailable"],
      [() => Promise.reject("a string"), "store_unavailable"],
      [
        () => {
          throw new Error("sync throw");
        },
        "store_unavailable",
      ],
      [async () => "OK", "store_unavailable"],
      [async () => 1, "store_unavailable"],
      [async () => undefined, "store_unavailable"],
      [() => "not a promise", "store_unavailable"],
    ];
    for (const [answer, reason] of answers) {
      const r = await claimOnce(new SpyStore(answer), "id", times);
      assert.equal(r.ok, false);
      assert.equal(!r.ok && r.reason, reason);
      assert.equal(typeof (!r.ok && r.message), "string");
    }
    // The refusal says what the store did: its error, or the answer it gave.
    const down = await claimOnce(
      new SpyStore(() => Promise.reject(new Error("ECONNRESET"))),
      "id",
      times,
    );
    assert.match(!down.ok ? down.message : "", /did not answer: ECONNRESET/);
    const odd = await claimOnce(new SpyStore(async () => "OK"), "id", times);
    assert.match(!odd.ok ? odd.message : "", /answered .*string/);
  });

  it("throws BAD_INPUT for the caller's own mistakes", async () => {
    const store = new MemoryReplayStore();
    for (const notAStore of [{}, null, undefined, 5, "store", { claim: 1 }]) {
      await rejectsKeyed(claimOnce(notAStore as never, "id", times), "BAD_INPUT");
    }
    await rejectsKeyed(claimOnce(store, 5 as never, times), "BAD_INPUT");
    await rejectsKeyed(claimOnce(store, "id", undefined as never), "BAD_INPUT");
    await rejectsKeyed(claimOnce(store, "id", { validFrom: 990, now: 1000 } as never), "BAD_INPUT");
    await assert.rejects(
      claimOnce(store, "id", { ...times, validUntil: 999.5 }),
      (e: unknown) =>
        e instanceof KeyedError && e.code === "BAD_INPUT" && /before now/.test(e.message),
    );
    await rejectsKeyed(claimOnce(store, "id", { ...times, ttl: 5 } as never), "BAD_INPUT");
  });
});

describe("openOnce", () => {
  const key = new Uint8Array(32).fill(1);
  const token = seal(key, new TextEncoder().encode("hi"), { purpose: "p", timestamp: 1000 });
  const options = (replayStore: ReplayStore, now = 1010) => ({
    purpose: "p",
    maxAgeSeconds: 60,
    now,
    replayStore,
  });

  it("opens a token once, claiming it until it expires", async () => {
    const store = new MemoryReplayStore();
    assert.equal(await store.claim("start", 1, { now: 900 }), true); // the store's epoch: 900
    const first = await openOnce(key, token, options(store));
    assert.equal(first.ok, true);
    assert.deepEqual(first.ok && [...first.payload], [104, 105]);
    const again = await openOnce(key, token, options(store, 1011));
    assert.equal(!again.ok && again.reason, "replayed");
    const spy = new SpyStore(async () => true);
    await openOnce(key, token, { ...options(spy), toleranceSeconds: 5 });
    assert.deepEqual(spy.calls[0][1], 56); // 1000 + 60 + 5 - 1010, + 1
    assert.deepEqual(spy.calls[0][2], { validFrom: 1000, now: 1010 });
  });

  it("refuses a token sealed before a new store's first claim (the epoch rule)", async () => {
    const r = await openOnce(key, token, options(new MemoryReplayStore()));
    assert.equal(!r.ok && r.reason, "replayed");
  });

  it("never lets a forgery or a stale token reach the store", async () => {
    const spy = new SpyStore(async () => true);
    const forged = Uint8Array.from(token);
    forged[forged.length - 1] ^= 1;
    assert.equal((await openOnce(key, forged, options(spy))).ok, false);
    assert.equal((await openOnce(new Uint8Array(32).fill(2), token, options(spy))).ok, false);
    const stale = await openOnce(key, token, options(spy, 1061));
    assert.equal(!stale.ok && stale.reason, "expired");
    assert.equal(spy.calls.length, 0);
  });

  it("answers store_unavailable when the store cannot answer", async () => {
    const r = await openOnce(
      key,
      token,
      options(new SpyStore(() => Promise.reject(new Error("down")))),
    );
    assert.equal(!r.ok && r.reason, "store_unavailable");
  });

  it("needs replayStore and maxAgeSeconds", async () => {
    const store = new MemoryReplayStore();
    await rejectsKeyed(
      openOnce(key, token, { purpose: "p", replayStore: store } as never),
      "BAD_INPUT",
    );
    await rejectsKeyed(
      openOnce(key, token, { purpose: "p", maxAgeSeconds: 5 } as never),
      "BAD_INPUT",
    );
    await rejectsKeyed(openOnce(key, token, { ...options(store), bogus: 1 } as never), "BAD_INPUT");
    await rejectsKeyed(openOnce(key, "token" as never, options(store)), "BAD_INPUT");
  });
});

describe("Verifier failure budgets", () => {
  const key = new Uint8Array(32).fill(3);
  const message = new TextEncoder().encode("m");
  const good = hmac("sha256", key).tag(message);
  const bad = Uint8Array.from(good).fill(0);

  it("check() answers tag_invalid until the budget is spent, then key_retired for every tag", async () => {
    const v = new Verifier(hmac("sha256", key), { budget: new MemoryFailureBudget(2) });
    assert.deepEqual(await v.check(message, good), { ok: true });
    const reasons = [];
    for (let i = 0; i < 3; i++) {
      const r = await v.check(message, i === 2 ? "not bytes" : bad);
      reasons.push(!r.ok && r.reason);
    }
    assert.deepEqual(reasons, ["tag_invalid", "tag_invalid", "key_retired"]);
    const after = await v.check(message, good);
    assert.equal(!after.ok && after.reason, "key_retired");
    assert.equal(v.verify(message, good), false);
    assert.equal(v.status().state, "KEY_RETIRED");
  });

  it("verify() and check() agree with a memory budget", async () => {
    const sync = new Verifier(hmac("sha256", key), { maxFailures: 3 });
    const async = new Verifier(hmac("sha256", key), { maxFailures: 3 });
    for (const tag of [good, bad, good, bad, bad, good, bad, good]) {
      assert.equal(sync.verify(message, tag), (await async.check(message, tag)).ok);
    }
    assert.deepEqual(sync.status(), async.status());
  });

  it("refuses every tag, right or wrong, with store_unavailable when a shared budget is down", async () => {
    const down: FailureBudget = { maxFailures: 5, record: () => Promise.reject(new Error("down")) };
    const v = new Verifier(hmac("sha256", key), { budget: down });
    for (const tag of [good, bad]) {
      const r = await v.check(message, tag);
      assert.equal(!r.ok && r.reason, "store_unavailable");
    }
    for (const answer of [-1, 1.5, "3", null, undefined, Number.NaN]) {
      const nonsense: FailureBudget = { maxFailures: 5, record: async () => answer as number };
      const r = await new Verifier(hmac("sha256", key), { budget: nonsense }).check(message, good);
      assert.equal(!r.ok && r.reason, "store_unavailable");
    }
  });

  it("verify() with a shared (asynchronous) budget is BAD_INPUT, not an unhandled rejection", () => {
    const shared: FailureBudget = {
      maxFailures: 5,
      record: () => Promise.reject(new Error("down")),
    };
    const v = new Verifier(hmac("sha256", key), { budget: shared });
    throwsKeyed(() => v.verify(message, good), "BAD_INPUT", /check\(\)/);
  });

  it("refuses bad budget options", () => {
    const m = hmac("sha256", key);
    throwsKeyed(() => new Verifier(m, { budget: {} as never }), "BAD_INPUT", /FailureBudget/);
    throwsKeyed(
      () => new Verifier(m, { budget: new MemoryFailureBudget(2), maxFailures: 2 }),
      "BAD_INPUT",
    );
    throwsKeyed(
      () => new Verifier(m, { budget: { maxFailures: 0, record: () => 0 } }),
      "BAD_INPUT",
    );
    throwsKeyed(() => new MemoryFailureBudget(0), "BAD_INPUT");
  });
});
