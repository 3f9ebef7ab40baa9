/** What signing and verifying share: the algorithms, key and option checks, claim types. */
import { assertBytes, type Bytes } from "../../core/bytes.js";
import { KeyedError } from "../../core/errors.js";
import { checkOptions, describeType } from "../../core/options.js";
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
