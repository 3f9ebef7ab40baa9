/**
 * Byte helpers: argument checks, hex, base64, base64url, UTF-8 and concatenation. Written without
 * Buffer so the same code runs in browsers.
 */
import { KeyedError } from "./errors.js";
import { describeType as describe } from "./options.js";

export type Bytes = Uint8Array;

function isDetached(bytes: Uint8Array): boolean {
  // A detached buffer reads as empty; constructing a view over it is the portable way to tell
  // (ArrayBuffer.prototype.detached is not in every runtime keyed supports).
  try {
    new Uint8Array(bytes.buffer, 0, 0);
    return false;
  } catch {
    return true;
  }
}

const HEX_TEXT = /^(?:[0-9a-fA-F]{2}){4,}$/;
const BASE64URL_TEXT = /^[A-Za-z0-9_-]{8,}$/;
const BASE64_TEXT = /^(?:[A-Za-z0-9+/]{4}){2,}(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * What to do with a string given where bytes are expected: a tag or a key in hex or base64 wants
 * decoding, not UTF-8 encoding (which would give the wrong bytes and, for a tag, a silent false).
 */
function decodeHint(value: unknown): string {
  if (typeof value !== "string") return "Encode text with utf8ToBytes().";
  if (HEX_TEXT.test(value)) return "It looks like hex: decode it with hexToBytes().";
  if (BASE64URL_TEXT.test(value) && /[-_]/.test(value)) {
    return "It looks like base64url: decode it with base64urlToBytes().";
  }
  if (BASE64_TEXT.test(value) && /[+/=]|[0-9]/.test(value)) {
    return "It looks like base64: decode it with base64ToBytes() (or base64urlToBytes()).";
  }
  return "If it is text, encode it with utf8ToBytes(); if it is hex or base64, decode it.";
}

/**
 * Throws BAD_INPUT unless `value` is a live Uint8Array (Node's Buffer and subarray views with an
 * offset included). `name` is the argument's name, used in the message.
 */
export function assertBytes(value: unknown, name: string): asserts value is Bytes {
  // The refusal is built elsewhere: this check sits on every hot path, and V8 inlines a caller's
  // callees only within a budget of bytecode, which a message built here would take.
  if (!(value instanceof Uint8Array) || (value.length === 0 && isDetached(value))) {
    throw notBytes(value, name);
  }
}

/** assertBytes's refusal for `value`. */
function notBytes(value: unknown, name: string): KeyedError {
  return new KeyedError(
    "BAD_INPUT",
    value instanceof Uint8Array
      ? `${name} is a Uint8Array over a detached ArrayBuffer.`
      : `${name} must be a Uint8Array (bytes); got ${describe(value)}. ${decodeHint(value)}`,
  );
}

/** Throws BAD_INPUT unless `value` is a whole number in [min, max]. */
export function assertInteger(value: unknown, name: string, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new KeyedError(
      "BAD_INPUT",
      `${name} must be a whole number from ${min} to ${max}; got ${typeof value === "number" ? value : describe(value)}.`,
    );
  }
  return value;
}

/** Throws BAD_INPUT unless `value` is a string. */
export function assertString(value: unknown, name: string): asserts value is string {
  if (typeof value !== "string") {
    throw new KeyedError("BAD_INPUT", `${name} must be a string; got ${describe(value)}.`);
  }
}

/**
 * The little-endian 32-bit word at bytes[offset .. offset + 4), as an int32 (its bit pattern:
 * `>>> 0` reads it unsigned). The word order of ChaCha20, Poly1305, SipHash and BLAKE3.
 */
export function readWordLE(bytes: Uint8Array, offset: number): number {
  return (
    bytes[offset] | (bytes[offset + 1] << 8) | (bytes[offset + 2] << 16) | (bytes[offset + 3] << 24)
  );
}

const TYPED_ARRAY_SET = Uint8Array.prototype.set;

/**
 * `target.set(source, offset)`, through `Uint8Array.prototype.set` held here: V8 (Node 20) compiles
 * a typed array's `.set` in optimized code to a generic property lookup (perf shows it as LoadIC,
 * ~5-20 ns a call), and a held function to a direct call.
 */
export function setBytes(target: Uint8Array, source: Uint8Array, offset = 0): void {
  TYPED_ARRAY_SET.call(target, source, offset);
}

/** words[at .. at + count) = the little-endian words of bytes[from .. from + 4·count). */
export function readWordsLE(
  bytes: Uint8Array,
  from: number,
  words: Int32Array,
  at: number,
  count: number,
): void {
  for (let i = 0; i < count; i++) words[at + i] = readWordLE(bytes, from + 4 * i);
}

/** Overwrites the bytes with zeros. */
export function wipe(...arrays: (Uint8Array | Int32Array | Uint32Array)[]): void {
  for (const a of arrays) a.fill(0);
}

/**
 * No bytes, shared, for keyed's own use: it holds nothing to change or wipe. V8 (Node 20) makes
 * `new Uint8Array(0)` off its fast path, with an ArrayBuffer of its own: ~210 ns a call, against
 * ~25 ns for 1 to 64 bytes (AMD EPYC, 2026-12-05), which a hot path with no associated data paid
 * per call. Never hand it to a caller: transferring its buffer (postMessage) would detach it for
 * every user.
 */
export const EMPTY_BYTES: Bytes = /* @__PURE__ */ new Uint8Array(0);

/** A copy of `bytes` that the caller can no longer change (and keyed can wipe). */
export function copyBytes(bytes: Bytes): Bytes {
  // Not bytes.slice(): on a Node Buffer that is a view of the same memory, not a copy.
  return new Uint8Array(bytes);
}

/** Concatenates byte arrays into a new one. */
export function concatBytes(...arrays: Bytes[]): Bytes {
  let length = 0;
  for (let i = 0; i < arrays.length; i++) {
    assertBytes(arrays[i], `concatBytes argument ${i}`);
    length += arrays[i].length;
  }
  const out = new Uint8Array(length);
  let offset = 0;
  for (const a of arrays) {
    out.set(a, offset);
    offset += a.length;
  }
  return out;
}

// --- hex ---------------------------------------------------------------------------------------

const HEX_DIGITS = "0123456789abcdef";
const BYTE_TO_HEX: string[] = Array.from(
  { length: 256 },
  (_, i) => HEX_DIGITS[i >> 4] + HEX_DIGITS[i & 15],
);

/** Lower-case hex. Table lookup is fine here: hex output is for tags and keys being shown anyway. */
export function bytesToHex(bytes: Bytes): string {
  assertBytes(bytes, "bytes");
  let out = "";
  for (let i = 0; i < bytes.length; i++) out += BYTE_TO_HEX[bytes[i]];
  return out;
}

function hexNibble(code: number): number {
  // Branch-free over the character: decoding a hex key should not leak its digits through branches.
  // Each term is -1 (all ones) when the range matches and 0 otherwise.
  const digit = code - 48; // '0'..'9'
  const upper = code - 55; // 'A'..'F' -> 10..15
  const lower = code - 87; // 'a'..'f' -> 10..15
  const isDigit = ((47 - code) & (code - 58)) >> 31;
  const isUpper = ((64 - code) & (code - 71)) >> 31;
  const isLower = ((96 - code) & (code - 103)) >> 31;
  // Invalid characters give -1.
  return (digit & isDigit) | (upper & isUpper) | (lower & isLower) | ~(isDigit | isUpper | isLower);
}

/** Decodes hex (either case, no prefix, no spaces). BAD_ENCODING on anything else. */
export function hexToBytes(hex: string): Bytes {
  assertString(hex, "hex");
  if (hex.length % 2 !== 0) {
    throw new KeyedError(
      "BAD_ENCODING",
      `hex must have an even number of digits; got ${hex.length}.`,
    );
  }
  const out = new Uint8Array(hex.length / 2);
  let bad = 0;
  for (let i = 0; i < out.length; i++) {
    const hi = hexNibble(hex.charCodeAt(2 * i));
    const lo = hexNibble(hex.charCodeAt(2 * i + 1));
    bad |= hi | lo;
    out[i] = (hi << 4) | lo;
  }
  if (bad < 0) {
    throw new KeyedError("BAD_ENCODING", "hex may contain only the digits 0-9, a-f and A-F.");
  }
  return out;
}

// --- base64 / base64url (RFC 4648) -------------------------------------------------------------

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

function encode64(bytes: Bytes, alphabet: string, pad: boolean): string {
  let out = "";
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out +=
      alphabet[n >> 18] + alphabet[(n >> 12) & 63] + alphabet[(n >> 6) & 63] + alphabet[n & 63];
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i] << 16;
    out += alphabet[n >> 18] + alphabet[(n >> 12) & 63] + (pad ? "==" : "");
  } else if (rest === 2) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8);
    out +=
      alphabet[n >> 18] + alphabet[(n >> 12) & 63] + alphabet[(n >> 6) & 63] + (pad ? "=" : "");
  }
  return out;
}

/** -1 when lo ≤ code ≤ hi, else 0, without a branch on `code`. */
function inRange(code: number, lo: number, hi: number): number {
  return ((lo - 1 - code) & (code - hi - 1)) >> 31;
}

/**
 * Value of one base64 character, or -1; branch-free over the character (see hexNibble). No
 * closure: one made per character costs more than the decoding (and far more under a bundler
 * that names functions).
 */
function sextet(code: number, url: boolean): number {
  const upper = inRange(code, 65, 90);
  const lower = inRange(code, 97, 122);
  const digit = inRange(code, 48, 57);
  const c62 = url ? inRange(code, 45, 45) : inRange(code, 43, 43);
  const c63 = url ? inRange(code, 95, 95) : inRange(code, 47, 47);
  const any = upper | lower | digit | c62 | c63;
  return (
    ((code - 65) & upper) |
    ((code - 71) & lower) |
    ((code + 4) & digit) |
    (62 & c62) |
    (63 & c63) |
    ~any
  );
}

function decode64(text: string, url: boolean, name: string): Bytes {
  assertString(text, name);
  const kind = url ? "base64url" : "base64";
  let end = text.length;
  if (!url || end % 4 === 0) {
    // Padding: standard base64 requires it; base64url accepts it when the length says it is there.
    if (end % 4 !== 0) {
      throw new KeyedError("BAD_ENCODING", `${name}: ${kind} length must be a multiple of 4.`);
    }
    if (end > 0 && text.charCodeAt(end - 1) === 61) end--;
    if (end > 0 && text.charCodeAt(end - 1) === 61) end--;
  }
  if (end % 4 === 1) {
    throw new KeyedError("BAD_ENCODING", `${name}: ${kind} text has an impossible length.`);
  }
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let bad = 0;
  let o = 0;
  let i = 0;
  for (; i + 3 < end; i += 4) {
    const a = sextet(text.charCodeAt(i), url);
    const b = sextet(text.charCodeAt(i + 1), url);
    const c = sextet(text.charCodeAt(i + 2), url);
    const d = sextet(text.charCodeAt(i + 3), url);
    bad |= a | b | c | d;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = n >> 16;
    out[o++] = n >> 8;
    out[o++] = n;
  }
  const rest = end - i;
  if (rest >= 2) {
    const a = sextet(text.charCodeAt(i), url);
    const b = sextet(text.charCodeAt(i + 1), url);
    bad |= a | b;
    out[o++] = (a << 2) | (b >> 4);
    if (rest === 3) {
      const c = sextet(text.charCodeAt(i + 2), url);
      bad |= c;
      out[o++] = (b << 4) | (c >> 2);
      bad |= -(c & 3); // non-canonical: leftover bits must be zero
    } else {
      bad |= -(b & 15);
    }
  }
  if (bad < 0) {
    throw new KeyedError(
      "BAD_ENCODING",
      `${name} is not canonical ${kind}: only ${url ? "A-Z a-z 0-9 - _" : "A-Z a-z 0-9 + /"} ` +
        `${url ? "(padding optional)" : "with = padding"}, no spaces or line breaks.`,
    );
  }
  return out;
}

export function bytesToBase64(bytes: Bytes): string {
  assertBytes(bytes, "bytes");
  return encode64(bytes, B64, true);
}
export function base64ToBytes(text: string): Bytes {
  return decode64(text, false, "base64");
}
/** base64url without padding (RFC 4648 section 5, as JWS uses it). */
export function bytesToBase64url(bytes: Bytes): string {
  assertBytes(bytes, "bytes");
  return encode64(bytes, B64URL, false);
}
/** Accepts base64url with or without padding; rejects the standard alphabet's + and /. */
export function base64urlToBytes(text: string): Bytes {
  return decode64(text, true, "base64url");
}

// --- UTF-8 -------------------------------------------------------------------------------------

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/** Up to this length an ASCII string is encoded by a loop: TextEncoder's call costs more. */
const ASCII_LOOP_MAX = 128;

export function utf8ToBytes(text: string): Bytes {
  assertString(text, "text");
  const n = text.length;
  if (n > ASCII_LOOP_MAX) return encoder.encode(text);
  // Short texts (a webhook's "id.timestamp." prefix, a JWT header) are nearly always ASCII, where
  // UTF-8 is the character codes; anything else goes to TextEncoder whole.
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const code = text.charCodeAt(i);
    if (code > 0x7f) return encoder.encode(text);
    out[i] = code;
  }
  return out;
}

/** Decodes UTF-8; malformed sequences are BAD_ENCODING, never replaced silently. */
export function bytesToUtf8(bytes: Bytes): string {
  assertBytes(bytes, "bytes");
  try {
    return decoder.decode(bytes);
  } catch {
    throw new KeyedError("BAD_ENCODING", "bytes are not valid UTF-8.");
  }
}
