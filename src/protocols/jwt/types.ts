/** The public types of the JWS / JWT module. */
import type { Bytes } from "../../core/bytes.js";
import type { Refusal } from "../../core/result.js";
import type { TimeInput } from "../../core/time.js";

export type JwsAlgorithm = "HS256" | "HS384" | "HS512";

/** A JOSE header (RFC 7515 section 4). */
export interface JwsHeader {
  alg: string;
  typ?: string;
  cty?: string;
  kid?: string;
  [name: string]: unknown;
}

/** JWT claims (RFC 7519 section 4.1); a verified token's registered claims have these types. */
export interface JwtClaims {
  iss?: string;
  sub?: string;
  aud?: string | string[];
  /** Expiration time, seconds since the epoch. */
  exp?: number;
  /** Not before, seconds since the epoch. */
  nbf?: number;
  /** Issued at, seconds since the epoch. */
  iat?: number;
  jti?: string;
  [name: string]: unknown;
}

export type JwsFailure =
  /** Not three base64url segments, not canonical base64url, or a header that is not JSON. */
  | "malformed"
  /** `alg` is "none", not an HS algorithm, or not in `options.algorithms`. */
  | "alg_not_allowed"
  /** The header asks for an extension (`crit`, `b64`) that keyed does not implement. */
  | "crit_unsupported"
  /** `typ` is not the one `options.typ` asks for. */
  | "typ_mismatch"
  /** The MAC does not match. */
  | "signature_mismatch";

export type JwtFailure =
  | JwsFailure
  /** The payload is not a JSON object. */
  | "payload_not_json"
  /** A registered claim has the wrong type (`exp` that is not a number, …). */
  | "claim_invalid"
  /** A claim in `options.requiredClaims` (or `iat`, for `maxAgeSeconds`) is absent. */
  | "missing_claim"
  /** `exp` has passed (or `iat` is older than `maxAgeSeconds`), leeway included. */
  | "expired"
  /** `nbf` is still to come, leeway included. */
  | "not_yet_valid"
  /** `iat` is in the future beyond the leeway. */
  | "issued_in_future"
  | "issuer_mismatch"
  /** The token names audiences and none is `options.audience` (or no audience was given). */
  | "audience_mismatch";

export type { Refusal };

export type JwsResult =
  | { readonly ok: true; readonly header: JwsHeader; readonly payload: Bytes }
  | Refusal<JwsFailure>;

export type JwtResult =
  | { readonly ok: true; readonly header: JwsHeader; readonly payload: JwtClaims }
  | Refusal<JwtFailure>;

export interface SignJwsOptions {
  alg: JwsAlgorithm;
  /** More header parameters (`kid`, `typ`, …); `alg` is set from `options.alg`. */
  header?: Record<string, unknown>;
  /** Leave the payload out of the token (RFC 7515 appendix F): "header..signature". */
  detached?: boolean;
}

export interface SignJwtOptions {
  alg: JwsAlgorithm;
  /** More header parameters (`kid`, …); `typ` defaults to "JWT". */
  header?: Record<string, unknown>;
}

export interface VerifyJwsOptions {
  /** The algorithms this verifier accepts, e.g. ["HS256"]. Required. */
  algorithms: readonly JwsAlgorithm[];
  /** The payload of a detached JWS ("header..signature"); the token's payload must then be empty. */
  payload?: Bytes | string;
  /** Require this `typ` header (compared as RFC 7515 4.1.9 has it: case-insensitive, "application/" optional). */
  typ?: string;
}

export interface VerifyJwtOptions {
  /** The algorithms this verifier accepts, e.g. ["HS256"]. Required. */
  algorithms: readonly JwsAlgorithm[];
  /** The current time: a Date or seconds since the epoch. Default: the system clock. */
  now?: TimeInput;
  /** Clock difference tolerated on exp, nbf, iat and maxAgeSeconds, in seconds. Default 0. */
  toleranceSeconds?: number;
  /** @deprecated The old name of `toleranceSeconds` (RFC 7519's "leeway"), accepted for one release. */
  leewaySeconds?: number;
  /** Accepted `iss` values; the token must have one of them. */
  issuer?: string | readonly string[];
  /** This verifier's names; a token with an `aud` claim must name one (RFC 7519 4.1.3). */
  audience?: string | readonly string[];
  /** Claims that must be present, e.g. ["exp"]. */
  requiredClaims?: readonly string[];
  /** Refuse tokens issued longer ago than this (needs `iat`). */
  maxAgeSeconds?: number;
  /** Require this `typ` header, e.g. "JWT" or "at+jwt" (RFC 8725 3.11). */
  typ?: string;
}

// --- arguments -----------------------------------------------------------------------------------
