/** What signing and verifying share: the algorithms, key and option checks, claim types. */
import { assertBytes, type Bytes } from "../../core/bytes.js";
import { PreparedKeyCache } from "../../core/cache.js";
import { KeyedError } from "../../core/errors.js";
import type { MacKernel } from "../../core/mac.js";
import { checkOptions, describeType } from "../../core/options.js";
import { HASH_FUNCTIONS } from "../../hash/index.js";
import { HmacKernel } from "../../mac/hmac.js";
import type { Keyset } from "../../safe/keyset.js";
import { type KeysetKeyView, keysetView } from "../../safe/keyset-access.js";
import type { JwsAlgorithm } from "./types.js";

export const HASH = { HS256: "sha256", HS384: "sha384", HS512: "sha512" } as const;
/** RFC 7518 section 3.2: a key at least as long as the hash output. */
const MIN_KEY_BYTES = { HS256: 32, HS384: 48, HS512: 64 } as const;
const ALGORITHMS = Object.keys(HASH) as JwsAlgorithm[];

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** These functions' options are required (they name the algorithms): undefined is refused too. */
export function requiredOptions(
  options: unknown,
  allowed: readonly string[],
  where: string,
): Record<string, unknown> {
  if (options === undefined) {
    throw new KeyedError(
      "BAD_INPUT",
      `${where} must be an object { ${allowed.join(", ")} }; got undefined.`,
    );
  }
  return checkOptions(options, allowed, where);
}

export function checkAlgorithm(alg: unknown, name: string): JwsAlgorithm {
  if (typeof alg === "string" && (ALGORITHMS as string[]).includes(alg)) return alg as JwsAlgorithm;
  if (alg === "none") {
    throw new KeyedError("BAD_INPUT", `${name}: "none" (an unsecured JWS) is never accepted.`);
  }
  throw new KeyedError(
    "UNKNOWN_ALGORITHM",
    `${name} must be one of ${ALGORITHMS.join(", ")}; got ${typeof alg === "string" ? JSON.stringify(alg) : describeType(alg)}.`,
  );
}

export function checkKey(key: unknown, algorithms: readonly JwsAlgorithm[]): Bytes {
  assertBytes(key, "key");
  for (const alg of algorithms) {
    if (key.length < MIN_KEY_BYTES[alg]) {
      throw new KeyedError(
        "KEY_TOO_SHORT",
        `${alg} keys must be at least ${MIN_KEY_BYTES[alg]} bytes (RFC 7518 section 3.2); got ${key.length}. ` +
          `Use randomBytes(${MIN_KEY_BYTES[alg]}) for a new key.`,
      );
    }
  }
  return key;
}

export function checkAlgorithmList(value: unknown): JwsAlgorithm[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new KeyedError(
      "BAD_INPUT",
      'options.algorithms must list the algorithms to accept, e.g. ["HS256"] (RFC 8725 3.1).',
    );
  }
  return value.map((alg, i) => checkAlgorithm(alg, `options.algorithms[${i}]`));
}

export function stringList(value: unknown, name: string): string[] | undefined {
  if (value === undefined) return undefined;
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list) || list.length === 0 || !list.every((v) => typeof v === "string")) {
    throw new KeyedError("BAD_INPUT", `${name} must be a string or a non-empty array of strings.`);
  }
  return list;
}

/** RFC 7515 4.1.9: typ values compare case-insensitively, "application/" may be left out. */
export function normalizeTyp(typ: string): string {
  const lower = typ.toLowerCase();
  return lower.startsWith("application/") ? lower.slice("application/".length) : lower;
}

export function toJson(value: unknown, name: string): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    throw new KeyedError(
      "BAD_INPUT",
      `${name} cannot be serialized as JSON: ${(error as Error).message}`,
    );
  }
}

// --- signing -------------------------------------------------------------------------------------

export function checkClaimTypes(claims: Record<string, unknown>): string | undefined {
  for (const name of ["exp", "nbf", "iat"]) {
    const v = claims[name];
    if (v !== undefined && (typeof v !== "number" || !Number.isFinite(v))) {
      return `${name} must be a number of seconds since the epoch (RFC 7519 NumericDate).`;
    }
  }
  for (const name of ["iss", "sub", "jti"]) {
    if (claims[name] !== undefined && typeof claims[name] !== "string") {
      return `${name} must be a string.`;
    }
  }
  const aud = claims.aud;
  if (
    aud !== undefined &&
    typeof aud !== "string" &&
    !(Array.isArray(aud) && aud.every((a) => typeof a === "string"))
  ) {
    return "aud must be a string or an array of strings.";
  }
  return undefined;
}

/** A JWS key: the raw bytes, or a keyset whose keys the JOSE header's `kid` names. */
export type JwsKey = Bytes | Keyset;

/** The keyset MAC behind each JWS algorithm. */
const MAC_OF = { HS256: "hmac-sha256", HS384: "hmac-sha384", HS512: "hmac-sha512" } as const;
/** Each algorithm's kind in the cache of raw keys: one key under two algorithms is two entries. */
const ALG_KIND = { HS256: 1, HS384: 2, HS512: 3 } as const;

function checkKeyBytes(key: Bytes, alg: JwsAlgorithm, where: string): void {
  if (key.length < MIN_KEY_BYTES[alg]) {
    throw new KeyedError(
      "KEY_TOO_SHORT",
      `${where}: ${alg} keys must be at least ${MIN_KEY_BYTES[alg]} bytes (RFC 7518 section 3.2); got ${key.length}.`,
    );
  }
}

/**
 * The key to sign with under `alg`: the bytes given, or a keyset's primary key (its MAC must be
 * alg's HMAC), whose `kid` then goes into the header. `bytes` is keyed's copy when `owned`.
 */
export function signingKey(
  key: unknown,
  alg: JwsAlgorithm,
): { bytes: Bytes; kid: string | undefined; owned: boolean } {
  const keyset = keysetView(key);
  if (keyset === undefined) return { bytes: checkKey(key, [alg]), kid: undefined, owned: false };
  const info = keyset.get(keyset.primaryId) as KeysetKeyView;
  if (info.algorithm !== MAC_OF[alg]) {
    throw new KeyedError(
      "BAD_INPUT",
      `the keyset's primary key is ${info.algorithm ?? "of no known MAC"}; ${alg} signs with ${MAC_OF[alg]}.`,
    );
  }
  const bytes = keyset.keyBytes(info.id) as Bytes;
  try {
    checkKeyBytes(bytes, alg, `the keyset's primary key ${info.kid}`);
  } catch (error) {
    bytes.fill(0);
    throw error;
  }
  return { bytes, kid: info.kid, owned: true };
}

/**
 * Prepared HMAC kernels of raw verification keys, least recently used first: a service verifies
 * many tokens under few keys, and setting a key up (copies, pad blocks, a first message through
 * createHmac) costs more than checking a short token. An entry is found by the algorithm and the
 * key's bytes (core/cache.ts `getFor`: a fingerprint, confirmed against the entry's copy of the
 * key), so a caller who changes the bytes of a key array gets a new entry rather than the old
 * key's kernel.
 */
const rawKernels = new PreparedKeyCache<HmacKernel>(32);

/** Wipes and forgets every cached verification key (after a key was retired, say). */
export function clearJwtKeyCache(): void {
  rawKernels.clear();
}

/** @internal The number of cached verification keys (at most 32), for tests. */
export function jwtKeyCacheSize(): number {
  return rawKernels.size;
}

/**
 * The prepared kernels of the keys that may have signed a token with header `alg` and `kid`: for
 * bytes, their kernel from the cache above; for a keyset, the keyset's own kernel of the enabled
 * key the `kid` names when its MAC is alg's HMAC (none otherwise: an unknown, disabled or
 * destroyed `kid` is the sender's claim, answered with a refusal), or with no `kid` those of
 * every enabled key of alg's HMAC. Each gives the full HMAC output; none is the caller's to wipe.
 */
export function verificationKernels(key: JwsKey, alg: JwsAlgorithm, kid: unknown): MacKernel[] {
  const keyset = keysetView(key);
  if (keyset === undefined) {
    const bytes = key as Bytes;
    return [
      rawKernels.getFor(
        bytes,
        ALG_KIND[alg],
        () => new HmacKernel(HASH_FUNCTIONS[HASH[alg]], bytes),
      ),
    ];
  }
  const name = MAC_OF[alg];
  const kernels: MacKernel[] = [];
  const add = (info: KeysetKeyView | undefined) => {
    if (info?.status !== "enabled" || info.algorithm !== name) return;
    const kernel = keyset.kernel(info.id);
    if (kernel !== undefined) kernels.push(kernel);
  };
  if (kid === undefined) for (const info of keyset.keys()) add(info);
  else if (typeof kid === "string") add(keyset.get(kid));
  return kernels;
}

/**
 * A verifier's key, checked (the caller's own: these throw): bytes long enough for every accepted
 * algorithm, or a keyset whose enabled HMAC keys are.
 */
export function checkVerificationKey(key: unknown, algorithms: readonly JwsAlgorithm[]): JwsKey {
  const keyset = keysetView(key);
  if (keyset === undefined) return checkKey(key, algorithms);
  for (const info of keyset.keys()) {
    const alg = algorithms.find((a) => MAC_OF[a] === info.algorithm);
    if (info.status !== "enabled" || alg === undefined) continue;
    const bytes = keyset.keyBytes(info.id) as Bytes;
    try {
      checkKeyBytes(bytes, alg, `the keyset's key ${info.kid}`);
    } finally {
      bytes.fill(0);
    }
  }
  return key as JwsKey;
}
