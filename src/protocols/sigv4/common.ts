/** What the SigV4 modules share: constants, argument checks, path options. */
import { KeyedError } from "../../core/errors.js";
import { describeType } from "../../core/options.js";
import { toUnixSeconds } from "../../core/time.js";

/** The algorithm name, first word of the Authorization header and of the string to sign. */
export const SIGV4_ALGORITHM = "AWS4-HMAC-SHA256";
/** The payload hash that leaves the body out of the signature (S3 API Reference). */
export const UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";
/** The longest X-Amz-Expires SigV4 accepts: 7 days. */
export const MAX_PRESIGN_SECONDS = 604_800;

export const TERMINATOR = "aws4_request";
/** AWS refuses header-signed requests dated more than 15 minutes from its clock. */
export const DEFAULT_CLOCK_SKEW_SECONDS = 900;
/** Headers sent but never signed: botocore's list (proxies and clients rewrite them). */
export const UNSIGNED_HEADERS = new Set([
  "authorization",
  "user-agent",
  "expect",
  "x-amzn-trace-id",
]);
export const QUERY_AUTH_PARAMETERS = new Set([
  "X-Amz-Algorithm",
  "X-Amz-Credential",
  "X-Amz-Date",
  "X-Amz-Expires",
  "X-Amz-SignedHeaders",
  "X-Amz-Security-Token",
  "X-Amz-Signature",
]);

export const utf8 = new TextEncoder();
export const strictUtf8 = new TextDecoder("utf-8", { fatal: true });
export const LONE_SURROGATE =
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** RFC 9110 5.1 token: header names, methods. */
export const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Printable ASCII without "/" (the credential scope's separator). */
export const SCOPE_PART = /^[!-.0-~]+$/;
/** Printable ASCII without "/" and "," (the Authorization header's separators). */
export const ACCESS_KEY_ID = /^[!-+\-.0-~]+$/;
export const HEX64 = /^[0-9a-fA-F]{64}$/;
export const AMZ_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

export function badInput(message: string): KeyedError {
  return new KeyedError("BAD_INPUT", message);
}

/** Controls but HTAB (RFC 9110 5.5 field values exclude them), so no header can be split. */
export function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09) || c === 0x7f) return true;
  }
  return false;
}

export function checkPattern(
  value: unknown,
  name: string,
  pattern: RegExp,
  accepted: string,
): string {
  if (typeof value !== "string" || !pattern.test(value)) {
    const got =
      typeof value === "string" ? JSON.stringify(value.slice(0, 40)) : describeType(value);
    throw badInput(`${name} must be ${accepted}; got ${got}.`);
  }
  return value;
}

/** Non-empty text without controls or lone surrogates; the value is never echoed (secrets). */
export function checkSecretText(value: unknown, name: string): string {
  if (typeof value !== "string" || value.length === 0) {
    throw badInput(`${name} must be a non-empty string; got ${describeType(value)}.`);
  }
  if (hasControl(value) || LONE_SURROGATE.test(value)) {
    throw badInput(`${name} contains a control character or a lone surrogate.`);
  }
  return value;
}

export function checkBoolean(value: unknown, name: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") {
    throw badInput(`${name} must be true, false or absent; got ${describeType(value)}.`);
  }
  return value;
}

/** A signing time or the verifier's clock: a Date or Unix seconds (core/time.ts); now when absent. */
export function checkDate(value: unknown, name: string): Date {
  if (value === undefined) return new Date();
  const date = value instanceof Date ? value : new Date(toUnixSeconds(value, name) * 1000);
  if (!Number.isFinite(date.getTime())) {
    throw badInput(
      `${name} must be a valid Date, seconds since the epoch, or absent; got ${describeType(value)}.`,
    );
  }
  const year = date.getUTCFullYear();
  if (year < 0 || year > 9999) throw badInput(`${name} must fall in the years 0 to 9999.`);
  return date;
}

/** At most 60 characters of attacker text, JSON-quoted, for a message. */
export function quote(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}

export interface ResolvedPathOptions {
  normalizePath: boolean;
  doubleEncodePath: boolean;
}

export const SCOPE_TEXT = "a non-empty string of printable ASCII without '/' or spaces";

export function resolvePathOptions(
  o: Record<string, unknown>,
  service: string,
): ResolvedPathOptions {
  const notS3 = service !== "s3";
  return {
    normalizePath: checkBoolean(o.normalizePath, "options.normalizePath", notS3),
    doubleEncodePath: checkBoolean(o.doubleEncodePath, "options.doubleEncodePath", notS3),
  };
}

/** The option names of signRequest; presignUrl's are these with expiresIn for contentSha256Header. */
export const PATH_OPTION_NAMES = ["normalizePath", "doubleEncodePath"];
