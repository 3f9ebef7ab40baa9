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
 */
import {
  assertBytes,
  type Bytes,
  base64urlToBytes,
  bytesToBase64url,
  bytesToUtf8,
  utf8ToBytes,
} from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import { checkOptions, describeType } from "../core/options.js";
import { type Refusal, refuse } from "../core/result.js";
import { hmac } from "../mac/hmac.js";

/** The JWS algorithms keyed signs and verifies: HMAC with SHA-2 (RFC 7518 section 3.2). */
export type JwsAlgorithm = "HS256" | "HS384" | "HS512";

const HASH = { HS256: "sha256", HS384: "sha384", HS512: "sha512" } as const;
/** RFC 7518 section 3.2: a key at least as long as the hash output. */
const MIN_KEY_BYTES = { HS256: 32, HS384: 48, HS512: 64 } as const;
const ALGORITHMS = Object.keys(HASH) as JwsAlgorithm[];

/** A JOSE header (RFC 7515 section 4). */
export interface JwsHeader {
  /** The algorithm (4.1.1): one of `JwsAlgorithm` in a verified token. */
  alg: string;
  /** The media type of the whole token (4.1.9), such as "JWT". */
  typ?: string;
  /** The media type of the payload (4.1.10). */
  cty?: string;
  /** Which key signed it (4.1.4): a hint for choosing the key, never a reason to trust one. */
  kid?: string;
  [name: string]: unknown;
}

/** JWT claims (RFC 7519 section 4.1); a verified token's registered claims have these types. */
export interface JwtClaims {
  /** Issuer (4.1.1). */
  iss?: string;
  /** Subject (4.1.2). */
  sub?: string;
  /** Audience (4.1.3): the recipients the token is for. */
  aud?: string | string[];
  /** Expiration time, seconds since the epoch. */
  exp?: number;
  /** Not before, seconds since the epoch. */
  nbf?: number;
  /** Issued at, seconds since the epoch. */
  iat?: number;
  /** JWT ID (4.1.7): a unique id, for replay detection. */
  jti?: string;
  [name: string]: unknown;
}

/** Why `verifyJws` refused a token. */
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

/** Why `verifyJwt` refused a token: a JWS failure, or a claim check. */
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
  /** `iss` is absent or not one of `options.issuer`. */
  | "issuer_mismatch"
  /** The token names audiences and none is `options.audience` (or no audience was given). */
  | "audience_mismatch";

export type { Refusal };

/** What `verifyJws` answers: the verified header and payload, or a refusal. */
export type JwsResult =
  | {
      /** The MAC matches under an allowed algorithm. */
      readonly ok: true;
      /** The verified JOSE header. */
      readonly header: JwsHeader;
      /** The verified payload's bytes. */
      readonly payload: Bytes;
    }
  | Refusal<JwsFailure>;

/** What `verifyJwt` answers: the verified header and claims, or a refusal. */
export type JwtResult =
  | {
      /** The MAC matches and every claim check passed. */
      readonly ok: true;
      /** The verified JOSE header. */
      readonly header: JwsHeader;
      /** The verified claims. */
      readonly payload: JwtClaims;
    }
  | Refusal<JwtFailure>;

/** Settings of `signJws`. */
export interface SignJwsOptions {
  /** The algorithm; the key must be at least as long as its hash output. */
  alg: JwsAlgorithm;
  /** More header parameters (`kid`, `typ`, …); `alg` is set from `options.alg`. */
  header?: Record<string, unknown>;
  /** Leave the payload out of the token (RFC 7515 appendix F): "header..signature". */
  detached?: boolean;
}

/** Settings of `signJwt`. */
export interface SignJwtOptions {
  /** The algorithm; the key must be at least as long as its hash output. */
  alg: JwsAlgorithm;
  /** More header parameters (`kid`, …); `typ` defaults to "JWT". */
  header?: Record<string, unknown>;
}

/** Settings of `verifyJws`: the allow-list of algorithms, and what else to require. */
export interface VerifyJwsOptions {
  /** The algorithms this verifier accepts, e.g. ["HS256"]. Required. */
  algorithms: readonly JwsAlgorithm[];
  /** The payload of a detached JWS ("header..signature"); the token's payload must then be empty. */
  payload?: Bytes | string;
  /** Require this `typ` header (compared as RFC 7515 4.1.9 has it: case-insensitive, "application/" optional). */
  typ?: string;
}

/** Settings of `verifyJwt`: the allow-list of algorithms and the claim checks (RFC 8725). */
export interface VerifyJwtOptions {
  /** The algorithms this verifier accepts, e.g. ["HS256"]. Required. */
  algorithms: readonly JwsAlgorithm[];
  /** The current time in seconds since the epoch. Default: the system clock. */
  now?: number;
  /** Clock skew tolerated on exp, nbf, iat and maxAgeSeconds, in seconds. Default 0. */
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

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** These functions' options are required (they name the algorithms): undefined is refused too. */
function requiredOptions(
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

function checkAlgorithm(alg: unknown, name: string): JwsAlgorithm {
  if (typeof alg === "string" && (ALGORITHMS as string[]).includes(alg)) return alg as JwsAlgorithm;
  if (alg === "none") {
    throw new KeyedError("BAD_INPUT", `${name}: "none" (an unsecured JWS) is never accepted.`);
  }
  throw new KeyedError(
    "UNKNOWN_ALGORITHM",
    `${name} must be one of ${ALGORITHMS.join(", ")}; got ${typeof alg === "string" ? JSON.stringify(alg) : describeType(alg)}.`,
  );
}

function checkKey(key: unknown, algorithms: readonly JwsAlgorithm[]): Bytes {
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

function checkAlgorithmList(value: unknown): JwsAlgorithm[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new KeyedError(
      "BAD_INPUT",
      'options.algorithms must list the algorithms to accept, e.g. ["HS256"] (RFC 8725 3.1).',
    );
  }
  return value.map((alg, i) => checkAlgorithm(alg, `options.algorithms[${i}]`));
}

function checkSeconds(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new KeyedError(
      "BAD_INPUT",
      `${name} must be a number of seconds, 0 or more; got ${typeof value === "number" ? value : describeType(value)}.`,
    );
  }
  return value;
}

function stringList(value: unknown, name: string): string[] | undefined {
  if (value === undefined) return undefined;
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list) || list.length === 0 || !list.every((v) => typeof v === "string")) {
    throw new KeyedError("BAD_INPUT", `${name} must be a string or a non-empty array of strings.`);
  }
  return list;
}

/** RFC 7515 4.1.9: typ values compare case-insensitively, "application/" may be left out. */
function normalizeTyp(typ: string): string {
  const lower = typ.toLowerCase();
  return lower.startsWith("application/") ? lower.slice("application/".length) : lower;
}

function toJson(value: unknown, name: string): string {
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

function checkClaimTypes(claims: Record<string, unknown>): string | undefined {
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

/** Base64url as JWS uses it: no padding, no whitespace, nothing else (RFC 7515 section 2). */
const SEGMENT = /^[A-Za-z0-9_-]*$/;
/** The base64url length of each algorithm's MAC (32, 48 and 64 bytes, unpadded). */
const SIGNATURE_CHARS = { HS256: 43, HS384: 64, HS512: 86 } as const;
/**
 * The longest header segment decoded. A JOSE header is a few parameters; a longer one is refused
 * before it is decoded or parsed as JSON, so that a huge one costs nothing to refuse.
 */
const MAX_HEADER_CHARS = 64 * 1024;

function decodeSegment(segment: string): Bytes | undefined {
  if (!SEGMENT.test(segment)) return undefined;
  try {
    return base64urlToBytes(segment); // canonical only: unused low bits must be zero
  } catch {
    return undefined;
  }
}

/**
 * The JSON text in `bytes`, or undefined. RFC 8259 section 8.1: a byte order mark must not be
 * added to JSON text, and TextDecoder would silently drop one; a parser "MAY ignore" it, keyed
 * refuses it so that two parsers cannot read one token differently.
 */
function parseJson(bytes: Bytes): unknown {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return undefined;
  }
  try {
    return JSON.parse(bytesToUtf8(bytes));
  } catch {
    return undefined;
  }
}

function segmentCount(token: string): number {
  let count = 1;
  for (let at = token.indexOf("."); at >= 0; at = token.indexOf(".", at + 1)) count++;
  return count;
}

interface CompactChecks {
  algorithms: readonly JwsAlgorithm[];
  typ: string | undefined;
  detachedPayload: Bytes | undefined;
}

/** RFC 7515 section 5.2, steps 1-8, on a compact JWS. */
function verifyCompact(token: unknown, key: Bytes, checks: CompactChecks): JwsResult {
  if (typeof token !== "string") {
    throw new KeyedError("BAD_INPUT", `token must be a string; got ${describeType(token)}.`);
  }
  // Found with indexOf rather than split: a token of a million dots allocates nothing.
  const first = token.indexOf(".");
  const second = first < 0 ? -1 : token.indexOf(".", first + 1);
  if (second < 0 || token.indexOf(".", second + 1) >= 0) {
    return refuse(
      "malformed",
      `a compact JWS has 3 segments separated by "."; this token has ${segmentCount(token)}.`,
    );
  }
  const h = token.slice(0, first);
  const p = token.slice(first + 1, second);
  const s = token.slice(second + 1);
  if (h.length > MAX_HEADER_CHARS) {
    return refuse(
      "malformed",
      `the header segment is ${h.length} characters long; the longest accepted is ${MAX_HEADER_CHARS}.`,
    );
  }
  const headerBytes = h === "" ? undefined : decodeSegment(h);
  if (headerBytes === undefined || !SEGMENT.test(s) || s.length % 4 === 1) {
    return refuse(
      "malformed",
      "the header and signature must be canonical base64url (A-Z a-z 0-9 - _, no padding or spaces).",
    );
  }
  const header = parseJson(headerBytes);
  if (!isPlainObject(header) || typeof header.alg !== "string") {
    return refuse("malformed", "the header must be a JSON object with an alg.");
  }
  const alg = header.alg;
  if (!(checks.algorithms as readonly string[]).includes(alg)) {
    return refuse(
      "alg_not_allowed",
      alg === "none"
        ? 'alg "none" (an unsecured JWS) is never accepted.'
        : `alg ${JSON.stringify(alg)} is not among the accepted: ${checks.algorithms.join(", ")}.`,
    );
  }
  // RFC 7515 4.1.11: an extension the recipient does not understand makes the JWS invalid.
  if (header.crit !== undefined || (header.b64 !== undefined && header.b64 !== true)) {
    return refuse(
      "crit_unsupported",
      "the header asks for extensions (crit, b64) keyed does not implement.",
    );
  }
  if (
    checks.typ !== undefined &&
    (typeof header.typ !== "string" || normalizeTyp(header.typ) !== normalizeTyp(checks.typ))
  ) {
    return refuse("typ_mismatch", `typ must be ${JSON.stringify(checks.typ)}.`);
  }

  let payloadSegment = p;
  let payload: Bytes | undefined;
  if (checks.detachedPayload !== undefined) {
    if (p !== "") {
      return refuse(
        "malformed",
        "a detached JWS has an empty payload segment (header..signature).",
      );
    }
    payload = checks.detachedPayload;
    payloadSegment = bytesToBase64url(payload);
  } else if (!SEGMENT.test(p)) {
    return refuse("malformed", "the payload must be canonical base64url.");
  }

  // A signature of another length cannot match: it is not decoded (nor is a huge one read).
  if (s.length !== SIGNATURE_CHARS[alg as JwsAlgorithm]) {
    return refuse("signature_mismatch", "the JWS signature does not match.");
  }
  const signature = decodeSegment(s);
  if (signature === undefined) {
    return refuse("malformed", "the signature must be canonical base64url.");
  }

  // The signing input is the segments as received (RFC 7515 5.2 step 8), never re-encoded.
  const m = hmac(HASH[alg as JwsAlgorithm], key);
  let ok: boolean;
  try {
    ok = m.verify(utf8ToBytes(`${h}.${payloadSegment}`), signature);
  } finally {
    m.destroy();
  }
  if (!ok) return refuse("signature_mismatch", "the JWS signature does not match.");
  // The payload is decoded once it is known to be authentic.
  payload ??= decodeSegment(p);
  if (payload === undefined) return refuse("malformed", "the payload must be canonical base64url.");
  return { ok: true, header: header as JwsHeader, payload };
}

/**
 * Verifies a compact JWS under `key` with one of `options.algorithms`; the payload comes back as
 * bytes. For a detached JWS ("header..signature") give the payload in `options.payload`.
 */
export function verifyJws(token: string, key: Bytes, options: VerifyJwsOptions): JwsResult {
  const o = requiredOptions(options, ["algorithms", "payload", "typ"], "verifyJws options");
  const algorithms = checkAlgorithmList(o.algorithms);
  checkKey(key, algorithms);
  let detachedPayload: Bytes | undefined;
  if (typeof o.payload === "string") detachedPayload = utf8ToBytes(o.payload);
  else if (o.payload !== undefined) {
    assertBytes(o.payload, "options.payload");
    detachedPayload = o.payload;
  }
  if (o.typ !== undefined && typeof o.typ !== "string") {
    throw new KeyedError("BAD_INPUT", "options.typ must be a string.");
  }
  return verifyCompact(token, key, {
    algorithms,
    typ: o.typ as string | undefined,
    detachedPayload,
  });
}

/**
 * Verifies a JWT: the JWS (as `verifyJws`), then a JSON-object payload, the registered claims'
 * types, and exp / nbf / iat with the leeway (RFC 7519 section 4.1), then the issuer and
 * audience when asked (a token with an `aud` claim is refused unless `options.audience` names one).
 */
export function verifyJwt(token: string, key: Bytes, options: VerifyJwtOptions): JwtResult {
  const o = requiredOptions(
    options,
    [
      "algorithms",
      "now",
      "leewaySeconds",
      "issuer",
      "audience",
      "requiredClaims",
      "maxAgeSeconds",
      "typ",
    ],
    "verifyJwt options",
  );
  const algorithms = checkAlgorithmList(o.algorithms);
  checkKey(key, algorithms);
  if (o.now !== undefined && (typeof o.now !== "number" || !Number.isFinite(o.now))) {
    throw new KeyedError("BAD_INPUT", "options.now must be the time in seconds since the epoch.");
  }
  const now = (o.now as number | undefined) ?? Date.now() / 1000;
  const leeway = checkSeconds(o.leewaySeconds, "options.leewaySeconds", 0);
  const maxAge =
    o.maxAgeSeconds === undefined
      ? undefined
      : checkSeconds(o.maxAgeSeconds, "options.maxAgeSeconds", 0);
  const issuers = stringList(o.issuer, "options.issuer");
  const audiences = stringList(o.audience, "options.audience");
  const required =
    o.requiredClaims === undefined
      ? []
      : (stringList(o.requiredClaims, "options.requiredClaims") ?? []);
  if (o.typ !== undefined && typeof o.typ !== "string") {
    throw new KeyedError("BAD_INPUT", "options.typ must be a string.");
  }

  const jws = verifyCompact(token, key, {
    algorithms,
    typ: o.typ as string | undefined,
    detachedPayload: undefined,
  });
  if (!jws.ok) return jws;
  const claims = parseJson(jws.payload);
  if (!isPlainObject(claims)) {
    return refuse("payload_not_json", "the JWT payload must be a JSON object.");
  }
  const wrongType = checkClaimTypes(claims);
  if (wrongType !== undefined) return refuse("claim_invalid", wrongType);
  for (const name of [...required, ...(maxAge === undefined ? [] : ["iat"])]) {
    if (!Object.hasOwn(claims, name)) {
      return refuse("missing_claim", `the token has no ${name} claim.`);
    }
  }
  const { exp, nbf, iat } = claims as JwtClaims;
  if (exp !== undefined && now >= exp + leeway) {
    return refuse("expired", `the token expired at ${exp}; it is ${now}.`);
  }
  if (nbf !== undefined && now < nbf - leeway) {
    return refuse("not_yet_valid", `the token is not valid before ${nbf}; it is ${now}.`);
  }
  if (iat !== undefined && iat > now + leeway) {
    return refuse(
      "issued_in_future",
      `the token was issued at ${iat}, in the future; it is ${now}.`,
    );
  }
  if (maxAge !== undefined && iat !== undefined && now - iat > maxAge + leeway) {
    return refuse(
      "expired",
      `the token was issued ${now - iat} s ago; maxAgeSeconds is ${maxAge}.`,
    );
  }
  if (issuers !== undefined && !issuers.includes(claims.iss as string)) {
    return refuse(
      "issuer_mismatch",
      `iss ${JSON.stringify(claims.iss)} is not an accepted issuer.`,
    );
  }
  const aud = claims.aud as string | string[] | undefined;
  if (aud !== undefined || audiences !== undefined) {
    const named = typeof aud === "string" ? [aud] : (aud ?? []);
    if (audiences === undefined) {
      return refuse(
        "audience_mismatch",
        "the token has an aud claim: pass options.audience with this verifier's name (RFC 7519 4.1.3).",
      );
    }
    if (!named.some((a) => audiences.includes(a))) {
      return refuse("audience_mismatch", "the token is not addressed to this audience.");
    }
  }
  return { ok: true, header: jws.header, payload: claims as JwtClaims };
}
