/**
 * What the keyset formats (Tink JSON and binary, JWK Sets, keyed's own JSON) read into and write
 * from: a plain description of the keys, shared so that no format module depends on the Keyset
 * class, and the Keyset class applies every rule (ids, primary, policy) in one place.
 */
import type { Bytes } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import type { MacName } from "../core/mac.js";
import { JsonNumber, type JsonValue, jsonType } from "./json.js";

/**
 * How a keyset tag starts (Tink's OutputPrefixType): "tink" 0x01 ‖ key id, "legacy" 0x00 ‖ key id
 * with the MAC taken over message ‖ 0x00, "crunchy" 0x00 ‖ key id, "raw" nothing.
 */
export type OutputPrefix = "tink" | "legacy" | "crunchy" | "raw";
export const OUTPUT_PREFIXES: readonly OutputPrefix[] = ["tink", "legacy", "crunchy", "raw"];

/** Tink's key states: only enabled keys tag or verify; a destroyed key's bytes are gone. */
export type KeyStatus = "enabled" | "disabled" | "destroyed";
export const KEY_STATUSES: readonly KeyStatus[] = ["enabled", "disabled", "destroyed"];

/** The most keys one keyset holds: rotation needs a handful; more is a wrong or hostile file. */
export const MAX_KEYS = 1024;
/** The longest serialized keyset read (text characters or bytes); 1024 keys fit with room. */
export const MAX_SERIALIZED = 1 << 20;

/** One key as a format reads or writes it. */
export interface KeyRecord {
  id: number;
  /** The JWK `kid`, when it is not the decimal key id. */
  kid?: string | undefined;
  /** Absent only for a destroyed key read without its key data. */
  algorithm?: MacName | undefined;
  /** Bytes of MAC after the prefix (absent as `algorithm` is). */
  tagLength?: number | undefined;
  prefix: OutputPrefix;
  status: KeyStatus;
  /** The key bytes; absent for destroyed keys. Whoever holds a record wipes them after use. */
  key?: Bytes | undefined;
}

export interface KeysetRecord {
  primaryId: number | undefined;
  keys: KeyRecord[];
}

/**
 * A record of the keys `read` makes from `items`; if one fails, the keys read so far are wiped
 * before the error goes on.
 */
export function readKeys<T>(
  primaryId: number | undefined,
  items: readonly T[],
  read: (item: T, index: number) => KeyRecord,
): KeysetRecord {
  const record: KeysetRecord = { primaryId, keys: [] };
  try {
    items.forEach((item, i) => {
      record.keys.push(read(item, i));
    });
  } catch (error) {
    wipeRecord(record);
    throw error;
  }
  return record;
}

/** Overwrites every key in `record` with zeros. */
export function wipeRecord(record: KeysetRecord): void {
  for (const key of record.keys) key.key?.fill(0);
}

export function formatError(message: string): KeyedError {
  return new KeyedError("KEY_FORMAT", message);
}

/** Refuses serialized input over MAX_SERIALIZED before any parsing. */
export function checkSerializedSize(length: number, what: string): void {
  if (length > MAX_SERIALIZED) {
    throw formatError(
      `${what} is ${length} long; keyed reads keysets of at most ${MAX_SERIALIZED} (1 MiB).`,
    );
  }
}

/** Refuses a key list longer than MAX_KEYS, before any key is prepared. */
export function checkKeyCount(count: number, what: string): void {
  if (count > MAX_KEYS) {
    throw formatError(`${what} holds ${count} keys; a keyset holds at most ${MAX_KEYS}.`);
  }
}

/**
 * A key id from a JSON number: a whole number written without fraction or exponent, from 0 to
 * 2^32 - 1; with `allowNegative`, -2^31 … -1 too, read as the same 32 bits unsigned (Tink Java
 * wrote ids as signed 32-bit integers, and its reader still accepts them).
 */
export function jsonKeyId(value: JsonValue | undefined, where: string, allowNegative: boolean) {
  if (!(value instanceof JsonNumber)) {
    throw formatError(`${where} must be a number; it is ${jsonType(value)}.`);
  }
  const text = value.text;
  const range = allowNegative ? "-2^31 to 2^32 - 1" : "0 to 2^32 - 1";
  if (!/^-?(?:0|[1-9][0-9]{0,9})$/.test(text)) {
    throw formatError(`${where} must be a whole number from ${range}; it is ${text.slice(0, 24)}.`);
  }
  const n = Number(text);
  if (n > 0xffffffff || n < (allowNegative ? -0x80000000 : 0)) {
    throw formatError(`${where} must be a whole number from ${range}; it is ${text}.`);
  }
  return n < 0 ? n + 0x100000000 : Math.abs(n); // Math.abs: "-0" is 0
}

/** A JSON string member, or KEY_FORMAT saying what it was instead. */
export function jsonString(value: JsonValue | undefined, where: string): string {
  if (typeof value !== "string") {
    throw formatError(`${where} must be a string; it is ${jsonType(value)}.`);
  }
  return value;
}

/** Refuses members outside `allowed` (a misspelt name would otherwise be a check not made). */
export function onlyMembers(
  object: { readonly [name: string]: JsonValue },
  allowed: readonly string[],
  where: string,
): void {
  for (const name of Object.keys(object)) {
    if (!allowed.includes(name)) {
      throw formatError(
        `${where} has an unknown member ${JSON.stringify(name.slice(0, 40))}; the members are ${allowed.join(", ")}.`,
      );
    }
  }
}
