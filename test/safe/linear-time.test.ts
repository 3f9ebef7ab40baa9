/**
 * Linear time: ten times the input costs about ten times as much, never a square. Checked for
 * open (a valid token and a forged one) and for the TCP-AO verifier, whose MAC input is staged
 * byte by byte. The bound (under 20x for 10x the bytes) leaves room for a busy machine while a
 * quadratic step (100x) cannot pass.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { open, seal } from "../../src/index.js";
import { TCP_AO_OPTION_KIND, TcpAoMac, type TcpAoSegment } from "../../src/protocols/tcp-ao.js";

const MB = 1 << 20;
const REPEATS = 3;

/** The fastest of a few runs, in milliseconds: the least disturbed by other work. */
function fastest(run: () => void): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < REPEATS; i++) {
    const start = performance.now();
    run();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/** Asserts that `large` (10x the input of `small`) takes under 20x as long; reports the ratio. */
function assertLinear(
  t: { diagnostic(message: string): void },
  what: string,
  small: () => void,
  large: () => void,
): void {
  small(); // warm up
  const smallMs = fastest(small);
  const largeMs = fastest(large);
  const ratio = largeMs / smallMs;
  t.diagnostic(
    `${what}: ${smallMs.toFixed(1)} ms vs ${largeMs.toFixed(1)} ms, ${ratio.toFixed(1)}x`,
  );
  assert.ok(ratio < 20, `${what}: 10x the input took ${ratio.toFixed(1)}x the time`);
}

describe("time grows linearly with the input", () => {
  it("open, 1 MB vs 10 MB tokens, valid and forged", (t) => {
    const key = new Uint8Array(32).fill(1);
    const token = (size: number) => seal(key, new Uint8Array(size).fill(2), { purpose: "p" });
    const small = token(MB);
    const large = token(10 * MB);
    assertLinear(
      t,
      "open (valid)",
      () => open(key, small, { purpose: "p" }),
      () => open(key, large, { purpose: "p" }),
    );
    const forged = (t: Uint8Array) => () => {
      const bad = t.slice();
      bad[bad.length - 1] ^= 1;
      assert.throws(() => open(key, bad, { purpose: "p" }), /tag does not match/);
    };
    assertLinear(t, "open (forged)", forged(small), forged(large));
  });
  it("TCP-AO verify, 1 MB vs 10 MB IPv6 segments", (t) => {
    const k = new TcpAoMac("hmac-sha256-128", new Uint8Array(32).fill(3));
    const segment = (size: number): TcpAoSegment => {
      const s = new Uint8Array(size).fill(4);
      // A 40-byte header: TCP-AO's 20-byte option (16-byte MAC) right after the fixed part.
      s[12] = 10 << 4;
      s.set([TCP_AO_OPTION_KIND, 20, 0, 0], 20);
      s.fill(0, 24, 40);
      const input = {
        source: new Uint8Array(16),
        destination: new Uint8Array(16).fill(1),
        segment: s,
        sne: 0,
      };
      k.sign(input);
      return input;
    };
    const small = segment(MB);
    const large = segment(10 * MB);
    assert.equal(k.verify(small), true);
    assertLinear(
      t,
      "TCP-AO verify",
      () => assert.equal(k.verify(small), true),
      () => assert.equal(k.verify(large), true),
    );
  });
});
