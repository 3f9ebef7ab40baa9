/**
 * An anti-replay window (RFC 4303 section 3.4.3, with RFC 6479's block bitmap): accepts each
 * counter at most once, and none older than the newest minus the window size. The bitmap is a
 * ring of 32-bit blocks with one spare block, so moving the window clears whole blocks and every
 * check is O(1) (a move costs at most one pass over the ring). Counters run from 0 to 2^64 - 1.
 */

import { KeyedError } from "../core/errors.js";
import { checkOptions, describeType } from "../core/options.js";

const MAX_COUNTER = (1n << 64n) - 1n;

export interface ReplayWindowOptions {
  /** How many counters below the newest are still accepted once (default 1024). */
  size?: number;
}

export class ReplayWindow {
  readonly size: number;
  private readonly bitmap: Uint32Array;
  /** Bits in the ring: a power of two, at least size + 32. */
  private readonly ringBits: bigint;
  private readonly ringBlocks: bigint;
  private top = -1n;

  constructor(options: ReplayWindowOptions = {}) {
    const size =
      checkOptions<ReplayWindowOptions>(options, ["size"], "ReplayWindow options").size ?? 1024;
    if (!Number.isSafeInteger(size) || size < 1 || size > 2 ** 24) {
      throw new KeyedError(
        "BAD_INPUT",
        `size must be a whole number from 1 to 2^24; got ${typeof size === "number" ? size : describeType(size)}.`,
      );
    }
    this.size = size;
    let bits = 64;
    while (bits < size + 32) bits *= 2;
    this.bitmap = new Uint32Array(bits / 32);
    this.ringBits = BigInt(bits);
    this.ringBlocks = BigInt(bits / 32);
  }

  /** The newest counter accepted so far, or undefined. */
  get newest(): bigint | undefined {
    return this.top < 0n ? undefined : this.top;
  }

  /**
   * True, and `counter` recorded, when it was never seen and is within the window; false when it
   * was seen or is too old. Counters are bigints from 0 to 2^64 - 1, or whole numbers up to 2^53 - 1
   * (as `seal` takes them); anything else is BAD_INPUT.
   */
  accept(value: bigint | number): boolean {
    const counter =
      typeof value === "number" && Number.isSafeInteger(value) ? BigInt(value) : value;
    if (typeof counter !== "bigint" || counter < 0n || counter > MAX_COUNTER) {
      throw new KeyedError(
        "BAD_INPUT",
        "counter must be a bigint from 0 to 2^64 - 1 (or a whole number up to 2^53 - 1).",
      );
    }
    if (counter > this.top) {
      // Slide: clear the blocks between the old newest block and the new one (at most the ring).
      const oldBlock = this.top < 0n ? -1n : this.top >> 5n;
      const newBlock = counter >> 5n;
      const steps = newBlock - oldBlock < this.ringBlocks ? newBlock - oldBlock : this.ringBlocks;
      for (let i = 1n; i <= steps; i++) this.bitmap[Number((oldBlock + i) % this.ringBlocks)] = 0;
      this.top = counter;
      this.set(counter);
      return true;
    }
    if (this.top - counter >= BigInt(this.size)) return false;
    if (this.isSet(counter)) return false;
    this.set(counter);
    return true;
  }

  private position(counter: bigint): [number, number] {
    const bit = Number(counter % this.ringBits);
    return [bit >>> 5, 1 << (bit & 31)];
  }

  private isSet(counter: bigint): boolean {
    const [block, mask] = this.position(counter);
    return (this.bitmap[block] & mask) !== 0;
  }

  private set(counter: bigint): void {
    const [block, mask] = this.position(counter);
    this.bitmap[block] |= mask;
  }
}
