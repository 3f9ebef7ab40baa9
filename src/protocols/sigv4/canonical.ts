/**
 * SigV4's canonical forms (AWS IAM User Guide, "Create a canonical request"): URI encoding, the
 * canonical URI and query, header values, the canonical request and the string to sign.
 */
import { type Bytes, bytesToHex } from "../../core/bytes.js";
import { sha256 } from "../../hash/sha256.js";
import { AMZ_DATE, type ResolvedPathOptions, SIGV4_ALGORITHM, strictUtf8, utf8 } from "./common.js";
import type { HeaderMap } from "./url.js";

const HEX_UPPER = "0123456789ABCDEF";
/** RFC 3986 2.3 unreserved: A-Z a-z 0-9 - . _ ~ */
const UNRESERVED = new Uint8Array(256);
for (let b = 0; b < 256; b++) {
  const c = String.fromCharCode(b);
  UNRESERVED[b] = /[A-Za-z0-9\-._~]/.test(c) ? 1 : 0;
}

/** AWS's UriEncode: unreserved bytes kept, "/" kept when asked, every other byte %XX upper case. */
export function uriEncode(bytes: Bytes, keepSlash: boolean): string {
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

export function canonicalUri(path: string, options: ResolvedPathOptions): string {
  const p = options.normalizePath ? normalizePath(path) : path;
  // Twice: the wire path's escapes are themselves escaped. Once (S3): decoded, then encoded.
  return options.doubleEncodePath ? uriEncode(utf8.encode(p), true) : reencode(p, true);
}

/** A query parameter: [name, value], as the wire has them (still percent-encoded). */
export type QueryPair = [name: string, value: string];

/** The "&"-separated parameters; one pass, no array of parts in between (queries may be huge). */
export function splitQuery(query: string | undefined): QueryPair[] {
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
export function canonicalQuery(pairs: readonly QueryPair[]): string {
  const encoded = pairs.map(
    ([n, v]): QueryPair => [encodeQueryComponent(n), encodeQueryComponent(v)],
  );
  encoded.sort((a, b) =>
    a[0] !== b[0] ? (a[0] < b[0] ? -1 : 1) : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0,
  );
  return encoded.map(([n, v]) => `${n}=${v}`).join("&");
}

/** Each value trimmed, runs of spaces and tabs made one space, the values joined with ",". */
export function canonicalHeaderValue(values: readonly string[]): string {
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

export function sha256Hex(bytes: Bytes): string {
  return bytesToHex(sha256(bytes));
}

export interface CanonicalInput {
  method: string;
  uri: string;
  query: string;
  headers: HeaderMap;
  signedNames: readonly string[];
  payloadHash: string;
}

export function canonicalRequestOf(c: CanonicalInput): string {
  const lines = c.signedNames.map((n) => `${n}:${canonicalHeaderValue(c.headers.get(n) ?? [])}`);
  return [c.method, c.uri, c.query, ...lines, "", c.signedNames.join(";"), c.payloadHash].join(
    "\n",
  );
}

export function stringToSignOf(amzDate: string, scope: string, canonicalRequest: string): string {
  return [SIGV4_ALGORITHM, amzDate, scope, sha256Hex(utf8.encode(canonicalRequest))].join("\n");
}

export function formatAmzDate(date: Date): string {
  // 2015-08-30T12:36:00.000Z → 20150830T123600Z
  return date.toISOString().replace(/[-:]|\.\d{3}/g, "");
}

export function parseAmzDate(text: string): Date | undefined {
  const m = AMZ_DATE.exec(text);
  if (!m) return undefined;
  const date = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]));
  return Number.isFinite(date.getTime()) && formatAmzDate(date) === text ? date : undefined;
}

export function decodeComponent(text: string): string | undefined {
  // Without escapes the text is its own decoding (the URL has no lone surrogates).
  if (!text.includes("%")) return text;
  try {
    return strictUtf8.decode(percentDecode(text));
  } catch {
    return undefined;
  }
}
