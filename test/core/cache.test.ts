import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fingerprint, PreparedKeyCache } from "../../src/core/cache.js";

/** A stand-in prepared key that records whether it was wiped. */
class Prepared {
  wiped = false;
  constructor(readonly from: string) {}
  wipe(): void {
    this.wiped = true;
  }
}

const bytes = (...b: number[]) => Uint8Array.from(b);

describe("PreparedKeyCache", () => {
  it("makes an entry once per id and serves it after", () => {
    const cache = new PreparedKeyCache<Prepared>(4);
    let made = 0;
    const make = (name: string) => () => {
      made++;
      return new Prepared(name);
    };
    const a = cache.get("a", make("a"));
    assert.equal(cache.get("a", make("a2")), a);
    assert.equal(made, 1);
    assert.equal(cache.size, 1);
  });

  it("wipes the least recently used entry past its limit", () => {
    const cache = new PreparedKeyCache<Prepared>(2);
    const a = cache.get("a", () => new Prepared("a"));
    const b = cache.get("b", () => new Prepared("b"));
    cache.get("a", () => new Prepared("a again")); // a is now the most recent
    cache.get("c", () => new Prepared("c"));
    assert.equal(b.wiped, true);
    assert.equal(a.wiped, false);
    assert.equal(cache.size, 2);
  });

  it("serves a getFor entry only for exactly its bytes and kind", () => {
    const cache = new PreparedKeyCache<Prepared>(8);
    const key = bytes(1, 2, 3, 4);
    const first = cache.getFor(key, 1, () => new Prepared("k1"));
    assert.equal(
      cache.getFor(bytes(1, 2, 3, 4), 1, () => new Prepared("other")),
      first,
    );
    // Another kind, a changed byte, a longer or shorter key: new entries.
    assert.notEqual(
      cache.getFor(key, 2, () => new Prepared("k2")),
      first,
    );
    assert.notEqual(
      cache.getFor(bytes(1, 2, 3, 5), 1, () => new Prepared("x")),
      first,
    );
    assert.notEqual(
      cache.getFor(bytes(1, 2, 3, 4, 0), 1, () => new Prepared("y")),
      first,
    );
    assert.notEqual(
      cache.getFor(bytes(1, 2, 3), 1, () => new Prepared("z")),
      first,
    );
    assert.equal(cache.size, 5);
    assert.equal(first.wiped, false);
  });

  it("keeps its own copy: changing the caller's array after does not change what is served", () => {
    const cache = new PreparedKeyCache<Prepared>(8);
    const key = bytes(9, 9, 9);
    const first = cache.getFor(key, 0, () => new Prepared("999"));
    key[0] = 8;
    const second = cache.getFor(key, 0, () => new Prepared("899"));
    assert.notEqual(second, first);
    assert.equal(
      cache.getFor(bytes(9, 9, 9), 0, () => new Prepared("again")),
      first,
    );
  });

  it("on a fingerprint collision, serves each key only its own entry (the newer takes it)", () => {
    const cache = new PreparedKeyCache<Prepared>(8, () => 42);
    const a = cache.getFor(bytes(1), 0, () => new Prepared("a"));
    const b = cache.getFor(bytes(2), 0, () => new Prepared("b"));
    assert.notEqual(b, a);
    assert.equal(a.wiped, true);
    assert.equal(cache.size, 1);
    assert.equal(
      cache.getFor(bytes(2), 0, () => new Prepared("b again")),
      b,
    );
    // Same bytes, another kind: a collision too, never the other kind's entry.
    const c = cache.getFor(bytes(2), 1, () => new Prepared("c"));
    assert.notEqual(c, b);
    assert.equal(b.wiped, true);
  });

  it("wipes entries and their copies of the bytes on clear()", () => {
    const cache = new PreparedKeyCache<Prepared>(8);
    const a = cache.getFor(bytes(1), 0, () => new Prepared("1"));
    const b = cache.get("b", () => new Prepared("b"));
    cache.clear();
    assert.equal(a.wiped && b.wiped, true);
    assert.equal(cache.size, 0);
    assert.notEqual(
      cache.getFor(bytes(1), 0, () => new Prepared("1 again")),
      a,
    );
  });

  it("prints redacted", () => {
    const cache = new PreparedKeyCache<Prepared>(3);
    cache.getFor(bytes(0xde, 0xad), 0, () => new Prepared("secret"));
    const shown = JSON.stringify(cache) + String(cache);
    assert.doesNotMatch(shown, /secret|222|173/);
  });
});

describe("fingerprint", () => {
  it("depends on every byte, the length and the kind", () => {
    const base = new Uint8Array(32).fill(7);
    const seen = new Set<number>([fingerprint(base, 0)]);
    for (let i = 0; i < base.length; i++) {
      const changed = base.slice();
      changed[i] ^= 1;
      seen.add(fingerprint(changed, 0));
    }
    seen.add(fingerprint(base, 1));
    seen.add(fingerprint(base.subarray(0, 31), 0));
    seen.add(fingerprint(new Uint8Array(33).fill(7), 0));
    assert.equal(seen.size, 32 + 4);
  });

  it("is a 52-bit integer, and spreads over 10,000 keys without a collision", () => {
    const seen = new Set<number>();
    const key = new Uint8Array(16);
    const view = new DataView(key.buffer);
    for (let i = 0; i < 10_000; i++) {
      view.setUint32(0, i);
      const f = fingerprint(key, 0);
      assert.ok(Number.isSafeInteger(f) && f >= 0 && f < 2 ** 52);
      seen.add(f);
    }
    assert.equal(seen.size, 10_000);
  });
});
