import { assertInteger, type Bytes } from "./bytes.js";
import { KeyedError } from "./errors.js";

/** getRandomValues fills at most 65,536 bytes per call (Web Crypto). */
const MAX_CHUNK = 65536;

/** Fills `out` with cryptographically secure random bytes (Web Crypto `getRandomValues`). */
export function fillRandom(out: Bytes): Bytes {
  const webcrypto = globalThis.crypto;
  if (!webcrypto || typeof webcrypto.getRandomValues !== "function") {
    throw new KeyedError(
      "BAD_INPUT",
      "no secure random source: globalThis.crypto.getRandomValues is missing in this runtime.",
    );
  }
  for (let offset = 0; offset < out.length; offset += MAX_CHUNK) {
    webcrypto.getRandomValues(out.subarray(offset, Math.min(out.length, offset + MAX_CHUNK)));
  }
  return out;
}

/** `length` random bytes. */
export function randomBytes(length: number): Bytes {
  assertInteger(length, "length", 0, 2 ** 31 - 1);
  return fillRandom(new Uint8Array(length));
}

/**
 * Random bytes for nonces, from a pool refilled 4 KiB at a time: one getRandomValues call costs
 * microseconds, about as much as a short MAC. Nonces are public, so drawing them ahead is safe;
 * the pool is never used for keys.
 */
const POOL = new Uint8Array(4096);
let poolAt = POOL.length;

export function fillNonce(out: Bytes): Bytes {
  const n = out.length;
  if (n > POOL.length) return fillRandom(out);
  if (poolAt + n > POOL.length) {
    fillRandom(POOL);
    poolAt = 0;
  }
  for (let i = 0; i < n; i++) {
    out[i] = POOL[poolAt + i];
    POOL[poolAt + i] = 0;
  }
  poolAt += n;
  return out;
}
