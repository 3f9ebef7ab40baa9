/**
 * Linear time: ten times the input costs about ten times as much, never a square. Checked for
 * open (a valid token and a forged one) and for the TCP-AO verifier, whose MAC input is staged
 * byte by byte, with assertLinearTime (test/helpers.ts).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { open, seal } from "../../src/index.js";
import { TCP_AO_OPTION_KIND, TcpAoMac, type TcpAoSegment } from "../../src/protocols/tcp-ao.js";
import { assertLinearTime } from "../helpers.js";

const MB = 1 << 20;
const assertLinear = (
  t: { diagnostic(message: string): void },
  what: string,
  small: () => void,
  large: () => void,
) => assertLinearTime(what, small, large, { repeats: 5, diagnostic: (m) => t.diagnostic(m) });

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
