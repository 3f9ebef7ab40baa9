/** The hash functions keyed offers, by name (the names HMAC and HKDF take). */
import type { HashFunction } from "./hash.js";
import { SHA3_224, SHA3_256, SHA3_384, SHA3_512 } from "./keccak.js";
import { SHA1 } from "./sha1.js";
import { SHA224, SHA256 } from "./sha256.js";
import { SHA384, SHA512, SHA512_224, SHA512_256 } from "./sha512.js";

/** The hash functions by name, for HMAC, HKDF and callers that pick one at run time. */
export const HASH_FUNCTIONS = {
  /** SHA-1 (FIPS 180-4); for HMAC-SHA1 and legacy protocols only. */
  sha1: SHA1,
  /** SHA-224 (FIPS 180-4). */
  sha224: SHA224,
  /** SHA-256 (FIPS 180-4). */
  sha256: SHA256,
  /** SHA-384 (FIPS 180-4). */
  sha384: SHA384,
  /** SHA-512 (FIPS 180-4). */
  sha512: SHA512,
  /** SHA-512/224 (FIPS 180-4). */
  "sha512-224": SHA512_224,
  /** SHA-512/256 (FIPS 180-4). */
  "sha512-256": SHA512_256,
  /** SHA3-224 (FIPS 202). */
  "sha3-224": SHA3_224,
  /** SHA3-256 (FIPS 202). */
  "sha3-256": SHA3_256,
  /** SHA3-384 (FIPS 202). */
  "sha3-384": SHA3_384,
  /** SHA3-512 (FIPS 202). */
  "sha3-512": SHA3_512,
} as const satisfies Record<string, HashFunction>;

/** A name of `HASH_FUNCTIONS`. */
export type HashName = keyof typeof HASH_FUNCTIONS;
