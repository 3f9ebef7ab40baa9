/**
 * keyed's own keyset format: JSON that holds every MAC a keyset can (Tink's formats hold only
 * HMAC-SHA1/SHA-2 and AES-256-CMAC), with key states and JOSE kids. The keyed CLI writes it.
 *
 *     {
 *       "keyedKeyset": 1,
 *       "primaryKeyId": 3735928559,
 *       "keys": [
 *         { "keyId": 3735928559, "algorithm": "blake3", "tagLength": 32, "prefix": "tink",
 *           "status": "enabled", "key": "<standard base64>" },
 *         { "keyId": 17, "kid": "2025-01", "algorithm": "hmac-sha256", "tagLength": 32,
 *           "prefix": "raw", "status": "destroyed" }
 *       ]
 *     }
 *
 * Read with the strict JSON reader; every member is checked, unknown members are refused, a
 * destroyed key carries no "key" (and keyed never writes one).
 */
import { assertString, base64ToBytes, bytesToBase64 } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import type { MacName } from "../core/mac.js";
import { isJsonObject, JsonNumber, type JsonValue, jsonType, parseStrictJson } from "./json.js";
import {
  checkKeyCount,
  checkSerializedSize,
  formatError,
  jsonKeyId,
  jsonString,
  KEY_STATUSES,
  type KeyRecord,
  type KeyStatus,
  type KeysetRecord,
  OUTPUT_PREFIXES,
  type OutputPrefix,
  onlyMembers,
  readKeys,
} from "./keyset-record.js";

export const KEYED_KEYSET_VERSION = 1;
const WHAT = "the keyed keyset";
const KEY_MEMBERS = ["keyId", "kid", "algorithm", "tagLength", "prefix", "status", "key"];

function oneOf<T extends string>(value: string, allowed: readonly T[], where: string): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw formatError(
      `${where} ${JSON.stringify(value.slice(0, 40))} is not one of ${allowed.join(", ")}.`,
    );
  }
  return value as T;
}

function readKey(value: JsonValue, where: string): KeyRecord {
  if (!isJsonObject(value))
    throw formatError(`${where} must be an object; it is ${jsonType(value)}.`);
  onlyMembers(value, KEY_MEMBERS, where);
  const id = jsonKeyId(value.keyId, `${where} keyId`, false);
  const status = oneOf<KeyStatus>(
    jsonString(value.status, `${where} status`),
    KEY_STATUSES,
    `${where} status`,
  );
  const prefix = oneOf<OutputPrefix>(
    jsonString(value.prefix, `${where} prefix`),
    OUTPUT_PREFIXES,
    `${where} prefix`,
  );
  const kid = value.kid === undefined ? undefined : jsonString(value.kid, `${where} kid`);
  if (kid === "") throw formatError(`${where} kid is empty.`);
  const destroyed = status === "destroyed";
  const algorithm =
    value.algorithm === undefined && destroyed
      ? undefined
      : (jsonString(value.algorithm, `${where} algorithm`) as MacName);
  let tagLength: number | undefined;
  if (value.tagLength !== undefined || !destroyed) {
    const length = value.tagLength;
    if (!(length instanceof JsonNumber) || !/^[1-9][0-9]{0,2}$/.test(length.text)) {
      throw formatError(`${where} tagLength must be a whole number from 1 to 999 bytes.`);
    }
    tagLength = Number(length.text);
  }
  if (destroyed) {
    if (value.key !== undefined) throw formatError(`${where} is destroyed but carries a key.`);
    return { id, kid, algorithm, tagLength, prefix, status };
  }
  const text = jsonString(value.key, `${where} key`);
  let key: Uint8Array;
  try {
    key = base64ToBytes(text);
  } catch {
    throw formatError(`${where} key is not standard base64 with padding.`);
  }
  return { id, kid, algorithm, tagLength, prefix, status, key };
}

/** Reads keyed's keyset JSON into a record. */
export function parseKeyedJson(text: string): KeysetRecord {
  assertString(text, "text");
  checkSerializedSize(text.length, WHAT);
  const root = parseStrictJson(text, WHAT);
  if (!isJsonObject(root)) throw formatError(`${WHAT} must be a JSON object.`);
  onlyMembers(root, ["keyedKeyset", "primaryKeyId", "keys"], WHAT);
  const version = root.keyedKeyset;
  if (!(version instanceof JsonNumber)) {
    throw formatError(`${WHAT} has no "keyedKeyset" version number.`);
  }
  if (version.text !== String(KEYED_KEYSET_VERSION)) {
    throw new KeyedError(
      "KEY_UNSUPPORTED",
      `${WHAT} is format version ${version.text.slice(0, 12)}; this keyed reads version ${KEYED_KEYSET_VERSION}.`,
    );
  }
  const keys = root.keys;
  if (!Array.isArray(keys)) throw formatError(`${WHAT}'s keys must be an array.`);
  checkKeyCount(keys.length, WHAT);
  const primaryId =
    root.primaryKeyId === undefined
      ? undefined
      : jsonKeyId(root.primaryKeyId, "primaryKeyId", false);
  return readKeys(primaryId, keys, (key, i) => readKey(key, `keys[${i}]`));
}

/** keyed's keyset JSON for `record`. */
export function writeKeyedJson(record: KeysetRecord): string {
  const keys = record.keys.map((key) => ({
    keyId: key.id,
    ...(key.kid === undefined ? {} : { kid: key.kid }),
    ...(key.algorithm === undefined ? {} : { algorithm: key.algorithm }),
    ...(key.tagLength === undefined ? {} : { tagLength: key.tagLength }),
    prefix: key.prefix,
    status: key.status,
    ...(key.key === undefined ? {} : { key: bytesToBase64(key.key) }),
  }));
  const document = { keyedKeyset: KEYED_KEYSET_VERSION, primaryKeyId: record.primaryId, keys };
  return `${JSON.stringify(document, null, 2)}\n`;
}
