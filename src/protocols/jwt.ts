/**
 * JSON Web Signature with HMAC, compact serialization (RFC 7515; HS256, HS384, HS512 of RFC 7518
 * section 3.2), and JSON Web Tokens on it (RFC 7519).
 *
 * The verifier is told which algorithms it accepts and never takes the token's word for it
 * (RFC 8725 section 3.1): "none", the RSA and EC algorithms, and any HS algorithm not in its list
 * are refused before a MAC is computed. The MAC is checked over the exact segments received,
 * before the payload is decoded as JSON or any claim is read. Keys must be at least as long as
 * the hash output (RFC 7518 section 3.2: 32 bytes for HS256, 48 for HS384, 64 for HS512).
 *
 * A wrong, malformed, expired or otherwise unacceptable token is an answer
 * `{ ok: false, reason, message }`, never an exception; KeyedError is for programming errors
 * (a key or options of the wrong type, a key too short for an allowed algorithm).
 *
 * The parts live under jwt/: common.ts (algorithms, key and option checks), sign.ts, verify.ts.
 */
export { clearJwtKeyCache, type JwsKey } from "./jwt/common.js";
export { signJws, signJwt } from "./jwt/sign.js";
export type {
  JwsAlgorithm,
  JwsFailure,
  JwsHeader,
  JwsResult,
  JwtClaims,
  JwtFailure,
  JwtResult,
  Refusal,
  SignJwsOptions,
  SignJwtOptions,
  VerifyJwsOptions,
  VerifyJwtOptions,
} from "./jwt/types.js";
export { verifyJws, verifyJwt } from "./jwt/verify.js";
