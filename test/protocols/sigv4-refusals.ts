/**
 * The refusal verifyRequest gives for each of its messages: the reason code written out here
 * independently of src/protocols/sigv4/verify.ts, so a code that drifts from its message fails.
 */
import type { SigV4Failure } from "../../src/protocols/sigv4.js";

const REASONS: [RegExp, SigV4Failure][] = [
  [/^the request is malformed/, "malformed_request"],
  [/^no Authorization header and no X-Amz-Signature$/, "missing_auth"],
  [/^both an Authorization header and X-Amz-Signature$/, "malformed_auth"],
  [/^several Authorization headers$/, "malformed_auth"],
  [/^the Authorization header is not AWS4-HMAC-SHA256$/, "unsupported_algorithm"],
  [/^X-Amz-Algorithm is not AWS4-HMAC-SHA256$/, "unsupported_algorithm"],
  [/^the Authorization header (is malformed|needs Credential)/, "malformed_auth"],
  [/^SignedHeaders lists authorization$/, "malformed_auth"],
  [/^X-Amz-\S+ (appears more than once|is not UTF-8|is malformed)$/, "malformed_auth"],
  [/^X-Amz-Expires must be/, "malformed_auth"],
  [/^X-Amz-SignedHeaders is not/, "malformed_auth"],
  [/^the request needs one X-Amz-Date header$/, "missing_date"],
  [/^X-Amz-Date is not a date/, "malformed_date"],
  [/^X-Amz-Date is not signed$/, "header_not_signed"],
  [/^the credential (date is not|is for|scope does not end)/, "scope_mismatch"],
  [/^signed by another access key id$/, "access_key_mismatch"],
  [/^unknown access key id$/, "unknown_access_key"],
  [/^X-Amz-Date is in the future$/, "not_yet_valid"],
  [/^(the URL has expired|X-Amz-Date is too old)$/, "expired"],
  [/^host is not signed$/, "header_not_signed"],
  [/^the header \S+ is not signed$/, "header_not_signed"],
  [/^the signed header \S+ is missing$/, "signed_header_missing"],
  [/^the payload is unsigned/, "unsigned_payload"],
  [/^x-amz-content-sha256 is neither/, "malformed_payload_hash"],
  [/^the body does not match x-amz-content-sha256$/, "body_mismatch"],
  [/^the signature is not 64 lower-case hex digits$/, "malformed_signature"],
  [/^the signature does not match$/, "signature_mismatch"],
];

/** The reason code of a verifyRequest refusal message. */
export function sigv4Reason(message: string): SigV4Failure {
  for (const [pattern, reason] of REASONS) if (pattern.test(message)) return reason;
  throw new Error(`no reason known for the message ${JSON.stringify(message)}`);
}

/** The whole refusal verifyRequest answers with `message`. */
export function refusal(message: string): { ok: false; reason: SigV4Failure; message: string } {
  return { ok: false, reason: sigv4Reason(message), message };
}
