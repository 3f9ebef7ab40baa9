/**
 * The packet verifiers against an attacker: TCP-AO, SRTP/SRTCP, IPsec and SSH. Arbitrary packets,
 * tags and lengths are refused (false), never an exception; a validly made packet is accepted;
 * and a one-bit flip anywhere the MAC covers is refused.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { IpsecIntegrity, type IpsecIntegrityAlgorithm } from "../../src/protocols/ipsec.js";
import { SrtcpAuth, SrtpAuth } from "../../src/protocols/srtp.js";
import { SshMac, type SshMacAlgorithm, SshMacSequence } from "../../src/protocols/ssh.js";
import {
  TCP_AO_OPTION_KIND,
  type TcpAoAlgorithm,
  TcpAoMac,
  type TcpAoSegment,
} from "../../src/protocols/tcp-ao.js";

const RUNS = { numRuns: 100 };
const bytes = (maxLength: number, minLength = 0) => fc.uint8Array({ minLength, maxLength });
const uint32 = fc.nat({ max: 0xffffffff });
const key = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 29 + 5) & 0xff);

/** `data` with bit `bit` of byte `at` flipped. */
function flip(data: Uint8Array, at: number, bit: number): Uint8Array {
  const out = Uint8Array.from(data);
  out[at] ^= 1 << bit;
  return out;
}

/** A boolean, or the property fails: an exception is never an answer to packet bytes. */
function refusal(result: unknown): boolean {
  assert.equal(typeof result, "boolean");
  return result as boolean;
}

// --- TCP-AO ---------------------------------------------------------------------------------------

const TCP_AO: [TcpAoAlgorithm, number, number][] = [
  ["hmac-sha1-96", 20, 12],
  ["aes-128-cmac-96", 16, 12],
  ["hmac-sha256-128", 32, 16],
];

/** An option other than TCP-AO: NOP, MSS, or some kind with a length byte. */
const otherOption = fc.oneof(
  fc.constant(Uint8Array.of(1)),
  bytes(2, 2).map((v) => Uint8Array.of(2, 4, ...v)),
  fc
    .record({ kind: fc.integer({ min: 3, max: 254 }), body: bytes(6) })
    .filter((o) => o.kind !== TCP_AO_OPTION_KIND)
    .map((o) => Uint8Array.of(o.kind, 2 + o.body.length, ...o.body)),
);

interface Built {
  input: TcpAoSegment;
  /** Where the TCP-AO option starts and ends, and where the payload starts. */
  ao: number;
  aoEnd: number;
  dataOffset: number;
}

/** A well-formed segment: header, other options around one TCP-AO option, padding, payload. */
const segmentParts = fc.record({
  ipv6: fc.boolean(),
  addresses: bytes(32, 32),
  header: bytes(20, 20),
  before: fc.array(otherOption, { maxLength: 3 }),
  after: fc.array(otherOption, { maxLength: 2 }),
  keyIds: bytes(2, 2),
  payload: bytes(120),
  sne: uint32,
});

function build(
  parts: typeof segmentParts extends fc.Arbitrary<infer T> ? T : never,
  macLength: number,
): Built | undefined {
  const n = parts.ipv6 ? 16 : 4;
  const before = parts.before.flatMap((o) => [...o]);
  const after = parts.after.flatMap((o) => [...o]);
  const aoOption = [
    TCP_AO_OPTION_KIND,
    4 + macLength,
    ...parts.keyIds,
    ...new Array(macLength).fill(0),
  ];
  const options = [...before, ...aoOption, ...after];
  while (options.length % 4 !== 0) options.push(0);
  if (options.length > 40) return undefined;
  const segment = Uint8Array.from([...parts.header, ...options, ...parts.payload]);
  const dataOffset = 20 + options.length;
  segment[12] = ((dataOffset / 4) << 4) | (segment[12] & 0x0f);
  return {
    input: {
      source: parts.addresses.slice(0, n),
      destination: parts.addresses.slice(16, 16 + n),
      segment,
      sne: parts.sne,
    },
    ao: 20 + before.length,
    aoEnd: 20 + before.length + aoOption.length,
    dataOffset,
  };
}

/** Bytes of the segment the MAC covers (RFC 5925 5.1): not the checksum; with excludeOptions,
 * no option but TCP-AO. */
function covered(b: Built, at: number, excludeOptions: boolean): boolean {
  if (at === 16 || at === 17) return false;
  if (excludeOptions && at >= 20 && at < b.dataOffset) return at >= b.ao && at < b.aoEnd;
  return true;
}

describe("TCP-AO verify", () => {
  for (const [algorithm, keyLength, macLength] of TCP_AO) {
    for (const excludeOptions of [false, true]) {
      const k = new TcpAoMac(algorithm, key(keyLength), { excludeOptions });
      const label = `${algorithm}${excludeOptions ? ", options excluded" : ""}`;
      it(`${label}: arbitrary segments, addresses and SNEs are refused`, () => {
        fc.assert(
          fc.property(fc.boolean(), bytes(32, 32), bytes(200), uint32, (ipv6, a, segment, sne) => {
            const n = ipv6 ? 16 : 4;
            const input = { source: a.slice(0, n), destination: a.slice(16, 16 + n), segment, sne };
            assert.equal(refusal(k.verify(input)), false);
            assert.equal(k.check(input).ok, false);
          }),
          RUNS,
        );
      });
      it(`${label}: a signed segment verifies; any covered bit flipped, it does not`, () => {
        fc.assert(
          fc.property(segmentParts, fc.nat(), fc.integer({ min: 0, max: 7 }), (parts, at, bit) => {
            const b = build(parts, macLength);
            if (b === undefined) return;
            // Unsigned (an all-zero MAC field), the segment is refused.
            assert.equal(refusal(k.verify(b.input)), false);
            k.sign(b.input);
            assert.equal(refusal(k.verify(b.input)), true);
            const segment = b.input.segment;
            const i = at % segment.length;
            if (covered(b, i, excludeOptions)) {
              const input = { ...b.input, segment: flip(segment, i, bit) };
              assert.equal(refusal(k.verify(input)), false, `byte ${i} bit ${bit}`);
            }
            const sne = { ...b.input, sne: (b.input.sne ^ (1 << (at % 32))) >>> 0 };
            assert.equal(refusal(k.verify(sne)), false);
            const source = {
              ...b.input,
              source: flip(b.input.source, at % b.input.source.length, bit),
            };
            assert.equal(refusal(k.verify(source)), false);
            // Cut or extended: the length is in the pseudo-header, the payload in the MAC.
            const cut = { ...b.input, segment: segment.slice(0, at % segment.length) };
            assert.equal(refusal(k.verify(cut)), false);
            const longer = { ...b.input, segment: Uint8Array.from([...segment, bit]) };
            assert.equal(refusal(k.verify(longer)), false);
          }),
          RUNS,
        );
      });
    }
  }
});

// --- SRTP and SRTCP -------------------------------------------------------------------------------

describe("SRTP and SRTCP verify", () => {
  for (const tagLength of [10, 4] as const) {
    const auth = new SrtpAuth(key(20), { tagLength });
    it(`SRTP, ${tagLength}-byte tags: arbitrary packets, ROCs and tags are refused`, () => {
      fc.assert(
        fc.property(bytes(200), uint32, bytes(24), (packet, roc, tag) => {
          assert.equal(refusal(auth.verify(packet, roc, tag)), false);
        }),
        RUNS,
      );
    });
    it(`SRTP, ${tagLength}-byte tags: a tagged packet verifies; one bit flipped, it does not`, () => {
      fc.assert(
        fc.property(
          bytes(200, 1),
          uint32,
          fc.nat(),
          fc.integer({ min: 0, max: 7 }),
          (packet, roc, at, bit) => {
            const tag = auth.tag(packet, roc);
            assert.equal(refusal(auth.verify(packet, roc, tag)), true);
            assert.equal(
              refusal(auth.verify(flip(packet, at % packet.length, bit), roc, tag)),
              false,
            );
            assert.equal(refusal(auth.verify(packet, roc, flip(tag, at % tag.length, bit))), false);
            assert.equal(refusal(auth.verify(packet, (roc ^ (1 << (at % 32))) >>> 0, tag)), false);
            assert.equal(refusal(auth.verify(packet, roc, tag.subarray(0, tag.length - 1))), false);
          },
        ),
        RUNS,
      );
    });
  }
  const rtcp = new SrtcpAuth(key(20));
  it("SRTCP: arbitrary packets and tags are refused", () => {
    fc.assert(
      fc.property(bytes(200), bytes(24), (packet, tag) => {
        assert.equal(refusal(rtcp.verify(packet, tag)), false);
      }),
      RUNS,
    );
  });
  it("SRTCP: a tagged packet verifies; one bit flipped, it does not", () => {
    fc.assert(
      fc.property(bytes(200, 12), fc.nat(), fc.integer({ min: 0, max: 7 }), (packet, at, bit) => {
        const tag = rtcp.tag(packet);
        assert.equal(refusal(rtcp.verify(packet, tag)), true);
        assert.equal(refusal(rtcp.verify(flip(packet, at % packet.length, bit), tag)), false);
        assert.equal(refusal(rtcp.verify(packet, flip(tag, at % tag.length, bit))), false);
      }),
      RUNS,
    );
  });
});

// --- IPsec ----------------------------------------------------------------------------------------

const IPSEC: [IpsecIntegrityAlgorithm, number][] = [
  ["hmac-sha256-128", 32],
  ["hmac-sha384-192", 48],
  ["hmac-sha512-256", 64],
];

describe("IPsec ICV verify", () => {
  const esn = fc.option(uint32, { nil: undefined });
  for (const [algorithm, keyLength] of IPSEC) {
    const integrity = new IpsecIntegrity(algorithm, key(keyLength));
    const options = (esnHigh: number | undefined) =>
      esnHigh === undefined ? undefined : { esnHigh };
    it(`${algorithm}: arbitrary data, ICVs and ESNs are refused`, () => {
      fc.assert(
        fc.property(bytes(200), bytes(40), esn, (data, icv, esnHigh) => {
          assert.equal(refusal(integrity.verify(data, icv, options(esnHigh))), false);
        }),
        RUNS,
      );
    });
    it(`${algorithm}: a valid ICV verifies; one bit flipped or another ESN, it does not`, () => {
      fc.assert(
        fc.property(
          bytes(200, 1),
          esn,
          fc.nat(),
          fc.integer({ min: 0, max: 7 }),
          (data, esnHigh, at, bit) => {
            const icv = integrity.icv(data, options(esnHigh));
            assert.equal(refusal(integrity.verify(data, icv, options(esnHigh))), true);
            assert.equal(
              refusal(integrity.verify(flip(data, at % data.length, bit), icv, options(esnHigh))),
              false,
            );
            assert.equal(
              refusal(integrity.verify(data, flip(icv, at % icv.length, bit), options(esnHigh))),
              false,
            );
            const otherEsn = esnHigh === undefined ? 0 : (esnHigh ^ (1 << (at % 32))) >>> 0;
            assert.equal(refusal(integrity.verify(data, icv, { esnHigh: otherEsn })), false);
          },
        ),
        RUNS,
      );
    });
  }
});

// --- SSH ------------------------------------------------------------------------------------------

const SSH: [SshMacAlgorithm, number][] = [
  ["hmac-sha2-256", 32],
  ["hmac-sha2-512", 64],
  ["hmac-sha2-256-etm@openssh.com", 32],
  ["hmac-sha2-512-etm@openssh.com", 64],
];

/** A well-formed packet: packet_length ‖ padding_length ‖ payload ‖ padding (or, for -etm,
 * packet_length ‖ encrypted bytes). */
const sshPacket = (etm: boolean) =>
  fc.record({ body: bytes(120), padding: bytes(20, 4) }).map(({ body, padding }) => {
    const rest = etm ? [...body, ...padding] : [padding.length, ...body, ...padding];
    const n = rest.length;
    return Uint8Array.of(n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff, ...rest);
  });

describe("SSH MAC verify", () => {
  for (const [algorithm, keyLength] of SSH) {
    const k = new SshMac(algorithm, key(keyLength));
    const etm = algorithm.includes("etm");
    it(`${algorithm}: arbitrary packets, sequence numbers and MACs are refused`, () => {
      fc.assert(
        fc.property(
          bytes(200),
          uint32,
          bytes(80),
          sshPacket(etm),
          (packet, sequence, mac, wellFormed) => {
            assert.equal(refusal(k.verify(sequence, packet, mac)), false);
            assert.equal(refusal(k.verify(sequence, wellFormed, mac)), false);
          },
        ),
        RUNS,
      );
    });
    it(`${algorithm}: a MACed packet verifies; one bit flipped or another number, it does not`, () => {
      fc.assert(
        fc.property(
          sshPacket(etm),
          uint32,
          fc.nat(),
          fc.integer({ min: 0, max: 7 }),
          (packet, sequence, at, bit) => {
            const mac = k.compute(sequence, packet);
            assert.equal(refusal(k.verify(sequence, packet, mac)), true);
            assert.equal(
              refusal(k.verify(sequence, flip(packet, at % packet.length, bit), mac)),
              false,
            );
            assert.equal(
              refusal(k.verify(sequence, packet, flip(mac, at % mac.length, bit))),
              false,
            );
            assert.equal(
              refusal(k.verify((sequence ^ (1 << (at % 32))) >>> 0, packet, mac)),
              false,
            );
          },
        ),
        RUNS,
      );
    });
  }
  it("SshMacSequence: packets verify in order; a replayed, dropped or reordered one does not", () => {
    fc.assert(
      fc.property(
        fc.array(sshPacket(false), { minLength: 2, maxLength: 6 }),
        uint32,
        (packets, start) => {
          const sender = new SshMacSequence("hmac-sha2-256", key(32), { sequenceNumber: start });
          const macs = packets.map((p) => sender.sign(p));
          const inOrder = new SshMacSequence("hmac-sha2-256", key(32), { sequenceNumber: start });
          for (let i = 0; i < packets.length; i++) {
            assert.equal(refusal(inOrder.verify(packets[i], macs[i])), true);
          }
          // The first packet again, where the next one is due: refused, whatever its bytes.
          assert.equal(refusal(inOrder.verify(packets[0], macs[0])), false);
          const skipped = new SshMacSequence("hmac-sha2-256", key(32), { sequenceNumber: start });
          assert.equal(refusal(skipped.verify(packets[1], macs[1])), false);
        },
      ),
      { numRuns: 30 },
    );
  });
});
