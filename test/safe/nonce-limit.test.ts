/**
 * Random nonces (GMAC, the ChaCha20-Poly1305 MACs): drawn from the system at each use, never from
 * a pool a snapshotted or forked process could replay; and counted per key against SP 800-38D
 * section 8.3's 2^32 invocations for random 96-bit IVs.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { PreparedMac } from "../../src/core/prepared-mac.js";
import { type Mac, type MacName, mac } from "../../src/index.js";
import { macAlgorithm } from "../../src/mac/registry.js";
import { ascii, throwsKeyed } from "../helpers.js";

const LIMITED: [MacName, number][] = [
  ["gmac-aes128", 16],
  ["gmac-aes192", 24],
  ["gmac-aes256", 32],
  ["chacha20-poly1305", 32],
];
const LIMIT = 2 ** 32;
const message = ascii("a message");

/** Starts the key's nonce count at `count`, through the @internal setter. */
function startAt(m: Mac, count: number): void {
  (m as PreparedMac).nonceInvocations = count;
}

describe("the random-nonce limit (SP 800-38D 8.3)", () => {
  it("is data in the algorithm rule, naming its standard", () => {
    for (const [name] of LIMITED) {
      const limit = macAlgorithm(name).nonceLimit;
      assert.equal(limit?.invocations, LIMIT, name);
      assert.match(limit?.basis ?? "", /SP 800-38D section 8\.3/, name);
    }
    // 192-bit random nonces need no such limit; MACs without nonces have none.
    for (const name of ["xchacha20-poly1305", "hmac-sha256", "poly1305"] as const) {
      assert.equal(macAlgorithm(name).nonceLimit, undefined, name);
    }
  });
  for (const [name, keyLength] of LIMITED) {
    it(`${name}: the 2^32-th tag is made, the next is NONCE_LIMIT; verify goes on`, () => {
      const m = mac(name, new Uint8Array(keyLength).fill(3));
      startAt(m, LIMIT - 2);
      const first = m.tag(message);
      // A stream digest draws a nonce too, and counts.
      const second = m.stream().update(message).digest();
      assert.equal((m as PreparedMac).nonceInvocations, LIMIT);
      throwsKeyed(() => m.tag(message), "NONCE_LIMIT", /SP 800-38D section 8\.3.*new key/);
      throwsKeyed(
        () => m.stream().update(message).digest(),
        "NONCE_LIMIT",
        new RegExp(`${name} key has made ${LIMIT} tags`),
      );
      throwsKeyed(() => m.tagFields("p", ["x"]), "NONCE_LIMIT");
      // Checking draws no nonce: tags already made still verify.
      assert.equal(m.verify(message, first), true);
      assert.equal(m.stream().update(message).verify(second), true);
      assert.equal((m as PreparedMac).nonceInvocations, LIMIT);
      // The count is per key: a new Mac starts from zero.
      assert.equal(mac(name, new Uint8Array(keyLength).fill(3)).verify(message, first), true);
    });
  }
  it("xchacha20-poly1305 has no limit: its nonces are 192 bits", () => {
    const m = mac("xchacha20-poly1305", new Uint8Array(32).fill(3));
    startAt(m, 2 ** 40);
    assert.equal(m.verify(message, m.tag(message)), true);
  });
});

describe("random nonces are drawn at use", () => {
  it("each tag asks the system for exactly its own nonce, nothing drawn ahead", (t) => {
    let calls = 0;
    const lengths: number[] = [];
    t.mock.method(
      globalThis.crypto,
      "getRandomValues",
      <T extends ArrayBufferView | null>(a: T) => {
        calls++;
        const bytes = a as unknown as Uint8Array;
        lengths.push(bytes.length);
        bytes.fill(calls);
        return a;
      },
    );
    for (const [name, keyLength] of [...LIMITED, ["xchacha20-poly1305", 32] as const]) {
      const m = mac(name, new Uint8Array(keyLength).fill(9));
      const before = calls;
      const nonceLength = name === "xchacha20-poly1305" ? 24 : 12;
      for (let i = 1; i <= 3; i++) {
        const tag = m.tag(message);
        assert.equal(calls, before + i, `${name}: one draw per tag`);
        // The nonce in front of the tag is the bytes the system gave for this very tag.
        assert.deepEqual(tag.subarray(0, nonceLength), new Uint8Array(nonceLength).fill(calls));
      }
      assert.deepEqual(lengths.slice(-3), [nonceLength, nonceLength, nonceLength], name);
    }
  });
});
