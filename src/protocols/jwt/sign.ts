/** Signing: compact JWS (RFC 7515 section 7.1) and JWTs (RFC 7519 section 7.1). */
import { assertBytes, type Bytes, bytesToBase64url, utf8ToBytes } from "../../core/bytes.js";
import { KeyedError } from "../../core/errors.js";
import { describeType } from "../../core/options.js";
import { hmac } from "../../mac/hmac.js";
import {
  checkAlgorithm,
  checkClaimTypes,
  checkKey,
  HASH,
  isPlainObject,
  requiredOptions,
  toJson,
} from "./common.js";
import type { JwsAlgorithm, JwtClaims, SignJwsOptions, SignJwtOptions } from "./types.js";

function buildHeader(
  alg: JwsAlgorithm,
  extra: unknown,
  defaults: Record<string, unknown>,
): Record<string, unknown> {
  if (extra === undefined) return { alg, ...defaults };
  if (!isPlainObject(extra)) {
    throw new KeyedError("BAD_INPUT", "options.header must be an object of header parameters.");
  }
  if (extra.alg !== undefined && extra.alg !== alg) {
    throw new KeyedError(
      "BAD_INPUT",
      `options.header.alg (${typeof extra.alg === "string" ? extra.alg : describeType(extra.alg)}) differs from options.alg (${alg}); set options.alg only.`,
    );
  }
  if (extra.crit !== undefined || extra.b64 !== undefined) {
    throw new KeyedError(
      "BAD_INPUT",
      "options.header: crit and b64 (RFC 7797) are not supported: keyed signs only plain compact JWS, and its verifier refuses both.",
    );
  }
  return { alg, ...defaults, ...extra };
}

function signCompact(
  key: Bytes,
  alg: JwsAlgorithm,
  header: Record<string, unknown>,
  payload: Bytes,
  detached: boolean,
): string {
  const h = bytesToBase64url(utf8ToBytes(toJson(header, "options.header")));
  const p = bytesToBase64url(payload);
  const m = hmac(HASH[alg], key);
  try {
    const signature = m.tag(utf8ToBytes(`${h}.${p}`));
    return `${h}.${detached ? "" : p}.${bytesToBase64url(signature)}`;
  } finally {
    m.destroy();
  }
}

/**
 * A compact JWS of any payload (bytes, or text as UTF-8). The header is {"alg": …} plus
 * `options.header`; with `detached`, the payload segment is left empty (RFC 7515 appendix F).
 */
export function signJws(payload: Bytes | string, key: Bytes, options: SignJwsOptions): string {
  const o = requiredOptions(options, ["alg", "header", "detached"], "signJws options");
  const alg = checkAlgorithm(o.alg, "options.alg");
  checkKey(key, [alg]);
  const bytes = typeof payload === "string" ? utf8ToBytes(payload) : payload;
  assertBytes(bytes, "payload");
  if (o.detached !== undefined && typeof o.detached !== "boolean") {
    throw new KeyedError("BAD_INPUT", "options.detached must be true or false.");
  }
  return signCompact(key, alg, buildHeader(alg, o.header, {}), bytes, o.detached === true);
}

/** A JWT: the claims as a JSON payload, the header {"alg": …, "typ": "JWT"} plus `options.header`. */
export function signJwt(claims: JwtClaims, key: Bytes, options: SignJwtOptions): string {
  const o = requiredOptions(options, ["alg", "header"], "signJwt options");
  const alg = checkAlgorithm(o.alg, "options.alg");
  checkKey(key, [alg]);
  if (!isPlainObject(claims)) {
    throw new KeyedError("BAD_INPUT", "claims must be an object (the JWT payload).");
  }
  const wrongType = checkClaimTypes(claims);
  if (wrongType !== undefined) throw new KeyedError("BAD_INPUT", `claims: ${wrongType}`);
  const payload = utf8ToBytes(toJson(claims, "claims"));
  return signCompact(key, alg, buildHeader(alg, o.header, { typ: "JWT" }), payload, false);
}

// --- verifying -----------------------------------------------------------------------------------
