/**
 * Google Tink's keyset formats, cleartext: JSON (Tink's JsonKeysetReader/Writer) and binary (the
 * serialized `google.crypto.tink.Keyset` protobuf), for the two MAC key types Tink and keyed
 * share: HmacKey (SHA-1, SHA-224, SHA-256, SHA-384, SHA-512) and AesCmacKey (32-byte keys only,
 * as Tink's AesCmacKeyManager requires). Field numbers and enums: proto/tink.proto, hmac.proto,
 * aes_cmac.proto, common.proto (table in ../shared/vectors/tink/PROVENANCE.md).
 *
 * The JSON reader follows tink-java's JsonKeysetReader where the Tink implementations agree
 * (tink_keyset_json_parse_cases.json): every key needs keyData, status, keyId and
 * outputPrefixType; enums are written as names; ids of 2^32 and more are refused; comments,
 * repeated member names and lone surrogates are refused; `value` is standard base64 with padding.
 * Negative ids from -2^31 are read as their unsigned 32 bits, as Java does (old Java writers
 * wrote ids signed); C++, Go and Python refuse them. A destroyed key needs no key data (Tink's
 * KeysetManager.destroy clears it), and keyed never keeps it.
 */
import {
  assertBytes,
  assertString,
  base64ToBytes,
  bytesToBase64,
  bytesToUtf8,
  copyBytes,
} from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import type { MacName } from "../core/mac.js";
import { isJsonObject, type JsonValue, jsonType, parseStrictJson } from "./json.js";
import {
  checkKeyCount,
  checkSerializedSize,
  formatError,
  jsonKeyId,
  jsonString,
  type KeyRecord,
  type KeyStatus,
  type KeysetRecord,
  type OutputPrefix,
  onlyMembers,
  readKeys,
} from "./keyset-record.js";
import {
  expectWire,
  LENGTH_DELIMITED,
  MessageWriter,
  mergeMessages,
  readFields,
  uint32,
} from "./protobuf.js";

export const HMAC_TYPE_URL = "type.googleapis.com/google.crypto.tink.HmacKey";
export const AES_CMAC_TYPE_URL = "type.googleapis.com/google.crypto.tink.AesCmacKey";

/** common.proto HashType → keyed's HMAC names (UNKNOWN_HASH = 0 has none). */
const HASH_TYPES: Record<number, MacName> = {
  1: "hmac-sha1",
  2: "hmac-sha384",
  3: "hmac-sha256",
  4: "hmac-sha512",
  5: "hmac-sha224",
};
const HASH_OF = Object.fromEntries(
  Object.entries(HASH_TYPES).map(([n, name]) => [name, Number(n)]),
) as Record<string, number>;

/** Digest sizes: Tink's HMAC tags are 10 bytes to the digest size (HmacParameters.java). */
const DIGEST_BYTES: Record<string, number> = {
  "hmac-sha1": 20,
  "hmac-sha224": 28,
  "hmac-sha256": 32,
  "hmac-sha384": 48,
  "hmac-sha512": 64,
};

/** Tink's shortest MAC tag, for HMAC and AES-CMAC alike (HmacParameters, AesCmacParameters). */
const TINK_MIN_TAG = 10;

const STATUS_NAMES = ["UNKNOWN_STATUS", "ENABLED", "DISABLED", "DESTROYED"] as const;
const STATUS_OF: Record<string, KeyStatus> = {
  ENABLED: "enabled",
  DISABLED: "disabled",
  DESTROYED: "destroyed",
};
const PREFIX_NAMES = [
  "UNKNOWN_PREFIX",
  "TINK",
  "LEGACY",
  "RAW",
  "CRUNCHY",
  "WITH_ID_REQUIREMENT",
] as const;
const PREFIX_OF: Record<string, OutputPrefix> = {
  TINK: "tink",
  LEGACY: "legacy",
  RAW: "raw",
  CRUNCHY: "crunchy",
};
const MATERIAL_NAMES = [
  "UNKNOWN_KEYMATERIAL",
  "SYMMETRIC",
  "ASYMMETRIC_PRIVATE",
  "ASYMMETRIC_PUBLIC",
  "REMOTE",
] as const;

/** An enum name (from JSON) or number (from binary) as its name; KEY_FORMAT when unknown. */
function enumName<T extends string>(names: readonly T[], value: string | number, where: string): T {
  const name = typeof value === "number" ? names[value] : value;
  if (name === undefined || !names.includes(name as T) || name === names[0]) {
    const shown = typeof value === "number" ? String(value) : JSON.stringify(value.slice(0, 40));
    throw formatError(`${where} ${shown} is not one of ${names.slice(1).join(", ")}.`);
  }
  return name as T;
}

function statusOf(value: string | number, where: string): KeyStatus {
  return STATUS_OF[enumName(STATUS_NAMES, value, where)];
}

function prefixOf(value: string | number, where: string): OutputPrefix {
  const name = enumName(PREFIX_NAMES, value, where);
  if (name === "WITH_ID_REQUIREMENT") {
    throw new KeyedError(
      "KEY_UNSUPPORTED",
      `${where} WITH_ID_REQUIREMENT is not a MAC output prefix; keyed reads TINK, LEGACY, CRUNCHY and RAW.`,
    );
  }
  return PREFIX_OF[name];
}

function checkMaterial(value: string | number, where: string): void {
  const name = enumName(MATERIAL_NAMES, value, where);
  if (name !== "SYMMETRIC") {
    throw new KeyedError(
      "KEY_UNSUPPORTED",
      `${where} is ${name}; MAC keys are SYMMETRIC (keyed does not read other key material).`,
    );
  }
}

/** The raw bytes of an HmacKey or AesCmacKey value, decoded per its type URL. */
interface Decoded {
  algorithm: MacName;
  tagLength: number;
  /** keyed's copy of the key bytes (the caller wipes it). */
  key: Uint8Array;
}

/** HmacKey { version = 1; params = 2 { hash = 1; tag_size = 2 }; key_value = 3 }. */
function decodeHmacKey(value: Uint8Array, where: string): Decoded {
  const what = `${where} (HmacKey)`;
  let version = 0;
  const params: Uint8Array[] = [];
  let key: Uint8Array | undefined;
  for (const field of readFields(value, what)) {
    if (field.number === 1) version = uint32(field, what);
    else if (field.number === 2) {
      expectWire(field, LENGTH_DELIMITED, what);
      params.push(field.bytes);
    } else if (field.number === 3) {
      expectWire(field, LENGTH_DELIMITED, what);
      key = field.bytes;
    }
  }
  if (version !== 0) {
    throw new KeyedError("KEY_UNSUPPORTED", `${what} has version ${version}; Tink defines 0.`);
  }
  if (params.length === 0) throw formatError(`${what} has no params.`);
  let hash = 0;
  let tagSize = 0;
  const paramsWhat = `${where} (HmacParams)`;
  for (const field of readFields(mergeMessages(params), paramsWhat)) {
    if (field.number === 1) hash = uint32(field, paramsWhat);
    else if (field.number === 2) tagSize = uint32(field, paramsWhat);
  }
  const algorithm = HASH_TYPES[hash];
  if (algorithm === undefined) {
    throw new KeyedError(
      hash === 0 || hash > 5 ? "KEY_FORMAT" : "KEY_UNSUPPORTED",
      `${paramsWhat} hash ${hash} is not SHA1 (1), SHA384 (2), SHA256 (3), SHA512 (4) or SHA224 (5).`,
    );
  }
  checkTinkTag(tagSize, DIGEST_BYTES[algorithm], `${paramsWhat} tag_size`);
  return { algorithm, tagLength: tagSize, key: copyBytes(key ?? new Uint8Array(0)) };
}

/** AesCmacKey { version = 1; key_value = 2; params = 3 { tag_size = 1 } }. */
function decodeAesCmacKey(value: Uint8Array, where: string): Decoded {
  const what = `${where} (AesCmacKey)`;
  let version = 0;
  const params: Uint8Array[] = [];
  let key: Uint8Array = new Uint8Array(0);
  for (const field of readFields(value, what)) {
    if (field.number === 1) version = uint32(field, what);
    else if (field.number === 2) {
      expectWire(field, LENGTH_DELIMITED, what);
      key = field.bytes;
    } else if (field.number === 3) {
      expectWire(field, LENGTH_DELIMITED, what);
      params.push(field.bytes);
    }
  }
  if (version !== 0) {
    throw new KeyedError("KEY_UNSUPPORTED", `${what} has version ${version}; Tink defines 0.`);
  }
  let tagSize = 0;
  const paramsWhat = `${where} (AesCmacParams)`;
  for (const field of readFields(mergeMessages(params), paramsWhat)) {
    if (field.number === 1) tagSize = uint32(field, paramsWhat);
  }
  if (key.length !== 32) {
    throw new KeyedError(
      "KEY_UNSUPPORTED",
      `${what} has a ${key.length}-byte key; Tink's AesCmacKey takes 32-byte keys only ` +
        "(AesCmacKeyManager), so keyed refuses it too.",
    );
  }
  checkTinkTag(tagSize, 16, `${paramsWhat} tag_size`);
  return { algorithm: "cmac-aes256", tagLength: tagSize, key: copyBytes(key) };
}

function checkTinkTag(size: number, maximum: number, where: string): void {
  if (size < TINK_MIN_TAG || size > maximum) {
    throw new KeyedError(
      "TAG_LENGTH",
      `${where} is ${size}; Tink takes ${TINK_MIN_TAG} to ${maximum} bytes for this key.`,
    );
  }
}

function decodeKeyValue(typeUrl: string, value: Uint8Array, where: string): Decoded {
  if (typeUrl === HMAC_TYPE_URL) return decodeHmacKey(value, where);
  if (typeUrl === AES_CMAC_TYPE_URL) return decodeAesCmacKey(value, where);
  throw new KeyedError(
    "KEY_UNSUPPORTED",
    `${where} has type URL ${JSON.stringify(typeUrl.slice(0, 80))}; keyed reads ${HMAC_TYPE_URL} and ${AES_CMAC_TYPE_URL}.`,
  );
}

/** A key record from its parts; `value` is wiped by the caller. */
function keyRecord(
  id: number,
  status: KeyStatus,
  prefix: OutputPrefix,
  data: { typeUrl: string; value: Uint8Array; material: string | number } | undefined,
  where: string,
): KeyRecord {
  if (status === "destroyed") return { id, status, prefix };
  if (data === undefined) throw formatError(`${where} is ${status} but has no keyData.`);
  checkMaterial(data.material, `${where} keyMaterialType`);
  const decoded = decodeKeyValue(data.typeUrl, data.value, where);
  return { id, status, prefix, ...decoded };
}

// --- JSON ----------------------------------------------------------------------------------------

function member(
  object: { readonly [name: string]: JsonValue },
  name: string,
  where: string,
): JsonValue {
  if (!Object.hasOwn(object, name)) throw formatError(`${where} has no ${name}.`);
  return object[name];
}

function jsonObject(value: JsonValue | undefined, where: string) {
  if (value === undefined || !isJsonObject(value)) {
    throw formatError(`${where} must be an object; it is ${jsonType(value)}.`);
  }
  return value;
}

function jsonKey(value: JsonValue, where: string): KeyRecord {
  const key = jsonObject(value, where);
  onlyMembers(key, ["keyData", "status", "keyId", "outputPrefixType"], where);
  const id = jsonKeyId(member(key, "keyId", where), `${where} keyId`, true);
  const status = statusOf(
    jsonString(member(key, "status", where), `${where} status`),
    `${where} status`,
  );
  const prefix = prefixOf(
    jsonString(member(key, "outputPrefixType", where), `${where} outputPrefixType`),
    `${where} outputPrefixType`,
  );
  if (status === "destroyed") return { id, status, prefix };
  const dataWhere = `${where} keyData`;
  const data = jsonObject(member(key, "keyData", where), dataWhere);
  onlyMembers(data, ["typeUrl", "value", "keyMaterialType"], dataWhere);
  const typeUrl = jsonString(member(data, "typeUrl", dataWhere), `${dataWhere} typeUrl`);
  const material = jsonString(
    member(data, "keyMaterialType", dataWhere),
    `${dataWhere} keyMaterialType`,
  );
  const text = jsonString(member(data, "value", dataWhere), `${dataWhere} value`);
  let bytes: Uint8Array;
  try {
    bytes = base64ToBytes(text);
  } catch {
    throw formatError(
      `${dataWhere} value is not standard base64 with padding (RFC 4648 section 4).`,
    );
  }
  try {
    return keyRecord(id, status, prefix, { typeUrl, value: bytes, material }, `key ${id}`);
  } finally {
    bytes.fill(0);
  }
}

/** Reads a Tink JSON keyset (cleartext) into a record. */
export function parseTinkJson(text: string): KeysetRecord {
  assertString(text, "text");
  checkSerializedSize(text.length, "the Tink JSON keyset");
  const root = jsonObject(parseStrictJson(text, "the Tink JSON keyset"), "the Tink JSON keyset");
  if (Object.hasOwn(root, "encryptedKeyset")) {
    throw new KeyedError(
      "KEY_UNSUPPORTED",
      "this is an encrypted Tink keyset; keyed reads cleartext keysets only (decrypt it with Tink first).",
    );
  }
  onlyMembers(root, ["primaryKeyId", "key"], "the Tink JSON keyset");
  const keys = member(root, "key", "the Tink JSON keyset");
  if (!Array.isArray(keys) || keys.length === 0) {
    throw formatError(
      `the Tink JSON keyset's key must be a non-empty array; it is ${jsonType(keys)}.`,
    );
  }
  checkKeyCount(keys.length, "the Tink JSON keyset");
  // proto3 JSON: an absent primaryKeyId is 0 (tink-cc reads it so), which may be a key's id.
  const primaryId = Object.hasOwn(root, "primaryKeyId")
    ? jsonKeyId(root.primaryKeyId, "primaryKeyId", true)
    : 0;
  return readKeys(primaryId, keys, (key, i) => jsonKey(key, `key[${i}]`));
}

// --- binary --------------------------------------------------------------------------------------

interface RawKeyData {
  typeUrl: string;
  value: Uint8Array;
  material: number;
}

/** KeyData { type_url = 1; value = 2; key_material_type = 3 }. */
function decodeKeyData(bytes: Uint8Array, where: string): RawKeyData {
  const what = `${where} KeyData`;
  let typeUrl: Uint8Array = new Uint8Array(0);
  let value: Uint8Array = new Uint8Array(0);
  let material = 0;
  for (const field of readFields(bytes, what)) {
    if (field.number === 1) {
      expectWire(field, LENGTH_DELIMITED, what);
      typeUrl = field.bytes;
    } else if (field.number === 2) {
      expectWire(field, LENGTH_DELIMITED, what);
      value = field.bytes;
    } else if (field.number === 3) material = uint32(field, what);
  }
  let url: string;
  try {
    url = bytesToUtf8(typeUrl);
  } catch {
    throw formatError(`${what} type_url is not UTF-8.`);
  }
  return { typeUrl: url, value, material };
}

/** Keyset.Key { key_data = 1; status = 2; key_id = 3; output_prefix_type = 4 }. */
function decodeKey(bytes: Uint8Array, where: string): KeyRecord {
  const data: Uint8Array[] = [];
  let status = 0;
  let id = 0;
  let prefix = 0;
  for (const field of readFields(bytes, where)) {
    if (field.number === 1) {
      expectWire(field, LENGTH_DELIMITED, where);
      data.push(field.bytes);
    } else if (field.number === 2) status = uint32(field, where);
    else if (field.number === 3) id = uint32(field, where);
    else if (field.number === 4) prefix = uint32(field, where);
  }
  const keyStatus = statusOf(status, `${where} status`);
  const keyPrefix = prefixOf(prefix, `${where} output_prefix_type`);
  const merged = data.length === 0 ? undefined : mergeMessages(data);
  try {
    const keyData = merged === undefined ? undefined : decodeKeyData(merged, `key ${id}`);
    const record = keyRecord(
      id,
      keyStatus,
      keyPrefix,
      keyData && { typeUrl: keyData.typeUrl, value: keyData.value, material: keyData.material },
      `key ${id}`,
    );
    return record;
  } finally {
    if (data.length > 1) merged?.fill(0); // a merged copy holds key bytes
  }
}

/** Reads a Tink binary keyset (a serialized google.crypto.tink.Keyset) into a record. */
export function parseTinkBinary(bytes: Uint8Array): KeysetRecord {
  assertBytes(bytes, "bytes");
  checkSerializedSize(bytes.length, "the Tink binary keyset");
  const what = "the Tink binary keyset";
  let primaryId: number | undefined;
  const keys: Uint8Array[] = [];
  for (const field of readFields(bytes, what)) {
    if (field.number === 1) primaryId = uint32(field, what);
    else if (field.number === 2) {
      expectWire(field, LENGTH_DELIMITED, what);
      keys.push(field.bytes);
    }
  }
  if (keys.length === 0) throw formatError(`${what} holds no keys.`);
  checkKeyCount(keys.length, what);
  // proto3: an absent primary_key_id is 0, which may be a key's id.
  return readKeys(primaryId ?? 0, keys, (key, i) => decodeKey(key, `key[${i}]`));
}

// --- writing -------------------------------------------------------------------------------------

/** The type URL and serialized key of a record Tink can hold; KEY_UNSUPPORTED otherwise. */
function encodeKeyValue(key: KeyRecord): { typeUrl: string; value: Uint8Array } {
  const { algorithm, tagLength } = key;
  const bytes = key.key!;
  if (algorithm !== undefined && tagLength !== undefined) {
    const hash = HASH_OF[algorithm];
    if (hash !== undefined && tagLength >= TINK_MIN_TAG) {
      const params = new MessageWriter().uint(1, hash).uint(2, tagLength).finish();
      const value = new MessageWriter().bytes(2, params).bytes(3, bytes).finish();
      return { typeUrl: HMAC_TYPE_URL, value };
    }
    if (algorithm === "cmac-aes256" && tagLength >= TINK_MIN_TAG) {
      const params = new MessageWriter().uint(1, tagLength).finish();
      const value = new MessageWriter().bytes(2, bytes).bytes(3, params).finish();
      return { typeUrl: AES_CMAC_TYPE_URL, value };
    }
  }
  throw new KeyedError(
    "KEY_UNSUPPORTED",
    `key ${key.id} (${algorithm}) has no Tink key type: Tink keysets hold HMAC-SHA1/224/256/384/512 ` +
      "and AES-256-CMAC keys with tags of 10 bytes or more. toKeyedJson() writes every keyset.",
  );
}

const PREFIX_NUMBER: Record<OutputPrefix, number> = { tink: 1, legacy: 2, raw: 3, crunchy: 4 };
const STATUS_NUMBER: Record<KeyStatus, number> = { enabled: 1, disabled: 2, destroyed: 3 };

/** Every key's type URL and value, checked before anything is written. */
function encodeAll(record: KeysetRecord) {
  return record.keys.map((key) => (key.status === "destroyed" ? undefined : encodeKeyValue(key)));
}

/** Tink's JSON keyset format, as tink-java's JsonKeysetWriter writes it (ids unsigned). */
export function writeTinkJson(record: KeysetRecord): string {
  const values = encodeAll(record);
  try {
    const keys = record.keys.map((key, i) => {
      const value = values[i];
      return {
        ...(value === undefined
          ? {}
          : {
              keyData: {
                typeUrl: value.typeUrl,
                value: bytesToBase64(value.value),
                keyMaterialType: "SYMMETRIC",
              },
            }),
        status: STATUS_NAMES[STATUS_NUMBER[key.status]],
        keyId: key.id,
        outputPrefixType: PREFIX_NAMES[PREFIX_NUMBER[key.prefix]],
      };
    });
    return `${JSON.stringify({ primaryKeyId: record.primaryId, key: keys }, null, 2)}\n`;
  } finally {
    for (const value of values) value?.value.fill(0);
  }
}

/** Tink's binary keyset format; a destroyed key is written without key data, as Tink does. */
export function writeTinkBinary(record: KeysetRecord): Uint8Array {
  const values = encodeAll(record);
  const parts: Uint8Array[] = [];
  try {
    const keyset = new MessageWriter().uint(1, record.primaryId ?? 0);
    record.keys.forEach((key, i) => {
      const writer = new MessageWriter();
      const value = values[i];
      if (value !== undefined) {
        const data = new MessageWriter()
          .string(1, value.typeUrl)
          .bytes(2, value.value)
          .uint(3, 1)
          .finish();
        parts.push(data);
        writer.bytes(1, data);
      }
      const message = writer
        .uint(2, STATUS_NUMBER[key.status])
        .uint(3, key.id)
        .uint(4, PREFIX_NUMBER[key.prefix])
        .finish();
      parts.push(message);
      keyset.bytes(2, message);
    });
    return keyset.finish();
  } finally {
    for (const value of values) value?.value.fill(0);
    for (const part of parts) part.fill(0);
  }
}
