import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { describe, it } from "node:test";
import fc from "fast-check";
import { SshMac, type SshMacAlgorithm, SshMacSequence, sshMac } from "../../src/protocols/ssh.js";
import { atOffset, notBytes, throwsKeyed, toHex } from "../helpers.js";

const HASH: Record<SshMacAlgorithm, "sha256" | "sha512"> = {
  "hmac-sha2-256": "sha256",
  "hmac-sha2-512": "sha512",
  "hmac-sha2-256-etm@openssh.com": "sha256",
  "hmac-sha2-512-etm@openssh.com": "sha512",
};
const ALGORITHMS = Object.keys(HASH) as SshMacAlgorithm[];
const KEY_LENGTH = (a: SshMacAlgorithm): number => (HASH[a] === "sha256" ? 32 : 64);

/** RFC 4253 6.4, computed with node:crypto: HMAC(key, uint32 sequence_number ‖ packet). */
function expected(
  algorithm: SshMacAlgorithm,
  key: Uint8Array,
  sequence: number,
  packet: Uint8Array,
): Uint8Array {
  const s = Buffer.alloc(4);
  s.writeUInt32BE(sequence);
  return new Uint8Array(createHmac(HASH[algorithm], key).update(s).update(packet).digest());
}

/** An unencrypted SSH packet (RFC 4253 6): packet_length ‖ padding_length ‖ payload ‖ padding. */
function packetOf(payload: Uint8Array, blockSize = 16): Uint8Array {
  let padding = blockSize - ((5 + payload.length) % blockSize);
  if (padding < 4) padding += blockSize;
  const packet = new Uint8Array(5 + payload.length + padding);
  new DataView(packet.buffer).setUint32(0, packet.length - 4);
  packet[4] = padding;
  packet.set(payload, 5);
  packet.fill(0x5a, 5 + payload.length);
  return packet;
}

/** packet_length ‖ "ciphertext", as the -etm variants MAC it. */
function etmPacketOf(ciphertext: Uint8Array): Uint8Array {
  const packet = new Uint8Array(4 + ciphertext.length);
  new DataView(packet.buffer).setUint32(0, ciphertext.length);
  packet.set(ciphertext, 4);
  return packet;
}

describe("SSH MACs against node:crypto (RFC 4253 6.4, RFC 6668)", () => {
  for (const algorithm of ALGORITHMS) {
    const etm = algorithm.endsWith("-etm@openssh.com");
    it(`${algorithm}: MAC(key, seq ‖ ${etm ? "packet_length ‖ encrypted packet" : "unencrypted packet"}) (300 cases)`, () => {
      const n = KEY_LENGTH(algorithm);
      fc.assert(
        fc.property(
          fc.uint8Array({ minLength: n, maxLength: n }),
          fc.uint8Array({ maxLength: 600 }),
          fc.nat({ max: 0xffffffff }),
          (key, body, sequence) => {
            const packet = etm ? etmPacketOf(new Uint8Array([1, ...body])) : packetOf(body);
            const want = expected(algorithm, key, sequence, packet);
            const m = sshMac(algorithm, atOffset(key));
            assert.equal(m.macLength, n);
            assert.equal(m.encryptThenMac, etm);
            assert.deepEqual(m.compute(sequence, atOffset(packet)), want);
            const out = new Uint8Array(n);
            assert.equal(m.compute(sequence, packet, out), out);
            assert.equal(m.verify(sequence, packet, atOffset(want)), true);
            assert.equal(m.verify((sequence + 1) >>> 0, packet, want), false);
          },
        ),
        { numRuns: 300 },
      );
    });
  }

  it("a hand-built SSH_MSG_IGNORE packet, sequence 3, hmac-sha2-256", () => {
    const key = Uint8Array.from({ length: 32 }, (_, i) => i);
    const packet = packetOf(Uint8Array.of(2, 0, 0, 0, 0), 8);
    assert.equal(toHex(packet), "0000000c0602000000005a5a5a5a5a5a");
    const want = createHmac("sha256", key)
      .update(Buffer.from("00000003", "hex"))
      .update(packet)
      .digest("hex");
    assert.equal(toHex(sshMac("hmac-sha2-256", key).compute(3, packet)), want);
  });

  it("encrypt-and-MAC and encrypt-then-MAC differ only in what the caller passes", () => {
    const key = new Uint8Array(64).fill(9);
    const packet = packetOf(new Uint8Array(20).fill(1));
    // The same bytes give the same MAC under both names: the difference is which bytes they are.
    assert.deepEqual(
      sshMac("hmac-sha2-512", key).compute(7, packet),
      sshMac("hmac-sha2-512-etm@openssh.com", key).compute(7, packet),
    );
    // -etm does not look inside the (encrypted) rest, so any padding byte is accepted there.
    const etm = etmPacketOf(new Uint8Array([0, 1, 2]));
    assert.equal(sshMac("hmac-sha2-512-etm@openssh.com", key).compute(0, etm).length, 64);
    throwsKeyed(
      () => sshMac("hmac-sha2-512", key).compute(0, etm),
      "BAD_INPUT",
      /padding_length is 0/,
    );
  });
});

describe("SSH sequence numbers", () => {
  const key = new Uint8Array(32).fill(3);
  const packets = [0, 1, 2, 3].map((i) => packetOf(new Uint8Array(i + 1).fill(i)));

  it("count from 0, one per packet, sender and receiver in step", () => {
    const sender = new SshMacSequence("hmac-sha2-256", key);
    const receiver = new SshMacSequence("hmac-sha2-256", key);
    assert.equal(sender.sequenceNumber, 0);
    for (let i = 0; i < packets.length; i++) {
      const mac = sender.sign(packets[i]);
      assert.deepEqual(mac, expected("hmac-sha2-256", key, i, packets[i]));
      assert.equal(receiver.verify(packets[i], mac), true);
    }
    assert.equal(sender.sequenceNumber, 4);
    assert.equal(receiver.sequenceNumber, 4);
  });

  it("wrap from 2^32 - 1 to 0 (RFC 4253 6.4)", () => {
    const sender = new SshMacSequence("hmac-sha2-512", new Uint8Array(64), {
      sequenceNumber: 0xfffffffe,
    });
    const seen: number[] = [];
    for (const p of packets) {
      seen.push(sender.sequenceNumber);
      assert.deepEqual(
        sender.sign(p),
        expected("hmac-sha2-512", new Uint8Array(64), seen[seen.length - 1], p),
      );
    }
    assert.deepEqual(seen, [0xfffffffe, 0xffffffff, 0, 1]);
    // The explicit form takes 2^32 - 1 and refuses 2^32: wrapping is the caller's, mod 2^32.
    const m = sshMac("hmac-sha2-256", key);
    assert.deepEqual(
      m.compute(0xffffffff, packets[0]),
      expected("hmac-sha2-256", key, 0xffffffff, packets[0]),
    );
    throwsKeyed(
      () => m.compute(2 ** 32, packets[0]),
      "BAD_INPUT",
      /sequenceNumber must be a whole number from 0 to 4294967295/,
    );
  });

  it("a replayed, dropped or reordered packet is refused, and still counted", () => {
    const sender = new SshMacSequence("hmac-sha2-256", key);
    const receiver = new SshMacSequence("hmac-sha2-256", key);
    const m0 = sender.sign(packets[0]);
    const m1 = sender.sign(packets[1]);
    assert.equal(receiver.verify(packets[0], m0), true);
    assert.equal(receiver.verify(packets[0], m0), false, "replay of packet 0 as packet 1");
    assert.equal(receiver.sequenceNumber, 2);
    assert.equal(receiver.verify(packets[1], m1), false, "packet 1 arriving as packet 2");
  });
});

describe("SSH refusals and bad input", () => {
  const key = new Uint8Array(32).fill(1);
  const m = sshMac("hmac-sha2-256", key);
  const packet = packetOf(new Uint8Array(10));
  const mac = m.compute(5, packet);

  it("wrong MACs are false, never a throw", () => {
    assert.equal(m.verify(5, packet, mac), true);
    assert.equal(m.verify(5, packet, mac.subarray(0, 16)), false, "truncated");
    assert.equal(m.verify(5, packet, new Uint8Array([...mac, 0])), false, "extended");
    assert.equal(m.verify(5, packet, new Uint8Array(0)), false);
    for (let i = 0; i < packet.length; i++) {
      const bad = packet.slice();
      bad[i] ^= 4;
      assert.equal(m.verify(5, bad, mac), false, `byte ${i}`);
    }
    // Malformed packets are refused by verify, not thrown on.
    assert.equal(m.verify(5, packet.subarray(0, 4), mac), false);
    assert.equal(m.verify(5, packet.subarray(0, packet.length - 1), mac), false);
    const noPadding = packet.slice();
    noPadding[4] = 3;
    assert.equal(m.verify(5, noPadding, mac), false);
    // Another key, another algorithm.
    assert.equal(sshMac("hmac-sha2-256", new Uint8Array(32)).verify(5, packet, mac), false);
    assert.equal(sshMac("hmac-sha2-512", new Uint8Array(64).fill(1)).verify(5, packet, mac), false);
  });
  it("byte arguments that are not bytes", () => {
    const s = new SshMacSequence("hmac-sha2-256", key);
    for (const [, value] of notBytes()) {
      const v = value as Uint8Array;
      throwsKeyed(() => sshMac("hmac-sha2-256", v), "BAD_INPUT", /^key /);
      throwsKeyed(() => m.compute(0, v), "BAD_INPUT", /^packet /);
      throwsKeyed(() => m.verify(0, v, mac), "BAD_INPUT", /^packet /);
      throwsKeyed(() => m.verify(0, packet, v), "BAD_INPUT", /^mac /);
      throwsKeyed(() => s.sign(v), "BAD_INPUT", /^packet /);
      throwsKeyed(() => s.verify(packet, v), "BAD_INPUT", /^mac /);
      if (v !== undefined) throwsKeyed(() => m.compute(0, packet, v), "BAD_INPUT", /^out /);
    }
    assert.equal(s.sequenceNumber, 0, "refused arguments do not count as packets");
  });
  it("sequence numbers out of range", () => {
    for (const bad of [-1, 2 ** 32, 1.5, Number.NaN, "1", 1n, undefined]) {
      throwsKeyed(() => m.compute(bad as number, packet), "BAD_INPUT", /^sequenceNumber /);
      throwsKeyed(() => m.verify(bad as number, packet, mac), "BAD_INPUT", /^sequenceNumber /);
      if (bad !== undefined) {
        throwsKeyed(
          () => new SshMacSequence("hmac-sha2-256", key, { sequenceNumber: bad as number }),
          "BAD_INPUT",
          /options.sequenceNumber/,
        );
      }
    }
    throwsKeyed(() => new SshMacSequence("hmac-sha2-256", key, 0 as never), "BAD_INPUT", /options/);
  });
  it("packets that are not what the MAC covers", () => {
    throwsKeyed(() => m.compute(0, new Uint8Array(4)), "BAD_INPUT", /at least 5/);
    throwsKeyed(() => m.compute(0, new Uint8Array(0)), "BAD_INPUT", /at least 5/);
    throwsKeyed(
      () => m.compute(0, packet.subarray(0, packet.length - 1)),
      "BAD_INPUT",
      /packet_length field says/,
    );
    const shortPadding = packet.slice();
    shortPadding[4] = 2;
    throwsKeyed(() => m.compute(0, shortPadding), "BAD_INPUT", /padding_length is 2/);
    const longPadding = packet.slice();
    longPadding[4] = 255;
    throwsKeyed(() => m.compute(0, longPadding), "BAD_INPUT", /fit in the packet/);
    const etm = sshMac("hmac-sha2-256-etm@openssh.com", key);
    throwsKeyed(
      () => etm.compute(0, etmPacketOf(new Uint8Array(3)).subarray(0, 6)),
      "BAD_INPUT",
      /packet_length ‖ encrypted packet/,
    );
  });
  it("algorithms and key lengths", () => {
    throwsKeyed(
      () => sshMac("hmac-sha1" as SshMacAlgorithm, key),
      "UNKNOWN_ALGORITHM",
      /hmac-sha2-256/,
    );
    throwsKeyed(() => sshMac("__proto__" as SshMacAlgorithm, key), "UNKNOWN_ALGORITHM");
    for (const algorithm of ALGORITHMS) {
      const n = KEY_LENGTH(algorithm);
      for (const wrong of [0, 16, n - 1, n + 1, n === 32 ? 64 : 32]) {
        throwsKeyed(
          () => new SshMac(algorithm, new Uint8Array(wrong)),
          "KEY_LENGTH",
          new RegExp(`exactly ${n} bytes`),
        );
      }
    }
  });
  it("destroy: later calls throw DESTROYED", () => {
    const s = new SshMacSequence("hmac-sha2-512-etm@openssh.com", new Uint8Array(64));
    s.sign(etmPacketOf(new Uint8Array(8)));
    s.destroy();
    throwsKeyed(() => s.sign(etmPacketOf(new Uint8Array(8))), "DESTROYED");
    assert.equal(s.sequenceNumber, 1);
    const k = sshMac("hmac-sha2-256", key);
    k.destroy();
    throwsKeyed(() => k.verify(0, packet, mac), "DESTROYED");
  });
});
