/**
 * JSON Web Keys for MAC keys: RFC 7517 (JWK, JWK Set) with RFC 7518 section 6.4 (`kty: "oct"`,
 * the key in `k` as base64url without padding) and section 3.2 (`alg` HS256, HS384, HS512 for
 * HMAC with SHA-256, SHA-384, SHA-512). Key lengths follow keyed's policy, as `mac()` applies it.
 *
 * Reading: `kty` and `k` are required; `alg` too, since it is the only thing that says which hash
 * the key is for; `use`, when present, must be "sig", and `key_ops` must allow "sign" or
 * "verify". Members this module does not use (x5c, ext, …) are ignored, as RFC 7517 section 4
 * asks.
 */
import { assertBytes, type Bytes, base64urlToBytes, bytesToBase64url } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import type { MacName } from "../core/mac.js";
import { checkOptions, describeType } from "../core/options.js";
import { randomBytes } from "../core/random.js";
import { mac } from "../mac/registry.js";
import { parseStrictJson } from "./json.js";
import {
  checkKeyCount,
  checkSerializedSize,
  formatError,
  type KeyRecord,
  type KeysetRecord,
} from "./keyset-record.js";

/** A JWK for a MAC key (RFC 7517 section 4, RFC 7518 section 6.4). */
export interface Jwk {
  /** Key type: keyed reads and writes symmetric keys only (RFC 7518 section 6.4). */
  kty: "oct";
  /** The key, base64url without padding. */
  k: string;
  /** The algorithm the key is for: HS256, HS384 or HS512 (RFC 7518 section 3.2). */
  alg?: string;
  /** The key id a JWS header names the key by (RFC 7515 section 4.1.4). */
  kid?: string;
  /** Intended use; keyed accepts "sig" or none (RFC 7517 section 4.2). */
  use?: string;
  /** Permitted operations; keyed accepts sign and verify (RFC 7517 section 4.3). */
  key_ops?: string[];
  /** WebCrypto's extractable flag, as JWK exports carry it. */
  ext?: boolean;
  [member: string]: unknown;
}

/** A JWK Set (RFC 7517 section 5). */
export interface JwkSet {
  /** The keys of the set (RFC 7517 section 5.1). */
  keys: Jwk[];
  [member: string]: unknown;
}

/** The JWS algorithms of HMAC keys (RFC 7518 section 3.2). */
export const JWK_ALGORITHMS = {
  HS256: "hmac-sha256",
  HS384: "hmac-sha384",
  HS512: "hmac-sha512",
} as const satisfies Record<string, MacName>;
const ALG_OF: Record<string, string> = Object.fromEntries(
  Object.entries(JWK_ALGORITHMS).map(([alg, name]) => [name, alg]),
);

/** What `keyFromJwk` reads from one JWK: the MAC, the key bytes and the kid. */
export interface KeyFromJwk {
  /** The MAC the key is for (hmac-sha256 for HS256, …). */
  name: MacName;
  /** A new array the caller owns (and wipes when done). */
  key: Bytes;
  /** The JWK's kid, when it has one. */
  kid?: string;
}

/** The JSON value of a JWK given as text, or the object itself. */
function asObject(value: unknown, what: string): Record<string, unknown> {
  let v = value;
  if (typeof v === "string") {
    checkSerializedSize(v.length, what);
    v = parseStrictJson(v, what);
  }
  if (v === null || typeof v !== "object" || Array.isArray(v)) {
    throw formatError(`${what} must be a JSON object; got ${describeType(v)}.`);
  }
  return v as Record<string, unknown>;
}

function optionalString(jwk: Record<string, unknown>, name: string, where: string) {
  const value = jwk[name];
  if (value !== undefined && typeof value !== "string") {
    throw formatError(`${where} member "${name}" must be a string; got ${describeType(value)}.`);
  }
  return value;
}

/** Reads one JWK (an object, or its JSON text); KEY_FORMAT or KEY_UNSUPPORTED when it is not one keyed uses. */
export function keyFromJwk(jwk: Jwk | string, where = "the JWK"): KeyFromJwk {
  const o = asObject(jwk, where);
  const kty = optionalString(o, "kty", where);
  if (kty === undefined) throw formatError(`${where} has no "kty".`);
  if (kty !== "oct") {
    throw new KeyedError(
      "KEY_UNSUPPORTED",
      `${where} has kty ${JSON.stringify(kty.slice(0, 16))}; MAC keys are kty "oct" (RFC 7518 section 6.4).`,
    );
  }
  const alg = optionalString(o, "alg", where);
  if (alg === undefined) {
    throw formatError(
      `${where} has no "alg": keyed needs it to know the hash (HS256, HS384 or HS512).`,
    );
  }
  if (!Object.hasOwn(JWK_ALGORITHMS, alg)) {
    throw new KeyedError(
      "KEY_UNSUPPORTED",
      `${where} has alg ${JSON.stringify(alg.slice(0, 24))}; keyed's JWKs are HS256, HS384 or HS512.`,
    );
  }
  const use = optionalString(o, "use", where);
  if (use !== undefined && use !== "sig") {
    throw new KeyedError(
      "KEY_UNSUPPORTED",
      `${where} has use ${JSON.stringify(use.slice(0, 16))}; a MAC key is for "sig".`,
    );
  }
  const ops = o.key_ops;
  if (ops !== undefined) {
    if (!Array.isArray(ops) || !ops.every((op) => typeof op === "string")) {
      throw formatError(`${where} key_ops must be an array of strings.`);
    }
    if (!ops.includes("sign") && !ops.includes("verify")) {
      throw new KeyedError(
        "KEY_UNSUPPORTED",
        `${where} has key_ops without "sign" or "verify"; a MAC key signs or verifies.`,
      );
    }
  }
  const kid = optionalString(o, "kid", where);
  if (kid === "") throw formatError(`${where} has an empty kid.`);
  const k = optionalString(o, "k", where);
  if (k === undefined) throw formatError(`${where} has no "k" (the key).`);
  let key: Uint8Array;
  try {
    if (k.includes("=")) throw new Error("padding");
    key = base64urlToBytes(k);
  } catch {
    throw formatError(
      `${where} k is not base64url without padding (RFC 7515 section 2, RFC 7518 section 6.4.1).`,
    );
  }
  const name = JWK_ALGORITHMS[alg as keyof typeof JWK_ALGORITHMS];
  try {
    mac(name, key).destroy(); // keyed's key policy, exactly as mac() applies it
  } catch (error) {
    key.fill(0);
    throw error;
  }
  return kid === undefined ? { name, key } : { name, key, kid };
}

/** A JWK for `key` (HMAC-SHA-256/384/512), checked against keyed's key policy. */
export function keyToJwk(name: MacName, key: Bytes, options?: { kid?: string }): Jwk {
  assertBytes(key, "key");
  const alg = ALG_OF[name];
  if (alg === undefined) {
    throw new KeyedError(
      "KEY_UNSUPPORTED",
      `JWKs name HMAC keys only (HS256, HS384, HS512: hmac-sha256, hmac-sha384, hmac-sha512); got ${JSON.stringify(String(name).slice(0, 32))}.`,
    );
  }
  const { kid } = checkOptions<{ kid?: string }>(options, ["kid"], "keyToJwk options");
  mac(name, key).destroy();
  if (kid !== undefined && (typeof kid !== "string" || kid === "")) {
    throw new KeyedError("BAD_INPUT", `options.kid must be a non-empty string.`);
  }
  const jwk: Jwk = { kty: "oct", alg, k: bytesToBase64url(key) };
  if (kid !== undefined) jwk.kid = kid;
  return jwk;
}

/** Numeric kids that can be key ids: canonical decimal, 1 to 2^32 - 1. */
function idFromKid(kid: string | undefined): number | undefined {
  if (kid === undefined || !/^[1-9][0-9]{0,9}$/.test(kid)) return undefined;
  const n = Number(kid);
  return n <= 0xffffffff ? n : undefined;
}

/**
 * A JWK Set as a keyset record: raw-prefix keys with full tags; a kid in canonical decimal from 1
 * to 2^32 - 1 is the key id, other keys get random non-zero ids (their kid is kept). The primary
 * is the key with kid `primary`, or the first key.
 */
export function parseJwks(jwks: JwkSet | string, primary?: string): KeysetRecord {
  const set = asObject(jwks, "the JWK Set");
  const keys = set.keys;
  if (!Array.isArray(keys) || keys.length === 0) {
    throw formatError(`the JWK Set's "keys" must be a non-empty array; got ${describeType(keys)}.`);
  }
  checkKeyCount(keys.length, "the JWK Set");
  const read: KeyFromJwk[] = [];
  try {
    keys.forEach((jwk: Jwk, i) => {
      read.push(keyFromJwk(jwk, `keys[${i}]`));
    });
    const taken = new Set<number>();
    for (const { kid } of read) {
      const id = idFromKid(kid);
      if (id !== undefined) taken.add(id);
    }
    const used = new Set<number>();
    const records: KeyRecord[] = read.map(({ name, key, kid }) => {
      let id = idFromKid(kid);
      while (id === undefined || used.has(id) || (id !== idFromKid(kid) && taken.has(id))) {
        id = randomId(); // a random non-zero id that no kid of the set names
      }
      used.add(id);
      return {
        id,
        kid: kid === undefined || kid === String(id) ? undefined : kid,
        algorithm: name,
        prefix: "raw",
        status: "enabled",
        key,
      };
    });
    let primaryId = records[0].id;
    if (primary !== undefined) {
      const index = read.findIndex((key) => key.kid === primary);
      if (index < 0) {
        throw new KeyedError(
          "KEY_NOT_FOUND",
          `the JWK Set has no key with kid ${JSON.stringify(primary)}.`,
        );
      }
      primaryId = records[index].id;
    }
    return { primaryId, keys: records };
  } catch (error) {
    for (const key of read) key.key.fill(0);
    throw error;
  }
}

/** The enabled keys of `record` as a JWK Set, the primary first. */
export function writeJwks(record: KeysetRecord): JwkSet {
  const enabled = record.keys.filter((key) => key.status === "enabled");
  enabled.sort((a, b) => Number(b.id === record.primaryId) - Number(a.id === record.primaryId));
  return {
    keys: enabled.map((key) => {
      const name = key.algorithm!;
      if (ALG_OF[name] === undefined || key.tagLength !== macFullTag(name)) {
        throw new KeyedError(
          "KEY_UNSUPPORTED",
          `key ${key.id} (${name}, ${key.tagLength}-byte tags) has no JWK form: JWKs hold HS256, ` +
            "HS384 and HS512 keys, whose tags are the full HMAC.",
        );
      }
      return keyToJwk(name, key.key!, { kid: key.kid ?? String(key.id) });
    }),
  };
}

function randomId(): number {
  const b = randomBytes(4);
  return ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) >>> 0 || randomId();
}

function macFullTag(name: MacName): number {
  return name === "hmac-sha256" ? 32 : name === "hmac-sha384" ? 48 : 64;
}
