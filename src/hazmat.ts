/**
 * keyed/hazmat: the primitives under keyed's MACs, without its policy (no minimum key or tag
 * length, explicit nonces, raw KDF steps). Use the safe API in `keyed` unless a protocol needs these.
 */
export {
  type Aead,
  type AeadKey,
  chacha20poly1305,
  chacha20poly1305Key,
  xchacha20poly1305,
  xchacha20poly1305Key,
} from "./aead/chacha20poly1305.js";
export { AesKey, aesEncryptBlock } from "./cipher/aes.js";
export { ChaCha20, chacha20, hchacha20 } from "./cipher/chacha20.js";
export { Blake3, type Blake3Options, blake3 } from "./hash/blake3.js";
export { type Blake3ParallelOptions, blake3File, blake3Parallel } from "./hash/blake3-parallel.js";
export type { HashFunction, HashState } from "./hash/hash.js";
export { HASH_FUNCTIONS, type HashName } from "./hash/index.js";
export {
  type CshakeOptions,
  cshake,
  Keccak,
  keccakF1600,
  leftEncode,
  rightEncode,
  type Strength,
  sha3_224,
  sha3_256,
  sha3_384,
  sha3_512,
  shake,
  tupleHash,
} from "./hash/keccak.js";
export { Sha1, sha1 } from "./hash/sha1.js";
export { Sha224, Sha256, sha224, sha256 } from "./hash/sha256.js";
export {
  Sha384,
  Sha512,
  Sha512_224,
  Sha512_256,
  sha384,
  sha512,
  sha512_224,
  sha512_256,
} from "./hash/sha512.js";
export { hkdfExpand, hkdfExtract } from "./kdf/hkdf.js";
export { aesCmacPrf128 } from "./mac/cmac.js";
export { Ghash } from "./mac/ghash.js";
export { gmac } from "./mac/gmac.js";
export { type KmacOptions, kmac } from "./mac/kmac.js";
export { Poly1305State, poly1305 } from "./mac/poly1305.js";
export { siphash } from "./mac/siphash.js";
