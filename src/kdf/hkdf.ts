/**
 * HKDF (RFC 5869): extract a pseudorandom key from input keying material, then expand it into as
 * many output bytes as asked (at most 255 hash outputs).
 */

import { assertBytes, assertInteger, type Bytes } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import { checkOptions } from "../core/options.js";
import { HASH_FUNCTIONS, type HashName } from "../hash/index.js";
import { HmacKernel } from "../mac/hmac.js";

/** The hash names HKDF runs on: every name of `HASH_FUNCTIONS`. */
export type HkdfHash = HashName;

function hashFunction(hash: HkdfHash) {
  const fn = HASH_FUNCTIONS[hash];
  if (typeof hash !== "string" || fn === undefined) {
    throw new KeyedError(
      "UNKNOWN_ALGORITHM",
      `hkdf takes one of ${Object.keys(HASH_FUNCTIONS).join(", ")}; got ${String(hash)}.`,
    );
  }
  return fn;
}

function checkLength(hash: HkdfHash, hashLength: number, length: unknown): void {
  const limit = 255 * hashLength;
  if (typeof length === "number" && Number.isSafeInteger(length) && length > limit) {
    throw new KeyedError(
      "LENGTH",
      `HKDF-${hash} produces at most 255 × ${hashLength} = ${limit} bytes; length was ${length}.`,
    );
  }
  assertInteger(length, "length", 0, limit);
}

/** HKDF-Extract (section 2.2): PRK = HMAC-Hash(salt, IKM). An empty salt means HashLen zeros. */
export function hkdfExtract(hash: HkdfHash, ikm: Bytes, salt?: Bytes): Bytes {
  const fn = hashFunction(hash);
  assertBytes(ikm, "ikm");
  if (salt !== undefined) assertBytes(salt, "salt");
  // HMAC zero-pads the key to a block, so an empty salt already equals HashLen zero bytes.
  const kernel = new HmacKernel(fn, salt ?? new Uint8Array(0));
  const prk = new Uint8Array(fn.outputLength);
  kernel.compute(ikm, prk);
  kernel.wipe();
  return prk;
}

/**
 * HKDF-Expand (section 2.3): T(i) = HMAC-Hash(PRK, T(i-1) ‖ info ‖ i), OKM the first `length`
 * bytes of T(1) ‖ T(2) ‖ …. LENGTH past 255 × HashLen.
 */
export function hkdfExpand(
  hash: HkdfHash,
  prk: Bytes,
  info: Bytes | undefined,
  length: number,
): Bytes {
  const fn = hashFunction(hash);
  assertBytes(prk, "prk");
  if (info !== undefined) assertBytes(info, "info");
  checkLength(hash, fn.outputLength, length);
  if (prk.length < fn.outputLength) {
    throw new KeyedError(
      "KEY_TOO_SHORT",
      `prk must be at least HashLen (${fn.outputLength}) bytes (RFC 5869 section 2.3); got ${prk.length}.`,
    );
  }
  const kernel = new HmacKernel(fn, prk);
  const okm = new Uint8Array(length);
  const block = new Uint8Array(fn.outputLength);
  const counter = new Uint8Array(1);
  for (let offset = 0, i = 1; offset < length; offset += block.length, i++) {
    const state = kernel.start();
    if (i > 1) state.update(block);
    if (info !== undefined) state.update(info);
    counter[0] = i;
    state.update(counter);
    state.finish(block);
    okm.set(block.subarray(0, Math.min(block.length, length - offset)), offset);
  }
  block.fill(0);
  kernel.wipe();
  return okm;
}

/** HKDF's inputs besides the input keying material (RFC 5869 section 2). */
export interface HkdfOptions {
  /** The extract salt; absent or empty: HashLen zero bytes (section 2.2). */
  salt?: Bytes;
  /** Context and application specific information (section 2.3); default empty. */
  info?: Bytes;
  /** Output bytes, 0 to 255 × HashLen. */
  length: number;
}

/** HKDF (section 2): Expand(Extract(salt, ikm), info, length). */
export function hkdf(hash: HkdfHash, ikm: Bytes, options: HkdfOptions): Bytes {
  const fn = hashFunction(hash);
  assertBytes(ikm, "ikm");
  if (options === undefined) {
    throw new KeyedError("BAD_INPUT", "hkdf takes options { salt?, info?, length }.");
  }
  checkOptions(options, ["salt", "info", "length"], "hkdf options");
  if (options.salt !== undefined) assertBytes(options.salt, "options.salt");
  if (options.info !== undefined) assertBytes(options.info, "options.info");
  checkLength(hash, fn.outputLength, options.length);
  const prk = hkdfExtract(hash, ikm, options.salt);
  try {
    return hkdfExpand(hash, prk, options.info, options.length);
  } finally {
    prk.fill(0);
  }
}
