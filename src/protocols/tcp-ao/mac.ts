/** The TCP-AO MAC of a segment (RFC 5925 section 5.1) with a prepared traffic key. */
import { assertBytes, assertInteger, type Bytes, copyBytes } from "../../core/bytes.js";
import { equalAt } from "../../core/equal.js";
import { KeyedError } from "../../core/errors.js";
import type { MacKernel } from "../../core/mac.js";
import { checkOptions, describeType } from "../../core/options.js";
import { redactKeyMaterial } from "../../core/redact.js";
import { refuse, type Verdict } from "../../core/result.js";
import { CmacKernel } from "../../mac/cmac.js";
import { HmacKernel } from "../../mac/hmac.js";
import {
  algorithmSpec,
  MAX_UINT32,
  TCP_HEADER_LENGTH,
  TCP_PROTOCOL,
  type TcpAoAlgorithm,
} from "./common.js";
import { checkAddresses } from "./kdf.js";
import { PARSE_REASONS, Parse, parseSegment } from "./segment.js";

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
  /**
   * The MAC of the traffic key: HMAC or AES-CMAC through its kernel (WebAssembly for short inputs,
   * node:crypto from the crossover on), over the MAC input assembled in one buffer.
   */
  private readonly kernel: MacKernel;
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
    this.moveMacTo(out, 0);
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
    this.moveMacTo(segment, this.found[0] + 4);
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
    // The option's MAC in place (its length was checked above), against the leftmost bytes.
    const ok = equalAt(this.full, 0, segment, at + 4, this.macLength);
    this.clearFull(0);
    return ok ? CHECK_OK : CHECK_MISMATCH;
  }

  /** Overwrites the key-derived state; later calls throw DESTROYED. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.kernel.wipe();
    this.input.fill(0);
    this.views.clear();
    this.clearFull(0);
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

  /** The MAC (the leftmost macLength bytes of `full`) to out[at ..); `full` is zeroed. */
  private moveMacTo(out: Bytes, at: number): void {
    const full = this.full;
    const n = this.macLength;
    for (let i = 0; i < n; i++) {
      out[at + i] = full[i];
      full[i] = 0;
    }
    this.clearFull(n);
  }

  /** Zeroes full[from ..) with a loop: fill() costs more than these 16-32 stores. */
  private clearFull(from: number): void {
    const full = this.full;
    for (let i = from; i < full.length; i++) full[i] = 0;
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
