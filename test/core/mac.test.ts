import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { describe, it } from "node:test";
import type { MacAlgorithm, MacKernel } from "../../src/core/mac.js";
import { PreparedMac } from "../../src/core/prepared-mac.js";
import { Sha256 } from "../../src/hash/sha256.js";
import { hmac, KeyedError, mac, macInfo, macNames } from "../../src/index.js";
import { HmacKernel } from "../../src/mac/hmac.js";
import { atOffset, notBytes, throwsKeyed } from "../helpers.js";

const key = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
const message = Uint8Array.from({ length: 100 }, (_, i) => i * 7);
const nodeTag = (m: Uint8Array, k = key) =>
  new Uint8Array(createHmac("sha256", k).update(m).digest());

describe("mac() and macNames()", () => {
  it("offers every MAC of the design", () => {
    assert.deepEqual(macNames().sort(), [
      "blake3",
      "chacha20-poly1305",
      "cmac-aes128",
      "cmac-aes192",
      "cmac-aes256",
      "gmac-aes128",
      "gmac-aes192",
      "gmac-aes256",
      "hmac-sha1",
      "hmac-sha224",
      "hmac-sha256",
      "hmac-sha3-224",
      "hmac-sha3-256",
      "hmac-sha3-384",
      "hmac-sha3-512",
      "hmac-sha384",
      "hmac-sha512",
      "hmac-sha512-224",
      "hmac-sha512-256",
      "kmac128",
      "kmac256",
      "poly1305",
      "siphash-1-3",
      "siphash-1-3-128",
      "siphash-2-4",
      "siphash-2-4-128",
      "xchacha20-poly1305",
    ]);
    for (const name of macNames()) {
      const m = mac(name, key.subarray(0, macInfo(name).keyLength ?? 32));
      assert.equal(m.algorithm, name);
      assert.equal(m.tag(message).length, m.tagLength);
      assert.equal(macInfo(name).tagLength, m.tagLength);
    }
  });
  it("refuses unknown names with UNKNOWN_ALGORITHM", () => {
    throwsKeyed(() => mac("hmac-md5" as "hmac-sha1", key), "UNKNOWN_ALGORITHM", /macNames/);
    throwsKeyed(() => mac("toString" as "hmac-sha1", key), "UNKNOWN_ALGORITHM");
    throwsKeyed(() => mac(5 as unknown as "hmac-sha1", key), "BAD_INPUT");
    throwsKeyed(() => hmac("md5" as "sha1", key), "UNKNOWN_ALGORITHM");
  });
  it('hmac("sha256", key) is mac("hmac-sha256", key)', () => {
    assert.deepEqual(hmac("sha256", key).tag(message), mac("hmac-sha256", key).tag(message));
  });
  it("a Mac and the Poly1305 kernel set every field they declare", () => {
    // Their fields are `declare`d and set in the constructor (for V8's sake): TypeScript does not
    // check that such a field is ever set, so this does.
    const fields = [
      "algorithm",
      "shape",
      "tagLength",
      "kernel",
      "nonce",
      "scratchBytes",
      "batch",
      "nonceUses",
      "destroyed",
      "used",
    ];
    for (const name of ["hmac-sha256", "poly1305", "gmac-aes256"] as const) {
      const m = mac(name, key) as PreparedMac;
      assert.deepEqual(Reflect.ownKeys(m).sort(), [...fields].sort(), name);
    }
    const kernel = (mac("poly1305", key) as PreparedMac).kernel;
    const kernelFields = ["outputLength", "stream", "k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7"];
    assert.deepEqual(Reflect.ownKeys(kernel).sort(), kernelFields.sort());
    assert.equal(kernel.outputLength, 16);
  });
});

describe("key policy", () => {
  it("refuses keys under 16 bytes unless allowShortKeys", () => {
    throwsKeyed(() => mac("hmac-sha256", new Uint8Array(15)), "KEY_TOO_SHORT", /16 bytes/);
    throwsKeyed(() => mac("hmac-sha256", new Uint8Array(0)), "KEY_TOO_SHORT");
    const short = mac("hmac-sha256", Uint8Array.of(1, 2, 3), { allowShortKeys: true });
    assert.deepEqual(short.tag(message), nodeTag(message, Uint8Array.of(1, 2, 3)));
    assert.equal(mac("hmac-sha256", new Uint8Array(16)).tagLength, 32);
  });
  it("copies the key in: the caller's buffer is neither kept nor changed", () => {
    const callerKey = key.slice();
    const m = mac("hmac-sha256", callerKey);
    assert.deepEqual(callerKey, key);
    callerKey.fill(0);
    assert.deepEqual(m.tag(message), nodeTag(message));
  });
  it("refuses non-bytes keys", () => {
    for (const [, value] of notBytes()) {
      throwsKeyed(() => mac("hmac-sha256", value as Uint8Array), "BAD_INPUT", /^key /);
    }
  });
  it("accepts a key that is a subarray view with an offset", () => {
    assert.deepEqual(mac("hmac-sha256", atOffset(key)).tag(message), nodeTag(message));
  });
});

describe("tag policy and truncation", () => {
  it("truncates to the leftmost tagLength bytes", () => {
    for (const tagLength of [10, 16, 20, 31, 32]) {
      const m = mac("hmac-sha256", key, { tagLength });
      assert.equal(m.tagLength, tagLength);
      const t = m.tag(message);
      assert.deepEqual(t, nodeTag(message).subarray(0, tagLength));
      assert.equal(m.verify(message, t), true);
    }
  });
  it("refuses tags under 10 bytes unless allowShortTags, and under 4 always", () => {
    throwsKeyed(() => mac("hmac-sha256", key, { tagLength: 9 }), "TAG_LENGTH", /allowShortTags/);
    const m = mac("hmac-sha256", key, { tagLength: 4, allowShortTags: true });
    assert.deepEqual(m.tag(message), nodeTag(message).subarray(0, 4));
    throwsKeyed(
      () => mac("hmac-sha256", key, { tagLength: 3, allowShortTags: true }),
      "TAG_LENGTH",
      /never/,
    );
    throwsKeyed(
      () => mac("hmac-sha256", key, { tagLength: 0, allowShortTags: true }),
      "TAG_LENGTH",
    );
  });
  it("refuses tags longer than the algorithm's output", () => {
    throwsKeyed(() => mac("hmac-sha256", key, { tagLength: 33 }), "TAG_LENGTH", /at most 32/);
    throwsKeyed(() => mac("hmac-sha1", key, { tagLength: 21 }), "TAG_LENGTH", /at most 20/);
  });
  it("refuses tagLength that is not a whole number, and unknown options", () => {
    for (const bad of [10.5, -1, Number.NaN, "16", null]) {
      throwsKeyed(
        () => mac("hmac-sha256", key, { tagLength: bad as number }),
        "BAD_INPUT",
        /tagLength/,
      );
    }
    throwsKeyed(
      () => mac("hmac-sha256", key, { taglength: 16 } as object),
      "BAD_INPUT",
      /taglength/,
    );
    throwsKeyed(
      () => mac("hmac-sha256", key, { customization: "x" }),
      "BAD_INPUT",
      /customization/,
    );
    throwsKeyed(
      () => mac("hmac-sha256", key, { allowShortKeys: 1 as unknown as boolean }),
      "BAD_INPUT",
    );
    throwsKeyed(() => mac("hmac-sha256", key, "fast" as unknown as object), "BAD_INPUT");
  });
});

describe("verify", () => {
  const m = mac("hmac-sha256", key);
  const good = nodeTag(message);
  it("accepts the right tag, also as a subarray view", () => {
    assert.equal(m.verify(message, good), true);
    assert.equal(m.verify(atOffset(message), atOffset(good)), true);
  });
  it("returns false, never throws, for any wrong tag", () => {
    for (let i = 0; i < good.length; i++) {
      const bad = good.slice();
      bad[i] ^= 0x80;
      assert.equal(m.verify(message, bad), false);
    }
    assert.equal(m.verify(message, good.subarray(0, 31)), false, "truncated");
    assert.equal(m.verify(message, Uint8Array.of(...good, 0)), false, "extended");
    assert.equal(m.verify(message, new Uint8Array(0)), false, "empty");
    const tampered = message.slice();
    tampered[0] ^= 1;
    assert.equal(m.verify(tampered, good), false, "tampered message");
  });
  it("with a truncating Mac accepts exactly tagLength bytes", () => {
    const m16 = mac("hmac-sha256", key, { tagLength: 16 });
    assert.equal(m16.verify(message, good.subarray(0, 16)), true);
    assert.equal(m16.verify(message, good), false, "the full tag is not the 16-byte tag");
    assert.equal(m16.verify(message, good.subarray(0, 15)), false);
  });
  it("refuses arguments that are not bytes", () => {
    for (const [, value] of notBytes()) {
      throwsKeyed(() => m.verify(value as Uint8Array, good), "BAD_INPUT", /^message /);
      throwsKeyed(() => m.verify(message, value as Uint8Array), "BAD_INPUT", /^tag /);
      throwsKeyed(() => m.tag(value as Uint8Array), "BAD_INPUT", /^message /);
    }
  });
});

describe("tag(message, out)", () => {
  it("writes into out and returns it", () => {
    const m = mac("hmac-sha256", key, { tagLength: 16 });
    const out = new Uint8Array(16);
    assert.equal(m.tag(message, out), out);
    assert.deepEqual(out, nodeTag(message).subarray(0, 16));
    const view = atOffset(new Uint8Array(16));
    m.tag(message, view);
    assert.deepEqual(view, out);
  });
  it("refuses an out of the wrong size or type", () => {
    const m = mac("hmac-sha256", key);
    throwsKeyed(() => m.tag(message, new Uint8Array(31)), "BAD_INPUT", /exactly tagLength \(32\)/);
    throwsKeyed(() => m.tag(message, new Uint8Array(33)), "BAD_INPUT");
    for (const [, value] of notBytes()) {
      if (value === undefined) continue;
      throwsKeyed(() => m.tag(message, value as Uint8Array), "BAD_INPUT", /^out /);
    }
  });
});

describe("stream()", () => {
  it("gives the one-shot tag, whatever the chunking", () => {
    const m = mac("hmac-sha256", key, { tagLength: 20 });
    const s = m.stream();
    s.update(message.subarray(0, 1))
      .update(new Uint8Array(0))
      .update(atOffset(message.subarray(1, 70)));
    s.update(message.subarray(70));
    assert.deepEqual(s.digest(), m.tag(message));
    assert.equal(m.stream().update(message).verify(m.tag(message)), true);
    assert.equal(m.stream().update(message).verify(new Uint8Array(20)), false);
  });
  it("is finished after digest or verify", () => {
    const s = mac("hmac-sha256", key).stream().update(message);
    s.digest();
    throwsKeyed(() => s.update(message), "FINISHED");
    throwsKeyed(() => s.digest(), "FINISHED");
    const v = mac("hmac-sha256", key).stream();
    v.verify(new Uint8Array(32));
    throwsKeyed(() => v.verify(new Uint8Array(32)), "FINISHED");
  });
  it("streams are independent of each other and of tag()", () => {
    const m = mac("hmac-sha256", key);
    const a = m.stream().update(message.subarray(0, 10));
    const b = m.stream().update(message.subarray(0, 50));
    m.tag(new Uint8Array(500));
    a.update(message.subarray(10));
    b.update(message.subarray(50));
    assert.deepEqual(a.digest(), nodeTag(message));
    assert.deepEqual(b.digest(), nodeTag(message));
  });
  it("refuses non-bytes chunks", () => {
    const s = mac("hmac-sha256", key).stream();
    for (const [, value] of notBytes()) {
      throwsKeyed(() => s.update(value as Uint8Array), "BAD_INPUT", /^chunk /);
    }
  });
});

describe("verifyingStream(tag)", () => {
  it("every algorithm: true for its tag over any split, false for a changed tag or message", () => {
    for (const name of macNames()) {
      const info = macInfo(name);
      const k = Uint8Array.from({ length: info.recommendedKeyLength }, (_, i) => i + 9);
      const options = { allowShortTags: true };
      const tagger = mac(name, k, options);
      const tag = tagger.tag(message);
      const fresh = () => (info.oneTime ? mac(name, k, options) : tagger);
      const checking = fresh().verifyingStream(tag);
      checking.update(message.subarray(0, 33)).update(message.subarray(33));
      assert.equal(checking.verify(), true, name);
      const flipped = Uint8Array.from(tag);
      flipped[tag.length - 1] ^= 1;
      assert.equal(fresh().verifyingStream(flipped).update(message).verify(), false, name);
      assert.equal(fresh().verifyingStream(tag).update(message.subarray(1)).verify(), false, name);
      assert.equal(fresh().verifyingStream(tag.subarray(0, 3)).update(message).verify(), false);
    }
  });

  it("copies the tag, finishes once, and does not tag", () => {
    const m = hmac("sha256", key);
    const tag = m.tag(message);
    const copy = Uint8Array.from(tag);
    const checking = m.verifyingStream(copy);
    copy.fill(0); // the caller's buffer changing later does not change what is checked
    assert.equal(checking.update(message).verify(), true);
    throwsKeyed(() => checking.verify(), "FINISHED");
    throwsKeyed(() => (checking as unknown as { digest(): Uint8Array }).digest(), "FINISHED");
    throwsKeyed(
      () => (m.verifyingStream(tag) as unknown as { digest(): Uint8Array }).digest(),
      "BAD_INPUT",
      /only verifies/,
    );
    for (const [what, bad] of notBytes()) {
      assert.throws(() => m.verifyingStream(bad as Uint8Array), KeyedError, what);
    }
  });

  it("ChaCha20-Poly1305 MACs stream past the buffer a late tag needs", () => {
    for (const name of ["chacha20-poly1305", "xchacha20-poly1305"] as const) {
      const m = mac(name, new Uint8Array(32).fill(5));
      const big = new Uint8Array(17 * 1024 * 1024).fill(7);
      const tag = m.tag(big);
      const checking = m.verifyingStream(tag);
      for (let at = 0; at < big.length; at += 1 << 20)
        checking.update(big.subarray(at, at + (1 << 20)));
      assert.equal(checking.verify(), true, name);
      // stream().verify(tag) learns the nonce only at the end: past the buffer it says so.
      const late = m.stream();
      for (let at = 0; at < big.length; at += 1 << 20)
        late.update(big.subarray(at, at + (1 << 20)));
      throwsKeyed(() => late.verify(tag), "LENGTH", /verifyingStream/);
    }
  });
});

describe("destroy()", () => {
  it("makes every later call throw DESTROYED, streams included", () => {
    const m = mac("hmac-sha256", key);
    const s = m.stream().update(message);
    m.destroy();
    m.destroy(); // idempotent
    throwsKeyed(() => m.tag(message), "DESTROYED");
    throwsKeyed(() => m.verify(message, new Uint8Array(32)), "DESTROYED");
    throwsKeyed(() => m.stream(), "DESTROYED");
    throwsKeyed(() => s.update(message), "DESTROYED");
    throwsKeyed(() => s.digest(), "DESTROYED");
  });
  it("overwrites the key-derived state with zeros", () => {
    const m = mac("hmac-sha512", key) as PreparedMac;
    // The key-derived values are made when a second message needs them (a first one may go to
    // node:crypto): the pad blocks on every backend, and the hash states where keyed's own
    // kernels compute (node:crypto's one-shot hashes start from the pad blocks alone).
    m.tag(message);
    m.tag(message);
    const { material } = m.kernel as unknown as {
      material: {
        padded: Record<"inner" | "outer", Uint8Array>;
        prepared?: Record<"inner" | "outer", { state: Int32Array }>;
      };
    };
    const words = () => [
      ...material.padded.inner,
      ...material.padded.outer,
      ...(material.prepared?.inner.state ?? []),
      ...(material.prepared?.outer.state ?? []),
    ];
    assert.ok(words().some((w) => w !== 0));
    m.destroy();
    assert.ok(words().every((w) => w === 0));
  });
});

describe("the contract with other kernel shapes", () => {
  // A toy kernel (XOR of the key into a fixed pattern) exercises the fixed-key rule and the
  // variable-output path that KMAC uses; it is not a MAC.
  const toy = (variableOutput: boolean): MacAlgorithm => ({
    name: "kmac128",
    key: { kind: "fixed", length: 24 },
    tag: {
      full: 16,
      safeMinimum: 8,
      maximum: variableOutput ? 64 : 16,
      variableOutput,
      basis: "test",
    },
    createKernel(k, outputLength): MacKernel {
      const state = k.slice();
      const fill = (m: Uint8Array, out: Uint8Array) => {
        for (let i = 0; i < outputLength; i++) out[i] = state[i % 24] ^ outputLength ^ (m[0] ?? 0);
      };
      return {
        outputLength,
        compute: fill,
        start() {
          let first: Uint8Array = new Uint8Array(0);
          return {
            update: (c) => {
              if (first.length === 0) first = c.slice(0, 1);
            },
            finish: (out) => fill(first, out),
            wipe: () => {},
          };
        },
        wipe: () => state.fill(0),
      };
    },
  });
  it("fixed-size keys need exactly their size", () => {
    throwsKeyed(() => new PreparedMac(toy(false), new Uint8Array(16)), "KEY_LENGTH", /exactly 24/);
    throwsKeyed(() => new PreparedMac(toy(false), new Uint8Array(32)), "KEY_LENGTH");
    assert.equal(new PreparedMac(toy(false), new Uint8Array(24)).tagLength, 16);
  });
  it("the algorithm's safe minimum replaces the default 10 bytes", () => {
    assert.equal(new PreparedMac(toy(false), new Uint8Array(24), { tagLength: 8 }).tagLength, 8);
    throwsKeyed(
      () => new PreparedMac(toy(false), new Uint8Array(24), { tagLength: 7 }),
      "TAG_LENGTH",
    );
  });
  it("variable-output kernels compute at the configured length instead of truncating", () => {
    const k = new Uint8Array(24).fill(1);
    const long = new PreparedMac(toy(true), k, { tagLength: 40 });
    assert.equal(long.tag(message).length, 40);
    const short = new PreparedMac(toy(true), k, { tagLength: 12 }).tag(message);
    assert.notDeepEqual(short, long.tag(message).subarray(0, 12));
    assert.deepEqual(
      short,
      new PreparedMac(toy(true), k, { tagLength: 12 }).stream().update(message).digest(),
    );
  });
  it("a kernel that throws while keying leaves no copy of the key behind", () => {
    let seen: Uint8Array | undefined;
    const failing: MacAlgorithm = {
      ...toy(false),
      createKernel(k) {
        seen = k;
        throw new KeyedError("KEY_WEAK", "refused");
      },
    };
    throwsKeyed(() => new PreparedMac(failing, new Uint8Array(24).fill(7)), "KEY_WEAK");
    assert.ok(seen?.every((b) => b === 0));
  });
  it("HmacKernel alone applies no policy (HKDF's building block)", () => {
    const kernel = new HmacKernel(
      { name: "x", blockLength: 64, outputLength: 32, create: () => new Sha256() },
      new Uint8Array(0),
    );
    const out = new Uint8Array(32);
    kernel.compute(message, out);
    assert.deepEqual(out, nodeTag(message, new Uint8Array(0)));
  });
});

describe("kernels that copy the key (MacAlgorithm.copiesKey)", () => {
  it("every algorithm keeps no reference to the caller's key: changing it later changes no tag", () => {
    const message = Uint8Array.from({ length: 70 }, (_, i) => i);
    for (const name of macNames()) {
      const info = macInfo(name);
      const options = info.tagLength < 10 ? { allowShortTags: true } : undefined;
      const original = Uint8Array.from(
        { length: info.keyLength ?? 32 },
        (_, i) => (i * 13 + 5) & 255,
      );
      if (info.oneTime) {
        const key = original.slice();
        const m = mac(name, key);
        key.fill(0xaa);
        assert.deepEqual(m.tag(message), mac(name, original).tag(message), name);
        continue;
      }
      // Nonce MACs draw a fresh nonce per tag: each tag is checked under an unchanged key.
      const reference = mac(name, original, options);
      const key = original.slice();
      const m = mac(name, key, options);
      // Changed after mac() and after each use: kernels key up lazily (second message, streams).
      for (let use = 0; use < 3; use++) {
        key.fill(0xaa ^ use);
        assert.ok(reference.verify(message, m.tag(message)), `${name}: use ${use}`);
      }
      key.fill(0x55);
      assert.ok(reference.verify(message, m.stream().update(message).digest()), `${name}: stream`);
    }
  });
});
