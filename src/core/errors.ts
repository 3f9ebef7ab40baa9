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
  /**
   * Key material in an interchange format that does not parse or breaks the format's rules: a
   * Tink keyset (JSON or binary), keyed's keyset JSON, a JWK or a JWK Set with bad syntax, a
   * missing or mistyped field, an unknown enum value, a key id out of range or repeated, or more
   * keys than a keyset holds (docs/keysets.md lists each rule).
   */
  | "KEY_FORMAT"
  /**
   * Well-formed key material that keyed does not take where it was given: a Tink key type, hash
   * or prefix other than HMAC (SHA-1/SHA-2) and AES-CMAC with a 32-byte key, a JWK other than
   * `kty: "oct"` with HS256/HS384/HS512, a CryptoKey that is not an extractable HMAC key, or a
   * MAC that a keyset cannot hold (Poly1305's one-time keys, the MACs that draw a nonce per tag).
   */
  | "KEY_UNSUPPORTED"
  /**
   * A keyset with no enabled primary key to tag with (none named, or it is disabled or
   * destroyed), or a change that would leave it so (disabling or destroying the primary, making
   * a disabled key primary).
   */
  | "KEYSET_PRIMARY"
  /** A key id (or JWK `kid`) that is not in the keyset. */
  | "KEY_NOT_FOUND"
  /**
   * A shared store (a replay store, window or failure budget, e.g. on Redis) did not answer within
   * its timeout, failed, or answered something it should not. The input was refused, never
   * accepted; keyed tries the store again on the next call.
   */
  | "STORE_UNAVAILABLE"
  /** A function this runtime cannot serve (blake3File where there is no node:fs). */
  | "UNAVAILABLE";

/** The error keyed throws for bad input and misuse; `code` is stable, the message says what is accepted. */
export class KeyedError extends Error {
  /** What went wrong, for programs to branch on (the message is for people). */
  readonly code: KeyedErrorCode;

  constructor(code: KeyedErrorCode, message: string) {
    super(message);
    this.name = "KeyedError";
    this.code = code;
  }
}
