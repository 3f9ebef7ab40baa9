/**
 * TCP-AO, the TCP Authentication Option (RFC 5925), with the algorithms of RFC 5926 and
 * HMAC-SHA-256-128.
 *
 * - Traffic keys (RFC 5925 5.2, RFC 5926 3.1.1): Traffic_Key = PRF(Master_Key, i ‖ "TCP-AO" ‖
 *   Context ‖ Output_Length), i = 1, Context = the connection's addresses, ports and ISNs.
 * - The MAC (RFC 5925 5.1) covers: the sequence number extension (SNE, 4 bytes), the IPv4 or IPv6
 *   pseudo-header, the TCP header with its checksum and the TCP-AO MAC field read as zero (and,
 *   when the key excludes options, no option but TCP-AO), then the payload.
 *
 * A prepared `TcpAoMac` allocates nothing per segment: the MAC input is staged through one
 * preallocated block buffer into the hash (or the CMAC chain), so the caller's segment is never
 * copied whole, changed, or sliced.
 */
import { assertBytes, assertInteger, type Bytes, copyBytes } from "../core/bytes.js";
import { equal } from "../core/equal.js";
import { KeyedError } from "../core/errors.js";
import { MIN_KEY_LENGTH } from "../core/mac.js";
import { checkOptions, describeType } from "../core/options.js";
import { redactKeyMaterial } from "../core/redact.js";
import { refuse, type Verdict } from "../core/result.js";
import type { HashFunction } from "../hash/hash.js";
import { HASH_FUNCTIONS } from "../hash/index.js";
import { aesCmacPrf128, CmacKernel } from "../mac/cmac.js";
import { HmacKernel } from "../mac/hmac.js";

/** The TCP-AO MAC algorithms: RFC 5926 section 3.2's two, and HMAC-SHA-256 truncated to 128 bits. */
export type TcpAoAlgorithm = "hmac-sha1-96" | "aes-128-cmac-96" | "hmac-sha256-128";

interface AlgorithmSpec {
  /** Traffic key bytes: the KDF's Output_Length (RFC 5926 3.1.1). */
  readonly keyLength: number;
  /** MAC bytes carried in the option. */
  readonly macLength: number;
  readonly hash?: HashFunction;
}

const ALGORITHMS: Record<TcpAoAlgorithm, AlgorithmSpec> = {
  // RFC 5926 3.1.1.1 and 3.2.1: KDF_HMAC_SHA1, Output_Length 160; MAC truncated to 96 bits.
  "hmac-sha1-96": { keyLength: 20, macLength: 12, hash: HASH_FUNCTIONS.sha1 },
  // RFC 5926 3.1.1.2 and 3.2.2: KDF_AES_128_CMAC, Output_Length 128; AES-CMAC-96 (RFC 4494).
  "aes-128-cmac-96": { keyLength: 16, macLength: 12 },
  // The same KDF with HMAC-SHA-256 and Output_Length 256, MAC truncated to 128 bits (as Linux
  // builds it for "hmac(sha256)"; no RFC defines it).
  "hmac-sha256-128": { keyLength: 32, macLength: 16, hash: HASH_FUNCTIONS.sha256 },
};

function algorithmSpec(algorithm: unknown): AlgorithmSpec {
  if (typeof algorithm !== "string" || !Object.hasOwn(ALGORITHMS, algorithm)) {
    throw new KeyedError(
      "UNKNOWN_ALGORITHM",
      `TCP-AO algorithm must be one of ${Object.keys(ALGORITHMS).join(", ")}; got ${typeof algorithm === "string" || typeof algorithm === "number" ? JSON.stringify(algorithm) : describeType(algorithm)}.`,
    );
  }
  return ALGORITHMS[algorithm as TcpAoAlgorithm];
}

/** TCP option kind of TCP-AO (RFC 5925 section 2.2). */
export const TCP_AO_OPTION_KIND = 29;
const TCP_HEADER_LENGTH = 20;
const TCP_PROTOCOL = 6;
const MAX_UINT32 = 0xffffffff;

// --- traffic keys ---------------------------------------------------------------------------------

/** One direction of one connection, as the KDF sees it (RFC 5925 section 5.2). */
export interface TcpAoKeyContext {
  /** IPv4 (4 bytes) or IPv6 (16 bytes) address of the segments' sender. */
  source: Bytes;
  /** The receiver's address, of the same family as `source`. */
  destination: Bytes;
  /** The sender's TCP port. */
  sourcePort: number;
  /** The receiver's TCP port. */
  destinationPort: number;
  /** The sender's initial sequence number. */
  sourceIsn: number;
  /** The receiver's initial sequence number; 0 for the SYN (RFC 5925 5.2). */
  destinationIsn: number;
}

/** Settings of the traffic-key derivation. */
export interface TcpAoKdfOptions {
  /**
   * Accept master keys under 16 bytes. TCP-AO master keys are often configured passwords
   * (RFC 9235's is the 10-byte "testvector"); a short one is guessable offline from one segment.
   */
  allowShortKeys?: boolean;
}

function checkAddresses(source: unknown, destination: unknown): void {
  assertBytes(source, "source");
  assertBytes(destination, "destination");
  if ((source.length !== 4 && source.length !== 16) || destination.length !== source.length) {
    throw new KeyedError(
      "BAD_INPUT",
      "source and destination must both be IPv4 (4 bytes) or both IPv6 (16 bytes) addresses; " +
        `got ${source.length} and ${destination.length} bytes.`,
    );
  }
}

function writeUint16(out: Uint8Array, offset: number, value: number): void {
  out[offset] = value >>> 8;
  out[offset + 1] = value;
}

function writeUint32(out: Uint8Array, offset: number, value: number): void {
  out[offset] = value >>> 24;
  out[offset + 1] = value >>> 16;
  out[offset + 2] = value >>> 8;
  out[offset + 3] = value;
}

/**
 * The KDF context (RFC 5925 section 5.2): source and destination address, source and destination
 * port, source and destination ISN, in network byte order (20 bytes for IPv4, 44 for IPv6).
 */
export function tcpAoKdfContext(context: TcpAoKeyContext): Bytes {
  if (context === null || typeof context !== "object") {
    throw new KeyedError("BAD_INPUT", `context must be an object; got ${describeType(context)}.`);
  }
  const { source, destination } = context;
  checkAddresses(source, destination);
  const sourcePort = assertInteger(context.sourcePort, "context.sourcePort", 0, 0xffff);
  const destinationPort = assertInteger(
    context.destinationPort,
    "context.destinationPort",
    0,
    0xffff,
  );
  const sourceIsn = assertInteger(context.sourceIsn, "context.sourceIsn", 0, MAX_UINT32);
  const destinationIsn = assertInteger(
    context.destinationIsn,
    "context.destinationIsn",
    0,
    MAX_UINT32,
  );
  const n = source.length;
  const out = new Uint8Array(2 * n + 12);
  out.set(source, 0);
  out.set(destination, n);
  writeUint16(out, 2 * n, sourcePort);
  writeUint16(out, 2 * n + 2, destinationPort);
  writeUint32(out, 2 * n + 4, sourceIsn);
  writeUint32(out, 2 * n + 8, destinationIsn);
  return out;
}

const LABEL = [0x54, 0x43, 0x50, 0x2d, 0x41, 0x4f]; // "TCP-AO", no terminating zero (RFC 9235 8.3)

function checkMasterKey(masterKey: unknown, options: TcpAoKdfOptions | undefined): Bytes {
  assertBytes(masterKey, "masterKey");
  const allowShort = checkOptions<TcpAoKdfOptions>(
    options,
    ["allowShortKeys"],
    "TCP-AO KDF options",
  ).allowShortKeys;
  if (allowShort !== undefined && typeof allowShort !== "boolean") {
    throw new KeyedError("BAD_INPUT", "options.allowShortKeys must be true or false.");
  }
  if (masterKey.length === 0) {
    throw new KeyedError("KEY_TOO_SHORT", "masterKey is empty; TCP-AO needs a master key.");
  }
  if (masterKey.length < MIN_KEY_LENGTH && !allowShort) {
    throw new KeyedError(
      "KEY_TOO_SHORT",
      `TCP-AO master keys must be at least ${MIN_KEY_LENGTH} bytes; got ${masterKey.length}. ` +
        "Set allowShortKeys for configured passwords and test vectors (RFC 9235 uses 10 bytes).",
    );
  }
  return masterKey;
}

/**
 * One traffic key (RFC 5926 section 3.1.1): PRF(Master_Key, 0x01 ‖ "TCP-AO" ‖ Context ‖
 * Output_Length in bits, 16-bit big-endian). One PRF block is the whole key for each algorithm
 * here. For AES-128-CMAC the PRF is AES-CMAC-PRF-128 (RFC 4615), which first condenses a master key
 * that is not 16 bytes (RFC 5926 3.1.1.2).
 */
export function tcpAoTrafficKey(
  algorithm: TcpAoAlgorithm,
  masterKey: Bytes,
  context: TcpAoKeyContext,
  options?: TcpAoKdfOptions,
): Bytes {
  const spec = algorithmSpec(algorithm);
  checkMasterKey(masterKey, options);
  return deriveTrafficKey(spec, masterKey, tcpAoKdfContext(context));
}

function deriveTrafficKey(spec: AlgorithmSpec, masterKey: Bytes, context: Bytes): Bytes {
  const input = new Uint8Array(1 + LABEL.length + context.length + 2);
  input[0] = 1;
  input.set(LABEL, 1);
  input.set(context, 1 + LABEL.length);
  writeUint16(input, input.length - 2, spec.keyLength * 8);
  if (spec.hash === undefined) return aesCmacPrf128(masterKey, input);
  const kernel = new HmacKernel(spec.hash, masterKey);
  const out = new Uint8Array(spec.keyLength);
  kernel.compute(input, out);
  kernel.wipe();
  return out;
}

/** Both ends of one connection, seen from the local end. */
export interface TcpAoConnection {
  /** This end's IPv4 (4 bytes) or IPv6 (16 bytes) address. */
  localAddress: Bytes;
  /** The other end's address, of the same family. */
  remoteAddress: Bytes;
  /** This end's TCP port. */
  localPort: number;
  /** The other end's TCP port. */
  remotePort: number;
  /** This end's initial sequence number. */
  localIsn: number;
  /** The other end's initial sequence number. */
  remoteIsn: number;
}

/**
 * The four traffic keys of a connection (RFC 5925 section 5.2). The SYN keys are for segments
 * with SYN set and ACK clear, whose destination ISN is not known yet (0); every other segment,
 * the SYN-ACK included, uses the "other" keys, with both ISNs (as RFC 9235's vectors show).
 */
export interface TcpAoTrafficKeys {
  /** For the SYN this end sends. */
  sendSyn: Bytes;
  /** For the SYN this end receives. */
  receiveSyn: Bytes;
  /** For every other segment this end sends. */
  sendOther: Bytes;
  /** For every other segment this end receives. */
  receiveOther: Bytes;
}

/**
 * The four traffic keys of a connection from the master key tuple's key (RFC 5925 section 5.2,
 * the KDFs of RFC 5926 section 3.1); master keys under 16 bytes need `allowShortKeys`.
 */
export function tcpAoTrafficKeys(
  algorithm: TcpAoAlgorithm,
  masterKey: Bytes,
  connection: TcpAoConnection,
  options?: TcpAoKdfOptions,
): TcpAoTrafficKeys {
  const spec = algorithmSpec(algorithm);
  checkMasterKey(masterKey, options);
  if (connection === null || typeof connection !== "object") {
    throw new KeyedError(
      "BAD_INPUT",
      `connection must be an object; got ${describeType(connection)}.`,
    );
  }
  const c = connection;
  const send = (destinationIsn: number): Bytes =>
    deriveTrafficKey(
      spec,
      masterKey,
      tcpAoKdfContext({
        source: c.localAddress,
        destination: c.remoteAddress,
        sourcePort: c.localPort,
        destinationPort: c.remotePort,
        sourceIsn: c.localIsn,
        destinationIsn,
      }),
    );
  const receive = (destinationIsn: number): Bytes =>
    deriveTrafficKey(
      spec,
      masterKey,
      tcpAoKdfContext({
        source: c.remoteAddress,
        destination: c.localAddress,
        sourcePort: c.remotePort,
        destinationPort: c.localPort,
        sourceIsn: c.remoteIsn,
        destinationIsn,
      }),
    );
  return {
    sendSyn: send(0),
    receiveSyn: receive(0),
    sendOther: send(c.remoteIsn),
    receiveOther: receive(c.localIsn),
  };
}

// --- the option ----------------------------------------------------------------------------------

/** The TCP-AO option of a segment (RFC 5925 section 2.2). */
export interface TcpAoOption {
  /** Offset of the option's kind byte in the segment. */
  offset: number;
  /** The option's length byte: 4 + the MAC length. */
  length: number;
  /** KeyID: the master key tuple that made this MAC (RFC 5925 2.2). */
  keyId: number;
  /** RNextKeyID: the tuple the sender wants to receive with. */
  rNextKeyId: number;
  /** A copy of the MAC field. */
  mac: Bytes;
}

/** Parse results, as numbers so that parsing allocates nothing. */
const Parse = { Ok: 0, Short: 1, DataOffset: 2, Options: 3, NoOption: 4, Duplicate: 5 } as const;
type Parse = (typeof Parse)[keyof typeof Parse];

const PARSE_REASONS = [
  "",
  "the segment is shorter than a TCP header (20 bytes)",
  "the data offset is under 5 words or past the end of the segment",
  "an option's length is under 2 or runs past the header",
  "the segment carries no TCP-AO option",
  "the segment carries more than one TCP-AO option",
];

/** Finds the TCP-AO option; the offset goes to `found[0]`, the data offset to `found[1]`. */
function parseSegment(segment: Bytes, found: Int32Array): Parse {
  if (segment.length < TCP_HEADER_LENGTH) return Parse.Short;
  const dataOffset = (segment[12] >>> 4) * 4;
  if (dataOffset < TCP_HEADER_LENGTH || dataOffset > segment.length) return Parse.DataOffset;
  let ao = -1;
  // RFC 9293 3.1: kind 0 ends the list (the rest is padding), kind 1 is one byte, others have a
  // length byte counting the kind and length bytes.
  for (let i = TCP_HEADER_LENGTH; i < dataOffset; ) {
    const kind = segment[i];
    if (kind === 0) break;
    if (kind === 1) {
      i++;
      continue;
    }
    if (i + 1 >= dataOffset) return Parse.Options;
    const length = segment[i + 1];
    if (length < 2 || i + length > dataOffset) return Parse.Options;
    if (kind === TCP_AO_OPTION_KIND) {
      if (ao >= 0) return Parse.Duplicate;
      ao = i;
    }
    i += length;
  }
  if (ao < 0) return Parse.NoOption;
  found[0] = ao;
  found[1] = dataOffset;
  return Parse.Ok;
}

/**
 * The segment's TCP-AO option, or undefined when it has none or its header is malformed: what a
 * receiver reads to choose the master key tuple by KeyID (RFC 5925 7.3).
 */
export function tcpAoOption(segment: Bytes): TcpAoOption | undefined {
  assertBytes(segment, "segment");
  const found = new Int32Array(2);
  if (parseSegment(segment, found) !== Parse.Ok) return undefined;
  const offset = found[0];
  const length = segment[offset + 1];
  if (length < 4) return undefined;
  return {
    offset,
    length,
    keyId: segment[offset + 2],
    rNextKeyId: segment[offset + 3],
    mac: copyBytes(segment.subarray(offset + 4, offset + length)),
  };
}

// --- the MAC -------------------------------------------------------------------------------------

/** A segment with what the MAC covers beyond it. Reuse one object across calls if you like. */
export interface TcpAoSegment {
  /** IPv4 (4 bytes) or IPv6 (16 bytes) source address, for the pseudo-header. */
  source: Bytes;
  /** The destination address, of the same family. */
  destination: Bytes;
  /** The TCP segment: header, options (TCP-AO among them), payload. */
  segment: Bytes;
  /** The sequence number extension, 0 to 2^32 - 1 (RFC 5925 6.2; RFC 9187 shows how to track it). */
  sne: number;
}

/** Settings of `tcpAo`. */
export interface TcpAoMacOptions {
  /** The master key tuple's TCP option flag (RFC 5925 3.1): MAC no option other than TCP-AO. */
  excludeOptions?: boolean;
}

/** Why `check` refused a segment. */
export type TcpAoFailure =
  /** Not a TCP segment keyed can parse: a header or option list that runs past its end. */
  | "malformed_segment"
  /** The segment carries no TCP-AO option (kind 29). */
  | "no_option"
  /** The TCP-AO option's length is not 4 + this key's MAC length. */
  | "mac_length"
  /** The MAC does not match. */
  | "mac_mismatch";

/** What `check` answers: `{ ok: true }`, or why the segment was refused. */
export type TcpAoCheck = Verdict<object, TcpAoFailure>;

/** The answers of `check`, made once: a segment check allocates nothing. */
const CHECK_OK: TcpAoCheck = Object.freeze({ ok: true });
const CHECK_MALFORMED: TcpAoCheck = Object.freeze(refuse("malformed_segment", "malformed segment"));
const CHECK_NO_OPTION: TcpAoCheck = Object.freeze(refuse("no_option", "no TCP-AO option"));
const CHECK_MAC_LENGTH: TcpAoCheck = Object.freeze(
  refuse("mac_length", "TCP-AO option has the wrong MAC length"),
);
const CHECK_MISMATCH: TcpAoCheck = Object.freeze(refuse("mac_mismatch", "MAC mismatch"));

/**
 * The MAC of one traffic key: HMAC or AES-CMAC through its kernel (WebAssembly for short inputs,
 * node:crypto from the crossover on), over the MAC input assembled in one buffer.
 */
interface SegmentKernel {
  readonly outputLength: number;
  compute(message: Bytes, out: Bytes): void;
  wipe(): void;
}

/** At most this many distinct input lengths keep a view of the input buffer (then it starts over). */
const MAX_VIEWS = 64;

/**
 * A prepared TCP-AO traffic key: MACs, signs and checks segments with no allocation per segment.
 * Make one per traffic key (four per connection, see `tcpAoTrafficKeys`).
 */
export class TcpAoMac {
  /** The MAC algorithm (RFC 5926). */
  readonly algorithm: TcpAoAlgorithm;
  /** MAC bytes in the option (its length byte is 4 + macLength). */
  readonly macLength: number;
  /** Whether options other than TCP-AO are left out of the MAC (RFC 5925 3.1). */
  readonly excludeOptions: boolean;
  private readonly kernel: SegmentKernel;
  /**
   * The MAC input of RFC 5925 5.1, assembled here (grown on demand), and views of its first n
   * bytes by length n, made once per length: a segment's MAC is one kernel call with no allocation
   * per segment once its length has been seen.
   */
  private input = new Uint8Array(2048);
  private readonly views = new Map<number, Uint8Array>();
  private fill = 0;
  /** The full PRF output before truncation. */
  private readonly full: Uint8Array;
  private readonly expected: Uint8Array;
  private readonly received: Uint8Array;
  private readonly found = new Int32Array(2);
  private destroyed = false;

  constructor(algorithm: TcpAoAlgorithm, trafficKey: Bytes, options?: TcpAoMacOptions) {
    const spec = algorithmSpec(algorithm);
    assertBytes(trafficKey, "trafficKey");
    if (trafficKey.length !== spec.keyLength) {
      throw new KeyedError(
        "KEY_LENGTH",
        `${algorithm} traffic keys are ${spec.keyLength} bytes (the KDF's output); got ${trafficKey.length}. ` +
          "Derive them from the master key with tcpAoTrafficKeys().",
      );
    }
    const exclude =
      checkOptions<TcpAoMacOptions>(options, ["excludeOptions"], "TcpAoMac options")
        .excludeOptions ?? false;
    if (typeof exclude !== "boolean") {
      throw new KeyedError("BAD_INPUT", "options.excludeOptions must be true or false.");
    }
    this.algorithm = algorithm;
    this.macLength = spec.macLength;
    this.excludeOptions = exclude;
    const key = copyBytes(trafficKey);
    this.kernel = spec.hash === undefined ? new CmacKernel(key) : new HmacKernel(spec.hash, key);
    key.fill(0);
    this.full = new Uint8Array(this.kernel.outputLength);
    this.expected = new Uint8Array(spec.macLength);
    this.received = new Uint8Array(spec.macLength);
  }

  /** The MAC of the segment (its TCP-AO MAC field read as zero): `macLength` bytes. */
  tag(input: TcpAoSegment, out?: Bytes): Bytes {
    this.checkLive();
    const segment = checkSegmentInput(input);
    if (out !== undefined) {
      assertBytes(out, "out");
      if (out.length !== this.macLength) {
        throw new KeyedError(
          "BAD_INPUT",
          `out must be exactly macLength (${this.macLength}) bytes; got ${out.length}.`,
        );
      }
    }
    this.parseForSigning(segment);
    this.computeInto(input, segment);
    if (out === undefined) out = new Uint8Array(this.macLength);
    const full = this.full;
    for (let i = 0; i < this.macLength; i++) out[i] = full[i];
    full.fill(0);
    return out;
  }

  /**
   * Computes the MAC and writes it into the segment's TCP-AO option, in place. Compute the TCP
   * checksum after this: it covers the MAC.
   */
  sign(input: TcpAoSegment): void {
    this.checkLive();
    const segment = checkSegmentInput(input);
    this.parseForSigning(segment);
    this.computeInto(input, segment);
    const at = this.found[0] + 4;
    const full = this.full;
    for (let i = 0; i < this.macLength; i++) segment[at + i] = full[i];
    full.fill(0);
  }

  /** True when the segment's TCP-AO option carries the right MAC; false for anything else. */
  verify(input: TcpAoSegment): boolean {
    return this.check(input).ok;
  }

  /**
   * `verify` with the reason for a refusal. Malformed segments are refused, never thrown on;
   * arguments of the wrong type (not bytes, an SNE out of range) are BAD_INPUT.
   */
  check(input: TcpAoSegment): TcpAoCheck {
    this.checkLive();
    const segment = checkSegmentInput(input);
    const parsed = parseSegment(segment, this.found);
    if (parsed === Parse.NoOption) return CHECK_NO_OPTION;
    if (parsed !== Parse.Ok) return CHECK_MALFORMED;
    const at = this.found[0];
    if (segment[at + 1] !== 4 + this.macLength) return CHECK_MAC_LENGTH;
    this.computeInto(input, segment);
    const { expected, received, full } = this;
    for (let i = 0; i < this.macLength; i++) {
      expected[i] = full[i];
      received[i] = segment[at + 4 + i];
    }
    const ok = equal(expected, received);
    full.fill(0);
    expected.fill(0);
    return ok ? CHECK_OK : CHECK_MISMATCH;
  }

  /** Overwrites the key-derived state; later calls throw DESTROYED. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.kernel.wipe();
    this.input.fill(0);
    this.views.clear();
    this.full.fill(0);
  }

  private checkLive(): void {
    if (this.destroyed) {
      throw new KeyedError("DESTROYED", "this TCP-AO key was destroyed; prepare a new TcpAoMac.");
    }
  }

  private parseForSigning(segment: Bytes): void {
    const parsed = parseSegment(segment, this.found);
    if (parsed !== Parse.Ok) {
      throw new KeyedError("BAD_INPUT", `segment cannot be signed: ${PARSE_REASONS[parsed]}.`);
    }
    const length = segment[this.found[0] + 1];
    if (length !== 4 + this.macLength) {
      throw new KeyedError(
        "BAD_INPUT",
        `segment's TCP-AO option is ${length} bytes; ${this.algorithm} needs ${4 + this.macLength} ` +
          `(kind, length, KeyID, RNextKeyID and a ${this.macLength}-byte MAC).`,
      );
    }
  }

  /** The MAC of the input of RFC 5925 5.1, assembled in `this.input`; the full output in `this.full`. */
  private computeInto(input: TcpAoSegment, segment: Bytes): void {
    // SNE, pseudo-header (at most 4 + 40 bytes), the segment: room for all of it.
    const needed = 44 + segment.length;
    if (this.input.length < needed) {
      this.input.fill(0);
      this.input = new Uint8Array(Math.max(needed, 2 * this.input.length));
      this.views.clear();
    }
    const ao = this.found[0];
    const dataOffset = this.found[1];
    const aoEnd = ao + 4 + this.macLength;
    // 1. The SNE.
    this.putUint32(input.sne);
    // 2. The pseudo-header (RFC 793 3.1 for IPv4; RFC 8200 8.1 for IPv6).
    const { source, destination } = input;
    this.putRange(source, 0, source.length);
    this.putRange(destination, 0, destination.length);
    if (source.length === 4) {
      this.put(0);
      this.put(TCP_PROTOCOL);
      this.put(segment.length >>> 8);
      this.put(segment.length & 0xff);
    } else {
      this.putUint32(segment.length);
      this.put(0);
      this.put(0);
      this.put(0);
      this.put(TCP_PROTOCOL);
    }
    if (this.excludeOptions) {
      // 3. The TCP header with the checksum zeroed (bytes 16-17), the TCP-AO option alone with
      // its MAC zeroed, then 4. the payload.
      this.putRange(segment, 0, 16);
      this.put(0);
      this.put(0);
      this.putRange(segment, 18, TCP_HEADER_LENGTH);
      this.putRange(segment, ao, ao + 4);
      for (let i = 0; i < this.macLength; i++) this.put(0);
      this.putRange(segment, dataOffset, segment.length);
    } else {
      // 3-4. The whole segment in one copy (the caller's array itself: no view made), then its
      // checksum (bytes 16-17) and the MAC field zeroed in place.
      const at = this.fill;
      const buffer = this.input;
      buffer.set(segment, at);
      buffer[at + 16] = 0;
      buffer[at + 17] = 0;
      for (let i = ao + 4; i < aoEnd; i++) buffer[at + i] = 0;
      this.fill = at + segment.length;
    }
    const length = this.fill;
    this.fill = 0;
    // The input is the segment and its addresses, all public (on the wire): kept until the next.
    this.kernel.compute(this.viewOf(length), this.full);
  }

  /** input[0 .. length), one view per length (see `views`). */
  private viewOf(length: number): Uint8Array {
    let view = this.views.get(length);
    if (view === undefined) {
      if (this.views.size >= MAX_VIEWS) this.views.clear();
      view = this.input.subarray(0, length);
      this.views.set(length, view);
    }
    return view;
  }

  private put(byte: number): void {
    this.input[this.fill++] = byte;
  }

  private putUint32(value: number): void {
    this.put(value >>> 24);
    this.put((value >>> 16) & 0xff);
    this.put((value >>> 8) & 0xff);
    this.put(value & 0xff);
  }

  private putRange(data: Uint8Array, start: number, end: number): void {
    // A loop, not set(subarray): a view per segment would be an allocation per segment.
    const input = this.input;
    let fill = this.fill;
    while (start < end) input[fill++] = data[start++];
    this.fill = fill;
  }
}

redactKeyMaterial(TcpAoMac, (k) => ({
  algorithm: k.algorithm,
  macLength: k.macLength,
  excludeOptions: k.excludeOptions,
}));

function checkSegmentInput(input: TcpAoSegment): Bytes {
  if (input === null || typeof input !== "object") {
    throw new KeyedError(
      "BAD_INPUT",
      `the segment argument must be an object { source, destination, segment, sne }; got ${describeType(input)}.`,
    );
  }
  checkAddresses(input.source, input.destination);
  const segment = input.segment;
  assertBytes(segment, "segment");
  assertInteger(input.sne, "sne", 0, MAX_UINT32);
  if (input.source.length === 4 && segment.length > 0xffff) {
    throw new KeyedError(
      "BAD_INPUT",
      `segment is ${segment.length} bytes; an IPv4 TCP segment is at most 65535.`,
    );
  }
  return segment;
}

/** A prepared TCP-AO traffic key: `tcpAo("hmac-sha1-96", keys.sendOther)`. */
export function tcpAo(
  algorithm: TcpAoAlgorithm,
  trafficKey: Bytes,
  options?: TcpAoMacOptions,
): TcpAoMac {
  return new TcpAoMac(algorithm, trafficKey, options);
}
