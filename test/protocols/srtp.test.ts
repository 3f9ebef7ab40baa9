import assert from "node:assert/strict";
import { createCipheriv, createHmac } from "node:crypto";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  SRTP_LABELS,
  SrtcpAuth,
  SrtpAuth,
  srtcpAuth,
  srtpAuth,
  srtpKdf,
  srtpSessionKeys,
} from "../../src/protocols/srtp.js";
import { atOffset, hex, notBytes, throwsKeyed, toHex } from "../helpers.js";
import { rfcSection } from "../rfc-text.js";
import { skipUnless, vectorPath } from "../vectors.js";

const RFC = "rfc/rfc3711_test_vectors.txt";

/** "Name:   HEX" lines of an RFC 3711 appendix B section, by name. */
function fields(text: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const m of text.matchAll(/^\s*([A-Za-z][A-Za-z *^0-9]*?):\s+([0-9A-F]+)\b/gm)) {
    if (!map.has(m[1])) map.set(m[1], m[2].toLowerCase());
  }
  return map;
}

/** An independent AES-CM PRF on node:crypto's AES-CTR (a 128-bit big-endian counter). */
function oracleKdf(
  masterKey: Uint8Array,
  masterSalt: Uint8Array,
  label: number,
  r: bigint,
  length: number,
): Uint8Array {
  const keyId = (BigInt(label) << 48n) | r;
  const x = BigInt(`0x${toHex(masterSalt)}`) ^ keyId;
  const iv = hex((x << 16n).toString(16).padStart(32, "0"));
  const cipher = createCipheriv(`aes-${masterKey.length * 8}-ctr`, masterKey, iv);
  return new Uint8Array(cipher.update(new Uint8Array(length)));
}

describe("SRTP key derivation: RFC 3711 appendix B", () => {
  it("B.2 AES-CM keystream: 1044512 octets from the session key and salt", {
    skip: skipUnless(RFC),
  }, () => {
    const text = rfcSection(vectorPath(RFC) as string, "B.2");
    const f = fields(text);
    const sessionKey = hex(f.get("Session Key") as string);
    const offset = f.get("Offset") as string;
    assert.equal(f.get("Session Salt"), offset, "the salt is printed already shifted");
    assert.equal(f.get("Rollover Counter"), "00000000");
    const length = Number(/segment length: (\d+) octets/.exec(text)?.[1]);
    assert.equal(length, 1044512);
    // With label 0 and r = 0, key_id is zero and x is the master salt itself: the KDF's output
    // is the AES-CM keystream with IV = salt·2^16, the IV of this test.
    const salt = hex(offset.slice(0, 28));
    assert.equal(offset.slice(28), "0000");
    const keystream = srtpKdf(sessionKey, salt, 0, length);
    const rows = [...text.matchAll(/^\s+([0-9A-F]{32})\s+([0-9A-F]{32})\s*$/gm)];
    assert.equal(rows.length, 6);
    const base = BigInt(`0x${offset}`);
    for (const [, counter, block] of rows) {
      const j = Number(BigInt(`0x${counter}`) - base);
      assert.equal(toHex(keystream.subarray(16 * j, 16 * j + 16)), block.toLowerCase(), counter);
    }
    // The last printed block is the last of the segment.
    assert.equal(toHex(keystream.subarray(length - 16)), rows[5][2].toLowerCase());
    assert.deepEqual(keystream, oracleKdf(sessionKey, salt, 0, 0n, length));
  });

  it("B.3 key derivation: cipher key, cipher salt, 94-byte auth key", {
    skip: skipUnless(RFC),
  }, () => {
    const text = rfcSection(vectorPath(RFC) as string, "B.3");
    const f = fields(text);
    const masterKey = hex(f.get("master key") as string);
    const masterSalt = hex(f.get("master salt") as string);
    const cipherKey = f.get("cipher key") as string;
    const cipherSalt = f.get("cipher salt") as string;
    assert.equal(cipherKey, "c61e7a93744f39ee10734afe3ff7a087");
    assert.equal(cipherSalt, "30cbbc08863d8c85d49db34a9ae1");
    const authRows = [...text.matchAll(/^\s+([0-9A-F]{28,32})\s+([0-9A-F]{32})\s*$/gm)];
    assert.equal(authRows.length, 6);
    const authKey = authRows.map((m) => m[1].toLowerCase()).join("");
    assert.equal(authKey.length / 2, 94);

    assert.equal(toHex(srtpKdf(masterKey, masterSalt, SRTP_LABELS.rtpEncryption, 16)), cipherKey);
    assert.equal(toHex(srtpKdf(masterKey, masterSalt, SRTP_LABELS.rtpSalt, 14)), cipherSalt);
    assert.equal(toHex(srtpKdf(masterKey, masterSalt, SRTP_LABELS.rtpAuthentication, 94)), authKey);
    const keys = srtpSessionKeys(masterKey, masterSalt, { authenticationKeyLength: 94 });
    assert.equal(toHex(keys.srtp.encryptionKey), cipherKey);
    assert.equal(toHex(keys.srtp.salt), cipherSalt);
    assert.equal(toHex(keys.srtp.authenticationKey), authKey);
    // The default auth key is the first 160 bits of the same keystream.
    assert.equal(
      toHex(srtpSessionKeys(masterKey, masterSalt).srtp.authenticationKey),
      authKey.slice(0, 40),
    );
    // Each printed "x*2^16" AES-CM input, encrypted once, is the first block of its key.
    const inputs = [...text.matchAll(/x\*2\^16:\s+([0-9A-F]{32})/g)].map((m) => hex(m[1]));
    assert.equal(inputs.length, 3);
    const firstBlocks = [cipherKey, cipherSalt, authKey].map((k) => k.slice(0, 28));
    inputs.forEach((input, i) => {
      const ecb = createCipheriv("aes-128-ecb", masterKey, null)
        .setAutoPadding(false)
        .update(input);
      assert.equal(toHex(ecb).slice(0, 28), firstBlocks[i]);
    });
  });
});

describe("SRTP key derivation against node:crypto AES-CTR (property tests)", () => {
  it("any master key size, salt, label, index and rate (300 cases)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(16, 24, 32).chain((n) => fc.uint8Array({ minLength: n, maxLength: n })),
        fc.uint8Array({ minLength: 14, maxLength: 14 }),
        fc.nat({ max: 255 }),
        fc.nat({ max: 2 ** 48 - 1 }),
        fc.nat({ max: 24 }).chain((e) => fc.constantFrom(0, 2 ** e)),
        fc.integer({ min: 1, max: 100 }),
        (masterKey, masterSalt, label, index, rate, length) => {
          const r = rate === 0 ? 0n : BigInt(Math.floor(index / rate));
          const got = srtpKdf(atOffset(masterKey), atOffset(masterSalt), label, length, {
            index,
            keyDerivationRate: rate,
          });
          assert.deepEqual(got, oracleKdf(masterKey, masterSalt, label, r, length));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("session keys use labels 0-5 and each direction's own index", () => {
    const masterKey = new Uint8Array(16).fill(0x11);
    const masterSalt = new Uint8Array(14).fill(0x22);
    const rate = 2 ** 16;
    const index = 0x123456789a;
    const srtcpIndex = 0x7fff0000;
    const keys = srtpSessionKeys(masterKey, masterSalt, {
      keyDerivationRate: rate,
      index,
      srtcpIndex,
    });
    const r = BigInt(Math.floor(index / rate));
    const rc = BigInt(Math.floor(srtcpIndex / rate));
    assert.deepEqual(keys.srtp.encryptionKey, oracleKdf(masterKey, masterSalt, 0, r, 16));
    assert.deepEqual(keys.srtp.authenticationKey, oracleKdf(masterKey, masterSalt, 1, r, 20));
    assert.deepEqual(keys.srtp.salt, oracleKdf(masterKey, masterSalt, 2, r, 14));
    assert.deepEqual(keys.srtcp.encryptionKey, oracleKdf(masterKey, masterSalt, 3, rc, 16));
    assert.deepEqual(keys.srtcp.authenticationKey, oracleKdf(masterKey, masterSalt, 4, rc, 20));
    assert.deepEqual(keys.srtcp.salt, oracleKdf(masterKey, masterSalt, 5, rc, 14));
    // Rate 0: one derivation whatever the index.
    assert.deepEqual(
      srtpSessionKeys(masterKey, masterSalt, { index }),
      srtpSessionKeys(masterKey, masterSalt),
    );
    // AES-256 master keys give 32-byte encryption keys.
    assert.equal(srtpSessionKeys(new Uint8Array(32), masterSalt).srtp.encryptionKey.length, 32);
  });
});

// --- authentication -----------------------------------------------------------------------------

const hmacSha1 = (key: Uint8Array, ...parts: Uint8Array[]): Uint8Array => {
  const h = createHmac("sha1", key);
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
};
const rocBytes = (roc: number): Uint8Array => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(roc);
  return b;
};

describe("SRTP and SRTCP authentication (HMAC-SHA1, RFC 3711 4.2)", () => {
  // Session keys from RFC 3711 B.3's master key and salt.
  const keys = srtpSessionKeys(
    hex("e1f97a0d3e018be0d64fa32c06de4139"),
    hex("0ec675ad498afeebb6960b3aabe6"),
  );
  // An RTP header (V=2, PT 96, SEQ 0x1234, timestamp, SSRC) and an "encrypted" payload.
  const packet = hex("80601234000003e8deadbeef0102030405060708090a0b0c0d0e0f");

  it("HMAC_SHA1_80 and HMAC_SHA1_32 over packet ‖ ROC (RFC 3711 4.2)", () => {
    for (const roc of [0, 1, 0x01020304, 0xffffffff]) {
      const full = hmacSha1(keys.srtp.authenticationKey, packet, rocBytes(roc));
      const a80 = srtpAuth(keys.srtp.authenticationKey);
      assert.equal(a80.tagLength, 10);
      assert.equal(toHex(a80.tag(packet, roc)), toHex(full.subarray(0, 10)));
      assert.equal(a80.verify(packet, roc, full.subarray(0, 10)), true);
      const a32 = srtpAuth(keys.srtp.authenticationKey, { tagLength: 4 });
      assert.equal(toHex(a32.tag(packet, roc)), toHex(full.subarray(0, 4)));
      assert.equal(a32.verify(packet, roc, full.subarray(0, 4)), true);
    }
  });

  it("HMAC_SHA1_80 over the SRTCP authenticated portion (E ‖ index included)", () => {
    const rtcp = hex("80c80006deadbeef112233445566778899aabbcc80000001");
    const full = hmacSha1(keys.srtcp.authenticationKey, rtcp);
    const a = srtcpAuth(keys.srtcp.authenticationKey);
    assert.equal(toHex(a.tag(rtcp)), toHex(full.subarray(0, 10)));
    assert.equal(a.verify(rtcp, full.subarray(0, 10)), true);
    // The E flag and index are covered.
    const otherIndex = rtcp.slice();
    otherIndex[rtcp.length - 1] ^= 1;
    assert.equal(a.verify(otherIndex, full.subarray(0, 10)), false);
    const noE = rtcp.slice();
    noE[rtcp.length - 4] ^= 0x80;
    assert.equal(a.verify(noE, full.subarray(0, 10)), false);
  });

  it("random packets, ROCs and split views agree with node:crypto (200 cases)", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 16, maxLength: 40 }),
        fc.uint8Array({ minLength: 12, maxLength: 1500 }),
        fc.nat({ max: 0xffffffff }),
        fc.constantFrom<10 | 4>(10, 4),
        (key, p, roc, tagLength) => {
          const a = new SrtpAuth(atOffset(key), { tagLength });
          const want = hmacSha1(key, p, rocBytes(roc)).subarray(0, tagLength);
          assert.deepEqual(a.tag(atOffset(p), roc), want);
          const out = new Uint8Array(tagLength);
          assert.equal(a.tag(p, roc, out), out);
          assert.equal(a.verify(p, roc, atOffset(want)), true);
          const r = new SrtcpAuth(atOffset(key));
          assert.deepEqual(r.tag(p), hmacSha1(key, p).subarray(0, 10));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("wrong tags, wrong ROC, truncated or extended tags: false, never a throw", () => {
    const a = srtpAuth(keys.srtp.authenticationKey);
    const tag = a.tag(packet, 7);
    assert.equal(a.verify(packet, 8, tag), false);
    for (let i = 0; i < tag.length; i++) {
      const bad = tag.slice();
      bad[i] ^= 1;
      assert.equal(a.verify(packet, 7, bad), false, `byte ${i}`);
    }
    for (let i = 0; i < packet.length; i++) {
      const bad = packet.slice();
      bad[i] ^= 0x40;
      assert.equal(a.verify(bad, 7, tag), false, `packet byte ${i}`);
    }
    assert.equal(a.verify(packet, 7, tag.subarray(0, 4)), false);
    assert.equal(a.verify(packet, 7, new Uint8Array([...tag, 0])), false);
    assert.equal(a.verify(packet, 7, new Uint8Array(0)), false);
    // A 32-bit authenticator does not accept the 80-bit tag, nor the reverse.
    const a32 = srtpAuth(keys.srtp.authenticationKey, { tagLength: 4 });
    assert.equal(a32.verify(packet, 7, tag), false);
    assert.equal(a.verify(packet, 7, a32.tag(packet, 7)), false);
    const r = srtcpAuth(keys.srtcp.authenticationKey);
    assert.equal(r.verify(new Uint8Array(11), new Uint8Array(10)), false);
    assert.equal(r.verify(packet, new Uint8Array(10)), false);
  });
});

describe("SRTP bad input", () => {
  const masterKey = new Uint8Array(16);
  const masterSalt = new Uint8Array(14);
  const authKey = new Uint8Array(20).fill(3);

  it("byte arguments that are not bytes", () => {
    const a = srtpAuth(authKey);
    const r = srtcpAuth(authKey);
    for (const [, value] of notBytes()) {
      const v = value as Uint8Array;
      throwsKeyed(() => srtpKdf(v, masterSalt, 0, 16), "BAD_INPUT", /^masterKey /);
      throwsKeyed(() => srtpKdf(masterKey, v, 0, 16), "BAD_INPUT", /^masterSalt /);
      throwsKeyed(() => srtpSessionKeys(v, masterSalt), "BAD_INPUT", /^masterKey /);
      throwsKeyed(() => srtpAuth(v), "BAD_INPUT", /^authKey /);
      throwsKeyed(() => srtcpAuth(v), "BAD_INPUT", /^authKey /);
      throwsKeyed(() => a.tag(v, 0), "BAD_INPUT", /^packet /);
      throwsKeyed(() => a.verify(v, 0, new Uint8Array(10)), "BAD_INPUT", /^packet /);
      throwsKeyed(() => a.verify(new Uint8Array(12), 0, v), "BAD_INPUT", /^tag /);
      throwsKeyed(() => r.tag(v), "BAD_INPUT", /^packet /);
      throwsKeyed(() => r.verify(new Uint8Array(12), v), "BAD_INPUT", /^tag /);
    }
  });
  it("master key and salt lengths", () => {
    for (const n of [0, 15, 17, 20, 33]) {
      throwsKeyed(
        () => srtpKdf(new Uint8Array(n), masterSalt, 0, 16),
        "KEY_LENGTH",
        /16, 24 or 32/,
      );
    }
    for (const n of [0, 12, 13, 15, 16]) {
      throwsKeyed(() => srtpKdf(masterKey, new Uint8Array(n), 0, 16), "BAD_INPUT", /14 bytes/);
      throwsKeyed(() => srtpSessionKeys(masterKey, new Uint8Array(n)), "BAD_INPUT", /14 bytes/);
    }
  });
  it("labels, lengths, indexes and rates", () => {
    for (const label of [-1, 256, 1.5, "0"]) {
      throwsKeyed(
        () => srtpKdf(masterKey, masterSalt, label as number, 16),
        "BAD_INPUT",
        /^label /,
      );
    }
    for (const length of [0, -1, 2 ** 20 + 1, 2.5]) {
      throwsKeyed(() => srtpKdf(masterKey, masterSalt, 0, length), "BAD_INPUT", /^length /);
    }
    throwsKeyed(
      () => srtpKdf(masterKey, masterSalt, 0, 16, { index: 2 ** 48 }),
      "BAD_INPUT",
      /options.index/,
    );
    throwsKeyed(
      () => srtpKdf(masterKey, masterSalt, 0, 16, { index: -1 }),
      "BAD_INPUT",
      /options.index/,
    );
    for (const rate of [3, 6, 2 ** 25, -2, 0.5]) {
      throwsKeyed(
        () => srtpKdf(masterKey, masterSalt, 0, 16, { keyDerivationRate: rate }),
        "BAD_INPUT",
        /keyDerivationRate/,
      );
    }
    throwsKeyed(
      () => srtpSessionKeys(masterKey, masterSalt, { srtcpIndex: 2 ** 31 }),
      "BAD_INPUT",
      /srtcpIndex/,
    );
    throwsKeyed(
      () => srtpSessionKeys(masterKey, masterSalt, { authenticationKeyLength: 10 }),
      "BAD_INPUT",
      /authenticationKeyLength/,
    );
    throwsKeyed(() => srtpKdf(masterKey, masterSalt, 0, 16, "x" as never), "BAD_INPUT", /options/);
    throwsKeyed(
      () => srtpSessionKeys(masterKey, masterSalt, null as never),
      "BAD_INPUT",
      /options/,
    );
  });
  it("ROC out of range", () => {
    const a = srtpAuth(authKey);
    for (const roc of [-1, 2 ** 32, 0.5, "1", undefined]) {
      throwsKeyed(() => a.tag(new Uint8Array(12), roc as number), "BAD_INPUT", /^roc /);
      throwsKeyed(
        () => a.verify(new Uint8Array(12), roc as number, new Uint8Array(10)),
        "BAD_INPUT",
        /^roc /,
      );
    }
  });
  it("tag lengths: 10 or 4 for SRTP, 10 for SRTCP; short keys refused", () => {
    for (const tagLength of [0, 3, 8, 12, 20]) {
      throwsKeyed(() => srtpAuth(authKey, { tagLength: tagLength as 10 }), "TAG_LENGTH", /10 or 4/);
    }
    throwsKeyed(() => new SrtcpAuth(authKey, { tagLength: 4 as 10 }), "TAG_LENGTH", /must be 10/);
    throwsKeyed(() => srtpAuth(authKey, 5 as never), "BAD_INPUT", /options/);
    throwsKeyed(() => srtpAuth(new Uint8Array(15)), "KEY_TOO_SHORT");
    throwsKeyed(() => srtcpAuth(new Uint8Array(12)).tag(new Uint8Array(12)), "KEY_TOO_SHORT");
    throwsKeyed(
      () => srtcpAuth(authKey).tag(new Uint8Array(11)),
      "BAD_INPUT",
      /at least the 8-byte/,
    );
    throwsKeyed(
      () => srtpAuth(authKey).tag(new Uint8Array(12), 0, new Uint8Array(4)),
      "BAD_INPUT",
      /out must be exactly/,
    );
  });
  it("destroy: later calls throw DESTROYED", () => {
    const a = srtpAuth(authKey);
    a.destroy();
    throwsKeyed(() => a.tag(new Uint8Array(12), 0), "DESTROYED");
    const r = srtcpAuth(authKey);
    r.destroy();
    throwsKeyed(() => r.verify(new Uint8Array(12), new Uint8Array(10)), "DESTROYED");
  });
});
