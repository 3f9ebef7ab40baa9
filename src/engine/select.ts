/**
 * Which backend computes a given operation: one table of measured crossovers, by algorithm family
 * and input length. node:crypto costs a few microseconds per call (the JavaScript-to-C++ crossing,
 * object creation, an output Buffer) but runs SHA-NI and AES-NI code at gigabytes per second, so it
 * wins from a few hundred bytes on; keyed's own kernels win below. Re-measure with
 * `npm run bench -- --calibrate`.
 */
import { FORCED_BACKEND, nativeCrypto } from "./native.js";

export type NativeFamily =
  | "hmac-sha1"
  | "hmac-sha256"
  | "hmac-sha512"
  | "hmac-sha3"
  | "cmac-aes128"
  | "cmac-aes192"
  | "cmac-aes256"
  | "gmac"
  | "chacha20-poly1305"
  | "chacha20-poly1305-aead";

/**
 * Message length in bytes from which node:crypto is faster than keyed's own kernels (WebAssembly
 * where built). CMAC, GMAC, ChaCha20-Poly1305 and HMAC-SHA3 from `bench/calibrate.ts` on a 2-core
 * AMD EPYC with Node 20, 2026-12-01 (docs/benchmarks.md has the run). HMAC-SHA-1/256/512 after
 * the unrolled compression kernels, 2026-12-02: keyed forced to WebAssembly and keyed forced to
 * node:crypto in one process, interleaved, the 10th percentile of ~1 ms samples (the machine was
 * shared, and noise only adds time); at each value the two are within a few percent. SHA-224 and
 * SHA-384 share their big siblings' compression functions and crossovers. CMAC moved from 4096 to
 * 2048 on 2026-12-04: the calibration run had the two tied at 2048 on the Intel Xeon, and on the
 * AMD EPYC node:crypto took 0.6× keyed's time at 2048 (tied at 1024); 2048 splits the difference.
 * AES-192 and AES-256 run 12 and 14 rounds to AES-128's 10 in keyed's kernel (node:crypto's
 * AES-NI hardly notices), so their crossovers are lower: on 2026-12-04 (AMD EPYC) CMAC-AES-256
 * took 9.3 µs at 1 KiB in WebAssembly and 5.2 µs on node:crypto, CMAC-AES-192 was tied there.
 * The ChaCha20-Poly1305 AEAD (seal and open: encryption and the MAC) has a crossover of its own,
 * lower than the MAC form's (Poly1305 alone), because OpenSSL's ChaCha20 outruns keyed's more than
 * its Poly1305 does: 2026-12-04 on the AMD EPYC, seal of 3 KiB tied, 4 KiB 0.86× keyed's time.
 * HMAC-SHA-512 moved from 1536 to 3072 on 2026-12-04 (AMD EPYC), once its message schedule ran in
 * SIMD: keyed's kernel took 0.9× node:crypto's time at 2 KiB and 1.06× at 4 KiB. HMAC-SHA-256's
 * stayed at 768: tied at 512, node:crypto 0.7× keyed's time at 1 KiB. CMAC moved again late on
 * 2026-12-04, to 512 (AES-128) and 384 (AES-192/256), once a key's one-shot tags shared one
 * AES-CBC context (one call into node:crypto a message instead of four, engine/native-cmac.ts):
 * the bench's CMAC child under KEYED_BACKEND=native and =wasm, twice each (AMD EPYC): AES-128 at
 * 128 B 1.85-1.96 µs on node:crypto against 0.80-0.84 in WebAssembly, at 1 KiB 1.7-3.9 µs against
 * 6.3-6.6; WebAssembly's ~6.2 ns a byte meets node:crypto's ~1.5-2 µs a call near 400 B (AES-128)
 * and near 300 B with AES-256's 14 rounds.
 */
export const NATIVE_CROSSOVER: Record<NativeFamily, number> = {
  "hmac-sha1": 1536,
  "hmac-sha256": 768,
  "hmac-sha512": 3072,
  "hmac-sha3": 2048,
  "cmac-aes128": 512,
  "cmac-aes192": 384,
  "cmac-aes256": 384,
  gmac: 2048,
  "chacha20-poly1305": 16384,
  "chacha20-poly1305-aead": 4096,
};

/** True when node:crypto should compute `family` over `length` bytes. */
export function useNative(family: NativeFamily, length: number): boolean {
  if (nativeCrypto === undefined) return false;
  if (FORCED_BACKEND === "native") return true;
  return length >= NATIVE_CROSSOVER[family];
}

/** The CMAC family of an AES key of `keyLength` bytes (16, 24 or 32): its rounds set keyed's cost. */
export function cmacFamily(keyLength: number): NativeFamily {
  return keyLength === 16 ? "cmac-aes128" : keyLength === 24 ? "cmac-aes192" : "cmac-aes256";
}

/** The family of a hash name, for HMAC. */
export function hmacFamily(hash: string): NativeFamily {
  if (hash === "sha1") return "hmac-sha1";
  if (hash === "sha224" || hash === "sha256") return "hmac-sha256";
  if (hash.startsWith("sha3-")) return "hmac-sha3";
  return "hmac-sha512";
}
