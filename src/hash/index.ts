/** The hash functions keyed offers, by name (the names HMAC and HKDF take). */
import type { HashFunction } from "./hash.js";
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
} as const satisfies Record<string, HashFunction>;

export type HashName = keyof typeof HASH_FUNCTIONS;
