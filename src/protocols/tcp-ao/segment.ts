/** The TCP-AO option in a segment (RFC 5925 section 2.2): finding and reading it. */
import { assertBytes, type Bytes, copyBytes } from "../../core/bytes.js";
import { TCP_AO_OPTION_KIND, TCP_HEADER_LENGTH } from "./common.js";

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
export const Parse = {
  Ok: 0,
  Short: 1,
  DataOffset: 2,
  Options: 3,
  NoOption: 4,
  Duplicate: 5,
} as const;
export type Parse = (typeof Parse)[keyof typeof Parse];

export const PARSE_REASONS = [
  "",
  "the segment is shorter than a TCP header (20 bytes)",
  "the data offset is under 5 words or past the end of the segment",
  "an option's length is under 2 or runs past the header",
  "the segment carries no TCP-AO option",
  "the segment carries more than one TCP-AO option",
];

/** Finds the TCP-AO option; the offset goes to `found[0]`, the data offset to `found[1]`. */
export function parseSegment(segment: Bytes, found: Int32Array): Parse {
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
