import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  type TcpAoAlgorithm,
  type TcpAoSegment,
  tcpAo,
  tcpAoKdfContext,
  tcpAoOption,
  tcpAoTrafficKey,
  tcpAoTrafficKeys,
} from "../../src/protocols/tcp-ao.js";
import { atOffset, cmacOracle, hex, notBytes, throwsKeyed, toHex } from "../helpers.js";
import { hexBlocks } from "../rfc-text.js";
import { readVectorJson, skipUnless, vectorPath } from "../vectors.js";

interface Rfc9235Vector {
  section: string;
  title: string;
  ipVersion: 4 | 6;
  kdf: string;
  macAlgorithm: "HMAC-SHA-1-96" | "AES-128-CMAC-96";
  tcpOptionsExcluded: boolean;
  masterKeyHex: string;
  clientKeyId: number;
  serverKeyId: number;
  sne: number;
  connectionClientISN: string;
  connectionServerISN: string | null;
  trafficKeyName: string;
  trafficKey: string;
  packet: string;
  mac: string;
  derived_kdfContext: string;
}

const JSON_FILE = "rfc/rfc9235_tcpao_vectors.json";
const TEXT_FILE = "rfc/rfc9235_test_vectors.txt";

const ALGORITHM: Record<Rfc9235Vector["macAlgorithm"], TcpAoAlgorithm> = {
  "HMAC-SHA-1-96": "hmac-sha1-96",
  "AES-128-CMAC-96": "aes-128-cmac-96",
};

/** Splits an IPv4 (no options beyond IHL) or IPv6 (no extension headers) packet. */
function splitPacket(packet: Uint8Array): {
  source: Uint8Array;
  destination: Uint8Array;
  segment: Uint8Array;
} {
  const version = packet[0] >>> 4;
  if (version === 4) {
    assert.equal(packet[9], 6, "IPv4 protocol is TCP");
    const ihl = (packet[0] & 15) * 4;
    return {
      source: packet.slice(12, 16),
      destination: packet.slice(16, 20),
      segment: packet.slice(ihl),
    };
  }
  assert.equal(version, 6);
  assert.equal(packet[6], 6, "IPv6 next header is TCP");
  return {
    source: packet.slice(8, 24),
    destination: packet.slice(24, 40),
    segment: packet.slice(40),
  };
}

const u16 = (b: Uint8Array, at: number): number => (b[at] << 8) | b[at + 1];
const u32 = (b: Uint8Array, at: number): number =>
  ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;

/**
 * An independent RFC 5925/5926 oracle on node:crypto: builds the KDF input and the MAC input byte
 * by byte (concatenation, no staging), then HMACs with createHmac or CMACs with AES-CBC
 * (cmacOracle in test/helpers.ts).
 */
function oraclePrf(algorithm: TcpAoAlgorithm, key: Uint8Array, input: Uint8Array): Uint8Array {
  if (algorithm === "hmac-sha1-96")
    return new Uint8Array(createHmac("sha1", key).update(input).digest());
  if (algorithm === "hmac-sha256-128")
    return new Uint8Array(createHmac("sha256", key).update(input).digest());
  // AES-CMAC-PRF-128 (RFC 4615): condense a key that is not 16 bytes.
  const k = key.length === 16 ? key : cmacOracle(new Uint8Array(16), key);
  return cmacOracle(k, input);
}

function oracleTrafficKey(
  algorithm: TcpAoAlgorithm,
  master: Uint8Array,
  context: Uint8Array,
): Uint8Array {
  const bits = { "hmac-sha1-96": 160, "aes-128-cmac-96": 128, "hmac-sha256-128": 256 }[algorithm];
  const input = Buffer.concat([
    Buffer.from([1]),
    Buffer.from("TCP-AO"),
    context,
    Buffer.from([bits >> 8, bits & 255]),
  ]);
  return oraclePrf(algorithm, master, input);
}

function oracleMac(
  algorithm: TcpAoAlgorithm,
  trafficKey: Uint8Array,
  s: { source: Uint8Array; destination: Uint8Array; segment: Uint8Array; sne: number },
  excludeOptions: boolean,
): Uint8Array {
  const seg = s.segment;
  const dataOffset = (seg[12] >> 4) * 4;
  const header = Buffer.from(seg.subarray(0, 20));
  header[16] = 0;
  header[17] = 0;
  const options: Buffer[] = [];
  let i = 20;
  while (i < dataOffset) {
    const kind = seg[i];
    if (kind === 0) {
      if (!excludeOptions) options.push(Buffer.from(seg.subarray(i, dataOffset)));
      break;
    }
    if (kind === 1) {
      if (!excludeOptions) options.push(Buffer.from([1]));
      i++;
      continue;
    }
    const option = Buffer.from(seg.subarray(i, i + seg[i + 1]));
    if (kind === 29) option.fill(0, 4);
    if (kind === 29 || !excludeOptions) options.push(option);
    i += seg[i + 1];
  }
  const length = seg.length;
  const pseudo =
    s.source.length === 4
      ? Buffer.concat([s.source, s.destination, Buffer.from([0, 6, length >> 8, length & 255])])
      : Buffer.concat([
          s.source,
          s.destination,
          Buffer.from([length >>> 24, length >> 16, length >> 8, length & 255, 0, 0, 0, 6]),
        ]);
  const sne = Buffer.alloc(4);
  sne.writeUInt32BE(s.sne);
  const message = Buffer.concat([sne, pseudo, header, ...options, seg.subarray(dataOffset)]);
  const full = oraclePrf(algorithm, trafficKey, message);
  return full.subarray(0, algorithm === "hmac-sha256-128" ? 16 : 12);
}

/** The KDF context of a segment: its own addresses and ports, and the ISNs as RFC 5925 5.2 says. */
function segmentContext(v: Rfc9235Vector, s: ReturnType<typeof splitPacket>) {
  const seg = s.segment;
  const syn = (seg[13] & 0x02) !== 0;
  const ack = (seg[13] & 0x10) !== 0;
  const clientIsn = Number(v.connectionClientISN);
  const serverIsn = Number(v.connectionServerISN);
  const fromClient = u16(seg, 2) === 179;
  let sourceIsn: number;
  let destinationIsn: number;
  if (syn && !ack) [sourceIsn, destinationIsn] = [u32(seg, 4), 0];
  else if (syn) [sourceIsn, destinationIsn] = [u32(seg, 4), (u32(seg, 8) - 1) >>> 0];
  else [sourceIsn, destinationIsn] = fromClient ? [clientIsn, serverIsn] : [serverIsn, clientIsn];
  return {
    source: s.source,
    destination: s.destination,
    sourcePort: u16(seg, 0),
    destinationPort: u16(seg, 2),
    sourceIsn,
    destinationIsn,
  };
}

describe("TCP-AO: RFC 9235 test vectors", () => {
  it("all 32 cases: KDF context, traffic key, MAC, sign and verify", {
    skip: skipUnless(JSON_FILE),
  }, () => {
    const { vectors } = readVectorJson<{ vectors: Rfc9235Vector[] }>(JSON_FILE);
    const counts = {
      vectors: 0,
      trafficKeys: 0,
      macs: 0,
      byAlgorithm: {} as Record<string, number>,
    };
    for (const v of vectors) {
      const id = `${v.section} ${v.title}`;
      const algorithm = ALGORITHM[v.macAlgorithm];
      const master = hex(v.masterKeyHex);
      const parts = splitPacket(hex(v.packet));
      const context = segmentContext(v, parts);
      assert.equal(toHex(tcpAoKdfContext(context)), v.derived_kdfContext, id);
      const trafficKey = tcpAoTrafficKey(algorithm, master, context, { allowShortKeys: true });
      assert.equal(toHex(trafficKey), v.trafficKey, id);
      assert.equal(
        toHex(oracleTrafficKey(algorithm, master, tcpAoKdfContext(context))),
        v.trafficKey,
        id,
      );
      counts.trafficKeys++;

      const key = tcpAo(algorithm, trafficKey, { excludeOptions: v.tcpOptionsExcluded });
      const input: TcpAoSegment = { ...parts, sne: v.sne };
      assert.equal(toHex(key.tag(input)), v.mac, id);
      assert.equal(toHex(oracleMac(algorithm, trafficKey, input, v.tcpOptionsExcluded)), v.mac, id);
      assert.equal(key.verify(input), true, id);
      assert.deepEqual(key.check(input), { ok: true }, id);
      // The option is kind 29, length 16, KeyID then RNextKeyID of the sender.
      const option = tcpAoOption(parts.segment);
      assert.ok(option, id);
      assert.equal(toHex(option.mac), v.mac, id);
      const fromClient = u16(parts.segment, 2) === 179;
      assert.equal(option.keyId, fromClient ? v.clientKeyId : v.serverKeyId, id);
      assert.equal(option.rNextKeyId, fromClient ? v.serverKeyId : v.clientKeyId, id);
      // sign() on the segment with its MAC field cleared gives back the packet as printed.
      const blank = parts.segment.slice();
      blank.fill(0, option.offset + 4, option.offset + option.length);
      key.sign({ ...parts, segment: blank, sne: v.sne });
      assert.deepEqual(blank, parts.segment, id);
      // Any flipped bit in the segment, or another SNE, is refused.
      const flipped = parts.segment.slice();
      flipped[flipped.length - 1] ^= 1;
      assert.equal(key.verify({ ...parts, segment: flipped, sne: v.sne }), false, id);
      assert.equal(key.verify({ ...input, sne: 1 }), false, id);
      // The other option setting gives another MAC.
      const other = tcpAo(algorithm, trafficKey, { excludeOptions: !v.tcpOptionsExcluded });
      assert.equal(other.verify(input), false, id);
      counts.macs++;
      counts.vectors++;
      counts.byAlgorithm[algorithm] = (counts.byAlgorithm[algorithm] ?? 0) + 1;
    }
    assert.deepEqual(counts, {
      vectors: 32,
      trafficKeys: 32,
      macs: 32,
      byAlgorithm: { "hmac-sha1-96": 16, "aes-128-cmac-96": 16 },
    });
  });

  it("tcpAoTrafficKeys gives each side's four keys, as printed", {
    skip: skipUnless(JSON_FILE),
  }, () => {
    const { vectors } = readVectorJson<{ vectors: Rfc9235Vector[] }>(JSON_FILE);
    let checked = 0;
    // Sections x.y.1-4 share one connection: client SYN, server SYN-ACK, client and server data.
    for (let i = 0; i < vectors.length; i += 4) {
      const [syn, synAck, clientData, serverData] = vectors.slice(i, i + 4);
      const algorithm = ALGORITHM[syn.macAlgorithm];
      const client = splitPacket(hex(syn.packet));
      const clientIsn = Number(syn.connectionClientISN);
      const serverIsn = Number(synAck.connectionServerISN);
      const common = {
        localPort: u16(client.segment, 0),
        remotePort: 179,
      };
      const clientKeys = tcpAoTrafficKeys(
        algorithm,
        hex(syn.masterKeyHex),
        {
          localAddress: client.source,
          remoteAddress: client.destination,
          ...common,
          localIsn: clientIsn,
          remoteIsn: serverIsn,
        },
        { allowShortKeys: true },
      );
      const serverKeys = tcpAoTrafficKeys(
        algorithm,
        hex(syn.masterKeyHex),
        {
          localAddress: client.destination,
          remoteAddress: client.source,
          localPort: 179,
          remotePort: common.localPort,
          localIsn: serverIsn,
          remoteIsn: clientIsn,
        },
        { allowShortKeys: true },
      );
      // SYN: the client's Send_SYN key is the server's Receive_SYN key.
      assert.equal(toHex(clientKeys.sendSyn), syn.trafficKey, syn.section);
      assert.equal(toHex(serverKeys.receiveSyn), syn.trafficKey, syn.section);
      // SYN-ACK carries both ISNs: the server's Send_other (the client's Receive_other) key. RFC
      // 9235 prints it as "Receive_SYN_traffic_key" (see its errata).
      assert.equal(toHex(serverKeys.sendOther), synAck.trafficKey, synAck.section);
      assert.equal(toHex(clientKeys.receiveOther), synAck.trafficKey, synAck.section);
      assert.equal(toHex(clientKeys.sendOther), clientData.trafficKey, clientData.section);
      assert.equal(toHex(serverKeys.receiveOther), clientData.trafficKey, clientData.section);
      assert.equal(toHex(serverKeys.sendOther), serverData.trafficKey, serverData.section);
      assert.equal(toHex(clientKeys.receiveOther), serverData.trafficKey, serverData.section);
      checked += 4;
    }
    assert.equal(checked, 32);
  });

  it("the JSON transcription matches the RFC text", {
    skip: skipUnless(TEXT_FILE) || skipUnless(JSON_FILE),
  }, () => {
    const text = readFileSync(vectorPath(TEXT_FILE) as string, "utf8");
    const { vectors } = readVectorJson<{ vectors: Rfc9235Vector[] }>(JSON_FILE);
    const heading = /^([4-7]\.\d\.\d)\.\s+(.+)$/gm;
    const starts = [...text.matchAll(heading)];
    assert.equal(starts.length, 32);
    for (let i = 0; i < starts.length; i++) {
      const section = starts[i][1];
      const body = text.slice(starts[i].index, starts[i + 1]?.index ?? text.indexOf("\n8.  "));
      // RFC 9235 4.2.2 prints "41a" where the byte 41 is meant (noted in PROVENANCE.md).
      const fixed = section === "4.2.2" ? body.replace(" 41a", " 41") : body;
      const blocks = hexBlocks(fixed);
      const v = vectors.find((x) => x.section === section);
      assert.ok(v, section);
      assert.equal(v.title, starts[i][2].trim(), section);
      const byLabel = new Map(blocks.map((b) => [b.label.replace(/:$/, ""), toHex(b.bytes)]));
      assert.equal(byLabel.get(v.trafficKeyName), v.trafficKey, section);
      // The packet is labelled "IPv4/TCP", "IPv6/TCP" or (twice) "IP/TCP".
      const packets = blocks.filter((b) => /^IP(v4|v6)?\/TCP:$/.test(b.label));
      assert.equal(packets.length, 1, section);
      assert.equal(toHex(packets[0].bytes), v.packet, section);
      assert.equal(byLabel.get("MAC"), v.mac, section);
    }
  });
});

// --- HMAC-SHA-256-128 and other inputs, against the oracle ------------------------------------

/** A segment with the given options before TCP-AO, TCP-AO, options after, and payload. */
function buildSegment(
  macLength: number,
  before: number[],
  after: number[],
  payload: Uint8Array,
): Uint8Array {
  const options = [
    ...before,
    29,
    4 + macLength,
    7,
    9,
    ...new Array(macLength).fill(0xab),
    ...after,
  ];
  while (options.length % 4 !== 0) options.push(0);
  const header = new Uint8Array(20);
  header.set([0x12, 0x34, 0x00, 0xb3, 1, 2, 3, 4, 5, 6, 7, 8]);
  header[12] = ((20 + options.length) / 4) << 4;
  header[13] = 0x18;
  header.set([0xff, 0xff, 0xbe, 0xef, 0, 0], 14);
  return Uint8Array.from([...header, ...options, ...payload]);
}

const MAC_LENGTH: Record<TcpAoAlgorithm, number> = {
  "hmac-sha1-96": 12,
  "aes-128-cmac-96": 12,
  "hmac-sha256-128": 16,
};
const KEY_LENGTH: Record<TcpAoAlgorithm, number> = {
  "hmac-sha1-96": 20,
  "aes-128-cmac-96": 16,
  "hmac-sha256-128": 32,
};

describe("TCP-AO against an independent oracle (property tests)", () => {
  const algorithms: TcpAoAlgorithm[] = ["hmac-sha256-128", "hmac-sha1-96", "aes-128-cmac-96"];
  for (const algorithm of algorithms) {
    it(`${algorithm}: traffic keys and MACs, IPv4/IPv6, options in or out, any SNE (300 cases)`, () => {
      fc.assert(
        fc.property(
          fc.uint8Array({ minLength: 1, maxLength: 80 }),
          fc.boolean(),
          fc.boolean(),
          fc.nat({ max: 0xffffffff }),
          fc.nat({ max: 0xffffffff }),
          fc.uint8Array({ maxLength: 300 }),
          fc.constantFrom<number[][]>(
            [],
            [1, 1, 8, 10, 1, 2, 3, 4, 5, 6, 7, 8],
            [2, 4, 5, 0xb4, 1],
          ),
          fc.constantFrom<number[][]>([], [1], [0], [1, 3, 3, 8]),
          (master, ipv6, excludeOptions, sne, isn, payload, before, after) => {
            const n = ipv6 ? 16 : 4;
            const source = Uint8Array.from({ length: n }, (_, i) => i + 1);
            const destination = Uint8Array.from({ length: n }, (_, i) => 0xf0 - i);
            const context = {
              source,
              destination,
              sourcePort: 0x1234,
              destinationPort: 179,
              sourceIsn: isn,
              destinationIsn: (isn ^ 0x5a5a5a5a) >>> 0,
            };
            const trafficKey = tcpAoTrafficKey(algorithm, master, context, {
              allowShortKeys: true,
            });
            assert.deepEqual(
              trafficKey,
              oracleTrafficKey(algorithm, master, tcpAoKdfContext(context)),
            );
            assert.equal(trafficKey.length, KEY_LENGTH[algorithm]);
            const segment = buildSegment(MAC_LENGTH[algorithm], before, after, payload);
            const input = { source, destination, segment, sne };
            const key = tcpAo(algorithm, trafficKey, { excludeOptions });
            const expected = oracleMac(algorithm, trafficKey, input, excludeOptions);
            assert.deepEqual(key.tag(input), expected);
            // Views with an offset, for every byte argument.
            const viewed = {
              source: atOffset(source),
              destination: atOffset(destination),
              segment: atOffset(segment),
              sne,
            };
            assert.deepEqual(
              tcpAo(algorithm, atOffset(trafficKey), { excludeOptions }).tag(viewed),
              expected,
            );
            key.sign(viewed);
            assert.equal(key.verify(viewed), true);
            assert.equal(
              toHex(
                viewed.segment
                  .subarray(viewed.segment.indexOf(29) + 4)
                  .subarray(0, expected.length),
              ),
              toHex(expected),
            );
          },
        ),
        { numRuns: 300 },
      );
    });
  }

  it("HMAC-SHA-256-128: a fixed known answer (computed with node:crypto)", () => {
    // Derived here from RFC 9235 section 4.1.3's connection with the SHA-1 KDF swapped for
    // HMAC-SHA-256 (Output_Length 256), as Linux does for "hmac(sha256)": no RFC prints this one.
    const context = {
      source: hex("0a0b0c0d"),
      destination: hex("ac1b1c1d"),
      sourcePort: 0xe9d7,
      destinationPort: 179,
      sourceIsn: 0xfbfbab5a,
      destinationIsn: 0x11c14261,
    };
    const master = new TextEncoder().encode("testvector");
    const key = tcpAoTrafficKey("hmac-sha256-128", master, context, { allowShortKeys: true });
    const want = createHmac("sha256", master)
      .update(
        hex(
          `01${toHex(new TextEncoder().encode("TCP-AO"))}0a0b0c0dac1b1c1de9d700b3fbfbab5a11c142610100`,
        ),
      )
      .digest("hex");
    assert.equal(toHex(key), want);
  });
});

// --- refusals -----------------------------------------------------------------------------------

describe("TCP-AO verify refuses, never throws, on bad segments", () => {
  const key = tcpAo("hmac-sha1-96", new Uint8Array(20).fill(7));
  const source = hex("0a0b0c0d");
  const destination = hex("ac1b1c1d");
  const good = buildSegment(12, [1, 1], [], new Uint8Array(10));
  key.sign({ source, destination, segment: good, sne: 0 });
  const check = (segment: Uint8Array) => key.check({ source, destination, segment, sne: 0 });

  it("accepts the signed segment", () => {
    assert.deepEqual(check(good), { ok: true });
  });
  it("no TCP-AO option", () => {
    const none = buildSegment(12, [], [], new Uint8Array(4));
    none[20] = 30; // another kind
    assert.deepEqual(check(none), { ok: false, reason: "no_option", message: "no TCP-AO option" });
    assert.equal(tcpAoOption(none), undefined);
  });
  it("a TCP-AO option of another MAC length", () => {
    const sha256Sized = buildSegment(16, [], [], new Uint8Array(4));
    assert.deepEqual(check(sha256Sized), {
      ok: false,
      reason: "mac_length",
      message: "TCP-AO option has the wrong MAC length",
    });
  });
  it("malformed headers: short, data offset, option lengths, two TCP-AO options", () => {
    const malformed = { ok: false, reason: "malformed_segment", message: "malformed segment" };
    assert.deepEqual(check(good.subarray(0, 19)), malformed);
    assert.deepEqual(check(new Uint8Array(0)), malformed);
    const offsetTooBig = good.slice();
    offsetTooBig[12] = 0xf0;
    assert.deepEqual(check(offsetTooBig.subarray(0, 40)), malformed);
    const offsetTooSmall = good.slice();
    offsetTooSmall[12] = 0x40;
    assert.deepEqual(check(offsetTooSmall), malformed);
    const zeroLength = good.slice();
    zeroLength[22 + 1] = 0; // the TCP-AO option's length byte
    assert.deepEqual(check(zeroLength), malformed);
    const overrun = good.slice();
    overrun[23] = 40;
    assert.deepEqual(check(overrun), malformed);
    const twice = buildSegment(12, [29, 16, 1, 1, ...new Array(12).fill(0)], [], new Uint8Array(2));
    assert.deepEqual(check(twice), malformed);
    for (const bad of [offsetTooBig, zeroLength, overrun, twice])
      assert.equal(tcpAoOption(bad), undefined);
  });
  it("each flipped bit of the covered bytes, and of the MAC", () => {
    for (let i = 0; i < good.length; i++) {
      if (i === 16 || i === 17) continue; // the checksum is not covered
      const bad = good.slice();
      bad[i] ^= 0x10;
      assert.equal(check(bad).ok, false, `byte ${i}`);
    }
    const checksum = good.slice();
    checksum[16] ^= 0xff;
    assert.deepEqual(check(checksum), { ok: true });
    assert.equal(
      key.verify({ source: destination, destination: source, segment: good, sne: 0 }),
      false,
    );
  });
  it("payload bytes are covered when options are excluded, other options are not", () => {
    const k = tcpAo("aes-128-cmac-96", new Uint8Array(16).fill(1), { excludeOptions: true });
    const s = buildSegment(
      12,
      [1, 1, 8, 10, 1, 2, 3, 4, 5, 6, 7, 8],
      [],
      new Uint8Array(8).fill(3),
    );
    k.sign({ source, destination, segment: s, sne: 9 });
    const timestamp = s.slice();
    timestamp[25] ^= 1; // inside the Timestamp option
    assert.equal(k.verify({ source, destination, segment: timestamp, sne: 9 }), true);
    const data = s.slice();
    data[data.length - 1] ^= 1;
    assert.equal(k.verify({ source, destination, segment: data, sne: 9 }), false);
  });
});

describe("TCP-AO bad input", () => {
  const context = {
    source: hex("0a0b0c0d"),
    destination: hex("ac1b1c1d"),
    sourcePort: 1,
    destinationPort: 179,
    sourceIsn: 5,
    destinationIsn: 0,
  };
  const master = new Uint8Array(16).fill(2);
  const key = tcpAo("hmac-sha256-128", new Uint8Array(32));
  const segment = buildSegment(16, [], [], new Uint8Array(3));
  const input = { source: context.source, destination: context.destination, segment, sne: 0 };

  it("byte arguments that are not bytes", () => {
    for (const [what, value] of notBytes()) {
      const v = value as Uint8Array;
      throwsKeyed(() => tcpAoKdfContext({ ...context, source: v }), "BAD_INPUT", /^source /);
      throwsKeyed(() => tcpAoTrafficKey("hmac-sha1-96", v, context), "BAD_INPUT", /^masterKey /);
      throwsKeyed(() => tcpAo("hmac-sha1-96", v), "BAD_INPUT", /^trafficKey /);
      throwsKeyed(() => key.tag({ ...input, segment: v }), "BAD_INPUT", /^segment /);
      throwsKeyed(() => key.verify({ ...input, destination: v }), "BAD_INPUT", /^destination /);
      throwsKeyed(() => key.sign({ ...input, segment: v }), "BAD_INPUT", /^segment /);
      throwsKeyed(() => tcpAoOption(v), "BAD_INPUT", /^segment /);
      if (v !== undefined) throwsKeyed(() => key.tag(input, v), "BAD_INPUT", /^out /);
      assert.ok(what);
    }
  });
  it("addresses: 4 or 16 bytes, both of one family", () => {
    throwsKeyed(
      () => tcpAoKdfContext({ ...context, source: new Uint8Array(16) }),
      "BAD_INPUT",
      /must both be IPv4/,
    );
    throwsKeyed(
      () => key.tag({ ...input, source: new Uint8Array(5), destination: new Uint8Array(5) }),
      "BAD_INPUT",
      /IPv6/,
    );
    throwsKeyed(
      () => key.tag({ ...input, source: new Uint8Array(0), destination: new Uint8Array(0) }),
      "BAD_INPUT",
    );
  });
  it("ports, ISNs and SNE out of range", () => {
    for (const bad of [-1, 65536, 1.5, "1", Number.NaN]) {
      throwsKeyed(
        () => tcpAoKdfContext({ ...context, sourcePort: bad as number }),
        "BAD_INPUT",
        /sourcePort/,
      );
      throwsKeyed(
        () => tcpAoKdfContext({ ...context, destinationPort: bad as number }),
        "BAD_INPUT",
        /destinationPort/,
      );
    }
    for (const bad of [-1, 2 ** 32, 0.5, "0", undefined]) {
      throwsKeyed(
        () => tcpAoKdfContext({ ...context, sourceIsn: bad as number }),
        "BAD_INPUT",
        /sourceIsn/,
      );
      throwsKeyed(
        () => tcpAoKdfContext({ ...context, destinationIsn: bad as number }),
        "BAD_INPUT",
        /destinationIsn/,
      );
      throwsKeyed(() => key.tag({ ...input, sne: bad as number }), "BAD_INPUT", /^sne /);
      throwsKeyed(() => key.verify({ ...input, sne: bad as number }), "BAD_INPUT", /^sne /);
    }
    assert.equal(key.tag({ ...input, sne: 2 ** 32 - 1 }).length, 16);
  });
  it("objects that are not objects", () => {
    throwsKeyed(() => tcpAoKdfContext(null as never), "BAD_INPUT", /context/);
    throwsKeyed(() => key.tag(null as never), "BAD_INPUT", /segment argument/);
    throwsKeyed(() => key.verify("x" as never), "BAD_INPUT", /segment argument/);
    throwsKeyed(
      () => tcpAoTrafficKeys("hmac-sha1-96", master, null as never),
      "BAD_INPUT",
      /connection/,
    );
    throwsKeyed(
      () => tcpAo("hmac-sha1-96", new Uint8Array(20), 3 as never),
      "BAD_INPUT",
      /options/,
    );
    throwsKeyed(
      () => tcpAo("hmac-sha1-96", new Uint8Array(20), { excludeOptions: 1 as never }),
      "BAD_INPUT",
      /excludeOptions/,
    );
    throwsKeyed(
      () => tcpAoTrafficKey("hmac-sha1-96", master, context, { allowShortKeys: "yes" as never }),
      "BAD_INPUT",
      /allowShortKeys/,
    );
  });
  it("algorithms, traffic key lengths, master key lengths", () => {
    throwsKeyed(
      () => tcpAo("hmac-md5-96" as TcpAoAlgorithm, new Uint8Array(16)),
      "UNKNOWN_ALGORITHM",
      /hmac-sha1-96/,
    );
    throwsKeyed(
      () => tcpAoTrafficKey("toString" as TcpAoAlgorithm, master, context),
      "UNKNOWN_ALGORITHM",
    );
    throwsKeyed(() => tcpAo("hmac-sha1-96", new Uint8Array(16)), "KEY_LENGTH", /20 bytes/);
    throwsKeyed(() => tcpAo("aes-128-cmac-96", new Uint8Array(20)), "KEY_LENGTH", /16 bytes/);
    throwsKeyed(() => tcpAo("hmac-sha256-128", new Uint8Array(20)), "KEY_LENGTH", /32 bytes/);
    throwsKeyed(
      () => tcpAoTrafficKey("hmac-sha1-96", new Uint8Array(10), context),
      "KEY_TOO_SHORT",
      /allowShortKeys/,
    );
    throwsKeyed(
      () =>
        tcpAoTrafficKeys("hmac-sha1-96", new Uint8Array(15), {
          localAddress: context.source,
          remoteAddress: context.destination,
          localPort: 1,
          remotePort: 2,
          localIsn: 3,
          remoteIsn: 4,
        }),
      "KEY_TOO_SHORT",
    );
    throwsKeyed(
      () => tcpAoTrafficKey("hmac-sha1-96", new Uint8Array(0), context, { allowShortKeys: true }),
      "KEY_TOO_SHORT",
      /empty/,
    );
    assert.equal(
      tcpAoTrafficKey("aes-128-cmac-96", new Uint8Array(1), context, { allowShortKeys: true })
        .length,
      16,
    );
  });
  it("segments that cannot be signed, and out of the wrong length", () => {
    const noOption = buildSegment(16, [], [], new Uint8Array(1));
    noOption[20] = 30;
    throwsKeyed(() => key.tag({ ...input, segment: noOption }), "BAD_INPUT", /no TCP-AO option/);
    throwsKeyed(
      () => key.sign({ ...input, segment: new Uint8Array(10) }),
      "BAD_INPUT",
      /shorter than a TCP header/,
    );
    throwsKeyed(
      () => key.tag({ ...input, segment: buildSegment(12, [], [], new Uint8Array(0)) }),
      "BAD_INPUT",
      /needs 20/,
    );
    throwsKeyed(() => key.tag(input, new Uint8Array(12)), "BAD_INPUT", /exactly macLength \(16\)/);
    throwsKeyed(() => key.tag({ ...input, segment: new Uint8Array(65536) }), "BAD_INPUT", /65535/);
    const out = new Uint8Array(16);
    assert.equal(key.tag(input, out), out);
  });
  it("destroy: later calls throw DESTROYED", () => {
    const k = tcpAo("aes-128-cmac-96", new Uint8Array(16).fill(5));
    const s = buildSegment(12, [], [], new Uint8Array(1));
    k.sign({ ...input, segment: s });
    k.destroy();
    k.destroy();
    throwsKeyed(() => k.tag({ ...input, segment: s }), "DESTROYED");
    throwsKeyed(() => k.verify({ ...input, segment: s }), "DESTROYED");
  });
  it("the traffic key is copied: changing the caller's buffer changes nothing", () => {
    const trafficKey = new Uint8Array(20).fill(4);
    const k = tcpAo("hmac-sha1-96", trafficKey);
    const s = buildSegment(12, [], [], new Uint8Array(2));
    const before = k.tag({ ...input, segment: s });
    trafficKey.fill(0);
    assert.deepEqual(k.tag({ ...input, segment: s }), before);
  });
});
