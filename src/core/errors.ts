/**
 * The one error type keyed throws. `code` is stable and safe to branch on; `message` says what was
 * wrong and what is accepted.
 */
export type KeyedErrorCode =
  /** An argument has the wrong type or shape (a string where bytes are expected, …). */
  | "BAD_INPUT"
  /** Hex, base64 or base64url text that does not decode. */
  | "BAD_ENCODING"
  /** A key shorter than the policy minimum (16 bytes) without `allowShortKeys`. */
  | "KEY_TOO_SHORT"
  /** A fixed-size key of the wrong size. */
  | "KEY_LENGTH"
  /** A key that is refused outright (an all-zero one-time key half, …). */
  | "KEY_WEAK"
  /** A one-time key used a second time. */
  | "KEY_REUSED"
  /** A tag length outside what the algorithm and policy accept. */
  | "TAG_LENGTH"
  /** A tag that does not verify, where the API cannot answer `false` (AEAD open). */
  | "TAG_INVALID"
  /** A requested output length outside what the function can produce (HKDF past 255·HashLen). */
  | "LENGTH"
  /** An algorithm name this build does not offer. */
  | "UNKNOWN_ALGORITHM"
  /** A Mac or stream used after `destroy()`. */
  | "DESTROYED"
  /** A stream used after it produced its digest. */
  | "FINISHED"
  /** A sealed token older than maxAgeSeconds (plus the allowed clock skew). */
  | "EXPIRED"
  /** A sealed token dated in the future beyond the allowed clock skew. */
  | "NOT_YET_VALID"
  /** A counter seen before, or older than the replay window. */
  | "REPLAYED"
  /**
   * A key that has made as many tags with random nonces as its standard allows (GMAC: 2^32,
   * SP 800-38D section 8.3); past that, a repeated nonce is too likely. Use a new key.
   */
  | "NONCE_LIMIT"
  /** A function this runtime cannot serve (blake3File where there is no node:fs). */
  | "UNAVAILABLE";

export class KeyedError extends Error {
  readonly code: KeyedErrorCode;

  constructor(code: KeyedErrorCode, message: string) {
    super(message);
    this.name = "KeyedError";
    this.code = code;
  }
}
