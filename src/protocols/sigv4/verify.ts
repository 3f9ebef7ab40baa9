/** Verification of SigV4-signed requests and presigned URLs. */
import { hexToBytes } from "../../core/bytes.js";
import { equal } from "../../core/equal.js";
import { checkOptions, describeType } from "../../core/options.js";
import { isRefusal, type Refusal, refuse } from "../../core/result.js";
import { toleranceSeconds } from "../../core/time.js";
import {
  assertReplayStore,
  claimAccepted,
  type ReplayClaim,
  type ReplayStore,
} from "../../safe/store.js";
import {
  canonicalHeaderValue,
  canonicalQuery,
  canonicalUri,
  decodeComponent,
  parseAmzDate,
  type QueryPair,
  sha256Hex,
  splitQuery,
} from "./canonical.js";
import {
  ACCESS_KEY_ID,
  badInput,
  checkBoolean,
  checkDate,
  checkPattern,
  checkSecretText,
  DEFAULT_CLOCK_SKEW_SECONDS,
  HEX64,
  MAX_PRESIGN_SECONDS,
  PATH_OPTION_NAMES,
  QUERY_AUTH_PARAMETERS,
  quote,
  resolvePathOptions,
  SCOPE_PART,
  SCOPE_TEXT,
  SIGV4_ALGORITHM,
  TERMINATOR,
  TOKEN,
  UNSIGNED_PAYLOAD,
} from "./common.js";
import { signCanonical } from "./keys.js";
import type { SigV4Failure, SigV4Request, SigV4Verification, SigV4VerifyOptions } from "./types.js";
import { type HeaderMap, Malformed, prepareRequest, withHost } from "./url.js";

const VERIFY_OPTION_NAMES = [
  "secretAccessKey",
  "accessKeyId",
  "region",
  "service",
  "now",
  "toleranceSeconds",
  "clockSkewSeconds",
  "allowUnsignedPayload",
  "allowUnsignedHeaders",
  "signBody",
  "replayStore",
  ...PATH_OPTION_NAMES,
];

/** What a request claims about its signature, read from the Authorization header or the query. */
interface AuthClaim {
  presigned: boolean;
  accessKeyId: string;
  scope: string[];
  amzDate: string;
  date: Date;
  expiresIn: number | undefined;
  signedNames: string[];
  signature: string;
  /** The query parameters that are signed (all but X-Amz-Signature). */
  signedQuery: QueryPair[];
}

const SIGNED_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

/** The signed header names: lower case, sorted, each once. */
function parseSignedNames(text: string): string[] | undefined {
  const names = text.split(";");
  for (let i = 0; i < names.length; i++) {
    if (!SIGNED_NAME.test(names[i]) || (i > 0 && names[i - 1] >= names[i])) return undefined;
  }
  return names;
}

function parseCredential(text: string): [string, string[]] | undefined {
  const parts = text.split("/");
  if (parts.length !== 5 || parts.some((p) => p === "")) return undefined;
  return [parts[0], parts.slice(1)];
}

function readHeaderAuth(
  values: string[],
  headers: HeaderMap,
  pairs: QueryPair[],
): AuthClaim | Refusal<SigV4Failure> {
  if (values.length !== 1) return fail("malformed_auth", "several Authorization headers");
  const value = canonicalHeaderValue(values);
  const prefix = `${SIGV4_ALGORITHM} `;
  if (!value.startsWith(prefix))
    return fail("unsupported_algorithm", `the Authorization header is not ${SIGV4_ALGORITHM}`);
  const fields = new Map<string, string>();
  // Three fields; a fourth is enough to refuse, so no more are split off (a 10 MB header of commas).
  for (const part of value.slice(prefix.length).split(",", 4)) {
    const item = part.trim();
    const eq = item.indexOf("=");
    const key = item.slice(0, eq);
    if (eq <= 0 || fields.has(key))
      return fail("malformed_auth", "the Authorization header is malformed");
    fields.set(key, item.slice(eq + 1));
  }
  const credential = parseCredential(fields.get("Credential") ?? "");
  const signedNames = parseSignedNames(fields.get("SignedHeaders") ?? "");
  const signature = fields.get("Signature");
  if (fields.size !== 3 || !credential || !signedNames || signature === undefined) {
    return fail(
      "malformed_auth",
      "the Authorization header needs Credential, SignedHeaders (sorted, lower case) and Signature",
    );
  }
  const dates = headers.get("x-amz-date");
  if (dates === undefined || dates.length !== 1)
    return fail("missing_date", "the request needs one X-Amz-Date header");
  const amzDate = canonicalHeaderValue(dates);
  const date = parseAmzDate(amzDate);
  if (!date) return fail("malformed_date", "X-Amz-Date is not a date YYYYMMDDTHHMMSSZ");
  if (!signedNames.includes("x-amz-date"))
    return fail("header_not_signed", "X-Amz-Date is not signed");
  if (signedNames.includes("authorization"))
    return fail("malformed_auth", "SignedHeaders lists authorization");
  return {
    presigned: false,
    accessKeyId: credential[0],
    scope: credential[1],
    amzDate,
    date,
    expiresIn: undefined,
    signedNames,
    signature,
    signedQuery: pairs,
  };
}

function readQueryAuth(pairs: QueryPair[]): AuthClaim | Refusal<SigV4Failure> {
  const auth = new Map<string, string>();
  const signedQuery: QueryPair[] = [];
  for (const pair of pairs) {
    const name = decodeComponent(pair[0]);
    if (name !== undefined && QUERY_AUTH_PARAMETERS.has(name)) {
      const value = decodeComponent(pair[1]);
      if (auth.has(name)) return fail("malformed_auth", `${name} appears more than once`);
      if (value === undefined) return fail("malformed_auth", `${name} is not UTF-8`);
      auth.set(name, value);
    }
    if (name !== "X-Amz-Signature") signedQuery.push(pair);
  }
  if (auth.get("X-Amz-Algorithm") !== SIGV4_ALGORITHM)
    return fail("unsupported_algorithm", `X-Amz-Algorithm is not ${SIGV4_ALGORITHM}`);
  const credential = parseCredential(auth.get("X-Amz-Credential") ?? "");
  if (!credential) return fail("malformed_auth", "X-Amz-Credential is malformed");
  const amzDate = auth.get("X-Amz-Date") ?? "";
  const date = parseAmzDate(amzDate);
  if (!date) return fail("malformed_date", "X-Amz-Date is not a date YYYYMMDDTHHMMSSZ");
  const expires = auth.get("X-Amz-Expires") ?? "";
  const expiresIn = /^\d{1,6}$/.test(expires) ? Number(expires) : 0;
  if (expiresIn < 1 || expiresIn > MAX_PRESIGN_SECONDS) {
    return fail(
      "malformed_auth",
      `X-Amz-Expires must be a whole number of seconds from 1 to ${MAX_PRESIGN_SECONDS}`,
    );
  }
  const signedNames = parseSignedNames(auth.get("X-Amz-SignedHeaders") ?? "");
  if (!signedNames)
    return fail("malformed_auth", "X-Amz-SignedHeaders is not a sorted list of lower-case names");
  return {
    presigned: true,
    accessKeyId: credential[0],
    scope: credential[1],
    amzDate,
    date,
    expiresIn,
    signedNames,
    signature: auth.get("X-Amz-Signature") ?? "",
    signedQuery,
  };
}

/** A refusal; the message is the sentence verifyRequest gave as its reason before reasons were codes. */
function fail(reason: SigV4Failure, message: string): Refusal<SigV4Failure> {
  return refuse(reason, message);
}

/** The allowUnsignedHeaders option: header names, lower-cased. */
function checkHeaderNames(value: unknown, name: string): Set<string> {
  if (value === undefined) return new Set();
  const accepted = "an array of HTTP header names";
  if (!Array.isArray(value))
    throw badInput(`${name} must be ${accepted}; got ${describeType(value)}.`);
  return new Set(
    value.map((n, i) => checkPattern(n, `${name}[${i}]`, TOKEN, accepted).toLowerCase()),
  );
}

/**
 * Verifies a SigV4-signed request (Authorization header) or presigned URL (X-Amz-Signature in the
 * query): the credential scope, the time (and expiry), that every x-amz-* header sent is signed
 * (AWS's HeadersNotSigned), the body against its hash, then the signature, compared in constant
 * time.
 *
 * Everything in `request` that comes off the wire (method, URL, header names and values, body) is
 * the sender's choice: whatever it holds, a request that does not verify gives { ok: false,
 * reason }, never an exception. Only the server's own mistakes throw BAD_INPUT: bad options, or a
 * field of the wrong JavaScript type (a header value that is not a string). Only the headers in
 * `signedHeaders` are authenticated, and the body only when `bodyAuthenticated` says so.
 */
export function verifyRequest(
  request: SigV4Request,
  options: SigV4VerifyOptions & { replayStore: ReplayStore },
): Promise<SigV4Verification>;
export function verifyRequest(
  request: SigV4Request,
  options: SigV4VerifyOptions,
): SigV4Verification;
export function verifyRequest(
  request: SigV4Request,
  options: SigV4VerifyOptions,
): SigV4Verification | Promise<SigV4Verification> {
  const claim: Partial<ReplayClaim> = {};
  const result = checkRequest(request, options, claim);
  const store = (options as { replayStore?: ReplayStore }).replayStore;
  return claimAccepted<SigV4Verification, never>(result, store, () => claim as ReplayClaim);
}

/** verifyRequest without the replay store; `replay` gets the claim of a request that verified. */
function checkRequest(
  request: SigV4Request,
  options: SigV4VerifyOptions,
  replay: Partial<ReplayClaim>,
): SigV4Verification {
  const o = checkOptions(options, VERIFY_OPTION_NAMES, "verifyRequest options");
  if (o.replayStore !== undefined) assertReplayStore(o.replayStore, "options.replayStore");
  const lookup = o.secretAccessKey;
  if (typeof lookup !== "function") checkSecretText(lookup, "options.secretAccessKey");
  const expectedKeyId =
    o.accessKeyId === undefined
      ? undefined
      : checkPattern(o.accessKeyId, "options.accessKeyId", ACCESS_KEY_ID, "an access key id");
  const region = checkPattern(o.region, "options.region", SCOPE_PART, SCOPE_TEXT);
  const service = checkPattern(o.service, "options.service", SCOPE_PART, SCOPE_TEXT);
  const now = checkDate(o.now, "options.now").getTime();
  const skew = toleranceSeconds(o, ["clockSkewSeconds"], DEFAULT_CLOCK_SKEW_SECONDS);
  if (skew > 86_400) {
    throw badInput(`options.toleranceSeconds must be from 0 to 86400; got ${skew}.`);
  }
  const allowUnsigned = checkBoolean(o.allowUnsignedPayload, "options.allowUnsignedPayload", false);
  const tolerated = checkHeaderNames(o.allowUnsignedHeaders, "options.allowUnsignedHeaders");
  const presignSignsBody = checkBoolean(o.signBody, "options.signBody", service !== "s3");
  const pathOptions = resolvePathOptions(o, service);

  const req = prepareRequest(request);
  if (req instanceof Malformed)
    return fail("malformed_request", `the request is malformed: ${req.message}`);

  // Which form of SigV4 auth the request carries.
  const pairs = splitQuery(req.url.query);
  const authorization = req.headers.get("authorization");
  const queryAuth = pairs.some(([name]) => decodeComponent(name) === "X-Amz-Signature");
  if (authorization && queryAuth)
    return fail("malformed_auth", "both an Authorization header and X-Amz-Signature");
  if (!authorization && !queryAuth)
    return fail("missing_auth", "no Authorization header and no X-Amz-Signature");
  const claim = authorization
    ? readHeaderAuth(authorization, req.headers, pairs)
    : readQueryAuth(pairs);
  if (isRefusal(claim)) return claim;

  // Credential scope: date/region/service/aws4_request, the date being X-Amz-Date's.
  const [scopeDate, scopeRegion, scopeService, terminator] = claim.scope;
  if (scopeDate !== claim.amzDate.slice(0, 8))
    return fail("scope_mismatch", "the credential date is not X-Amz-Date's");
  if (scopeRegion !== region)
    return fail("scope_mismatch", `the credential is for region ${quote(scopeRegion)}`);
  if (scopeService !== service)
    return fail("scope_mismatch", `the credential is for service ${quote(scopeService)}`);
  if (terminator !== TERMINATOR)
    return fail("scope_mismatch", `the credential scope does not end in ${TERMINATOR}`);
  if (expectedKeyId !== undefined && claim.accessKeyId !== expectedKeyId) {
    return fail("access_key_mismatch", "signed by another access key id");
  }

  // Time: presigned URLs from X-Amz-Date to X-Amz-Date + X-Amz-Expires; headers within the skew.
  const signedAt = claim.date.getTime();
  if (signedAt - now > skew * 1000) return fail("not_yet_valid", "X-Amz-Date is in the future");
  const expiresAt =
    claim.expiresIn === undefined ? signedAt + skew * 1000 : signedAt + claim.expiresIn * 1000;
  if (now > expiresAt)
    return fail("expired", claim.presigned ? "the URL has expired" : "X-Amz-Date is too old");

  // The signed headers must all be there; host is always signed; so is every x-amz-* header sent
  // (an unsigned x-amz-acl: public-read would otherwise ride on a valid signature).
  const headers = withHost(req.headers, req.url);
  if (!claim.signedNames.includes("host")) return fail("header_not_signed", "host is not signed");
  for (const name of claim.signedNames) {
    if (!headers.has(name))
      return fail("signed_header_missing", `the signed header ${name} is missing`);
  }
  const signedSet = new Set(claim.signedNames);
  for (const name of headers.keys()) {
    if (name.startsWith("x-amz-") && !signedSet.has(name) && !tolerated.has(name)) {
      return fail("header_not_signed", `the header ${name} is not signed`);
    }
  }

  // The payload hash: the x-amz-content-sha256 claim, checked against the body, or computed.
  let payloadHash: string;
  let bodyAuthenticated: boolean;
  const claimed = headers.get("x-amz-content-sha256");
  if (claimed !== undefined) {
    payloadHash = canonicalHeaderValue(claimed);
    bodyAuthenticated = payloadHash !== UNSIGNED_PAYLOAD;
    if (payloadHash === UNSIGNED_PAYLOAD) {
      if (!allowUnsigned)
        return fail(
          "unsigned_payload",
          "the payload is unsigned (UNSIGNED-PAYLOAD) and not allowed",
        );
    } else if (!HEX64.test(payloadHash)) {
      return fail(
        "malformed_payload_hash",
        "x-amz-content-sha256 is neither a SHA-256 nor UNSIGNED-PAYLOAD",
      );
    } else if (payloadHash.toLowerCase() !== sha256Hex(req.body)) {
      return fail("body_mismatch", "the body does not match x-amz-content-sha256");
    }
  } else {
    bodyAuthenticated = !claim.presigned || presignSignsBody;
    payloadHash = bodyAuthenticated ? sha256Hex(req.body) : UNSIGNED_PAYLOAD;
  }

  const candidate = /^[0-9a-f]{64}$/.test(claim.signature)
    ? hexToBytes(claim.signature)
    : undefined;
  if (!candidate)
    return fail("malformed_signature", "the signature is not 64 lower-case hex digits");
  const secret = typeof lookup === "function" ? lookup(claim.accessKeyId) : lookup;
  // null too: a lookup backed by a Map.get or a database row answers null for "no such key".
  if (secret === undefined || secret === null)
    return fail("unknown_access_key", "unknown access key id");
  checkSecretText(secret, "the secret returned by options.secretAccessKey");

  const { signature } = signCanonical(secret as string, region, service, claim.amzDate, {
    method: req.method,
    uri: canonicalUri(req.url.path, pathOptions),
    query: canonicalQuery(claim.signedQuery),
    headers,
    signedNames: claim.signedNames,
    payloadHash,
  });
  if (!equal(signature, candidate)) {
    return fail("signature_mismatch", "the signature does not match");
  }
  // A request is remembered by its signature until it stops being valid (the URL's expiry, or
  // X-Amz-Date + the tolerance), from X-Amz-Date for the store's epoch rule.
  replay.id = `sigv4:${claim.signature}`;
  replay.validFrom = Math.floor(signedAt / 1000);
  replay.validUntil = Math.max(Math.ceil(expiresAt / 1000), Math.floor(now / 1000) + 1);
  replay.now = Math.floor(now / 1000);
  return {
    ok: true,
    accessKeyId: claim.accessKeyId,
    signedHeaders: claim.signedNames,
    date: claim.date,
    presigned: claim.presigned,
    bodyAuthenticated,
    ...(claim.presigned ? { expiresAt: new Date(expiresAt) } : {}),
  };
}
