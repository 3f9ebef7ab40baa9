/**
 * AWS Signature Version 4 (SigV4, "AWS4-HMAC-SHA256"): signing and verifying HTTP requests, as the
 * AWS IAM User Guide specifies it ("Create a signed AWS API request": canonical request, string to
 * sign, signing key, signature) and the Amazon S3 API Reference ("Authenticating Requests (AWS
 * Signature Version 4)": header and query-string auth, UNSIGNED-PAYLOAD, x-amz-content-sha256).
 *
 * The URL is taken as it goes on the wire. As botocore does, the canonical URI of a request to any
 * service but S3 is that path with dot segments removed and empty segments collapsed, URI-encoded
 * once more ("each path segment encoded twice": /a%20b is signed as /a%2520b); S3 signs the path
 * as it is, its escapes re-encoded once. Query names and values are percent-decoded, then encoded
 * once. Characters that are not valid in a URL (a space, non-ASCII text) are taken as their UTF-8
 * bytes sent raw, the way AWS's test suite writes its requests.
 */
import { assertBytes, assertInteger, type Bytes, bytesToHex, hexToBytes } from "../core/bytes.js";
import { equal } from "../core/equal.js";
import { KeyedError } from "../core/errors.js";
import { encodeFields } from "../core/fields.js";
import { checkOptions, describeType } from "../core/options.js";
import { SHA256, sha256 } from "../hash/sha256.js";
import { HmacKernel } from "../mac/hmac.js";

/** The algorithm name, first word of the Authorization header and of the string to sign. */
export const SIGV4_ALGORITHM = "AWS4-HMAC-SHA256";
/** The payload hash that leaves the body out of the signature (S3 API Reference). */
export const UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";
/** The longest X-Amz-Expires SigV4 accepts: 7 days. */
export const MAX_PRESIGN_SECONDS = 604_800;

const TERMINATOR = "aws4_request";
/** AWS refuses header-signed requests dated more than 15 minutes from its clock. */
const DEFAULT_CLOCK_SKEW_SECONDS = 900;
/** Headers sent but never signed: botocore's list (proxies and clients rewrite them). */
const UNSIGNED_HEADERS = new Set(["authorization", "user-agent", "expect", "x-amzn-trace-id"]);
const QUERY_AUTH_PARAMETERS = new Set([
  "X-Amz-Algorithm",
  "X-Amz-Credential",
  "X-Amz-Date",
  "X-Amz-Expires",
  "X-Amz-SignedHeaders",
  "X-Amz-Security-Token",
  "X-Amz-Signature",
]);

// --- public types --------------------------------------------------------------------------------

/** One header value, or several (sent as one value joined with commas). */
export type SigV4HeaderValue = string | readonly string[];
/** A fetch Headers object (or anything else with its forEach). */
export interface SigV4HeadersLike {
  /** Calls `callback` once per header, as fetch's Headers.forEach does. */
  forEach(callback: (value: string, name: string) => void): void;
}
/**
 * Header names are case-insensitive. A plain object, [name, value] pairs (a Map, an array), or a
 * fetch Headers object.
 */
export type SigV4Headers =
  | Readonly<Record<string, SigV4HeaderValue>>
  | Iterable<readonly [string, string]>
  | SigV4HeadersLike;

/** The request to sign or verify, as it goes on the wire. */
export interface SigV4Request {
  /** The HTTP method; upper-cased, as HTTP clients send it. */
  method: string;
  /** The absolute http: or https: URL as it goes on the wire (see the module comment). */
  url: string | URL;
  /** The request's headers; absent: none. Host is taken from the URL when missing. */
  headers?: SigV4Headers;
  /** The body; text is encoded as UTF-8. Absent: empty. */
  body?: Bytes | string;
}

interface PathOptions {
  /** Remove dot segments and collapse empty segments. Default: true, false for service "s3". */
  normalizePath?: boolean;
  /** URI-encode the (already encoded) path once more. Default: true, false for service "s3". */
  doubleEncodePath?: boolean;
}

/** Credentials and settings of `signRequest` (AWS Signature Version 4). */
export interface SigV4SigningOptions extends PathOptions {
  /** The access key id, sent in the credential scope (AKIA…, ASIA… for temporary credentials). */
  accessKeyId: string;
  /** The secret access key; never sent, only the signing key derived from it is used. */
  secretAccessKey: string;
  /** Temporary credentials' token, sent as X-Amz-Security-Token. */
  sessionToken?: string;
  /** The region of the credential scope, such as "us-east-1". */
  region: string;
  /** The service of the credential scope, such as "s3" or "execute-api". */
  service: string;
  /** The signing time. Default: now. */
  date?: Date;
  /** Hash the body into the signature; false signs UNSIGNED-PAYLOAD. Default: true. */
  signBody?: boolean;
  /**
   * Sign the session token (default), or add it after signing, as some services ask
   * (post-sts-header-after in AWS's test suite).
   */
  signSessionToken?: boolean;
  /**
   * Send and sign x-amz-content-sha256 (the payload hash). Default: for S3, and whenever the
   * payload is unsigned, so that the receiver knows.
   */
  contentSha256Header?: boolean;
}

/** Settings of `presignUrl`: the signing options, less the header-only one, and a lifetime. */
export interface SigV4PresignOptions extends Omit<SigV4SigningOptions, "contentSha256Header"> {
  /** Seconds the URL stays valid (X-Amz-Expires), 1 to 604800. */
  expiresIn: number;
  /** Hash the body into the signature. Default: true, false for S3 (UNSIGNED-PAYLOAD). */
  signBody?: boolean;
}

/** What `signRequest` returns: the headers to send, and the intermediate strings for debugging. */
export interface SigV4Signed {
  /** Every header to send, lower-case names, values canonical (trimmed, joined with commas). */
  headers: Record<string, string>;
  /** The Authorization header's value (also in `headers`). */
  authorization: string;
  /** The signature, 64 lower-case hex digits. */
  signature: string;
  /** The signed header names, joined with ";". */
  signedHeaders: string;
  /** date/region/service/aws4_request. */
  credentialScope: string;
  /** The canonical request that was hashed (AWS's documentation calls it so). */
  canonicalRequest: string;
  /** The string to sign: algorithm, date, credential scope and the canonical request's hash. */
  stringToSign: string;
}

/** What `presignUrl` returns: the URL, and the intermediate strings for debugging. */
export interface SigV4Presigned {
  /** The URL with the X-Amz-* parameters appended (the given query is kept as it is). */
  url: string;
  /** The signature (X-Amz-Signature), 64 lower-case hex digits. */
  signature: string;
  /** The signed header names (X-Amz-SignedHeaders), joined with ";". */
  signedHeaders: string;
  /** date/region/service/aws4_request. */
  credentialScope: string;
  /** The canonical request that was hashed. */
  canonicalRequest: string;
  /** The string to sign. */
  stringToSign: string;
  /** When the URL stops being valid: the signing date plus `expiresIn`. */
  expiresAt: Date;
}

/** Settings of `verifyRequest`: the secret (or a lookup), the expected scope, the clock. */
export interface SigV4VerifyOptions extends PathOptions {
  /**
   * The secret, or a lookup from the access key id (undefined or null: unknown key). SigV4 does
   * not sign the access key id: with one secret string, the id in the result is the client's
   * claim; give `accessKeyId` to pin it, or use a lookup.
   */
  secretAccessKey: string | ((accessKeyId: string) => string | null | undefined);
  /** When given, the request must be signed by this access key id. */
  accessKeyId?: string;
  /** The region the request must be signed for. */
  region: string;
  /** The service the request must be signed for. */
  service: string;
  /** The verifier's clock. Default: now. */
  now?: Date;
  /** Allowed clock difference in seconds, 0 to 86400. Default: 900 (AWS's 15 minutes). */
  clockSkewSeconds?: number;
  /**
   * Accept x-amz-content-sha256: UNSIGNED-PAYLOAD, whose body is then not authenticated.
   * Default: false.
   */
  allowUnsignedPayload?: boolean;
  /**
   * x-amz-* headers accepted when sent but not signed (case-insensitive names), such as
   * x-amz-security-token added after signing. Any other unsigned x-amz-* header is refused, as
   * AWS refuses it (HeadersNotSigned). Default: none.
   */
  allowUnsignedHeaders?: readonly string[];
  /** For presigned URLs: whether the signer hashed the body. Default as presignUrl. */
  signBody?: boolean;
}

/** What `verifyRequest` answers: what was authenticated, or a refusal with its reason (it never throws on what the client sent). */
export type SigV4Verification =
  | {
      /** The signature matches and the request is within its time window. */
      ok: true;
      /** The access key id the request was signed with. */
      accessKeyId: string;
      /** Only these headers are authenticated. */
      signedHeaders: string[];
      /** The signing time the request states (X-Amz-Date). */
      date: Date;
      /** True for a presigned URL (the signature in the query), false for an Authorization header. */
      presigned: boolean;
      /**
       * Whether the signature covers the body's bytes: true when the signed payload hash is the
       * body's SHA-256; false for UNSIGNED-PAYLOAD, where any body verifies (S3 presigned URLs).
       */
      bodyAuthenticated: boolean;
      /** For presigned URLs, when the URL stops being valid. */
      expiresAt?: Date;
    }
  | {
      /** Refused. */
      ok: false;
      /** Why, in words (e.g. "the signature does not match"). */
      reason: string;
    };

// --- argument checks -----------------------------------------------------------------------------

const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** RFC 9110 5.1 token: header names, methods. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Printable ASCII without "/" (the credential scope's separator). */
const SCOPE_PART = /^[!-.0-~]+$/;
/** Printable ASCII without "/" and "," (the Authorization header's separators). */
const ACCESS_KEY_ID = /^[!-+\-.0-~]+$/;
const HEX64 = /^[0-9a-fA-F]{64}$/;
const AMZ_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

function badInput(message: string): KeyedError {
  return new KeyedError("BAD_INPUT", message);
}

/** Controls but HTAB (RFC 9110 5.5 field values exclude them), so no header can be split. */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09) || c === 0x7f) return true;
  }
  return false;
}

function checkPattern(value: unknown, name: string, pattern: RegExp, accepted: string): string {
  if (typeof value !== "string" || !pattern.test(value)) {
    const got =
      typeof value === "string" ? JSON.stringify(value.slice(0, 40)) : describeType(value);
    throw badInput(`${name} must be ${accepted}; got ${got}.`);
  }
  return value;
}

/** Non-empty text without controls or lone surrogates; the value is never echoed (secrets). */
function checkSecretText(value: unknown, name: string): string {
  if (typeof value !== "string" || value.length === 0) {
    throw badInput(`${name} must be a non-empty string; got ${describeType(value)}.`);
  }
  if (hasControl(value) || LONE_SURROGATE.test(value)) {
    throw badInput(`${name} contains a control character or a lone surrogate.`);
  }
  return value;
}

function checkBoolean(value: unknown, name: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") {
    throw badInput(`${name} must be true, false or absent; got ${describeType(value)}.`);
  }
  return value;
}

function checkDate(value: unknown, name: string): Date {
  if (value === undefined) return new Date();
  if (!(value instanceof Date) || !Number.isFinite(value.getTime())) {
    throw badInput(`${name} must be a valid Date or absent; got ${describeType(value)}.`);
  }
  const year = value.getUTCFullYear();
  if (year < 0 || year > 9999) throw badInput(`${name} must fall in the years 0 to 9999.`);
  return value;
}

// --- the request ---------------------------------------------------------------------------------

/**
 * What is wrong with a request's content: its URL, method, header names or values, all of which
 * come off the wire. signRequest and presignUrl throw it as BAD_INPUT; verifyRequest answers it
 * with a refusal, since an attacker chose it. A wrong JavaScript type (a number for a header
 * value) is the caller's mistake, and throws everywhere.
 */
class Malformed {
  constructor(readonly message: string) {}
}

function orThrow<T>(value: T | Malformed): T {
  if (value instanceof Malformed) throw badInput(value.message);
  return value;
}

interface WireUrl {
  /** scheme://authority, as given. */
  origin: string;
  /** The Host header a client sends: lower case, default port left out. */
  host: string;
  /** The path as given; "/" when empty. */
  path: string;
  /** The query without "?", or undefined when the URL has none. */
  query: string | undefined;
  /** "#..." or "" (never sent, never signed). */
  fragment: string;
}

const URL_SHAPE = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(?:\?([^#]*))?(#.*)?$/s;
const AUTHORITY = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]@]+)(?::(\d*))?$/;
const DEFAULT_PORTS: Record<string, number> = { http: 80, https: 443 };

function parseUrl(url: unknown): WireUrl | Malformed {
  const text = url instanceof URL ? url.href : url;
  const accepted = "an absolute http: or https: URL (a string or a URL)";
  if (typeof text !== "string") {
    throw badInput(`request.url must be ${accepted}; got ${describeType(url)}.`);
  }
  if (hasControl(text) || LONE_SURROGATE.test(text)) {
    return new Malformed("request.url contains a control character or a lone surrogate.");
  }
  const shape = URL_SHAPE.exec(text);
  const scheme = shape?.[1].toLowerCase();
  if (!shape || (scheme !== "http" && scheme !== "https")) {
    return new Malformed(`request.url must be ${accepted}; got ${quote(text)}.`);
  }
  const authority = AUTHORITY.exec(shape[2]);
  if (!authority) {
    return new Malformed(
      `request.url must name a host (and optional port), without user:password@; got ${quote(shape[2])}.`,
    );
  }
  let host = authority[1].toLowerCase();
  if (authority[2]) {
    const port = Number(authority[2]);
    if (port > 65535) {
      return new Malformed(`request.url has port ${quote(authority[2])}; ports go up to 65535.`);
    }
    if (port !== DEFAULT_PORTS[scheme]) host += `:${port}`;
  }
  return {
    origin: `${shape[1]}://${shape[2]}`,
    host,
    path: shape[3] === "" ? "/" : shape[3],
    query: shape[4],
    fragment: shape[5] ?? "",
  };
}

/** At most 60 characters of attacker text, JSON-quoted, for a message. */
function quote(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}

/** Lower-case header name → its values, in the order given. */
type HeaderMap = Map<string, string[]>;

/**
 * HTTP/2 request pseudo-headers (RFC 9113 8.3.1, RFC 8441 4) that node:http2 leaves in
 * req.headers. They are not header fields and are never signed; the method and URL come in their
 * own fields. :authority is read as Host.
 */
const PSEUDO_HEADERS = new Set([":method", ":scheme", ":path", ":protocol"]);
const AUTHORITY_PSEUDO_HEADER = ":authority";

function collectHeaders(headers: unknown): HeaderMap | Malformed {
  const map: HeaderMap = new Map();
  if (headers === undefined) return map;
  if (headers === null || typeof headers !== "object") {
    throw badInput(
      `request.headers must be an object of name → string (or string[]), or [name, value] pairs; got ${describeType(headers)}.`,
    );
  }
  let problem: Malformed | undefined;
  const add = (name: unknown, value: unknown, where: string) => {
    if (typeof name !== "string") {
      throw badInput(`${where} name must be a string; got ${describeType(name)}.`);
    }
    if (typeof value !== "string") {
      throw badInput(`${where} must be a string; got ${describeType(value)}.`);
    }
    if (problem) return;
    const key = name.toLowerCase();
    if (PSEUDO_HEADERS.has(key)) return;
    if (key !== AUTHORITY_PSEUDO_HEADER && !TOKEN.test(name)) {
      problem = new Malformed(`${where} name must be an HTTP header name (RFC 9110 token).`);
    } else if (hasControl(value) || LONE_SURROGATE.test(value)) {
      problem = new Malformed(
        `${where} contains a control character (CR, LF, NUL…) or a lone surrogate.`,
      );
    } else {
      const values = map.get(key);
      if (values) values.push(value);
      else map.set(key, [value]);
    }
  };
  if (Symbol.iterator in headers) {
    let i = 0;
    for (const entry of headers as Iterable<unknown>) {
      if (!Array.isArray(entry) || entry.length !== 2) {
        throw badInput(`request.headers entry ${i} must be a [name, value] pair.`);
      }
      add(entry[0], entry[1], `request.headers entry ${i}`);
      i++;
    }
  } else if (typeof (headers as SigV4HeadersLike).forEach === "function") {
    (headers as SigV4HeadersLike).forEach((value, name) => {
      add(name, value, `request.headers ${quote(String(name))}`);
    });
  } else {
    for (const [name, value] of Object.entries(headers)) {
      const where = `request.headers[${quote(name)}]`;
      if (Array.isArray(value)) {
        value.forEach((v: unknown, j) => {
          add(name, v, `${where}[${j}]`);
        });
      } else {
        add(name, value, where);
      }
    }
  }
  return problem ?? authorityAsHost(map);
}

/**
 * :authority stands for Host when there is no Host; a Host that differs from it is malformed
 * (RFC 9113 8.3.1).
 */
function authorityAsHost(map: HeaderMap): HeaderMap | Malformed {
  const authority = map.get(AUTHORITY_PSEUDO_HEADER);
  if (authority === undefined) return map;
  map.delete(AUTHORITY_PSEUDO_HEADER);
  const host = map.get("host");
  if (authority.length !== 1) return new Malformed("request.headers has several :authority.");
  if (host === undefined) map.set("host", authority);
  else if (host.length !== 1 || host[0].toLowerCase() !== authority[0].toLowerCase()) {
    return new Malformed("request.headers has a Host that differs from :authority.");
  }
  return map;
}

interface PreparedRequest {
  method: string;
  url: WireUrl;
  headers: HeaderMap;
  body: Bytes;
}

function prepareRequest(request: unknown): PreparedRequest | Malformed {
  if (request === null || typeof request !== "object") {
    throw badInput(
      `request must be an object { method, url, headers?, body? }; got ${describeType(request)}.`,
    );
  }
  const r = request as Record<string, unknown>;
  if (typeof r.method !== "string") {
    throw badInput(
      `request.method must be an HTTP method such as GET; got ${describeType(r.method)}.`,
    );
  }
  let body: Bytes;
  if (r.body === undefined) body = new Uint8Array(0);
  else if (typeof r.body === "string") body = utf8.encode(r.body);
  else if (r.body instanceof Uint8Array) {
    assertBytes(r.body, "request.body");
    body = r.body;
  } else {
    throw badInput(
      `request.body must be a Uint8Array, a string or absent; got ${describeType(r.body)}.`,
    );
  }
  // Every type is checked (and thrown) before any content problem is returned.
  const url = parseUrl(r.url);
  const headers = collectHeaders(r.headers);
  if (!TOKEN.test(r.method)) {
    return new Malformed(
      `request.method must be an HTTP method such as GET; got ${quote(r.method)}.`,
    );
  }
  if (url instanceof Malformed) return url;
  if (headers instanceof Malformed) return headers;
  return { method: r.method.toUpperCase(), url, headers, body };
}

// --- canonical forms -----------------------------------------------------------------------------

const HEX_UPPER = "0123456789ABCDEF";
/** RFC 3986 2.3 unreserved: A-Z a-z 0-9 - . _ ~ */
const UNRESERVED = new Uint8Array(256);
for (let b = 0; b < 256; b++) {
  const c = String.fromCharCode(b);
  UNRESERVED[b] = /[A-Za-z0-9\-._~]/.test(c) ? 1 : 0;
}

/** AWS's UriEncode: unreserved bytes kept, "/" kept when asked, every other byte %XX upper case. */
function uriEncode(bytes: Bytes, keepSlash: boolean): string {
  let out = "";
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (UNRESERVED[b] === 1 || (keepSlash && b === 0x2f)) out += String.fromCharCode(b);
    else out += `%${HEX_UPPER[b >> 4]}${HEX_UPPER[b & 15]}`;
  }
  return out;
}

function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

/** %XX escapes to bytes; a "%" not followed by two hex digits stays a literal "%". "+" stays "+". */
function percentDecode(text: string): Bytes {
  const bytes = utf8.encode(text);
  const out = new Uint8Array(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x25 && i + 2 < bytes.length) {
      const hi = hexDigit(bytes[i + 1]);
      const lo = hexDigit(bytes[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out[n++] = (hi << 4) | lo;
        i += 2;
        continue;
      }
    }
    out[n++] = bytes[i];
  }
  return out.subarray(0, n);
}

/**
 * RFC 3986 5.2.4 remove_dot_segments, with empty segments dropped too (AWS collapses "//"), as
 * botocore's normalize_url_path: a trailing "/" is kept when a segment is left.
 */
function normalizePath(path: string): string {
  const segments: string[] = [];
  // A scan, not split("/"): "/a/.." ten million times would be an array of four million.
  for (let start = 0; start <= path.length; ) {
    let end = path.indexOf("/", start);
    if (end < 0) end = path.length;
    const segment = path.slice(start, end);
    if (segment === "..") segments.pop();
    else if (segment !== "" && segment !== ".") segments.push(segment);
    start = end + 1;
  }
  const last = path.endsWith("/") && segments.length > 0 ? "/" : "";
  return `/${segments.join("/")}${last}`;
}

function canonicalUri(path: string, options: ResolvedPathOptions): string {
  const p = options.normalizePath ? normalizePath(path) : path;
  // Twice: the wire path's escapes are themselves escaped. Once (S3): decoded, then encoded.
  return options.doubleEncodePath ? uriEncode(utf8.encode(p), true) : reencode(p, true);
}

/** A query parameter: [name, value], as the wire has them (still percent-encoded). */
type QueryPair = [name: string, value: string];

/** The "&"-separated parameters; one pass, no array of parts in between (queries may be huge). */
function splitQuery(query: string | undefined): QueryPair[] {
  const pairs: QueryPair[] = [];
  if (!query) return pairs;
  for (let start = 0; start < query.length; ) {
    let end = query.indexOf("&", start);
    if (end < 0) end = query.length;
    if (end > start) {
      // "=" is looked for inside the parameter only: a search to the end would make "a&a&…" n².
      const part = query.slice(start, end);
      const eq = part.indexOf("=");
      pairs.push(eq < 0 ? [part, ""] : [part.slice(0, eq), part.slice(eq + 1)]);
    }
    start = end + 1;
  }
  return pairs;
}

/** Text that reencode leaves as it is. */
const ALREADY_CANONICAL = /^[A-Za-z0-9\-._~]*$/;

/**
 * uriEncode(percentDecode(text)) without the byte arrays, for ASCII text (every wire URL an AWS
 * client sends): an attacker's query of a million parameters costs string work, not a million
 * allocations. Other text goes through its UTF-8 bytes.
 */
function reencode(text: string, keepSlash: boolean): string {
  if (ALREADY_CANONICAL.test(text)) return text;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c >= 0x80) return uriEncode(percentDecode(text), keepSlash);
    if (c === 0x25 && i + 2 < text.length) {
      const hi = hexDigit(text.charCodeAt(i + 1));
      const lo = hexDigit(text.charCodeAt(i + 2));
      if (hi >= 0 && lo >= 0) {
        c = (hi << 4) | lo;
        i += 2;
      }
    }
    if (UNRESERVED[c] === 1 || (keepSlash && c === 0x2f)) out += String.fromCharCode(c);
    else out += `%${HEX_UPPER[c >> 4]}${HEX_UPPER[c & 15]}`;
  }
  return out;
}

const encodeQueryComponent = (text: string) => reencode(text, false);

/** Encoded names and values, sorted by name then value (byte order), joined with "&". */
function canonicalQuery(pairs: readonly QueryPair[]): string {
  const encoded = pairs.map(
    ([n, v]): QueryPair => [encodeQueryComponent(n), encodeQueryComponent(v)],
  );
  encoded.sort((a, b) =>
    a[0] !== b[0] ? (a[0] < b[0] ? -1 : 1) : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0,
  );
  return encoded.map(([n, v]) => `${n}=${v}`).join("&");
}

/** Each value trimmed, runs of spaces and tabs made one space, the values joined with ",". */
function canonicalHeaderValue(values: readonly string[]): string {
  return values.length === 1 ? collapseSpaces(values[0]) : values.map(collapseSpaces).join(",");
}

/** A leading or trailing space or tab, a tab, or two spaces: what collapseSpaces changes. */
const UNCOLLAPSED = /^[ \t]|[ \t]$|\t| {2}/;
const CHUNK = 8192;

/**
 * `value` trimmed, each run of spaces and tabs made one space. One pass into a code-unit buffer:
 * a regex replace over an attacker's 10 MB of " \t a" builds millions of intermediate strings, and
 * its time then grows faster than the length (garbage collection).
 */
function collapseSpaces(value: string): string {
  if (!UNCOLLAPSED.test(value)) return value;
  const out = new Uint16Array(value.length);
  let n = 0;
  let space = false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x20 || c === 0x09) {
      space = n > 0;
      continue;
    }
    if (space) out[n++] = 0x20;
    space = false;
    out[n++] = c;
  }
  let text = "";
  for (let i = 0; i < n; i += CHUNK) {
    text += String.fromCharCode.apply(null, out.subarray(i, Math.min(n, i + CHUNK)) as never);
  }
  return text;
}

function sha256Hex(bytes: Bytes): string {
  return bytesToHex(sha256(bytes));
}

interface CanonicalInput {
  method: string;
  uri: string;
  query: string;
  headers: HeaderMap;
  signedNames: readonly string[];
  payloadHash: string;
}

function canonicalRequestOf(c: CanonicalInput): string {
  const lines = c.signedNames.map((n) => `${n}:${canonicalHeaderValue(c.headers.get(n) ?? [])}`);
  return [c.method, c.uri, c.query, ...lines, "", c.signedNames.join(";"), c.payloadHash].join(
    "\n",
  );
}

function stringToSignOf(amzDate: string, scope: string, canonicalRequest: string): string {
  return [SIGV4_ALGORITHM, amzDate, scope, sha256Hex(utf8.encode(canonicalRequest))].join("\n");
}

function formatAmzDate(date: Date): string {
  // 2015-08-30T12:36:00.000Z → 20150830T123600Z
  return date.toISOString().replace(/[-:]|\.\d{3}/g, "");
}

function parseAmzDate(text: string): Date | undefined {
  const m = AMZ_DATE.exec(text);
  if (!m) return undefined;
  const date = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]));
  return Number.isFinite(date.getTime()) && formatAmzDate(date) === text ? date : undefined;
}

// --- signing key ---------------------------------------------------------------------------------

function hmacSha256(key: Bytes, message: string): Bytes {
  const kernel = new HmacKernel(SHA256, key);
  const out = new Uint8Array(32);
  kernel.compute(utf8.encode(message), out);
  kernel.wipe();
  return out;
}

function signingKeyBytes(secret: string, date: string, region: string, service: string): Bytes {
  const kSecret = utf8.encode(`AWS4${secret}`);
  const kDate = hmacSha256(kSecret, date);
  const kRegion = hmacSha256(kDate, region);
  const kService = hmacSha256(kRegion, service);
  const kSigning = hmacSha256(kService, TERMINATOR);
  for (const k of [kSecret, kDate, kRegion, kService]) k.fill(0);
  return kSigning;
}

/**
 * The SigV4 signing key: kDate = HMAC("AWS4" ‖ secret, date), kRegion = HMAC(kDate, region),
 * kService = HMAC(kRegion, service), kSigning = HMAC(kService, "aws4_request"), HMAC-SHA256 each.
 * `date` is YYYYMMDD. Not cached: a fresh array the caller may wipe.
 */
export function deriveSigningKey(
  secretAccessKey: string,
  date: string,
  region: string,
  service: string,
): Bytes {
  const secret = checkSecretText(secretAccessKey, "secretAccessKey");
  checkPattern(date, "date", /^\d{8}$/, "a date YYYYMMDD");
  checkPattern(region, "region", SCOPE_PART, "a non-empty string of printable ASCII without '/'");
  checkPattern(service, "service", SCOPE_PART, "a non-empty string of printable ASCII without '/'");
  return signingKeyBytes(secret, date, region, service);
}

/**
 * Prepared HMAC kernels under signing keys, least recently used first. A signing key lives a day
 * and serves every request of that day, region and service, so recomputing its four HMACs per
 * request is waste. The map key is SHA-256 of the length-prefixed encoding of (secret, date,
 * region, service): tuples never collide through concatenation, and the secret is not kept in
 * the clear as a key.
 */
const SIGNING_KEY_CACHE_LIMIT = 64;
const signingKernels = new Map<string, HmacKernel>();

function signingKernel(secret: string, date: string, region: string, service: string): HmacKernel {
  const encoded = encodeFields("keyed/sigv4 signing key", [secret, date, region, service]);
  const id = bytesToHex(sha256(encoded));
  encoded.fill(0);
  const cached = signingKernels.get(id);
  if (cached) {
    signingKernels.delete(id);
    signingKernels.set(id, cached);
    return cached;
  }
  const key = signingKeyBytes(secret, date, region, service);
  const kernel = new HmacKernel(SHA256, key);
  key.fill(0);
  if (signingKernels.size >= SIGNING_KEY_CACHE_LIMIT) {
    const [oldestId, oldest] = signingKernels.entries().next().value as [string, HmacKernel];
    oldest.wipe();
    signingKernels.delete(oldestId);
  }
  signingKernels.set(id, kernel);
  return kernel;
}

/** Wipes and forgets every cached signing key (after rotating credentials, say). */
export function clearSigningKeyCache(): void {
  for (const kernel of signingKernels.values()) kernel.wipe();
  signingKernels.clear();
}

/** @internal The number of cached signing keys (at most 64), for tests. */
export function signingKeyCacheSize(): number {
  return signingKernels.size;
}

function signatureBytes(kernel: HmacKernel, stringToSign: string): Bytes {
  const out = new Uint8Array(32);
  kernel.compute(utf8.encode(stringToSign), out);
  return out;
}

// --- options -------------------------------------------------------------------------------------

interface ResolvedPathOptions {
  normalizePath: boolean;
  doubleEncodePath: boolean;
}

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

const SCOPE_TEXT = "a non-empty string of printable ASCII without '/' or spaces";

function resolvePathOptions(o: Record<string, unknown>, service: string): ResolvedPathOptions {
  const notS3 = service !== "s3";
  return {
    normalizePath: checkBoolean(o.normalizePath, "options.normalizePath", notS3),
    doubleEncodePath: checkBoolean(o.doubleEncodePath, "options.doubleEncodePath", notS3),
  };
}

/** The option names of signRequest; presignUrl's are these with expiresIn for contentSha256Header. */
const PATH_OPTION_NAMES = ["normalizePath", "doubleEncodePath"];
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
const VERIFY_OPTION_NAMES = [
  "secretAccessKey",
  "accessKeyId",
  "region",
  "service",
  "now",
  "clockSkewSeconds",
  "allowUnsignedPayload",
  "allowUnsignedHeaders",
  "signBody",
  ...PATH_OPTION_NAMES,
];

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

/** Host first (when the caller did not set it), then the caller's headers in their order. */
function withHost(headers: HeaderMap, url: WireUrl): HeaderMap {
  if (headers.has("host")) return headers;
  return new Map([["host", [url.host]], ...headers]);
}

// --- signing -------------------------------------------------------------------------------------

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
  const canonicalRequest = canonicalRequestOf({
    method: req.method,
    uri: canonicalUri(req.url.path, o),
    query: canonicalQuery(splitQuery(req.url.query)),
    headers,
    signedNames,
    payloadHash,
  });
  const stringToSign = stringToSignOf(amzDate, scope, canonicalRequest);
  const kernel = signingKernel(o.secret, amzDate.slice(0, 8), o.region, o.service);
  const signature = bytesToHex(signatureBytes(kernel, stringToSign));
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

function decodeComponent(text: string): string | undefined {
  // Without escapes the text is its own decoding (the URL has no lone surrogates).
  if (!text.includes("%")) return text;
  try {
    return strictUtf8.decode(percentDecode(text));
  } catch {
    return undefined;
  }
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

  const canonicalRequest = canonicalRequestOf({
    method: req.method,
    uri: canonicalUri(req.url.path, o),
    query: canonicalQuery([...pairs, ...encodedAuth]),
    headers,
    signedNames,
    payloadHash,
  });
  const stringToSign = stringToSignOf(amzDate, scope, canonicalRequest);
  const kernel = signingKernel(o.secret, amzDate.slice(0, 8), o.region, o.service);
  const signature = bytesToHex(signatureBytes(kernel, stringToSign));

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

// --- verification --------------------------------------------------------------------------------

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
): AuthClaim | string {
  if (values.length !== 1) return "several Authorization headers";
  const value = canonicalHeaderValue(values);
  const prefix = `${SIGV4_ALGORITHM} `;
  if (!value.startsWith(prefix)) return `the Authorization header is not ${SIGV4_ALGORITHM}`;
  const fields = new Map<string, string>();
  // Three fields; a fourth is enough to refuse, so no more are split off (a 10 MB header of commas).
  for (const part of value.slice(prefix.length).split(",", 4)) {
    const item = part.trim();
    const eq = item.indexOf("=");
    const key = item.slice(0, eq);
    if (eq <= 0 || fields.has(key)) return "the Authorization header is malformed";
    fields.set(key, item.slice(eq + 1));
  }
  const credential = parseCredential(fields.get("Credential") ?? "");
  const signedNames = parseSignedNames(fields.get("SignedHeaders") ?? "");
  const signature = fields.get("Signature");
  if (fields.size !== 3 || !credential || !signedNames || signature === undefined) {
    return "the Authorization header needs Credential, SignedHeaders (sorted, lower case) and Signature";
  }
  const dates = headers.get("x-amz-date");
  if (dates === undefined || dates.length !== 1) return "the request needs one X-Amz-Date header";
  const amzDate = canonicalHeaderValue(dates);
  const date = parseAmzDate(amzDate);
  if (!date) return "X-Amz-Date is not a date YYYYMMDDTHHMMSSZ";
  if (!signedNames.includes("x-amz-date")) return "X-Amz-Date is not signed";
  if (signedNames.includes("authorization")) return "SignedHeaders lists authorization";
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

function readQueryAuth(pairs: QueryPair[]): AuthClaim | string {
  const auth = new Map<string, string>();
  const signedQuery: QueryPair[] = [];
  for (const pair of pairs) {
    const name = decodeComponent(pair[0]);
    if (name !== undefined && QUERY_AUTH_PARAMETERS.has(name)) {
      const value = decodeComponent(pair[1]);
      if (auth.has(name)) return `${name} appears more than once`;
      if (value === undefined) return `${name} is not UTF-8`;
      auth.set(name, value);
    }
    if (name !== "X-Amz-Signature") signedQuery.push(pair);
  }
  if (auth.get("X-Amz-Algorithm") !== SIGV4_ALGORITHM)
    return `X-Amz-Algorithm is not ${SIGV4_ALGORITHM}`;
  const credential = parseCredential(auth.get("X-Amz-Credential") ?? "");
  if (!credential) return "X-Amz-Credential is malformed";
  const amzDate = auth.get("X-Amz-Date") ?? "";
  const date = parseAmzDate(amzDate);
  if (!date) return "X-Amz-Date is not a date YYYYMMDDTHHMMSSZ";
  const expires = auth.get("X-Amz-Expires") ?? "";
  const expiresIn = /^\d{1,6}$/.test(expires) ? Number(expires) : 0;
  if (expiresIn < 1 || expiresIn > MAX_PRESIGN_SECONDS) {
    return `X-Amz-Expires must be a whole number of seconds from 1 to ${MAX_PRESIGN_SECONDS}`;
  }
  const signedNames = parseSignedNames(auth.get("X-Amz-SignedHeaders") ?? "");
  if (!signedNames) return "X-Amz-SignedHeaders is not a sorted list of lower-case names";
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

function fail(reason: string): SigV4Verification {
  return { ok: false, reason };
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
  options: SigV4VerifyOptions,
): SigV4Verification {
  const o = checkOptions(options, VERIFY_OPTION_NAMES, "verifyRequest options");
  const lookup = o.secretAccessKey;
  if (typeof lookup !== "function") checkSecretText(lookup, "options.secretAccessKey");
  const expectedKeyId =
    o.accessKeyId === undefined
      ? undefined
      : checkPattern(o.accessKeyId, "options.accessKeyId", ACCESS_KEY_ID, "an access key id");
  const region = checkPattern(o.region, "options.region", SCOPE_PART, SCOPE_TEXT);
  const service = checkPattern(o.service, "options.service", SCOPE_PART, SCOPE_TEXT);
  const now = checkDate(o.now, "options.now").getTime();
  const skew =
    o.clockSkewSeconds === undefined
      ? DEFAULT_CLOCK_SKEW_SECONDS
      : assertInteger(o.clockSkewSeconds, "options.clockSkewSeconds", 0, 86_400);
  const allowUnsigned = checkBoolean(o.allowUnsignedPayload, "options.allowUnsignedPayload", false);
  const tolerated = checkHeaderNames(o.allowUnsignedHeaders, "options.allowUnsignedHeaders");
  const presignSignsBody = checkBoolean(o.signBody, "options.signBody", service !== "s3");
  const pathOptions = resolvePathOptions(o, service);

  const req = prepareRequest(request);
  if (req instanceof Malformed) return fail(`the request is malformed: ${req.message}`);

  // Which form of SigV4 auth the request carries.
  const pairs = splitQuery(req.url.query);
  const authorization = req.headers.get("authorization");
  const queryAuth = pairs.some(([name]) => decodeComponent(name) === "X-Amz-Signature");
  if (authorization && queryAuth) return fail("both an Authorization header and X-Amz-Signature");
  if (!authorization && !queryAuth) return fail("no Authorization header and no X-Amz-Signature");
  const claim = authorization
    ? readHeaderAuth(authorization, req.headers, pairs)
    : readQueryAuth(pairs);
  if (typeof claim === "string") return fail(claim);

  // Credential scope: date/region/service/aws4_request, the date being X-Amz-Date's.
  const [scopeDate, scopeRegion, scopeService, terminator] = claim.scope;
  if (scopeDate !== claim.amzDate.slice(0, 8))
    return fail("the credential date is not X-Amz-Date's");
  if (scopeRegion !== region) return fail(`the credential is for region ${quote(scopeRegion)}`);
  if (scopeService !== service) return fail(`the credential is for service ${quote(scopeService)}`);
  if (terminator !== TERMINATOR) return fail(`the credential scope does not end in ${TERMINATOR}`);
  if (expectedKeyId !== undefined && claim.accessKeyId !== expectedKeyId) {
    return fail("signed by another access key id");
  }

  // Time: presigned URLs from X-Amz-Date to X-Amz-Date + X-Amz-Expires; headers within the skew.
  const signedAt = claim.date.getTime();
  if (signedAt - now > skew * 1000) return fail("X-Amz-Date is in the future");
  const expiresAt =
    claim.expiresIn === undefined ? signedAt + skew * 1000 : signedAt + claim.expiresIn * 1000;
  if (now > expiresAt)
    return fail(claim.presigned ? "the URL has expired" : "X-Amz-Date is too old");

  // The signed headers must all be there; host is always signed; so is every x-amz-* header sent
  // (an unsigned x-amz-acl: public-read would otherwise ride on a valid signature).
  const headers = withHost(req.headers, req.url);
  if (!claim.signedNames.includes("host")) return fail("host is not signed");
  for (const name of claim.signedNames) {
    if (!headers.has(name)) return fail(`the signed header ${name} is missing`);
  }
  const signedSet = new Set(claim.signedNames);
  for (const name of headers.keys()) {
    if (name.startsWith("x-amz-") && !signedSet.has(name) && !tolerated.has(name)) {
      return fail(`the header ${name} is not signed`);
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
      if (!allowUnsigned) return fail("the payload is unsigned (UNSIGNED-PAYLOAD) and not allowed");
    } else if (!HEX64.test(payloadHash)) {
      return fail("x-amz-content-sha256 is neither a SHA-256 nor UNSIGNED-PAYLOAD");
    } else if (payloadHash.toLowerCase() !== sha256Hex(req.body)) {
      return fail("the body does not match x-amz-content-sha256");
    }
  } else {
    bodyAuthenticated = !claim.presigned || presignSignsBody;
    payloadHash = bodyAuthenticated ? sha256Hex(req.body) : UNSIGNED_PAYLOAD;
  }

  const candidate = /^[0-9a-f]{64}$/.test(claim.signature)
    ? hexToBytes(claim.signature)
    : undefined;
  if (!candidate) return fail("the signature is not 64 lower-case hex digits");
  const secret = typeof lookup === "function" ? lookup(claim.accessKeyId) : lookup;
  // null too: a lookup backed by a Map.get or a database row answers null for "no such key".
  if (secret === undefined || secret === null) return fail("unknown access key id");
  checkSecretText(secret, "the secret returned by options.secretAccessKey");

  const scope = claim.scope.join("/");
  const canonicalRequest = canonicalRequestOf({
    method: req.method,
    uri: canonicalUri(req.url.path, pathOptions),
    query: canonicalQuery(claim.signedQuery),
    headers,
    signedNames: claim.signedNames,
    payloadHash,
  });
  const stringToSign = stringToSignOf(claim.amzDate, scope, canonicalRequest);
  const kernel = signingKernel(secret as string, scopeDate, region, service);
  if (!equal(signatureBytes(kernel, stringToSign), candidate)) {
    return fail("the signature does not match");
  }
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
