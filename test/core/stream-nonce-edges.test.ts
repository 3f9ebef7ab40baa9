/**
 * The random-nonce budget (NONCE_LIMIT) and verifyingStream's rules, on a toy kernel so that each
 * rule is tested alone: which calls count against the limit, the limit's exact boundary, and a
 * verifying stream that only verifies and wipes its copy of the tag.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { MacStream } from "../../src/core/mac.js";
import { PreparedMac } from "../../src/core/prepared-mac.js";
import { throwsKeyed, toyMacAlgorithm as toy } from "../helpers.js";

const message = Uint8Array.from({ length: 20 }, (_, i) => i * 7 + 3);
const key16 = new Uint8Array(16).fill(0x42);

const limited = (invocations: number) =>
  toy({ nonceLength: 12, nonceLimit: { invocations, basis: "TOY-LIMIT 1.2" } });

describe("the random-nonce budget", () => {
  it("allows exactly `invocations` tags, then refuses with NONCE_LIMIT naming count and basis", () => {
    const m = new PreparedMac(limited(3), key16);
    for (let i = 0; i < 3; i++) m.tag(message);
    assert.equal(m.nonceInvocations, 3);
    throwsKeyed(() => m.tag(message), "NONCE_LIMIT", /made 3 tags .*TOY-LIMIT 1\.2 allows/);
    throwsKeyed(() => m.stream().update(message).digest(), "NONCE_LIMIT");
    assert.equal(m.nonceInvocations, 3);
  });
  it("stream digests count; verifying and unfinished streams do not", () => {
    const m = new PreparedMac(limited(2), key16);
    const t = m.stream().update(message).digest();
    assert.equal(m.nonceInvocations, 1);
    m.stream().update(message); // never finished
    assert.equal(m.verify(message, t), true);
    assert.equal(m.verifyingStream(t).update(message).verify(), true);
    assert.equal(m.nonceInvocations, 1);
    m.tag(message);
    throwsKeyed(() => m.tag(message), "NONCE_LIMIT");
  });
  it("a nonce MAC without a declared limit has none", () => {
    const m = new PreparedMac(toy({ nonceLength: 12 }), key16);
    m.nonceInvocations = 2 ** 40;
    assert.equal(m.tag(message).length, 28);
    assert.equal(m.nonceInvocations, 2 ** 40 + 1); // counted, never refused
  });
});

describe("verifyingStream", () => {
  const m = new PreparedMac(toy(), key16);
  const good = m.tag(message);
  /** The stream class behind both types, as JavaScript callers can reach it. */
  const untyped = (s: unknown) => s as MacStream & { verify(tag?: Uint8Array): boolean };
  it("only verifies: digest() is BAD_INPUT", () => {
    throwsKeyed(() => untyped(m.verifyingStream(good).update(message)).digest(), "BAD_INPUT");
  });
  it("verify() checks the tag it was given; verify(tag) checks that tag instead", () => {
    assert.equal(m.verifyingStream(good).update(message).verify(), true);
    const bad = good.slice();
    bad[0] ^= 1;
    assert.equal(m.verifyingStream(bad).update(message).verify(), false);
    assert.equal(untyped(m.verifyingStream(good).update(message)).verify(bad), false);
    assert.equal(untyped(m.verifyingStream(bad).update(message)).verify(good), true);
  });
  it("a plain stream verifies the tag passed and refuses none", () => {
    assert.equal(m.stream().update(message).verify(good), true);
    throwsKeyed(() => untyped(m.stream().update(message)).verify(), "BAD_INPUT");
  });
  it("wipes its copies of the tag and the nonce when done", () => {
    const n = new PreparedMac(toy({ nonceLength: 12 }), key16);
    const t = n.tag(message);
    const s = n.verifyingStream(t);
    const inside = s as unknown as { expected: Uint8Array; nonce: Uint8Array };
    assert.deepEqual(inside.expected, t);
    assert.equal(s.update(message).verify(), true);
    assert.ok(inside.expected.every((b) => b === 0));
    assert.ok(inside.nonce.every((b) => b === 0));
    const d = n.stream();
    const own = (d as unknown as { nonce: Uint8Array }).nonce;
    assert.ok(own.some((b) => b !== 0));
    d.update(message).digest();
    assert.ok(own.every((b) => b === 0));
  });
});
