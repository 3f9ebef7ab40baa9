/** Signing: the Authorization header (signRequest) and presigned URLs (presignUrl). */
import { assertInteger, type Bytes, bytesToHex } from "../../core/bytes.js";
import { checkOptions } from "../../core/options.js";
import {
  canonicalHeaderValue,
  canonicalQuery,
  canonicalUri,
  decodeComponent,
  formatAmzDate,
  type QueryPair,
  sha256Hex,
  splitQuery,
  uriEncode,
} from "./canonical.js";
import {
  ACCESS_KEY_ID,
  badInput,
  checkBoolean,
  checkDate,
  checkPattern,
  checkSecretText,
  HEX64,
  MAX_PRESIGN_SECONDS,
  PATH_OPTION_NAMES,
  QUERY_AUTH_PARAMETERS,
  type ResolvedPathOptions,
  resolvePathOptions,
  SCOPE_PART,
  SCOPE_TEXT,
  SIGV4_ALGORITHM,
  TERMINATOR,
  UNSIGNED_HEADERS,
  UNSIGNED_PAYLOAD,
  utf8,
} from "./common.js";
import { signCanonical } from "./keys.js";
import type {
  SigV4Presigned,
  SigV4PresignOptions,
  SigV4Request,
  SigV4Signed,
  SigV4SigningOptions,
} from "./types.js";
import { type HeaderMap, orThrow, prepareRequest, withHost } from "./url.js";

interface ResolvedSigning extends ResolvedPathOptions {
  accessKeyId: string;
  secret: string;
  sessionToken: string | undefined;
  region: string;
  service: string;
  date: Date;
  signSessionToken: boolean;
  signBody: boolean;
}

const CREDENTIAL_OPTION_NAMES = [
  "accessKeyId",
  "secretAccessKey",
  "sessionToken",
  "region",
  "service",
  "date",
  "signBody",
  "signSessionToken",
  ...PATH_OPTION_NAMES,
];
const SIGN_OPTION_NAMES = [...CREDENTIAL_OPTION_NAMES, "contentSha256Header"];
const PRESIGN_OPTION_NAMES = [...CREDENTIAL_OPTION_NAMES, "expiresIn"];
/** `o` has been through checkOptions. */
function resolveSigning(
  o: Record<string, unknown>,
  signBodyDefault: (service: string) => boolean,
): ResolvedSigning {
  const accessKeyId = checkPattern(
    o.accessKeyId,
    "options.accessKeyId",
    ACCESS_KEY_ID,
    "a non-empty string of printable ASCII without '/', ',' or spaces",
  );
  const secret = checkSecretText(o.secretAccessKey, "options.secretAccessKey");
  const sessionToken =
    o.sessionToken === undefined
      ? undefined
      : checkSecretText(o.sessionToken, "options.sessionToken");
  const region = checkPattern(o.region, "options.region", SCOPE_PART, SCOPE_TEXT);
  const service = checkPattern(o.service, "options.service", SCOPE_PART, SCOPE_TEXT);
  return {
    accessKeyId,
    secret,
    sessionToken,
    region,
    service,
    date: checkDate(o.date, "options.date"),
    signSessionToken: checkBoolean(o.signSessionToken, "options.signSessionToken", true),
    signBody: checkBoolean(o.signBody, "options.signBody", signBodyDefault(service)),
    ...resolvePathOptions(o, service),
  };
}

/**
 * The payload hash: x-amz-content-sha256 when the caller sets it (a hex hash must then be the
 * body's), else the body's SHA-256, or UNSIGNED-PAYLOAD.
 */
function payloadHashForSigning(body: Bytes, headers: HeaderMap, signBody: boolean): string {
  const given = headers.get("x-amz-content-sha256");
  if (given === undefined) return signBody ? sha256Hex(body) : UNSIGNED_PAYLOAD;
  const value = canonicalHeaderValue(given);
  if (given.length !== 1)
    throw badInput("request.headers has several x-amz-content-sha256 values.");
  if (HEX64.test(value) && body.length > 0 && value.toLowerCase() !== sha256Hex(body)) {
    throw badInput("request.headers x-amz-content-sha256 is not the SHA-256 of request.body.");
  }
  return value;
}

/**
 * Signs a request with an Authorization header. Returns every header to send (the caller's, with
 * host, x-amz-date, x-amz-security-token, x-amz-content-sha256 where they apply, and
 * authorization), with the canonical request and string to sign for debugging.
 */
export function signRequest(request: SigV4Request, options: SigV4SigningOptions): SigV4Signed {
  const given = checkOptions(options, SIGN_OPTION_NAMES, "signRequest options");
  const o = resolveSigning(given, () => true);
  const req = orThrow(prepareRequest(request));
  const contentSha256Header = checkBoolean(
    given.contentSha256Header,
    "options.contentSha256Header",
    o.service === "s3" || !o.signBody,
  );
  const amzDate = formatAmzDate(o.date);
  const scope = `${amzDate.slice(0, 8)}/${o.region}/${o.service}/${TERMINATOR}`;

  const headers = withHost(req.headers, req.url);
  headers.delete("authorization");
  headers.set("x-amz-date", [amzDate]);
  if (o.sessionToken !== undefined) {
    headers.delete("x-amz-security-token");
    if (o.signSessionToken) headers.set("x-amz-security-token", [o.sessionToken]);
  }
  const payloadHash = payloadHashForSigning(req.body, headers, o.signBody);
  if (contentSha256Header && !headers.has("x-amz-content-sha256")) {
    headers.set("x-amz-content-sha256", [payloadHash]);
  }
  const signedNames = [...headers.keys()].filter((n) => !UNSIGNED_HEADERS.has(n)).sort();
  const {
    canonicalRequest,
    stringToSign,
    signature: mac,
  } = signCanonical(o.secret, o.region, o.service, amzDate, {
    method: req.method,
    uri: canonicalUri(req.url.path, o),
    query: canonicalQuery(splitQuery(req.url.query)),
    headers,
    signedNames,
    payloadHash,
  });
  const signature = bytesToHex(mac);
  const signedHeaders = signedNames.join(";");
  const authorization = `${SIGV4_ALGORITHM} Credential=${o.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;

  const out: Record<string, string> = {};
  for (const [name, values] of headers) out[name] = canonicalHeaderValue(values);
  if (o.sessionToken !== undefined && !o.signSessionToken) {
    out["x-amz-security-token"] = o.sessionToken;
  }
  out.authorization = authorization;
  return {
    headers: out,
    authorization,
    signature,
    signedHeaders,
    credentialScope: scope,
    canonicalRequest,
    stringToSign,
  };
}

/**
 * A presigned URL (query-string auth): the X-Amz-* parameters, signature included, appended to
 * the URL. Headers given in the request are signed too, and must then be sent with the URL.
 */
export function presignUrl(request: SigV4Request, options: SigV4PresignOptions): SigV4Presigned {
  const given = checkOptions(options, PRESIGN_OPTION_NAMES, "presignUrl options");
  const o = resolveSigning(given, (service) => service !== "s3");
  const expiresIn = assertInteger(given.expiresIn, "options.expiresIn", 1, MAX_PRESIGN_SECONDS);
  const req = orThrow(prepareRequest(request));
  const pairs = splitQuery(req.url.query);
  for (const [name] of pairs) {
    const decoded = decodeComponent(name);
    if (decoded !== undefined && QUERY_AUTH_PARAMETERS.has(decoded)) {
      throw badInput(
        `request.url already has ${decoded}; presign a URL without X-Amz-* auth parameters.`,
      );
    }
  }
  const amzDate = formatAmzDate(o.date);
  const scope = `${amzDate.slice(0, 8)}/${o.region}/${o.service}/${TERMINATOR}`;

  const headers = withHost(req.headers, req.url);
  headers.delete("authorization");
  headers.delete("x-amz-date");
  if (o.sessionToken !== undefined) headers.delete("x-amz-security-token");
  const payloadHash = payloadHashForSigning(req.body, headers, o.signBody);
  const signedNames = [...headers.keys()].filter((n) => !UNSIGNED_HEADERS.has(n)).sort();
  const signedHeaders = signedNames.join(";");

  const authParameters: QueryPair[] = [
    ["X-Amz-Algorithm", SIGV4_ALGORITHM],
    ["X-Amz-Credential", `${o.accessKeyId}/${scope}`],
    ["X-Amz-Date", amzDate],
    ["X-Amz-Expires", String(expiresIn)],
    ["X-Amz-SignedHeaders", signedHeaders],
  ];
  const tokenParameter: QueryPair[] =
    o.sessionToken === undefined ? [] : [["X-Amz-Security-Token", o.sessionToken]];
  if (o.signSessionToken) authParameters.push(...tokenParameter);
  // The parameters are raw text: encode them before they join the (already encoded) query.
  const encode = ([n, v]: QueryPair): QueryPair => [n, uriEncode(utf8.encode(v), false)];
  const encodedAuth = authParameters.map(encode);

  const {
    canonicalRequest,
    stringToSign,
    signature: mac,
  } = signCanonical(o.secret, o.region, o.service, amzDate, {
    method: req.method,
    uri: canonicalUri(req.url.path, o),
    query: canonicalQuery([...pairs, ...encodedAuth]),
    headers,
    signedNames,
    payloadHash,
  });
  const signature = bytesToHex(mac);

  const unsignedToken = o.signSessionToken ? [] : tokenParameter.map(encode);
  const tail = [...encodedAuth, ...unsignedToken, ["X-Amz-Signature", signature]]
    .map(([n, v]) => `${n}=${v}`)
    .join("&");
  const query = req.url.query ? `${req.url.query}&` : "";
  return {
    url: `${req.url.origin}${req.url.path}?${query}${tail}${req.url.fragment}`,
    signature,
    signedHeaders,
    credentialScope: scope,
    canonicalRequest,
    stringToSign,
    expiresAt: new Date((Math.floor(o.date.getTime() / 1000) + expiresIn) * 1000),
  };
}
