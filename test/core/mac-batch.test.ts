/**
 * Batch tagging: `tagMany` and `verifyMany` on every MAC in macNames() give what `tag` and `verify`
 * give one message at a time, over random batch sizes and message lengths (the multi-buffer
 * kernels group messages by length, so lengths around block boundaries matter); wrong tags
 * anywhere in a batch are false there and only there; and the contract's rules hold for batches
 * (argument checks, one-time keys, the nonce limit, destroy, the kernel's batch hook).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { MacAlgorithm, MacKernel } from "../../src/core/mac.js";
import { PreparedMac } from "../../src/core/prepared-mac.js";
import { type Mac, type MacName, mac, macInfo, macNames } from "../../src/index.js";
import { notBytes, throwsKeyed, toyMacAlgorithm } from "../helpers.js";

const keyFor = (name: MacName, seed = 1): Uint8Array =>
  Uint8Array.from({ length: macInfo(name).keyLength ?? 32 }, (_, i) => (i * 31 + seed * 7) & 255);

/** Lengths around the block sizes the kernels pad to (55/56 and 111/112 split SHA-2's blocks). */
const LENGTHS = [0, 1, 15, 16, 17, 55, 56, 63, 64, 65, 111, 112, 119, 120, 127, 128, 129, 255, 256];
const lengthArb = fc.oneof(fc.constantFrom(...LENGTHS), fc.integer({ min: 0, max: 1100 }));
const batchArb = fc.array(
  lengthArb.chain((n) => fc.uint8Array({ minLength: n, maxLength: n })),
  { minLength: 0, maxLength: 19 },
);

const nonceMac = (name: MacName): boolean => macInfo(name).nonceLength > 0;
const oneTime = (name: MacName): boolean => macInfo(name).oneTime;
/** A Mac that may verify its own tags (the 64-bit SipHashes need allowShortTags to verify). */
const verifier = (name: MacName, key: Uint8Array): Mac =>
  mac(name, key, macInfo(name).tagLength < 10 ? { allowShortTags: true } : undefined);

describe("tagMany and verifyMany, every algorithm", () => {
  for (const name of macNames()) {
    if (oneTime(name)) continue;
    it(`${name}: the tags of tag() one by one, and verifyMany agrees with verify()`, () => {
      fc.assert(
        fc.property(batchArb, fc.nat(), (messages, flip) => {
          const m = verifier(name, keyFor(name));
          const n = messages.length;
          const tagLength = m.tagLength;
          const out = m.tagMany(messages);
          assert.equal(out.length, n * tagLength);
          const tags = messages.map((_, i) => out.slice(i * tagLength, (i + 1) * tagLength));
          if (nonceMac(name)) {
            // Fresh nonces: each tag verifies under a second key object, nonces all differ.
            const other = verifier(name, keyFor(name));
            for (let i = 0; i < n; i++) assert.ok(other.verify(messages[i], tags[i]), `tag ${i}`);
            const nonces = new Set(tags.map((t) => Buffer.from(t.subarray(0, 8)).toString("hex")));
            assert.equal(nonces.size, n);
          } else {
            const single = verifier(name, keyFor(name));
            for (let i = 0; i < n; i++)
              assert.deepEqual(tags[i], single.tag(messages[i]), `${name}: message ${i}`);
          }
          assert.deepEqual(m.verifyMany(messages, tags), new Array(n).fill(true));
          if (n === 0) return;
          // One wrong tag somewhere in the batch (a flipped bit past any nonce), one changed message.
          const bad = flip % n;
          const wrong = tags.map((t) => t.slice());
          const at = macInfo(name).nonceLength + (flip % (tagLength - macInfo(name).nonceLength));
          wrong[bad][at] ^= 1 << (flip % 8);
          const expected = messages.map((_, i) => i !== bad);
          assert.deepEqual(m.verifyMany(messages, wrong), expected);
          for (let i = 0; i < n; i++) assert.equal(m.verify(messages[i], wrong[i]), expected[i]);
          const changed = messages.map((x) => x.slice());
          changed[bad] = Uint8Array.of(...changed[bad], 0);
          assert.deepEqual(m.verifyMany(changed, tags), expected);
          // A tag of the wrong length is false for its message only.
          const short = tags.slice();
          short[bad] = tags[bad].subarray(0, tagLength - 1);
          assert.deepEqual(m.verifyMany(messages, short), expected);
        }),
        { numRuns: name.startsWith("hmac-sha256") || name === "hmac-sha1" ? 60 : 15 },
      );
    });
  }

  it("writes into `out` (and returns it) with no other allocation of the result", () => {
    for (const name of ["hmac-sha256", "hmac-sha512", "blake3", "gmac-aes128"] as const) {
      const m = mac(name, keyFor(name));
      const messages = [new Uint8Array(3), new Uint8Array(70), new Uint8Array(200)];
      const out = new Uint8Array(messages.length * m.tagLength);
      assert.equal(m.tagMany(messages, out), out);
      assert.deepEqual(
        m.verifyMany(
          messages,
          [0, 1, 2].map((i) => out.subarray(i * m.tagLength, (i + 1) * m.tagLength)),
        ),
        [true, true, true],
      );
    }
  });

  it("honours the tagLength option (truncated tags) for batches", () => {
    for (const name of ["hmac-sha256", "hmac-sha1", "hmac-sha512", "kmac128", "blake3"] as const) {
      const m = mac(name, keyFor(name), { tagLength: 16 });
      const messages = Array.from({ length: 9 }, (_, i) => new Uint8Array(i * 20).fill(i));
      const out = m.tagMany(messages);
      assert.equal(out.length, 9 * 16);
      for (let i = 0; i < 9; i++)
        assert.deepEqual(out.subarray(i * 16, (i + 1) * 16), m.tag(messages[i]), `${name} ${i}`);
      const tags = messages.map((x) => m.tag(x));
      tags[4][15] ^= 1;
      assert.deepEqual(
        m.verifyMany(messages, tags),
        messages.map((_, i) => i !== 4),
      );
    }
  });
});

describe("batches and the contract's rules", () => {
  const m = () => mac("hmac-sha256", keyFor("hmac-sha256"));

  it("refuses what is not an array of bytes, naming the entry (BAD_INPUT)", () => {
    for (const [what, value] of notBytes()) {
      throwsKeyed(
        () => m().tagMany([new Uint8Array(1), value as Uint8Array]),
        "BAD_INPUT",
        /messages\[1\]/,
      );
      throwsKeyed(
        () => m().verifyMany([new Uint8Array(1)], [value as Uint8Array]),
        "BAD_INPUT",
        /tags\[0\]/,
      );
      if (what !== "a plain array")
        throwsKeyed(
          () => m().tagMany(value as Uint8Array[]),
          "BAD_INPUT",
          /messages must be an array/,
        );
    }
    throwsKeyed(() => m().tagMany(new Uint8Array(4) as unknown as Uint8Array[]), "BAD_INPUT");
    throwsKeyed(
      () => m().verifyMany([], "x" as unknown as Uint8Array[]),
      "BAD_INPUT",
      /tags must be an array/,
    );
  });

  it("refuses an `out` of the wrong size and tags that do not pair with the messages", () => {
    const messages = [new Uint8Array(1), new Uint8Array(2)];
    throwsKeyed(() => m().tagMany(messages, new Uint8Array(63)), "BAD_INPUT", /2 × 32 = 64/);
    throwsKeyed(() => m().tagMany(messages, new Uint8Array(65)), "BAD_INPUT");
    throwsKeyed(() => m().tagMany(messages, "x" as unknown as Uint8Array), "BAD_INPUT");
    throwsKeyed(
      () => m().verifyMany(messages, [new Uint8Array(32)]),
      "BAD_INPUT",
      /2 messages, 1 tags/,
    );
    assert.deepEqual(m().tagMany([]), new Uint8Array(0));
    assert.deepEqual(m().verifyMany([], []), []);
  });

  it("one-time keys: a batch of one is the key's one use; more is KEY_REUSED and uses nothing", () => {
    const key = keyFor("poly1305", 3);
    const message = new Uint8Array(40).fill(9);
    const expected = mac("poly1305", key).tag(message);
    assert.deepEqual(mac("poly1305", key).tagMany([message]), expected);
    const fresh = mac("poly1305", key);
    throwsKeyed(() => fresh.tagMany([message, message]), "KEY_REUSED", /batch of 2/);
    throwsKeyed(() => fresh.verifyMany([message, message], [expected, expected]), "KEY_REUSED");
    assert.deepEqual(fresh.tagMany([]), new Uint8Array(0));
    // The refused batches did not use the key: its one message is still to come.
    assert.deepEqual(fresh.verifyMany([message], [expected]), [true]);
    throwsKeyed(() => fresh.tagMany([message]), "KEY_REUSED", /already used/);
  });

  it("nonce MACs: a batch past the nonce limit makes no tag and counts nothing", () => {
    const g = mac("gmac-aes128", keyFor("gmac-aes128")) as PreparedMac;
    g.nonceInvocations = 2 ** 32 - 3;
    throwsKeyed(
      () => g.tagMany([new Uint8Array(1), new Uint8Array(2), new Uint8Array(3), new Uint8Array(4)]),
      "NONCE_LIMIT",
      /4 more/,
    );
    assert.equal(g.nonceInvocations, 2 ** 32 - 3);
    assert.equal(
      g.tagMany([new Uint8Array(1), new Uint8Array(2), new Uint8Array(3)]).length,
      3 * 28,
    );
    assert.equal(g.nonceInvocations, 2 ** 32);
    throwsKeyed(() => g.tagMany([new Uint8Array(1)]), "NONCE_LIMIT");
    // Verifying draws no nonce and is not counted.
    const t = mac("gmac-aes128", keyFor("gmac-aes128")).tag(new Uint8Array(1));
    assert.deepEqual(g.verifyMany([new Uint8Array(1)], [t]), [true]);
  });

  it("DESTROYED after destroy(); short tags need allowShortTags to verify in a batch too", () => {
    const d = m();
    d.destroy();
    throwsKeyed(() => d.tagMany([new Uint8Array(1)]), "DESTROYED");
    throwsKeyed(() => d.verifyMany([new Uint8Array(1)], [new Uint8Array(32)]), "DESTROYED");
    const sip = mac("siphash-2-4", keyFor("siphash-2-4"));
    const tags = sip.tagMany([new Uint8Array(1), new Uint8Array(2)]);
    assert.equal(tags.length, 16);
    throwsKeyed(() => sip.verifyMany([new Uint8Array(1)], [tags.subarray(0, 8)]), "TAG_LENGTH");
  });

  it("uses a kernel's batch hook for two or more messages, and its full outputs are wiped", () => {
    const calls: number[] = [];
    const seen: Uint8Array[] = [];
    const base = toyMacAlgorithm();
    const algorithm: MacAlgorithm = {
      ...base,
      createKernel(k, outputLength, options): MacKernel {
        const kernel = base.createKernel(k, outputLength, options);
        return {
          ...kernel,
          computeMany(messages, out) {
            calls.push(messages.length);
            seen.push(out);
            for (let i = 0; i < messages.length; i++)
              kernel.compute(messages[i], out.subarray(i * outputLength, (i + 1) * outputLength));
          },
        };
      },
    };
    const key = new Uint8Array(32).fill(5);
    const plain = new PreparedMac(base, key);
    const hooked = new PreparedMac(algorithm, key, { tagLength: 12 });
    const messages = [new Uint8Array(1), new Uint8Array(7).fill(2), new Uint8Array(9).fill(3)];
    const out = hooked.tagMany(messages);
    assert.deepEqual(calls, [3]);
    for (let i = 0; i < 3; i++)
      assert.deepEqual(out.subarray(i * 12, (i + 1) * 12), plain.tag(messages[i]).subarray(0, 12));
    assert.ok(
      seen[0].every((b) => b === 0),
      "the untruncated outputs are wiped",
    );
    const tags = [0, 1, 2].map((i) => out.slice(i * 12, (i + 1) * 12));
    tags[1][0] ^= 1;
    assert.deepEqual(hooked.verifyMany(messages, tags), [true, false, true]);
    assert.deepEqual(calls, [3, 3]);
    assert.ok(
      seen[1].every((b) => b === 0),
      "the expected tags are wiped after comparing",
    );
    hooked.tagMany([messages[0]]);
    assert.deepEqual(calls, [3, 3], "a batch of one takes compute()");
  });
});
