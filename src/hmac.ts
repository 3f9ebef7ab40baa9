/**
 * `keyed/hmac`: HMAC over one hash per import, for bundles that carry only what they use. Each
 * door is `(key, options?) => Mac`, the same contract and policy as `mac("hmac-sha256", key)`
 * (RFC 2104; keys of at least 16 bytes and tags of at least 10 unless allowed, core/mac.ts).
 *
 * ```ts
 * import { hmacSha256 } from "keyed/hmac";
 * const tag = hmacSha256(key).tag(message);
 * ```
 */
export type { Mac, MacOptions } from "./core/mac.js";
export {
  type HmacFactory,
  type HmacHash,
  hmac,
  hmacSha1,
  hmacSha3_224,
  hmacSha3_256,
  hmacSha3_384,
  hmacSha3_512,
  hmacSha224,
  hmacSha256,
  hmacSha384,
  hmacSha512,
  hmacSha512_224,
  hmacSha512_256,
} from "./mac/hmac.js";
