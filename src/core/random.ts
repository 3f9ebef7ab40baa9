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
  // One call, and no view, for what fits one (every nonce and key).
  if (out.length <= MAX_CHUNK) {
    webcrypto.getRandomValues(out);
    return out;
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
 * Random bytes for one nonce, drawn at the moment of use. Never drawn ahead into a pool: a process
 * snapshotted or forked after the pool was filled (startup snapshots, Lambda SnapStart, fork())
 * would hand the same pooled bytes to every copy, and one repeated GMAC nonce reveals the hash key
 * H, with which anyone can forge tags (SP 800-38D section 8; Joux's "forbidden attack").
 */
export function fillNonce(out: Bytes): Bytes {
  return fillRandom(out);
}
