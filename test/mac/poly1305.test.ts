import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { poly1305 as noblePoly1305 } from "@noble/ciphers/_poly1305.js";
import fc from "fast-check";
import { Poly1305State, poly1305 } from "../../src/hazmat.js";
import { mac } from "../../src/index.js";
import { atOffset, hex, notBytes, throwsKeyed, toHex } from "../helpers.js";
import { hexBlocks, rfcSection } from "../rfc-text.js";
import { skipUnless, vectorPath } from "../vectors.js";

const RFC = "rfc/rfc8439_test_vectors.txt";

describe("Poly1305 known answers (RFC 8439)", () => {
  it("section 2.5.2", () => {
    const key = hex("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b");
    const message = new TextEncoder().encode("Cryptographic Forum Research Group");
    assert.equal(toHex(poly1305(key, message)), "a8061dc1305136c6c22b8baf0c0127a9");
    assert.equal(toHex(mac("poly1305", key).tag(message)), "a8061dc1305136c6c22b8baf0c0127a9");
  });
  it("appendix A.3, test vectors #1-#11", { skip: skipUnless(RFC) }, () => {
    const blocks = hexBlocks(rfcSection(vectorPath(RFC) as string, "A.3"));
    let vectors = 0;
    for (let i = 0; i < blocks.length; ) {
      let key: Uint8Array;
      if (blocks[i].label.startsWith("One-time Poly1305 Key")) {
        key = blocks[i++].bytes;
      } else {
        assert.equal(blocks[i].label, "R:");
        assert.equal(blocks[i + 1].label, "S:");
        key = Uint8Array.of(...blocks[i].bytes, ...blocks[i + 1].bytes);
        i += 2;
      }
      const message = blocks[i++].bytes;
      const tag = blocks[i++].bytes;
      assert.equal(toHex(poly1305(key, message)), toHex(tag), `vector #${vectors + 1}`);
      vectors++;
    }
    assert.equal(vectors, 11);
  });
});

describe("Poly1305 against @noble/ciphers (property tests)", () => {
  it("random keys, lengths 0-5000 B, split points (1,000 cases)", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ maxLength: 5000 }),
        fc.array(fc.nat(), { maxLength: 5 }),
        (key, message, cuts) => {
          const expected = noblePoly1305(message, key);
          assert.deepEqual(poly1305(atOffset(key), message), expected);
          const state = new Poly1305State(key);
          let last = 0;
          for (const p of cuts.map((c) => c % (message.length + 1)).sort((x, y) => x - y)) {
            state.update(message.subarray(last, p));
            last = p;
          }
          state.update(message.subarray(last));
          const out = new Uint8Array(16);
          state.finish(out);
          assert.deepEqual(out, expected);
        },
      ),
      { numRuns: 1000 },
    );
  });
  it("extreme limbs: all-ones keys and messages of every length to 100, and long ones", () => {
    const key = new Uint8Array(32).fill(0xff);
    const data = new Uint8Array(70000).fill(0xff);
    // Long lengths take the WebAssembly kernel's three-lane path (from 24 padded blocks: 369 B
    // in one call), whose limbs must stay in bounds with every limb at its largest: the path's
    // edge, step boundaries, and tails of 1-6 blocks (417-432 B leaves six).
    const long = [
      368, 369, 383, 384, 385, 399, 400, 401, 417, 432, 496, 1024, 1039, 4111, 65536, 70000,
    ];
    for (const n of [...Array.from({ length: 101 }, (_, i) => i), ...long]) {
      const message = data.subarray(0, n);
      assert.deepEqual(poly1305(key, message), noblePoly1305(message, key), `${n} B`);
    }
  });
});

describe("Poly1305 in the safe API: a one-time key", () => {
  const key = hex("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b");
  const message = new Uint8Array(40).fill(1);
  it("tags one message, then throws KEY_REUSED on any use", () => {
    const m = mac("poly1305", key);
    const t = m.tag(message);
    throwsKeyed(() => m.tag(message), "KEY_REUSED", /one message/);
    throwsKeyed(() => m.verify(message, t), "KEY_REUSED");
    throwsKeyed(() => m.stream(), "KEY_REUSED");
  });
  it("a verification is the one use too", () => {
    const m = mac("poly1305", key);
    assert.equal(m.verify(message, poly1305(key, message)), true);
    throwsKeyed(() => m.verify(message, poly1305(key, message)), "KEY_REUSED");
    const wrong = mac("poly1305", key);
    assert.equal(wrong.verify(message, new Uint8Array(16)), false);
    throwsKeyed(() => wrong.tag(message), "KEY_REUSED");
  });
  it("a stream is the one use", () => {
    const m = mac("poly1305", key);
    assert.deepEqual(
      m.stream().update(message.subarray(0, 7)).update(message.subarray(7)).digest(),
      poly1305(key, message),
    );
    throwsKeyed(() => m.tag(message), "KEY_REUSED");
  });
  it("bad arguments do not use up the key", () => {
    const m = mac("poly1305", key);
    throwsKeyed(() => m.tag("text" as unknown as Uint8Array), "BAD_INPUT");
    assert.deepEqual(m.tag(message), poly1305(key, message));
  });
  it("refuses all-zero r or s halves with KEY_WEAK", () => {
    throwsKeyed(() => mac("poly1305", new Uint8Array(32)), "KEY_WEAK");
    throwsKeyed(
      () => mac("poly1305", Uint8Array.of(...new Uint8Array(16), ...new Uint8Array(16).fill(1))),
      "KEY_WEAK",
      /r or s/,
    );
    throwsKeyed(
      () => mac("poly1305", Uint8Array.of(...new Uint8Array(16).fill(1), ...new Uint8Array(16))),
      "KEY_WEAK",
    );
    // r bytes that clamp to zero are as weak as zero bytes.
    const clampsToZero = new Uint8Array(32).fill(1);
    clampsToZero.fill(0, 0, 16);
    clampsToZero[3] = 0xf0;
    throwsKeyed(() => mac("poly1305", clampsToZero), "KEY_WEAK");
  });
  it("hazmat poly1305 checks its arguments", () => {
    throwsKeyed(() => poly1305(new Uint8Array(31), message), "KEY_LENGTH", /32-byte/);
    for (const [, value] of notBytes()) {
      throwsKeyed(() => poly1305(value as Uint8Array, message), "BAD_INPUT", /^key /);
      throwsKeyed(() => poly1305(key, value as Uint8Array), "BAD_INPUT", /^message /);
    }
  });
});
