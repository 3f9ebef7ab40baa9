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
const REPEATS = 5;

/**
 * User CPU milliseconds `run` takes. Not wall time: on a shared machine a long run is preempted
 * far more often than a short one. Not system time either: fresh 10 MB buffers can come with page
 * faults that 1 MB ones, reused from the heap, do not; that is the allocator, not the algorithm.
 */
function elapsed(run: () => void): number {
  const start = process.cpuUsage();
  run();
  return process.cpuUsage(start).user / 1000;
}

/** The ratio of `large`'s time to `small`'s: alternate runs, each side's fastest kept. */
function ratioOnce(small: () => void, large: () => void): [number, number, number] {
  small();
  large();
  let smallMs = Number.POSITIVE_INFINITY;
  let largeMs = Number.POSITIVE_INFINITY;
  for (let i = 0; i < REPEATS; i++) {
    smallMs = Math.min(smallMs, elapsed(small));
    largeMs = Math.min(largeMs, elapsed(large));
  }
  return [largeMs / smallMs, smallMs, largeMs];
}

/**
 * Asserts that `large` (10x the input of `small`) takes under 20x as long, and reports the ratio.
 * A round over 20x is measured again, up to three rounds: 10 MB leaves the caches where 1 MB
 * stays, so a machine busy with other memory-bound work can push one round over, while a
 * quadratic step (about 100x) fails every round.
 */
function assertLinear(
  t: { diagnostic(message: string): void },
  what: string,
  small: () => void,
  large: () => void,
): void {
  const seen: string[] = [];
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3 && best >= 20; round++) {
    const [ratio, smallMs, largeMs] = ratioOnce(small, large);
    best = Math.min(best, ratio);
    seen.push(`${smallMs.toFixed(1)} ms vs ${largeMs.toFixed(1)} ms, ${ratio.toFixed(1)}x`);
  }
  t.diagnostic(`${what}: ${seen.join("; ")}`);
  assert.ok(best < 20, `${what}: 10x the input took over 20x the time: ${seen.join("; ")}`);
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
    // Forged outside the timed runs, so only open's own work is measured.
    const forged = (token: Uint8Array) => {
      const bad = token.slice();
      bad[bad.length - 1] ^= 1;
      return () => assert.throws(() => open(key, bad, { purpose: "p" }), /tag does not match/);
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
