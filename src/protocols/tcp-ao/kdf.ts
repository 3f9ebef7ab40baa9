/** TCP-AO traffic keys (RFC 5925 section 5.2, RFC 5926 section 3.1): the KDF and its context. */
import { assertBytes, assertInteger, type Bytes } from "../../core/bytes.js";
import { KeyedError } from "../../core/errors.js";
import { MIN_KEY_LENGTH } from "../../core/mac.js";
import { checkOptions, describeType } from "../../core/options.js";
import { writeUint32BE } from "../../hash/md.js";
import { aesCmacPrf128 } from "../../mac/cmac.js";
import { HmacKernel } from "../../mac/hmac.js";
import { type AlgorithmSpec, algorithmSpec, MAX_UINT32, type TcpAoAlgorithm } from "./common.js";

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

export function checkAddresses(source: unknown, destination: unknown): void {
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
  writeUint32BE(out, 2 * n + 4, sourceIsn);
  writeUint32BE(out, 2 * n + 8, destinationIsn);
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
