/**
 * The few pieces of the protobuf wire format (protobuf.dev/programming-guides/encoding) that Tink
 * keysets need, by hand: varints, tags and length-delimited fields. No protobuf library: keyed has
 * no runtime dependencies, and a keyset is four small message types.
 *
 * Reading follows proto3: fields in any order, unknown fields skipped, a repeated scalar's last
 * value wins, and a repeated embedded message is merged (tink-cross-lang-tests' "proto stress
 * test" relies on all three). It is stricter than protobuf where a lax reading could change a key
 * silently: a varint longer than 10 bytes, a uint32 field over 2^32 - 1, a known field sent with
 * the wrong wire type, field number 0 and groups are all refused (KEY_FORMAT).
 */
import { concatBytes, EMPTY_BYTES as EMPTY } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";

export const VARINT = 0;
export const FIXED64 = 1;
export const LENGTH_DELIMITED = 2;
export const FIXED32 = 5;

export interface Field {
  readonly number: number;
  readonly wire: number;
  /** Wire type 0: the value (exact below 2^53; larger varints are refused). */
  readonly varint: number;
  /** Wire type 2: the bytes (a view into the input, not a copy). */
  readonly bytes: Uint8Array;
}

function malformed(what: string, why: string): never {
  throw new KeyedError("KEY_FORMAT", `${what} is not a valid protobuf message: ${why}.`);
}

/** Reads one varint at `offset`; returns [value, next offset]. Values past 2^53 are refused. */
function readVarint(bytes: Uint8Array, offset: number, what: string): [number, number] {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 10; i++) {
    if (offset + i >= bytes.length) malformed(what, "it ends inside a varint");
    const b = bytes[offset + i];
    value += (b & 0x7f) * scale;
    if ((b & 0x80) === 0) {
      if (!Number.isSafeInteger(value)) malformed(what, "a varint is larger than 2^53");
      return [value, offset + i + 1];
    }
    scale *= 128;
  }
  return malformed(what, "a varint is longer than 10 bytes");
}

/** The fields of one message, in wire order. `what` names the message in errors. */
export function readFields(bytes: Uint8Array, what: string): Field[] {
  const fields: Field[] = [];
  let o = 0;
  while (o < bytes.length) {
    const [key, afterKey] = readVarint(bytes, o, what);
    o = afterKey;
    const number = Math.floor(key / 8);
    const wire = key % 8;
    if (number === 0 || number > 0x1fffffff) malformed(what, `field number ${number}`);
    if (wire === VARINT) {
      const [value, next] = readVarint(bytes, o, what);
      fields.push({ number, wire, varint: value, bytes: EMPTY });
      o = next;
    } else if (wire === LENGTH_DELIMITED) {
      const [length, start] = readVarint(bytes, o, what);
      if (length > bytes.length - start) malformed(what, `field ${number} runs past the end`);
      fields.push({ number, wire, varint: 0, bytes: bytes.subarray(start, start + length) });
      o = start + length;
    } else if (wire === FIXED64 || wire === FIXED32) {
      const size = wire === FIXED64 ? 8 : 4;
      if (size > bytes.length - o) malformed(what, `field ${number} runs past the end`);
      fields.push({ number, wire, varint: 0, bytes: bytes.subarray(o, o + size) });
      o += size;
    } else {
      malformed(what, `wire type ${wire} (groups and reserved types are not used by Tink)`);
    }
  }
  return fields;
}

/** Checks that a known field came with the wire type its declaration gives. */
export function expectWire(field: Field, wire: number, what: string): void {
  if (field.wire !== wire) {
    malformed(what, `field ${field.number} has wire type ${field.wire}, not ${wire}`);
  }
}

/** A uint32 field's value; values over 2^32 - 1 are refused, not truncated. */
export function uint32(field: Field, what: string): number {
  expectWire(field, VARINT, what);
  if (field.varint > 0xffffffff) malformed(what, `field ${field.number} is over 2^32 - 1`);
  return field.varint;
}

/** Concatenates the occurrences of an embedded message field: protobuf's merge of repeats. */
export function mergeMessages(parts: readonly Uint8Array[]): Uint8Array {
  return parts.length === 1 ? parts[0] : concatBytes(...parts);
}

// --- writing -------------------------------------------------------------------------------------

/** Builds one message from fields written in order. Wipe `finish()`'s result if it holds keys. */
export class MessageWriter {
  private readonly parts: number[] = [];

  private varint(value: number): void {
    while (value >= 0x80) {
      this.parts.push((value % 128) | 0x80);
      value = Math.floor(value / 128);
    }
    this.parts.push(value);
  }

  /** A varint field; proto3 leaves zero values out. */
  uint(number: number, value: number): this {
    if (value === 0) return this;
    this.varint(number * 8 + VARINT);
    this.varint(value);
    return this;
  }

  /** A length-delimited field (bytes, a string's UTF-8 or an embedded message). */
  bytes(number: number, value: Uint8Array): this {
    this.varint(number * 8 + LENGTH_DELIMITED);
    this.varint(value.length);
    for (let i = 0; i < value.length; i++) this.parts.push(value[i]);
    return this;
  }

  string(number: number, value: string): this {
    return this.bytes(number, new TextEncoder().encode(value));
  }

  /** The message; the writer's own copy is wiped. */
  finish(): Uint8Array {
    const out = Uint8Array.from(this.parts);
    this.parts.fill(0);
    return out;
  }
}
