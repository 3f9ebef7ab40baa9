/**
 * SSH packet MACs: hmac-sha2-256 and hmac-sha2-512 (RFC 6668) as RFC 4253 section 6.4 applies them,
 * and OpenSSH's encrypt-then-MAC variants.
 *
 * - `hmac-sha2-256`, `hmac-sha2-512` (RFC 4253 6.4, encrypt-and-MAC):
 *   mac = HMAC(key, uint32 sequence_number ‖ unencrypted_packet), where unencrypted_packet =
 *   packet_length ‖ padding_length ‖ payload ‖ random padding, the packet before encryption.
 * - `hmac-sha2-256-etm@openssh.com`, `hmac-sha2-512-etm@openssh.com` (OpenSSH PROTOCOL file,
 *   section 1.5; not an IETF standard): mac = HMAC(key, uint32 sequence_number ‖ packet_length ‖
 *   encrypted_packet), the length sent in the clear and the rest encrypted first.
 *
 * The MAC is the full HMAC output (32 or 64 bytes) and the key exactly that long (RFC 6668 2).
 * sequence_number counts every packet from 0, is never reset by re-keying, and wraps to 0 after
 * 2^32 - 1 (RFC 4253 6.4); OpenSSH's strict key exchange ("kex-strict-*-v00@openssh.com", the
 * Terrapin fix) resets it to 0 after each SSH_MSG_NEWKEYS: start a new `SshMacSequence` then.
 */
import { assertBytes, assertInteger, type Bytes } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import type { Mac } from "../core/mac.js";
import { checkOptions, describeType } from "../core/options.js";
import { redactKeyMaterial } from "../core/redact.js";
import { hmac } from "../mac/hmac.js";

/** The SSH MACs keyed implements (RFC 6668, and OpenSSH's encrypt-then-MAC forms). */
export type SshMacAlgorithm =
  | "hmac-sha2-256"
  | "hmac-sha2-512"
  | "hmac-sha2-256-etm@openssh.com"
  | "hmac-sha2-512-etm@openssh.com";

const ALGORITHMS: Record<
  SshMacAlgorithm,
  { hash: "sha256" | "sha512"; length: number; encryptThenMac: boolean }
> = {
  "hmac-sha2-256": { hash: "sha256", length: 32, encryptThenMac: false },
  "hmac-sha2-512": { hash: "sha512", length: 64, encryptThenMac: false },
  "hmac-sha2-256-etm@openssh.com": { hash: "sha256", length: 32, encryptThenMac: true },
  "hmac-sha2-512-etm@openssh.com": { hash: "sha512", length: 64, encryptThenMac: true },
};

const MAX_SEQUENCE = 0xffffffff;

/** Why a packet cannot be what the MAC covers, or undefined when it can. */
function packetProblem(packet: Bytes, encryptThenMac: boolean): string | undefined {
  if (packet.length < 5) return `it is ${packet.length} bytes; a packet has at least 5`;
  const declared = ((packet[0] << 24) | (packet[1] << 16) | (packet[2] << 8) | packet[3]) >>> 0;
  if (declared !== packet.length - 4) {
    return `its packet_length field says ${declared} but ${packet.length - 4} bytes follow it`;
  }
  if (encryptThenMac) return undefined;
  const padding = packet[4];
  // RFC 4253 6: at least four bytes of random padding, all inside packet_length.
  if (padding < 4 || padding > declared - 1) {
    return `its padding_length is ${padding}; it must be at least 4 and fit in the packet`;
  }
  return undefined;
}

/** One direction's MAC key: MACs and checks packets by explicit sequence number. */
export class SshMac {
  /** The MAC algorithm. */
  readonly algorithm: SshMacAlgorithm;
  /** MAC bytes sent after each packet: the whole HMAC output. */
  readonly macLength: number;
  /** True for the -etm@openssh.com variants: the MAC covers the encrypted packet. */
  readonly encryptThenMac: boolean;
  private readonly mac: Mac;
  private readonly sequence = new Uint8Array(4);

  /** `key` is the integrity key from the key exchange (RFC 4253 7.2), 32 or 64 bytes. */
  constructor(algorithm: SshMacAlgorithm, key: Bytes) {
    if (typeof algorithm !== "string" || !Object.hasOwn(ALGORITHMS, algorithm)) {
      throw new KeyedError(
        "UNKNOWN_ALGORITHM",
        `algorithm must be one of ${Object.keys(ALGORITHMS).join(", ")}; got ${typeof algorithm === "string" || typeof algorithm === "number" ? JSON.stringify(algorithm) : describeType(algorithm)}.`,
      );
    }
    const spec = ALGORITHMS[algorithm];
    assertBytes(key, "key");
    if (key.length !== spec.length) {
      throw new KeyedError(
        "KEY_LENGTH",
        `${algorithm} takes a key of exactly ${spec.length} bytes (RFC 6668 2); got ${key.length}.`,
      );
    }
    this.algorithm = algorithm;
    this.macLength = spec.length;
    this.encryptThenMac = spec.encryptThenMac;
    this.mac = hmac(spec.hash, key);
  }

  private sequenceBytes(sequenceNumber: number): Uint8Array {
    assertInteger(sequenceNumber, "sequenceNumber", 0, MAX_SEQUENCE);
    const b = this.sequence;
    b[0] = sequenceNumber >>> 24;
    b[1] = sequenceNumber >>> 16;
    b[2] = sequenceNumber >>> 8;
    b[3] = sequenceNumber;
    return b;
  }

  /**
   * The MAC of one packet. `packet` is, for encrypt-and-MAC, the unencrypted packet
   * (packet_length ‖ padding_length ‖ payload ‖ padding); for -etm, packet_length ‖ the encrypted
   * packet. A packet whose packet_length field disagrees with its size is BAD_INPUT.
   */
  compute(sequenceNumber: number, packet: Bytes, out?: Bytes): Bytes {
    assertBytes(packet, "packet");
    const sequence = this.sequenceBytes(sequenceNumber);
    const problem = packetProblem(packet, this.encryptThenMac);
    if (problem !== undefined) {
      throw new KeyedError(
        "BAD_INPUT",
        `packet is not ${this.encryptThenMac ? "packet_length ‖ encrypted packet" : "an unencrypted SSH packet"}: ${problem}.`,
      );
    }
    return this.mac.stream().update(sequence).update(packet).digest(out);
  }

  /**
   * Constant-time check of a received MAC; false for a wrong MAC, one of the wrong length, or a
   * packet that is not well formed. On false, RFC 4253 wants the connection closed.
   */
  verify(sequenceNumber: number, packet: Bytes, mac: Bytes): boolean {
    assertBytes(packet, "packet");
    assertBytes(mac, "mac");
    const sequence = this.sequenceBytes(sequenceNumber);
    if (packetProblem(packet, this.encryptThenMac) !== undefined) return false;
    return this.mac.stream().update(sequence).update(packet).verify(mac);
  }

  /** Wipes the key; later calls throw DESTROYED. */
  destroy(): void {
    this.mac.destroy();
  }
}

redactKeyMaterial(SshMac, (k) => ({ algorithm: k.algorithm, macLength: k.macLength }));

/** `new SshMac(algorithm, key)`. */
export function sshMac(algorithm: SshMacAlgorithm, key: Bytes): SshMac {
  return new SshMac(algorithm, key);
}

/** Settings of `SshMacSequence`. */
export interface SshMacSequenceOptions {
  /** The sequence number of the next packet; default 0. */
  sequenceNumber?: number;
}

/**
 * One direction of a connection: MACs or checks packets in order, counting sequence numbers
 * itself, mod 2^32. Every call counts one packet, a refused one included (RFC 4253 6.4: the
 * number counts packets whatever happens to them).
 */
export class SshMacSequence {
  private readonly key: SshMac;
  private next: number;

  constructor(algorithm: SshMacAlgorithm, key: Bytes, options?: SshMacSequenceOptions) {
    const { sequenceNumber } = checkOptions<SshMacSequenceOptions>(
      options,
      ["sequenceNumber"],
      "SshMacSequence options",
    );
    this.next = assertInteger(sequenceNumber ?? 0, "options.sequenceNumber", 0, MAX_SEQUENCE);
    this.key = new SshMac(algorithm, key);
  }

  /** The MAC algorithm. */
  get algorithm(): SshMacAlgorithm {
    return this.key.algorithm;
  }

  /** MAC bytes sent after each packet. */
  get macLength(): number {
    return this.key.macLength;
  }

  /** The sequence number the next packet will use. */
  get sequenceNumber(): number {
    return this.next;
  }

  /** The MAC of the next outgoing packet. */
  sign(packet: Bytes, out?: Bytes): Bytes {
    const mac = this.key.compute(this.next, packet, out);
    this.advance();
    return mac;
  }

  /** Checks the next incoming packet. */
  verify(packet: Bytes, mac: Bytes): boolean {
    assertBytes(packet, "packet");
    assertBytes(mac, "mac");
    const ok = this.key.verify(this.next, packet, mac);
    this.advance();
    return ok;
  }

  /** Wipes the key; later calls throw DESTROYED. */
  destroy(): void {
    this.key.destroy();
  }

  private advance(): void {
    this.next = this.next === MAX_SEQUENCE ? 0 : this.next + 1;
  }
}

redactKeyMaterial(SshMacSequence, (k) => ({
  algorithm: k.algorithm,
  macLength: k.macLength,
  sequenceNumber: k.sequenceNumber,
}));
