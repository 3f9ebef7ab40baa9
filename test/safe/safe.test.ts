import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  defaultMaxFailures,
  deriveKeys,
  generateKey,
  hkdf,
  KeyedError,
  mac,
  macInfo,
  macNames,
  open,
  ReplayWindow,
  seal,
  Verifier,
} from "../../src/index.js";
import { ascii, notBytes, throwsKeyed } from "../helpers.js";

describe("generateKey", () => {
  it("gives a fresh key of the right size for every algorithm", () => {
    for (const name of macNames()) {
      const a = generateKey(name);
      assert.equal(a.length, macInfo(name).recommendedKeyLength, name);
      assert.notDeepEqual(a, generateKey(name));
      const info = macInfo(name);
      mac(name, a, info.tagLength < info.minTagLength ? { allowShortTags: true } : undefined).tag(
        ascii("works"),
      );
    }
    assert.equal(generateKey("hmac-sha512").length, 64);
    assert.equal(generateKey("cmac-aes128").length, 16);
    throwsKeyed(() => generateKey("md5" as "hmac-sha1"), "UNKNOWN_ALGORITHM");
  });
});

describe("deriveKeys", () => {
  const master = new Uint8Array(32).fill(0x42);
  it("derives one independent key per name from HKDF-SHA256, not the master key", () => {
    const { client, server } = deriveKeys(master, {
      purpose: "chat v1",
      names: ["client", "server"],
    });
    assert.equal(client.length, 32);
    assert.notDeepEqual(client, server);
    assert.notDeepEqual(client, master);
    // Reproducible, and bound to the purpose.
    assert.deepEqual(deriveKeys(master, { purpose: "chat v1", names: ["client"] }).client, client);
    assert.notDeepEqual(
      deriveKeys(master, { purpose: "chat v2", names: ["client"] }).client,
      client,
    );
    // The documented construction.
    const expected = hkdf("sha256", master, {
      salt: ascii("keyed deriveKeys v1"),
      info: Uint8Array.of(
        1,
        0,
        0,
        0,
        7,
        ...ascii("chat v1"),
        0,
        0,
        0,
        1,
        0,
        0,
        0,
        6,
        ...ascii("client"),
      ),
      length: 32,
    });
    assert.deepEqual(client, expected);
  });
  it("has a BLAKE3 derive_key alternative and any length", () => {
    const a = deriveKeys(master, { purpose: "p", names: ["x", "y"], method: "blake3", length: 48 });
    assert.equal(a.x.length, 48);
    assert.notDeepEqual(a.x, a.y);
    assert.notDeepEqual(a.x, deriveKeys(master, { purpose: "p", names: ["x"], length: 48 }).x);
  });
  it('treats "__proto__" and other Object.prototype names as plain names', () => {
    const keys = deriveKeys(master, { purpose: "p", names: ["__proto__", "constructor", "a"] });
    // The result has no prototype to replace: every name is an own, enumerable key.
    assert.equal(Object.getPrototypeOf(keys), null);
    assert.deepEqual(Object.keys(keys), ["__proto__", "constructor", "a"]);
    const proto = Object.getOwnPropertyDescriptor(keys, "__proto__")?.value as Uint8Array;
    assert.ok(proto instanceof Uint8Array && proto.length === 32);
    assert.notDeepEqual(proto, keys.a);
    assert.ok(keys.constructor instanceof Uint8Array);
    // A repeat of any name is refused, "__proto__" included.
    for (const name of ["__proto__", "constructor", "toString", "b"]) {
      throwsKeyed(
        () => deriveKeys(master, { purpose: "p", names: [name, "x", name] }),
        "BAD_INPUT",
        /distinct/,
      );
    }
  });
  it("refuses bad input", () => {
    throwsKeyed(
      () => deriveKeys(new Uint8Array(15), { purpose: "p", names: ["a"] }),
      "KEY_TOO_SHORT",
    );
    throwsKeyed(() => deriveKeys(master, { purpose: "p", names: [] }), "BAD_INPUT", /names/);
    throwsKeyed(
      () => deriveKeys(master, { purpose: "p", names: ["a", "a"] }),
      "BAD_INPUT",
      /distinct/,
    );
    throwsKeyed(() => deriveKeys(master, { purpose: "p", names: [""] }), "BAD_INPUT");
    throwsKeyed(
      () => deriveKeys(master, { purpose: 1 as unknown as string, names: ["a"] }),
      "BAD_INPUT",
      /purpose/,
    );
    throwsKeyed(
      () => deriveKeys(master, { purpose: "p", names: ["a"], length: 8 }),
      "BAD_INPUT",
      /length/,
    );
    throwsKeyed(
      () => deriveKeys(master, { purpose: "p", names: ["a"], method: "md5" as "blake3" }),
      "BAD_INPUT",
      /method/,
    );
    for (const [, value] of notBytes()) {
      throwsKeyed(
        () => deriveKeys(value as Uint8Array, { purpose: "p", names: ["a"] }),
        "BAD_INPUT",
        /^master /,
      );
    }
  });
});

describe("Verifier", () => {
  const key = new Uint8Array(32).fill(5);
  const message = ascii("message");
  it("accepts good tags and retires the key after the failure budget", () => {
    const m = mac("hmac-sha256", key);
    const good = m.tag(message);
    const v = new Verifier(m, { maxFailures: 3 });
    assert.equal(v.verify(message, good), true);
    for (let i = 0; i < 3; i++) assert.equal(v.verify(message, new Uint8Array(32)), false);
    assert.deepEqual(v.status(), {
      state: "KEY_RETIRED",
      failures: 3,
      successes: 1,
      maxFailures: 3,
    });
    assert.equal(v.verify(message, good), false, "a retired key accepts nothing");
    assert.equal(v.status().successes, 1);
  });
  it("never throws on a wrong or malformed tag; those count as failures", () => {
    const v = new Verifier(mac("hmac-sha256", key));
    for (const bad of [
      "tag",
      42,
      null,
      undefined,
      new ArrayBuffer(32),
      new Uint8Array(0),
      new Uint8Array(33),
    ]) {
      assert.equal(v.verify(message, bad), false);
    }
    assert.equal(v.status().failures, 7);
    assert.equal(v.status().state, "ACTIVE");
    throwsKeyed(
      () => v.verify("text" as unknown as Uint8Array, new Uint8Array(32)),
      "BAD_INPUT",
      /message/,
    );
  });
  it("the default budget is 2^(t/2), at most 2^32, on the tag proper", () => {
    assert.equal(new Verifier(mac("hmac-sha256", key)).maxFailures, 2 ** 32);
    assert.equal(new Verifier(mac("hmac-sha256", key, { tagLength: 10 })).maxFailures, 2 ** 32);
    assert.equal(
      new Verifier(mac("hmac-sha256", key, { tagLength: 4, allowShortTags: true })).maxFailures,
      2 ** 16,
    );
    assert.equal(
      new Verifier(mac("gmac-aes128", key.subarray(0, 16), { tagLength: 8, allowShortTags: true }))
        .maxFailures,
      2 ** 32,
    );
    assert.equal(defaultMaxFailures(6), 2 ** 24);
  });
  it("verifyFields and bad options", () => {
    const m = mac("blake3", key);
    const v = new Verifier(m);
    assert.equal(v.verifyFields("p", ["a"], m.tagFields("p", ["a"])), true);
    assert.equal(v.verifyFields("p", ["a"], "x"), false);
    throwsKeyed(() => new Verifier({} as never), "BAD_INPUT", /Mac/);
    throwsKeyed(() => new Verifier(m, { maxFailures: 0 }), "BAD_INPUT", /maxFailures/);
  });
});

describe("ReplayWindow", () => {
  it("matches a Set-based model over 2^16 random counters", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }),
        fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 1, maxLength: 2000 }),
        (size, counters) => {
          const w = new ReplayWindow({ size });
          const seen = new Set<number>();
          let top = -1;
          for (const c of counters) {
            const expected = !seen.has(c) && (c > top || top - c < size);
            assert.equal(w.accept(BigInt(c)), expected, `counter ${c}, top ${top}, size ${size}`);
            if (expected) {
              seen.add(c);
              top = Math.max(top, c);
            }
          }
        },
      ),
      { numRuns: 33 }, // 33 × up to 2,000 = about 2^16 counters
    );
  });
  it("the default window is 1024; far jumps clear it; the ring wraps", () => {
    const w = new ReplayWindow();
    assert.equal(w.size, 1024);
    assert.equal(w.accept(5n), true);
    assert.equal(w.accept(5n), false);
    assert.equal(w.accept(1_000_000n), true);
    assert.equal(w.accept(5n), false, "too old");
    assert.equal(w.accept(1_000_000n - 1023n), true, "just inside");
    assert.equal(w.accept(1_000_000n - 1024n), false, "just outside");
    for (let c = 1_000_001n; c < 1_010_000n; c++) assert.equal(w.accept(c), true);
    assert.equal(w.accept(1_005_000n), false);
  });
  it("is correct up to 2^64 - 1, and no further", () => {
    const w = new ReplayWindow({ size: 64 });
    const max = (1n << 64n) - 1n;
    assert.equal(w.accept(max - 100n), true);
    assert.equal(w.accept(max), true);
    assert.equal(w.accept(max), false);
    assert.equal(w.accept(max - 50n), true);
    assert.equal(w.accept(max - 100n), false);
    assert.equal(w.newest, max);
    throwsKeyed(() => w.accept(max + 1n), "BAD_INPUT", /2\^64/);
    throwsKeyed(() => w.accept(-1n), "BAD_INPUT");
    throwsKeyed(() => w.accept(5.5), "BAD_INPUT", /bigint/);
    throwsKeyed(() => new ReplayWindow({ size: 0 }), "BAD_INPUT");
  });
});

describe("seal and open", () => {
  const key = new Uint8Array(32).fill(9);
  const payload = ascii('{"user":"alice"}');
  const expectCode = (fn: () => unknown, code: string) => {
    assert.throws(fn, (e: unknown) => e instanceof KeyedError && e.code === code);
  };
  it("round-trips payload, timestamp and counter", () => {
    const token = seal(key, payload, { purpose: "session", timestamp: 1_700_000_000, counter: 7n });
    const opened = open(key, token, { purpose: "session", maxAgeSeconds: 60, now: 1_700_000_030 });
    assert.deepEqual(opened, { payload, timestamp: 1_700_000_000, counter: 7n });
    assert.deepEqual(
      open(key, seal(key, payload, { purpose: "p" }), { purpose: "p" }).payload,
      payload,
    );
  });
  it("refuses with distinct codes: TAG_INVALID, EXPIRED, NOT_YET_VALID, REPLAYED", () => {
    const now = 1_700_000_000;
    const token = seal(key, payload, { purpose: "session", timestamp: now, counter: 1 });
    const flipped = token.slice();
    flipped[5] ^= 1;
    expectCode(() => open(key, flipped, { purpose: "session" }), "TAG_INVALID");
    expectCode(() => open(key, token.subarray(0, 10), { purpose: "session" }), "TAG_INVALID");
    expectCode(() => open(new Uint8Array(32), token, { purpose: "session" }), "TAG_INVALID");
    expectCode(() => open(key, token, { purpose: "other" }), "TAG_INVALID");
    expectCode(
      () => open(key, token, { purpose: "session", algorithm: "hmac-sha512" }),
      "TAG_INVALID",
    );
    expectCode(
      () => open(key, token, { purpose: "session", maxAgeSeconds: 60, now: now + 61 }),
      "EXPIRED",
    );
    assert.ok(
      open(key, token, {
        purpose: "session",
        maxAgeSeconds: 60,
        clockSkewSeconds: 5,
        now: now + 65,
      }),
    );
    expectCode(
      () => open(key, token, { purpose: "session", now: now - 10, clockSkewSeconds: 5 }),
      "NOT_YET_VALID",
    );
    const replay = new ReplayWindow();
    assert.ok(open(key, token, { purpose: "session", replay, now }));
    expectCode(() => open(key, token, { purpose: "session", replay, now }), "REPLAYED");
    expectCode(
      () => open(key, seal(key, payload, { purpose: "session" }), { purpose: "session", replay }),
      "REPLAYED",
    );
    expectCode(
      () =>
        open(key, seal(key, payload, { purpose: "session" }), {
          purpose: "session",
          maxAgeSeconds: 5,
        }),
      "EXPIRED",
    );
  });
  it("checks the tag before parsing anything: a forged header is TAG_INVALID, not a parse error", () => {
    const token = seal(key, payload, { purpose: "p" });
    const forged = token.slice();
    forged[0] = 99; // version
    forged[2] = 0xff; // flags that would claim fields the body does not have
    expectCode(() => open(key, forged, { purpose: "p" }), "TAG_INVALID");
  });
  it("every algorithm of the token format", () => {
    for (const algorithm of [
      "hmac-sha256",
      "hmac-sha512",
      "kmac256",
      "blake3",
      "cmac-aes128",
      "hmac-sha3-256",
    ] as const) {
      const token = seal(key, payload, { purpose: "p", algorithm });
      assert.deepEqual(open(key, token, { purpose: "p", algorithm }).payload, payload, algorithm);
    }
  });
  it("refuses bad input", () => {
    throwsKeyed(() => seal(new Uint8Array(8), payload, { purpose: "p" }), "KEY_TOO_SHORT");
    throwsKeyed(
      () => seal(key, payload, { purpose: "p", algorithm: "poly1305" as "blake3" }),
      "UNKNOWN_ALGORITHM",
    );
    throwsKeyed(
      () => seal(key, payload, { purpose: "p", timestamp: -1 }),
      "BAD_INPUT",
      /timestamp/,
    );
    throwsKeyed(
      () => seal(key, payload, { purpose: "p", counter: 2n ** 64n }),
      "BAD_INPUT",
      /counter/,
    );
    throwsKeyed(() => seal(key, payload, null as never), "BAD_INPUT");
    throwsKeyed(
      () => open(key, payload, { purpose: "p", maxAgeSeconds: -5 }),
      "BAD_INPUT",
      /maxAgeSeconds/,
    );
    for (const [, value] of notBytes()) {
      throwsKeyed(() => seal(key, value as Uint8Array, { purpose: "p" }), "BAD_INPUT", /^payload /);
      throwsKeyed(() => open(key, value as Uint8Array, { purpose: "p" }), "BAD_INPUT", /^token /);
    }
  });
});
