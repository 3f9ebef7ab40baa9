/**
 * The Merkle–Damgård construction shared by SHA-1 and SHA-2 (FIPS 180-4 sections 5.1 and 6):
 * buffer input into blocks, pad with 0x80, zeros and the message length in bits, big-endian.
 * Subclasses supply the state words, the compression function and the output length.
 */
import { assertBytes, type Bytes } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import { redactKeyMaterial } from "../core/redact.js";
import { assertDigestTarget, type HashState } from "./hash.js";

/** 2^29: a byte count is split here so that its bit count (×8) never overflows 32 bits. */
const BYTES_PER_2_32_BITS = 0x20000000;

export abstract class MerkleDamgard implements HashState {
  /** Bytes per compression block (64 for SHA-1/SHA-256, 128 for SHA-512). */
  readonly blockLength: number;
  /** Bytes of digest. */
  readonly outputLength: number;
  /** Chaining value as 32-bit words, big-endian order (SHA-512: high word, then low word). */
  protected readonly state: Int32Array;
  private readonly initial: Int32Array;
  private readonly buffer: Uint8Array;
  private readonly lengthFieldBytes: number;
  /** The subclass's module-level message schedule, shared by every instance. */
  private readonly scratch: Int32Array;
  private bufferLength = 0;
  /** Total bytes absorbed. A double holds it exactly to 2^53, far past any real input. */
  private length = 0;
  private finished = false;

  protected constructor(
    blockLength: number,
    outputLength: number,
    lengthFieldBytes: number,
    initial: Int32Array,
    scratch: Int32Array,
  ) {
    this.blockLength = blockLength;
    this.outputLength = outputLength;
    this.lengthFieldBytes = lengthFieldBytes;
    this.initial = initial;
    this.state = initial.slice();
    this.buffer = new Uint8Array(blockLength);
    this.scratch = scratch;
  }

  /** Absorbs one block from `block[offset .. offset + blockLength)`. */
  protected abstract compress(block: Uint8Array, offset: number): void;

  /** Absorbs `data`; chainable. */
  update(data: Bytes): this {
    assertBytes(data, "data");
    if (this.finished) this.finishedError();
    const blockLength = this.blockLength;
    const buffer = this.buffer;
    const length = data.length;
    this.length += length;
    let pos = 0;
    let fill = this.bufferLength;
    if (fill > 0) {
      // Top up the pending block byte by byte: at most one block, and no subarray allocation.
      while (fill < blockLength && pos < length) buffer[fill++] = data[pos++];
      if (fill < blockLength) {
        this.bufferLength = fill;
        return this;
      }
      this.compress(buffer, 0);
      fill = 0;
    }
    // Whole blocks straight from the caller's bytes.
    for (; length - pos >= blockLength; pos += blockLength) this.compress(data, pos);
    while (pos < length) buffer[fill++] = data[pos++];
    // Input that only topped up the pending block compressed nothing: no schedule to clear.
    const compressed = fill !== this.bufferLength + length;
    this.bufferLength = fill;
    // The input may be secret (an HMAC key, its pad blocks): the shared schedule must not keep it.
    if (compressed) this.wipeScratch();
    return this;
  }

  digestInto(out: Bytes, offset = 0): void {
    assertDigestTarget(out, offset, this.outputLength);
    if (this.finished) this.finishedError();
    this.finished = true;
    const buffer = this.buffer;
    const blockLength = this.blockLength;
    let fill = this.bufferLength;
    buffer[fill++] = 0x80;
    if (fill > blockLength - this.lengthFieldBytes) {
      buffer.fill(0, fill);
      this.compress(buffer, 0);
      fill = 0;
    }
    buffer.fill(0, fill, blockLength - 8);
    // Length in bits as a big-endian integer in the last 8 bytes (SHA-512's 16-byte field has its
    // upper half zero for any input that fits in memory).
    const high = Math.floor(this.length / BYTES_PER_2_32_BITS);
    const low = (this.length % BYTES_PER_2_32_BITS) * 8;
    writeUint32BE(buffer, blockLength - 8, high);
    writeUint32BE(buffer, blockLength - 4, low);
    this.compress(buffer, 0);
    this.wipeScratch();
    const state = this.state;
    for (let i = 0; i < this.outputLength; i++) {
      out[offset + i] = state[i >> 2] >>> (24 - 8 * (i & 3));
    }
  }

  /** The digest in a new array; the state must be reset before reuse. */
  digest(): Bytes {
    const out = new Uint8Array(this.outputLength);
    this.digestInto(out);
    return out;
  }

  reset(): this {
    this.state.set(this.initial);
    this.buffer.fill(0);
    this.bufferLength = 0;
    this.length = 0;
    this.finished = false;
    return this;
  }

  copyTo(target: this): this {
    target.state.set(this.state);
    // Only the pending bytes matter; HMAC's prepared states have none, so this is usually free.
    const fill = this.bufferLength;
    for (let i = 0; i < fill; i++) target.buffer[i] = this.buffer[i];
    target.bufferLength = fill;
    target.length = this.length;
    target.finished = this.finished;
    return target;
  }

  /** @internal The chaining value as 32-bit words (for the wasm kernels' key slots). */
  chainingValue(): Int32Array {
    return this.state;
  }

  /**
   * Clears scratch space shared between instances (the message schedule). Called after every
   * compression run, as noble's `roundClean`: a later hash, or destroy(), never leaves the last
   * input's words behind in module-level memory.
   */
  private wipeScratch(): void {
    this.scratch.fill(0);
  }

  /** @internal The shared message schedule, for tests that scan it. */
  sharedScratch(): Int32Array {
    return this.scratch;
  }

  wipe(): void {
    this.wipeScratch();
    this.state.fill(0);
    this.buffer.fill(0);
    this.bufferLength = 0;
    this.length = 0;
    this.finished = true;
  }

  private finishedError(): never {
    throw new KeyedError(
      "FINISHED",
      "this hash state already produced its digest; reset() it first.",
    );
  }
}

redactKeyMaterial(MerkleDamgard, (h) => ({
  hash: h.constructor.name,
  outputLength: h.outputLength,
}));

/** words[0 .. count) = big-endian 32-bit words of block[offset ..]: the start of every schedule. */
export function loadWordsBE(
  block: Uint8Array,
  offset: number,
  words: Int32Array,
  count: number,
): void {
  for (let t = 0; t < count; t++, offset += 4) {
    words[t] =
      (block[offset] << 24) |
      (block[offset + 1] << 16) |
      (block[offset + 2] << 8) |
      block[offset + 3];
  }
}

export function writeUint32BE(out: Uint8Array, offset: number, value: number): void {
  out[offset] = value >>> 24;
  out[offset + 1] = value >>> 16;
  out[offset + 2] = value >>> 8;
  out[offset + 3] = value;
}
