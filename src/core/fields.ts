/**
 * Canonical encodings of a message made of several fields, so that ("ab", "c") and ("a", "bc")
 * can never be tagged alike. Two forms:
 *
 * - keyed's length-prefixed form (docs/fields.md), for every MAC but KMAC:
 *     0x01 ‖ u32be(len(purpose)) ‖ purpose ‖ u32be(n) ‖ u32be(len(f1)) ‖ f1 ‖ … ‖ u32be(len(fn)) ‖ fn
 * - for KMAC, SP 800-185's TupleHash encoding (section 5.2), so the format matches a standard:
 *     encode_string(0x01) ‖ encode_string(purpose) ‖ encode_string(f1) ‖ … ‖ encode_string(fn)
 *
 * Strings are encoded as UTF-8. Both forms are injective: every field is delimited by its length.
 */
import { assertString, type Bytes } from "./bytes.js";
import { KeyedError } from "./errors.js";
import { describeType } from "./options.js";

/** The format version, the first byte (or first tuple item) of every encoding. */
export const FIELDS_VERSION = 1;

/** One field of `tagFields`/`encodeFields`: bytes, or text encoded as UTF-8. */
export type Field = Bytes | string;
const MAX_LENGTH = 0xffffffff;
const utf8 = new TextEncoder();

/** Big-endian bytes of a non-negative integer below 2^53 (at least one byte). */
function integerBytes(x: number): number[] {
  const bytes: number[] = [];
  do {
    bytes.unshift(x % 256);
    x = Math.floor(x / 256);
  } while (x > 0);
  return bytes;
}

/** left_encode(x) (SP 800-185 2.3.1): the byte count, then x big-endian. */
export function leftEncode(x: number): Uint8Array {
  const bytes = integerBytes(x);
  return Uint8Array.of(bytes.length, ...bytes);
}

/** right_encode(x) (SP 800-185 2.3.1): x big-endian, then the byte count. */
export function rightEncode(x: number): Uint8Array {
  const bytes = integerBytes(x);
  return Uint8Array.of(...bytes, bytes.length);
}

/** The fields as bytes, checked: BAD_INPUT naming the field that is not bytes or text. */
function fieldBytes(purpose: unknown, fields: unknown): { label: Uint8Array; items: Uint8Array[] } {
  assertString(purpose, "purpose");
  if (!Array.isArray(fields)) {
    throw new KeyedError(
      "BAD_INPUT",
      `fields must be an array of byte arrays or strings; got ${describeType(fields)}.`,
    );
  }
  if (fields.length > MAX_LENGTH) {
    throw new KeyedError("BAD_INPUT", `at most ${MAX_LENGTH} fields; got ${fields.length}.`);
  }
  const items = fields.map((field, i) => {
    if (typeof field === "string") return utf8.encode(field);
    if (!(field instanceof Uint8Array)) {
      throw new KeyedError(
        "BAD_INPUT",
        `fields[${i}] must be a Uint8Array or a string; got ${describeType(field)}.`,
      );
    }
    if (field.length > MAX_LENGTH) {
      throw new KeyedError(
        "BAD_INPUT",
        `fields[${i}] is ${field.length} bytes; a field holds at most 2^32-1.`,
      );
    }
    return field;
  });
  const label = utf8.encode(purpose);
  if (label.length > MAX_LENGTH)
    throw new KeyedError("BAD_INPUT", "purpose is longer than 2^32-1 bytes.");
  return { label, items };
}

function writeU32(out: Uint8Array, offset: number, value: number): number {
  out[offset] = value >>> 24;
  out[offset + 1] = value >>> 16;
  out[offset + 2] = value >>> 8;
  out[offset + 3] = value;
  return offset + 4;
}

/** keyed's length-prefixed encoding of a purpose and fields (format version 1). */
export function encodeFields(purpose: string, fields: readonly Field[]): Uint8Array {
  const { label, items } = fieldBytes(purpose, fields);
  let length = 1 + 4 + label.length + 4;
  for (const item of items) length += 4 + item.length;
  const out = new Uint8Array(length);
  out[0] = FIELDS_VERSION;
  let o = writeU32(out, 1, label.length);
  out.set(label, o);
  o = writeU32(out, o + label.length, items.length);
  for (const item of items) {
    o = writeU32(out, o, item.length);
    out.set(item, o);
    o += item.length;
  }
  return out;
}

/** The TupleHash-style encoding (SP 800-185 5.2) of version, purpose and fields, for KMAC. */
export function encodeFieldsTuple(purpose: string, fields: readonly Field[]): Uint8Array {
  const { label, items } = fieldBytes(purpose, fields);
  const all = [Uint8Array.of(FIELDS_VERSION), label, ...items];
  const prefixes = all.map((item) => leftEncode(item.length * 8));
  let length = 0;
  for (let i = 0; i < all.length; i++) length += prefixes[i].length + all[i].length;
  const out = new Uint8Array(length);
  let o = 0;
  for (let i = 0; i < all.length; i++) {
    out.set(prefixes[i], o);
    o += prefixes[i].length;
    out.set(all[i], o);
    o += all[i].length;
  }
  return out;
}
