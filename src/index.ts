/**
 * keyed: message authentication codes with one safe API.
 *
 * `mac(name, key)` prepares a key for any algorithm; every result has `tag`, `verify`, `stream`
 * and `destroy`. Low-level pieces without policy are in `keyed/hazmat`.
 */
export {
  type Bytes,
  base64ToBytes,
  base64urlToBytes,
  bytesToBase64,
  bytesToBase64url,
  bytesToHex,
  bytesToUtf8,
  concatBytes,
  hexToBytes,
  utf8ToBytes,
} from "./core/bytes.js";
export { equal } from "./core/equal.js";
export { KeyedError, type KeyedErrorCode } from "./core/errors.js";
export { encodeFields, encodeFieldsTuple, type Field } from "./core/fields.js";
export type { Mac, MacName, MacOptions, MacStream, MacVerifyingStream } from "./core/mac.js";
export { randomBytes } from "./core/random.js";
export type { Refusal, Verdict } from "./core/result.js";
export type { TimeInput } from "./core/time.js";
// hmac(), and the one-hash doors hmacSha1 … hmacSha3_512 (also the `keyed/hmac` entry).
export * from "./hmac.js";
export { type HkdfHash, type HkdfOptions, hkdf } from "./kdf/hkdf.js";
export { blake3Keyed, deriveKey } from "./mac/blake3.js";
export { cmac } from "./mac/cmac.js";
export { gmacKey as gmac } from "./mac/gmac.js";
export { kmac128, kmac256 } from "./mac/kmac.js";
export { isMacName, type MacInfo, mac, macInfo, macNames } from "./mac/registry.js";
export { SipHashMac, siphash13, siphash13_128, siphash24, siphash24_128 } from "./mac/siphash.js";
export {
  type Opened,
  type OpenFailure,
  type OpenOnceFailure,
  type OpenOnceOptions,
  type OpenOnceResult,
  type OpenOptions,
  type OpenResult,
  open,
  openOnce,
  SEAL_ALGORITHMS,
  type SealAlgorithm,
  type SealOptions,
  seal,
  tryOpen,
} from "./safe/envelope.js";
export {
  type Jwk,
  type JwkSet,
  type KeyFromJwk,
  keyFromJwk,
  keyToJwk,
} from "./safe/jwk.js";
export { type DeriveKeysOptions, deriveKeys, generateKey } from "./safe/keys.js";
export {
  type GenerateKeysetOptions,
  type JwksOptions,
  type KeyInfo,
  type KeyStatus,
  Keyset,
  type KeysetKeyOptions,
  type KeysetStream,
  type OutputPrefix,
} from "./safe/keyset.js";
export { ReplayWindow, type ReplayWindowOptions } from "./safe/replay.js";
export {
  type ClaimFailure,
  type ClaimOnceOptions,
  type ClaimOptions,
  type ClaimResult,
  claimOnce,
  MemoryReplayStore,
  type MemoryReplayStoreOptions,
  type ReplayId,
  type ReplayStore,
} from "./safe/store.js";
export {
  defaultMaxFailures,
  type FailureBudget,
  MemoryFailureBudget,
  Verifier,
  type VerifierFailure,
  type VerifierOptions,
  type VerifierResult,
  type VerifierStatus,
} from "./safe/verifier.js";
export { macFromCryptoKey, type ToCryptoKeyOptions, toCryptoKey } from "./safe/webcrypto.js";
