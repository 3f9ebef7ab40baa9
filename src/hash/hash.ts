import { assertBytes, type Bytes } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";

/**
 * An incremental hash computation. `copyTo` lets a MAC keep a prepared state (HMAC's padded key
 * blocks already absorbed) and restore it per message with no allocation.
 */
export interface HashState {
  /** Bytes per block of the compression function or sponge rate. */
  readonly blockLength: number;
  /** Bytes of digest. */
  readonly outputLength: number;
  /** Absorbs `data`; chainable. */
  update(data: Bytes): this;
  /** Writes `outputLength` bytes at `out[offset]`; the state must be reset before reuse. */
  digestInto(out: Bytes, offset?: number): void;
  /** The digest in a new array; the state must be reset before reuse. */
  digest(): Bytes;
  /** Back to the initial state. */
  reset(): this;
  /** Makes `target` (a state of the same algorithm) an exact copy of this one. */
  copyTo(target: this): this;
  /** Overwrites everything with zeros. */
  wipe(): void;
}

/** How to make states of one hash function, and its sizes. */
export interface HashFunction<S extends HashState = HashState> {
  /** The OpenSSL-style name ("sha256", "sha3-256", "sha512-224"). */
  readonly name: string;
  /** Bytes per block of the compression function or sponge rate. */
  readonly blockLength: number;
  /** Bytes of digest. */
  readonly outputLength: number;
  /** A fresh state. */
  create(): S;
}

/** One-shot hashing of a message, with the argument check every public entry does. */
export function hashOnce(hash: HashFunction, message: Bytes): Bytes {
  assertBytes(message, "message");
  return hash.create().update(message).digest();
}

export function assertDigestTarget(out: Bytes, offset: number, length: number): void {
  assertBytes(out, "out");
  if (!Number.isSafeInteger(offset) || offset < 0 || offset + length > out.length) {
    throw new KeyedError(
      "BAD_INPUT",
      `out needs ${length} bytes from offset ${offset}; it has ${out.length} bytes.`,
    );
  }
}
