/** Verification: the allow-list, the MAC over the exact segments, then the JOSE header and claims. */
import {
  assertBytes,
  type Bytes,
  base64urlToBytes,
  bytesToBase64url,
  bytesToUtf8,
  utf8ToBytes,
} from "../../core/bytes.js";
import { equalPrefix } from "../../core/equal.js";
import { KeyedError } from "../../core/errors.js";
import { describeType } from "../../core/options.js";
import { type Refusal, refuse } from "../../core/result.js";
import { durationSeconds, nowSeconds, toleranceSeconds } from "../../core/time.js";
import {
  assertReplayStore,
  claimAccepted,
  type ReplayClaim,
  type ReplayStore,
} from "../../safe/store.js";
import {
  checkAlgorithmList,
  checkClaimTypes,
  checkVerificationKey,
  isPlainObject,
  type JwsKey,
  normalizeTyp,
  requiredOptions,
  stringList,
  verificationKernels,
} from "./common.js";
import type {
  JwsAlgorithm,
  JwsHeader,
  JwsResult,
  JwtClaims,
  JwtFailure,
  JwtResult,
  VerifyJwsOptions,
  VerifyJwtOptions,
} from "./types.js";

/** Base64url as JWS uses it: no padding, no whitespace, nothing else (RFC 7515 section 2). */
const SEGMENT = /^[A-Za-z0-9_-]*$/;
/** The base64url length of each algorithm's MAC (32, 48 and 64 bytes, unpadded). */
const SIGNATURE_CHARS = { HS256: 43, HS384: 64, HS512: 86 } as const;
/**
 * The longest header segment decoded. A JOSE header is a few parameters; a longer one is refused
 * before it is decoded or parsed as JSON, so that a huge one costs nothing to refuse.
 */
const MAX_HEADER_CHARS = 64 * 1024;

/**
 * The HMAC a token is checked against (64 bytes: HS512's), one token at a time: verifying makes
 * no array for it, and wipes it after every check.
 */
const EXPECTED = new Uint8Array(64);

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
function verifyCompact(token: unknown, key: JwsKey, checks: CompactChecks): JwsResult {
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

  // With a keyset, the header's kid names the key (RFC 7515 4.1.4): the sender's claim, so an
  // unknown or disabled one is a refusal. The kid is authenticated by the signature below.
  const kernels = verificationKernels(key, alg as JwsAlgorithm, header.kid);
  if (kernels.length === 0) {
    return refuse(
      "unknown_kid",
      header.kid === undefined
        ? `the keyset has no enabled ${alg} key.`
        : `the keyset has no enabled ${alg} key with this kid.`,
    );
  }
  // The signing input is the segments as received (RFC 7515 5.2 step 8), never re-encoded. Every
  // candidate key is tried (a token without kid against a keyset), each compared in constant time.
  const signingInput = utf8ToBytes(`${h}.${payloadSegment}`);
  const length = kernels[0].outputLength;
  let ok = false;
  for (const kernel of kernels) {
    kernel.compute(signingInput, EXPECTED);
    ok = equalPrefix(EXPECTED, length, signature) || ok;
  }
  // A computed signature that did not match is a forgery for this token: never leave it behind.
  EXPECTED.fill(0, 0, length);
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
export function verifyJws(token: string, key: JwsKey, options: VerifyJwsOptions): JwsResult {
  const o = requiredOptions(options, ["algorithms", "payload", "typ"], "verifyJws options");
  const algorithms = checkAlgorithmList(o.algorithms);
  checkVerificationKey(key, algorithms);
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
export function verifyJwt(
  token: string,
  key: JwsKey,
  options: VerifyJwtOptions & { replayStore: ReplayStore },
): Promise<JwtResult>;
export function verifyJwt(token: string, key: JwsKey, options: VerifyJwtOptions): JwtResult;
export function verifyJwt(
  token: string,
  key: JwsKey,
  options: VerifyJwtOptions,
): JwtResult | Promise<JwtResult> {
  const checks = jwtChecks(options, key);
  const result = checkJwt(token, key, checks);
  // With a replay store every answer is a Promise, refusals too (the overload says so).
  return claimAccepted<JwtResult, Refusal<JwtFailure>>(result, checks.replayStore, () =>
    jtiClaim((result as JwtResult & { ok: true }).payload, checks),
  );
}

/** verifyJwt's options, checked once (BAD_INPUT throws here, before any token is read). */
interface JwtChecks {
  algorithms: JwsAlgorithm[];
  typ: string | undefined;
  now: number;
  leeway: number;
  maxAge: number | undefined;
  issuers: string[] | undefined;
  audiences: string[] | undefined;
  required: string[];
  replayStore: ReplayStore | undefined;
}

function jwtChecks(options: VerifyJwtOptions, key: JwsKey): JwtChecks {
  const o = requiredOptions(
    options,
    [
      "algorithms",
      "now",
      "toleranceSeconds",
      "leewaySeconds",
      "issuer",
      "audience",
      "requiredClaims",
      "maxAgeSeconds",
      "typ",
      "replayStore",
    ],
    "verifyJwt options",
  );
  const replayStore = o.replayStore as ReplayStore | undefined;
  if (replayStore !== undefined) assertReplayStore(replayStore, "options.replayStore");
  const algorithms = checkAlgorithmList(o.algorithms);
  checkVerificationKey(key, algorithms);
  const now = nowSeconds(o.now);
  const leeway = toleranceSeconds(o, ["leewaySeconds"], 0);
  const maxAge =
    o.maxAgeSeconds === undefined
      ? undefined
      : durationSeconds(o.maxAgeSeconds, "options.maxAgeSeconds");
  const issuers = stringList(o.issuer, "options.issuer");
  const audiences = stringList(o.audience, "options.audience");
  const required =
    o.requiredClaims === undefined
      ? []
      : (stringList(o.requiredClaims, "options.requiredClaims") ?? []);
  if (o.typ !== undefined && typeof o.typ !== "string") {
    throw new KeyedError("BAD_INPUT", "options.typ must be a string.");
  }

  return {
    algorithms,
    typ: o.typ as string | undefined,
    now,
    leeway,
    maxAge,
    issuers,
    audiences,
    required,
    replayStore,
  };
}

/** The JWS, then the payload and its claims (verifyJwt without the replay store). */
function checkJwt(token: string, key: JwsKey, checks: JwtChecks): JwtResult {
  const { algorithms, typ, now, leeway, maxAge, issuers, audiences, required } = checks;
  const jws = verifyCompact(token, key, { algorithms, typ, detachedPayload: undefined });
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

/**
 * With a replay store: what a verified token is remembered by, its `jti` (RFC 7519 4.1.7) with its
 * issuer, until the token stops being valid (exp + tolerance, or iat + maxAgeSeconds + tolerance),
 * from its iat (or nbf) for the store's epoch rule. A token without jti, or without a bound on its
 * validity, cannot be remembered: refused.
 */
function jtiClaim(payload: JwtClaims, checks: JwtChecks): ReplayClaim | Refusal<JwtFailure> {
  const { now, leeway, maxAge } = checks;
  const { jti, iss, exp, iat, nbf } = payload;
  if (typeof jti !== "string" || jti === "") {
    return refuse("missing_claim", "with a replay store, a token needs a jti claim.");
  }
  const until =
    exp !== undefined
      ? exp + leeway
      : iat !== undefined && maxAge !== undefined
        ? iat + maxAge + leeway
        : undefined;
  if (until === undefined) {
    return refuse(
      "missing_claim",
      "with a replay store, a token needs exp (or iat, with maxAgeSeconds) to bound how long its jti is remembered.",
    );
  }
  return {
    id: `jwt:${JSON.stringify([iss ?? null, jti])}`,
    validFrom: iat ?? nbf,
    validUntil: Math.max(until, now + 1),
    now,
  };
}
