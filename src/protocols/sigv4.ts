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
 *
 * The parts live under sigv4/: url.ts (the request as it came), canonical.ts (the canonical
 * forms), keys.ts (signing keys and their cache), sign.ts, verify.ts.
 */
export { MAX_PRESIGN_SECONDS, SIGV4_ALGORITHM, UNSIGNED_PAYLOAD } from "./sigv4/common.js";
export { clearSigningKeyCache, deriveSigningKey, signingKeyCacheSize } from "./sigv4/keys.js";
export { presignUrl, signRequest } from "./sigv4/sign.js";
export type {
  SigV4Failure,
  SigV4Headers,
  SigV4HeadersLike,
  SigV4HeaderValue,
  SigV4Presigned,
  SigV4PresignOptions,
  SigV4Request,
  SigV4Signed,
  SigV4SigningOptions,
  SigV4Verification,
  SigV4VerifyOptions,
} from "./sigv4/types.js";
export { verifyRequest } from "./sigv4/verify.js";
