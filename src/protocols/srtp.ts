/**
 * SRTP and SRTCP message authentication (RFC 3711) and session key derivation.
 *
 * - Authentication (RFC 3711 4.2.1): HMAC-SHA1 under the session authentication key, tag = the
 *   leftmost 80 bits (HMAC_SHA1_80) or 32 bits (HMAC_SHA1_32, RFC 4568 6.2.1) of the HMAC.
 *   SRTP tags the authenticated portion (header ‖ encrypted payload) followed by the 32-bit
 *   rollover counter ROC (RFC 3711 4.2); SRTCP tags the authenticated portion, which already
 *   ends with the E flag and the 31-bit SRTCP index (RFC 3711 3.4).
 * - Key derivation (RFC 3711 4.3): key_id = label ‖ r, r = index DIV key_derivation_rate (48
 *   bits), x = key_id XOR master_salt (right-aligned), and the session key is the AES-CM keystream
 *   under the master key with IV = x·2^16.
 *
 * Short tags: HMAC_SHA1_32 is below keyed's 80-bit minimum, so this module opts in with
 * `allowShortTags` when, and only when, a caller asks for 4-byte tags. A 32-bit tag is forged by
 * chance once in 2^32 tries; RFC 3711 9.5 and RFC 4568 accept that for media packets. SRTCP keeps
 * 80 bits (RFC 4568 6.2.1: the SRTCP tag is 80 bits in every suite).
 */
import { AesKey } from "../cipher/aes.js";
import { assertBytes, assertInteger, type Bytes } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import type { Mac } from "../core/mac.js";
import { checkOptions, describeType } from "../core/options.js";
import { redactKeyMaterial } from "../core/redact.js";
import { hmac } from "../mac/hmac.js";

// --- AES-CM (RFC 3711 4.1.1) ---------------------------------------------------------------------

/**
 * The AES counter-mode keystream of RFC 3711 4.1.1: block j is E(k, IV + j mod 2^128), the
 * counter a 128-bit big-endian integer. Private: SRTP's KDF is its only user here.
 */
function aesCmKeystream(aes: AesKey, iv: Uint8Array, out: Uint8Array): void {
  const counter = Uint8Array.from(iv);
  const block = new Uint8Array(16);
  for (let offset = 0; offset < out.length; offset += 16) {
    aes.encryptBlock(counter, 0, block, 0);
    const take = Math.min(16, out.length - offset);
    for (let i = 0; i < take; i++) out[offset + i] = block[i];
    // counter += 1, with the carry through all 16 bytes.
    for (let i = 15; i >= 0; i--) {
      counter[i] = (counter[i] + 1) & 0xff;
      if (counter[i] !== 0) break;
    }
  }
  block.fill(0);
  counter.fill(0);
}

// --- key derivation (RFC 3711 4.3) ---------------------------------------------------------------

/** The key derivation labels of RFC 3711 4.3.1 (SRTP) and 4.3.2 (SRTCP). */
export const SRTP_LABELS = {
  /** The SRTP encryption key k_e. */
  rtpEncryption: 0x00,
  /** The SRTP authentication key k_a. */
  rtpAuthentication: 0x01,
  /** The SRTP salting key k_s. */
  rtpSalt: 0x02,
  /** The SRTCP encryption key. */
  rtcpEncryption: 0x03,
  /** The SRTCP authentication key. */
  rtcpAuthentication: 0x04,
  /** The SRTCP salting key. */
  rtcpSalt: 0x05,
} as const;

/** Settings of `srtpKdf`: which packet index, and the key derivation rate (RFC 3711 4.3.1). */
export interface SrtpKdfOptions {
  /**
   * The packet index the key is derived for: SRTP's 48-bit index (2^16·ROC + SEQ) or SRTCP's
   * 31-bit one. Default 0. Only matters with a non-zero key derivation rate.
   */
  index?: number;
  /** key_derivation_rate: 0 (derive once, the default) or a power of 2 from 1 to 2^24. */
  keyDerivationRate?: number;
}

const SALT_LENGTH = 14;
const MAX_INDEX = 2 ** 48 - 1;
/** The PRF's output: at most 2^16 AES blocks, as an SRTP keystream segment (RFC 3711 4.1.1). */
const MAX_KDF_OUTPUT = 2 ** 16 * 16;

function checkMaster(masterKey: unknown, masterSalt: unknown): void {
  assertBytes(masterKey, "masterKey");
  assertBytes(masterSalt, "masterSalt");
  if (masterKey.length !== 16 && masterKey.length !== 24 && masterKey.length !== 32) {
    throw new KeyedError(
      "KEY_LENGTH",
      `masterKey must be an AES key of 16, 24 or 32 bytes (RFC 3711, RFC 6188); got ${masterKey.length}.`,
    );
  }
  if (masterSalt.length !== SALT_LENGTH) {
    throw new KeyedError(
      "BAD_INPUT",
      `masterSalt must be ${SALT_LENGTH} bytes (112 bits, RFC 3711 8.2); got ${masterSalt.length}.`,
    );
  }
}

/** r = index DIV key_derivation_rate, or 0 when the rate is 0 (RFC 3711 4.3.1). */
function keyDerivationIndex(options: SrtpKdfOptions): number {
  const index = assertInteger(options.index ?? 0, "options.index", 0, MAX_INDEX);
  const rate = assertInteger(
    options.keyDerivationRate ?? 0,
    "options.keyDerivationRate",
    0,
    2 ** 24,
  );
  if (rate !== 0 && (rate & (rate - 1)) !== 0) {
    throw new KeyedError(
      "BAD_INPUT",
      `options.keyDerivationRate must be 0 or a power of 2 (RFC 3711 4.3.1); got ${rate}.`,
    );
  }
  return rate === 0 ? 0 : Math.floor(index / rate);
}

function derive(aes: AesKey, masterSalt: Bytes, label: number, r: number, length: number): Bytes {
  // x = (label ‖ r) XOR master_salt, right-aligned: label at byte 7 of 14, r in bytes 8-13.
  const iv = new Uint8Array(16);
  iv.set(masterSalt);
  iv[7] ^= label;
  let rest = r;
  for (let i = 13; i >= 8; i--) {
    iv[i] ^= rest % 256;
    rest = Math.floor(rest / 256);
  }
  // IV = x·2^16: the two low bytes stay zero.
  const out = new Uint8Array(length);
  aesCmKeystream(aes, iv, out);
  iv.fill(0);
  return out;
}

/**
 * The SRTP key derivation function (RFC 3711 4.3.1, 4.3.3): `length` bytes of PRF output for one
 * label. `srtpSessionKeys` covers the usual case; this is for other labels and lengths.
 */
export function srtpKdf(
  masterKey: Bytes,
  masterSalt: Bytes,
  label: number,
  length: number,
  options?: SrtpKdfOptions,
): Bytes {
  checkMaster(masterKey, masterSalt);
  assertInteger(label, "label", 0, 255);
  assertInteger(length, "length", 1, MAX_KDF_OUTPUT);
  const r = keyDerivationIndex(
    checkOptions<SrtpKdfOptions>(options, ["index", "keyDerivationRate"], "srtpKdf options"),
  );
  const aes = new AesKey(masterKey);
  try {
    return derive(aes, masterSalt, label, r, length);
  } finally {
    aes.wipe();
  }
}

/** One direction's session keys. */
export interface SrtpSessionKeys {
  /** The AES key for the payload, as long as the master key. */
  encryptionKey: Bytes;
  /** The HMAC-SHA1 key for `srtpAuth` / `srtcpAuth`. */
  authenticationKey: Bytes;
  /** The 14-byte salting key. */
  salt: Bytes;
}

/** Settings of `srtpSessionKeys`. */
export interface SrtpSessionKeyOptions {
  /** key_derivation_rate (see `SrtpKdfOptions`); default 0. */
  keyDerivationRate?: number;
  /** SRTP packet index for the SRTP keys; default 0. */
  index?: number;
  /** SRTCP index for the SRTCP keys; default 0. */
  srtcpIndex?: number;
  /** n_a in bytes; default 20 (160 bits, RFC 3711 8.2). */
  authenticationKeyLength?: number;
}

/**
 * The six session keys (RFC 3711 4.3.1-4.3.2): for SRTP and SRTCP an encryption key of the master
 * key's length, an authentication key (20 bytes by default) and a 14-byte salt.
 */
export function srtpSessionKeys(
  masterKey: Bytes,
  masterSalt: Bytes,
  options?: SrtpSessionKeyOptions,
): {
  /** The keys for RTP packets (labels 0x00-0x02). */
  srtp: SrtpSessionKeys;
  /** The keys for RTCP packets (labels 0x03-0x05). */
  srtcp: SrtpSessionKeys;
} {
  checkMaster(masterKey, masterSalt);
  const o = checkOptions<SrtpSessionKeyOptions>(
    options,
    ["keyDerivationRate", "index", "srtcpIndex", "authenticationKeyLength"],
    "srtpSessionKeys options",
  );
  const authLength = assertInteger(
    o.authenticationKeyLength ?? 20,
    "options.authenticationKeyLength",
    16,
    MAX_KDF_OUTPUT,
  );
  const rate = o.keyDerivationRate;
  const rtp = keyDerivationIndex({ index: o.index, keyDerivationRate: rate });
  const rtcp = keyDerivationIndex({
    index: assertInteger(o.srtcpIndex ?? 0, "options.srtcpIndex", 0, 2 ** 31 - 1),
    keyDerivationRate: rate,
  });
  const aes = new AesKey(masterKey);
  try {
    const n = masterKey.length;
    return {
      srtp: {
        encryptionKey: derive(aes, masterSalt, SRTP_LABELS.rtpEncryption, rtp, n),
        authenticationKey: derive(aes, masterSalt, SRTP_LABELS.rtpAuthentication, rtp, authLength),
        salt: derive(aes, masterSalt, SRTP_LABELS.rtpSalt, rtp, SALT_LENGTH),
      },
      srtcp: {
        encryptionKey: derive(aes, masterSalt, SRTP_LABELS.rtcpEncryption, rtcp, n),
        authenticationKey: derive(
          aes,
          masterSalt,
          SRTP_LABELS.rtcpAuthentication,
          rtcp,
          authLength,
        ),
        salt: derive(aes, masterSalt, SRTP_LABELS.rtcpSalt, rtcp, SALT_LENGTH),
      },
    };
  } finally {
    aes.wipe();
  }
}

// --- authentication (RFC 3711 4.2) ---------------------------------------------------------------

/** 10: HMAC_SHA1_80 (the default); 4: HMAC_SHA1_32 (SRTP only). */
export type SrtpTagLength = 10 | 4;

/** Settings of `srtpAuth`. */
export interface SrtpAuthOptions {
  /** Default 10. 4 opts in to HMAC_SHA1_32 (see the module note on short tags). */
  tagLength?: SrtpTagLength;
}

function tagLengthOption(
  options: SrtpAuthOptions | undefined,
  allowed: readonly number[],
  where: string,
): number {
  const length = checkOptions<SrtpAuthOptions>(options, ["tagLength"], where).tagLength ?? 10;
  if (!allowed.includes(length)) {
    throw new KeyedError(
      "TAG_LENGTH",
      `options.tagLength must be ${allowed.join(" or ")} bytes here (HMAC_SHA1_80${allowed.includes(4) ? " or HMAC_SHA1_32" : ""}); got ${typeof length === "string" || typeof length === "number" ? JSON.stringify(length) : describeType(length)}.`,
    );
  }
  return length;
}

function prepare(authKey: Bytes, tagLength: number): Mac {
  assertBytes(authKey, "authKey");
  // The one place keyed's short-tag policy is relaxed: HMAC_SHA1_32, which SRTP profiles define.
  return hmac("sha1", authKey, { tagLength, allowShortTags: tagLength < 10 });
}

/** SRTP (RTP packet) authentication under one session authentication key. */
export class SrtpAuth {
  /** Tag bytes: 10 (HMAC_SHA1_80) or 4 (HMAC_SHA1_32). */
  readonly tagLength: number;
  private readonly mac: Mac;
  private readonly roc = new Uint8Array(4);

  constructor(authKey: Bytes, options?: SrtpAuthOptions) {
    this.tagLength = tagLengthOption(options, [10, 4], "SrtpAuth options");
    this.mac = prepare(authKey, this.tagLength);
  }

  private rocBytes(roc: number): Uint8Array {
    assertInteger(roc, "roc", 0, 0xffffffff);
    const b = this.roc;
    b[0] = roc >>> 24;
    b[1] = roc >>> 16;
    b[2] = roc >>> 8;
    b[3] = roc;
    return b;
  }

  /**
   * The tag of an SRTP packet: `packet` is the authenticated portion (RTP header ‖ encrypted
   * payload, no MKI, no tag), `roc` the sender's rollover counter for it.
   */
  tag(packet: Bytes, roc: number, out?: Bytes): Bytes {
    assertBytes(packet, "packet");
    const rocBytes = this.rocBytes(roc);
    return this.mac.stream().update(packet).update(rocBytes).digest(out);
  }

  /** Constant-time check; false for a wrong tag or a tag of the wrong length. */
  verify(packet: Bytes, roc: number, tag: Bytes): boolean {
    assertBytes(packet, "packet");
    assertBytes(tag, "tag");
    const rocBytes = this.rocBytes(roc);
    return this.mac.stream().update(packet).update(rocBytes).verify(tag);
  }

  /** Wipes the key; later calls throw DESTROYED. */
  destroy(): void {
    this.mac.destroy();
  }
}

redactKeyMaterial(SrtpAuth, (k) => ({ tagLength: k.tagLength }));

/** SRTCP authentication under one session authentication key (label 0x04). */
export class SrtcpAuth {
  /** Tag bytes: always 10. */
  readonly tagLength: number;
  private readonly mac: Mac;

  /** SRTCP tags are 80 bits (RFC 4568 6.2.1); only tagLength 10 is accepted. */
  constructor(authKey: Bytes, options?: { tagLength?: 10 }) {
    this.tagLength = tagLengthOption(options, [10], "SrtcpAuth options");
    this.mac = prepare(authKey, this.tagLength);
  }

  /**
   * The tag of an SRTCP packet: `packet` is the authenticated portion, RTCP header ‖ encrypted
   * part ‖ the E flag and SRTCP index (32 bits), without MKI or tag.
   */
  tag(packet: Bytes, out?: Bytes): Bytes {
    assertBytes(packet, "packet");
    checkSrtcpLength(packet);
    return this.mac.tag(packet, out);
  }

  /** Constant-time check of an SRTCP packet's tag; false (never an exception) when it does not match. */
  verify(packet: Bytes, tag: Bytes): boolean {
    assertBytes(packet, "packet");
    assertBytes(tag, "tag");
    // Too short to hold an RTCP header and the index word: nothing to authenticate.
    if (packet.length < 12) return false;
    return this.mac.verify(packet, tag);
  }

  /** Wipes the key; later calls throw DESTROYED. */
  destroy(): void {
    this.mac.destroy();
  }
}

redactKeyMaterial(SrtcpAuth, (k) => ({ tagLength: k.tagLength }));

function checkSrtcpLength(packet: Bytes): void {
  if (packet.length < 12) {
    throw new KeyedError(
      "BAD_INPUT",
      `packet must hold at least the 8-byte RTCP header and the 4-byte E ‖ SRTCP index word; got ${packet.length} bytes.`,
    );
  }
}

/** `new SrtpAuth(authKey, options)`. */
export function srtpAuth(authKey: Bytes, options?: SrtpAuthOptions): SrtpAuth {
  return new SrtpAuth(authKey, options);
}

/** `new SrtcpAuth(authKey)`. */
export function srtcpAuth(authKey: Bytes): SrtcpAuth {
  return new SrtcpAuth(authKey);
}
