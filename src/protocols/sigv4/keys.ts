/** SigV4 signing keys (AWS IAM User Guide, "Calculate the signature"), and their cache. */
import type { Bytes } from "../../core/bytes.js";
import { PreparedKeyCache } from "../../core/cache.js";
import { encodeFields } from "../../core/fields.js";
import { SHA256 } from "../../hash/sha256.js";
import { HmacKernel } from "../../mac/hmac.js";
import { type CanonicalInput, canonicalRequestOf, stringToSignOf } from "./canonical.js";
import { checkPattern, checkSecretText, SCOPE_PART, TERMINATOR, utf8 } from "./common.js";

export function hmacSha256(key: Bytes, message: string): Bytes {
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
 * request is waste. An entry is found by the length-prefixed encoding of (secret, date, region,
 * service) (core/cache.ts `getFor`): tuples never collide through concatenation.
 */
const SIGNING_KEY_CACHE_LIMIT = 64;
const signingKernels = new PreparedKeyCache<HmacKernel>(SIGNING_KEY_CACHE_LIMIT);

export function signingKernel(
  secret: string,
  date: string,
  region: string,
  service: string,
): HmacKernel {
  const encoded = encodeFields("keyed/sigv4 signing key", [secret, date, region, service]);
  const kernel = signingKernels.getFor(encoded, 0, () => {
    const key = signingKeyBytes(secret, date, region, service);
    const made = new HmacKernel(SHA256, key);
    key.fill(0);
    return made;
  });
  encoded.fill(0);
  return kernel;
}

/** Wipes and forgets every cached signing key (after rotating credentials, say). */
export function clearSigningKeyCache(): void {
  signingKernels.clear();
}

/** @internal The number of cached signing keys (at most 64), for tests. */
export function signingKeyCacheSize(): number {
  return signingKernels.size;
}

export function signatureBytes(kernel: HmacKernel, stringToSign: string): Bytes {
  const out = new Uint8Array(32);
  kernel.compute(utf8.encode(stringToSign), out);
  return out;
}

/** A canonical request's signature (AWS IAM User Guide, "Calculate the signature"), with the texts. */
export interface CanonicalSignature {
  canonicalRequest: string;
  stringToSign: string;
  signature: Bytes;
}

/**
 * Signs `input` for the credential scope `amzDate[0..8)/region/service/aws4_request` under
 * `secret`: the canonical request, its string to sign, and the 32-byte signature. One path for
 * signRequest, presignUrl and verifyRequest.
 */
export function signCanonical(
  secret: string,
  region: string,
  service: string,
  amzDate: string,
  input: CanonicalInput,
): CanonicalSignature {
  const date = amzDate.slice(0, 8);
  const canonicalRequest = canonicalRequestOf(input);
  const stringToSign = stringToSignOf(
    amzDate,
    `${date}/${region}/${service}/${TERMINATOR}`,
    canonicalRequest,
  );
  const signature = signatureBytes(signingKernel(secret, date, region, service), stringToSign);
  return { canonicalRequest, stringToSign, signature };
}
