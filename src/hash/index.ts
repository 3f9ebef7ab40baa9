/** The hash functions keyed offers, by name (the names HMAC and HKDF take). */
import type { HashFunction } from "./hash.js";
import { SHA3_224, SHA3_256, SHA3_384, SHA3_512 } from "./keccak.js";
import { SHA1 } from "./sha1.js";
import { SHA224, SHA256 } from "./sha256.js";
import { SHA384, SHA512, SHA512_224, SHA512_256 } from "./sha512.js";

export const HASH_FUNCTIONS = {
  sha1: SHA1,
  sha224: SHA224,
  sha256: SHA256,
  sha384: SHA384,
  sha512: SHA512,
  "sha512-224": SHA512_224,
  "sha512-256": SHA512_256,
  "sha3-224": SHA3_224,
  "sha3-256": SHA3_256,
  "sha3-384": SHA3_384,
  "sha3-512": SHA3_512,
} as const satisfies Record<string, HashFunction>;

export type HashName = keyof typeof HASH_FUNCTIONS;
