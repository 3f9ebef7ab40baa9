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
export { type HkdfHash, type HkdfOptions, hkdf } from "./kdf/hkdf.js";
export { blake3Keyed, deriveKey } from "./mac/blake3.js";
export { cmac } from "./mac/cmac.js";
export { gmacKey as gmac } from "./mac/gmac.js";
export { type HmacHash, hmac } from "./mac/hmac.js";
export { kmac128, kmac256 } from "./mac/kmac.js";
export { isMacName, type MacInfo, mac, macInfo, macNames } from "./mac/registry.js";
export { SipHashMac, siphash13, siphash13_128, siphash24, siphash24_128 } from "./mac/siphash.js";
export {
  type Opened,
  type OpenFailure,
  type OpenOptions,
  type OpenResult,
  open,
  SEAL_ALGORITHMS,
  type SealAlgorithm,
  type SealOptions,
  seal,
  tryOpen,
} from "./safe/envelope.js";
export { type DeriveKeysOptions, deriveKeys, generateKey } from "./safe/keys.js";
export { ReplayWindow, type ReplayWindowOptions } from "./safe/replay.js";
export {
  defaultMaxFailures,
  Verifier,
  type VerifierOptions,
  type VerifierStatus,
} from "./safe/verifier.js";
