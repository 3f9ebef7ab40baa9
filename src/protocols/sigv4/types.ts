/** The public types of the SigV4 module. */
import type { Bytes } from "../../core/bytes.js";
import type { Refusal } from "../../core/result.js";
import type { TimeInput } from "../../core/time.js";
import type { HeaderList } from "../http/headers.js";

/** One header value, or several (sent as one value joined with commas). */
export type SigV4HeaderValue = string | readonly string[];
/** A fetch Headers object (or anything else with its forEach). */
export type { HeadersWithForEach as SigV4HeadersLike } from "../http/headers.js";
/**
 * Header names are case-insensitive. A plain object (node:http's `req.headers` as it is: absent
 * values are skipped, arrays are repeated headers), [name, value] pairs (a Map, an array), or a
 * fetch Headers object.
 */
export type SigV4Headers = HeaderList;

export interface SigV4Request {
  /** The HTTP method; upper-cased, as HTTP clients send it. */
  method: string;
  /** The absolute http: or https: URL as it goes on the wire (see the module comment). */
  url: string | URL;
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

export interface SigV4SigningOptions extends PathOptions {
  accessKeyId: string;
  secretAccessKey: string;
  /** Temporary credentials' token, sent as X-Amz-Security-Token. */
  sessionToken?: string;
  region: string;
  service: string;
  /** The signing time. Default: now. */
  date?: TimeInput;
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

export interface SigV4PresignOptions extends Omit<SigV4SigningOptions, "contentSha256Header"> {
  /** Seconds the URL stays valid (X-Amz-Expires), 1 to 604800. */
  expiresIn: number;
  /** Hash the body into the signature. Default: true, false for S3 (UNSIGNED-PAYLOAD). */
  signBody?: boolean;
}

export interface SigV4Signed {
  /** Every header to send, lower-case names, values canonical (trimmed, joined with commas). */
  headers: Record<string, string>;
  authorization: string;
  /** The signature, 64 lower-case hex digits. */
  signature: string;
  /** The signed header names, joined with ";". */
  signedHeaders: string;
  /** date/region/service/aws4_request. */
  credentialScope: string;
  canonicalRequest: string;
  stringToSign: string;
}

export interface SigV4Presigned {
  /** The URL with the X-Amz-* parameters appended (the given query is kept as it is). */
  url: string;
  signature: string;
  signedHeaders: string;
  credentialScope: string;
  canonicalRequest: string;
  stringToSign: string;
  expiresAt: Date;
}

export interface SigV4VerifyOptions extends PathOptions {
  /**
   * The secret, or a lookup from the access key id (undefined or null: unknown key). SigV4 does
   * not sign the access key id: with one secret string, the id in the result is the client's
   * claim; give `accessKeyId` to pin it, or use a lookup.
   */
  secretAccessKey: string | ((accessKeyId: string) => string | null | undefined);
  /** When given, the request must be signed by this access key id. */
  accessKeyId?: string;
  region: string;
  service: string;
  /** The verifier's clock. Default: now. */
  now?: TimeInput;
  /** Allowed clock difference in seconds, 0 to 86400. Default: 900 (AWS's 15 minutes). */
  toleranceSeconds?: number;
  /** @deprecated The old name of `toleranceSeconds`, accepted for one release. */
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

export type SigV4Verification =
  | {
      ok: true;
      accessKeyId: string;
      /** Only these headers are authenticated. */
      signedHeaders: string[];
      date: Date;
      presigned: boolean;
      /**
       * Whether the signature covers the body's bytes: true when the signed payload hash is the
       * body's SHA-256; false for UNSIGNED-PAYLOAD, where any body verifies (S3 presigned URLs).
       */
      bodyAuthenticated: boolean;
      /** For presigned URLs, when the URL stops being valid. */
      expiresAt?: Date;
    }
  | Refusal<SigV4Failure>;

/** Why verifyRequest refused a request; `message` says what exactly, for logs. */
export type SigV4Failure =
  /** The URL, method or a header is not valid HTTP (a control character, a bad host, …). */
  | "malformed_request"
  /** Neither an Authorization header nor X-Amz-Signature. */
  | "missing_auth"
  /** The Authorization header or the X-Amz-* query parameters are not well-formed (or both). */
  | "malformed_auth"
  /** The request is signed with another algorithm than AWS4-HMAC-SHA256. */
  | "unsupported_algorithm"
  /** No X-Amz-Date header, or several. */
  | "missing_date"
  /** X-Amz-Date is not a date YYYYMMDDTHHMMSSZ. */
  | "malformed_date"
  /** The credential scope names another date, region or service, or does not end aws4_request. */
  | "scope_mismatch"
  /** Signed by another access key id than `options.accessKeyId`. */
  | "access_key_mismatch"
  /** The secret lookup knows no such access key id. */
  | "unknown_access_key"
  /** X-Amz-Date is in the future beyond the tolerance. */
  | "not_yet_valid"
  /** A presigned URL past its X-Amz-Expires, or X-Amz-Date older than the tolerance. */
  | "expired"
  /** host, X-Amz-Date, or an x-amz-* header that was sent is not signed (AWS: HeadersNotSigned). */
  | "header_not_signed"
  /** A header named in SignedHeaders is not in the request. */
  | "signed_header_missing"
  /** x-amz-content-sha256 is UNSIGNED-PAYLOAD and `allowUnsignedPayload` is not set. */
  | "unsigned_payload"
  /** x-amz-content-sha256 is neither a SHA-256 nor UNSIGNED-PAYLOAD. */
  | "malformed_payload_hash"
  /** The body's SHA-256 is not x-amz-content-sha256. */
  | "body_mismatch"
  /** The signature is not 64 lower-case hex digits. */
  | "malformed_signature"
  /** The signature does not match. */
  | "signature_mismatch";
