/**
 * The safe layer's numeric rules at their boundaries: the Verifier's failure budget, the
 * ReplayWindow's size and edge, and deriveKeys' lengths and names.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { deriveKeys, mac, ReplayWindow, Verifier } from "../../src/index.js";
import { ascii, throwsKeyed } from "../helpers.js";

const key = new Uint8Array(32).fill(7);
const message = ascii("m");

describe("Verifier budget edges", () => {
  it("stays active until the failure that reaches the budget, then refuses even good tags", () => {
    const m = mac("hmac-sha256", key);
    const good = m.tag(message);
    const v = new Verifier(m, { maxFailures: 2 });
    assert.equal(v.verify(message, new Uint8Array(32)), false);
    assert.equal(v.status().state, "ACTIVE");
    assert.equal(v.verify(message, good), true);
    assert.equal(v.verify(message, new Uint8Array(32)), false);
    assert.deepEqual(v.status(), {
      state: "KEY_RETIRED",
      failures: 2,
      successes: 1,
      maxFailures: 2,
    });
    assert.equal(v.verify(message, good), false);
    assert.equal(v.verifyFields("p", [], m.tagFields("p", [])), false);
    assert.deepEqual(v.status(), {
      state: "KEY_RETIRED",
      failures: 2,
      successes: 1,
      maxFailures: 2,
    });
  });
  it("a budget of one failure is allowed; fractions, NaN and unsafe integers are not", () => {
    const v = new Verifier(mac("hmac-sha256", key), { maxFailures: 1 });
    assert.equal(v.verify(message, new Uint8Array(32)), false);
    assert.equal(v.status().state, "KEY_RETIRED");
    for (const bad of [0, -1, 1.5, Number.NaN, 2 ** 53, "5"]) {
      throwsKeyed(
        () => new Verifier(mac("hmac-sha256", key), { maxFailures: bad as number }),
        "BAD_INPUT",
        /maxFailures/,
      );
    }
    throwsKeyed(
      () => new Verifier(mac("hmac-sha256", key), { maxFailure: 3 } as never),
      "BAD_INPUT",
    );
    throwsKeyed(() => new Verifier(null as never), "BAD_INPUT", /Mac/);
    throwsKeyed(() => new Verifier({ verify: 1 } as never), "BAD_INPUT", /Mac/);
  });
  it("a nonce MAC's budget counts the tag proper, not the nonce", () => {
    const g = mac("gmac-aes128", key.subarray(0, 16), { tagLength: 4, allowShortTags: true });
    assert.equal(new Verifier(g).maxFailures, 2 ** 16);
  });
  it("verifyFields counts wrong tags and accepts right ones", () => {
    const m = mac("hmac-sha256", key);
    const v = new Verifier(m, { maxFailures: 5 });
    assert.equal(v.verifyFields("p", ["a"], m.tagFields("p", ["b"])), false);
    assert.equal(v.verifyFields("p", ["a"], 7), false);
    assert.equal(v.verifyFields("p", ["a"], m.tagFields("p", ["a"])), true);
    assert.deepEqual(v.status(), { state: "ACTIVE", failures: 2, successes: 1, maxFailures: 5 });
  });
});

describe("ReplayWindow edges", () => {
  it("matches a Set-based model over long sequences near the top (20,000 counters per size)", () => {
    // fast-check's arrays are short by default (about ten items), so safe.test.ts's model test sees
    // a few hundred counters: a ring sized for 32 counters whatever the window passed it. Here a
    // fixed pseudo-random walk keeps most counters inside the window, where aliasing would show.
    for (const size of [1, 31, 32, 33, 100, 300, 1024, 5000]) {
      const w = new ReplayWindow({ size });
      const seen = new Set<number>();
      let top = -1;
      let x = 12345;
      let base = 0;
      for (let n = 0; n < 20_000; n++) {
        x = (x * 1103515245 + 12345) % 2 ** 31;
        if (x % 16 === 0) base += (x >> 8) % (2 * size + 70);
        const c = Math.max(0, base - ((x >> 4) % (size + 40)));
        const expected = !seen.has(c) && (c > top || top - c < size);
        assert.equal(w.accept(BigInt(c)), expected, `size ${size}, counter ${c}, top ${top}`);
        if (expected) {
          seen.add(c);
          top = Math.max(top, c);
        }
      }
    }
  });
  it("accepts sizes from 1 to 2^24, whole numbers only", () => {
    assert.equal(new ReplayWindow({ size: 1 }).size, 1);
    assert.equal(new ReplayWindow({ size: 2 ** 24 }).size, 2 ** 24);
    for (const bad of [0, 2 ** 24 + 1, 1.5, Number.NaN, "8"]) {
      throwsKeyed(() => new ReplayWindow({ size: bad as number }), "BAD_INPUT", /size/);
    }
    throwsKeyed(() => new ReplayWindow({ sise: 8 } as never), "BAD_INPUT", /did you mean/);
  });
  it("with size n, newest - (n - 1) is the oldest accepted counter", () => {
    for (const size of [1, 31, 32, 33, 64, 100]) {
      const w = new ReplayWindow({ size });
      const top = 10_000n;
      assert.equal(w.accept(top), true);
      assert.equal(w.accept(top - BigInt(size)), false, `size ${size}: just outside`);
      if (size > 1) assert.equal(w.accept(top - BigInt(size - 1)), true, `size ${size}: edge`);
      assert.equal(w.accept(top - BigInt(size - 1)), false, `size ${size}: edge, again`);
      assert.equal(w.newest, top);
    }
    assert.equal(new ReplayWindow().newest, undefined);
  });
  it("counter 0 is remembered after small and block-crossing moves", () => {
    const w = new ReplayWindow({ size: 64 });
    assert.equal(w.accept(0n), true);
    assert.equal(w.newest, 0n);
    assert.equal(w.accept(40n), true);
    assert.equal(w.accept(0n), false, "0 is in the window and was seen");
    const v = new ReplayWindow({ size: 64 });
    assert.equal(v.accept(1000n), true);
    assert.equal(v.accept(1001n), true);
    assert.equal(v.accept(1000n), false, "a one-step move keeps the current block");
  });
  it("the ring keeps 32 spare bits: moving into a new block keeps the window's oldest counters", () => {
    const w = new ReplayWindow(); // 1024
    assert.equal(w.accept(10n), true);
    assert.equal(w.accept(1029n), true);
    assert.equal(w.accept(10n), false, "1029 - 10 < 1024: still in the window, and seen");
  });
  it("a jump of exactly the ring clears every old bit, and counter 0 is a counter", () => {
    const w = new ReplayWindow({ size: 32 });
    assert.equal(w.accept(0n), true);
    assert.equal(w.accept(0n), false);
    for (const jump of [64n, 128n, 96n, 1n << 40n]) {
      const w2 = new ReplayWindow({ size: 32 });
      assert.equal(w2.accept(3n), true);
      assert.equal(w2.accept(3n + jump), true);
      for (let c = 3n + jump - 31n; c < 3n + jump; c++) {
        assert.equal(w2.accept(c), true, `jump ${jump}, counter ${c}`);
      }
    }
  });
});

describe("deriveKeys edges", () => {
  const master = new Uint8Array(16).fill(1);
  it("takes a 16-byte master and lengths from 16 to 255 * 32", () => {
    assert.equal(deriveKeys(master, { purpose: "p", names: ["a"] }).a.length, 32);
    assert.equal(deriveKeys(master, { purpose: "p", names: ["a"], length: 16 }).a.length, 16);
    assert.equal(deriveKeys(master, { purpose: "p", names: ["a"], length: 8160 }).a.length, 8160);
    for (const length of [15, 8161, 16.5]) {
      throwsKeyed(() => deriveKeys(master, { purpose: "p", names: ["a"], length }), "BAD_INPUT");
    }
    assert.equal(
      deriveKeys(master, { purpose: "p", names: ["a"], method: "blake3", length: 16 }).a.length,
      16,
    );
  });
  it("names must be a non-empty array of distinct non-empty strings", () => {
    for (const names of ["a", [], ["a", 1], ["b", "a", "b"], ["x", ""], undefined]) {
      throwsKeyed(
        () => deriveKeys(master, { purpose: "p", names: names as string[] }),
        "BAD_INPUT",
      );
    }
    const keys = deriveKeys(master, { purpose: "p", names: ["a", "b", "c"] });
    assert.deepEqual(Object.keys(keys), ["a", "b", "c"]);
    assert.notDeepEqual(keys.a, keys.b);
    assert.notDeepEqual(keys.b, keys.c);
  });
  it("the two methods and two purposes give four unrelated keys", () => {
    const k = (purpose: string, method: "hkdf-sha256" | "blake3") =>
      Buffer.from(deriveKeys(master, { purpose, names: ["a"], method }).a).toString("hex");
    const all = new Set([
      k("p", "hkdf-sha256"),
      k("q", "hkdf-sha256"),
      k("p", "blake3"),
      k("q", "blake3"),
    ]);
    assert.equal(all.size, 4);
  });
});
