/**
 * GHASH (SP 800-38D section 6.4): Y_i = (Y_i-1 ⊕ X_i) · H in GF(2^128) modulo
 * x^128 + x^7 + x^2 + x + 1, with GCM's reflected bit order.
 *
 * Constant time without tables (the usual 4-bit or 8-bit tables are indexed by secret bits of H and
 * the data). Technique, after BearSSL's ghash_ctmul32: a carry-less 32×32 product is taken from
 * ordinary integer multiplications of the operands split into four interleaved bit classes with
 * three-bit holes between set bits, so carries never reach a bit that is kept; `Math.imul` gives
 * the low 32 bits of each product, and the high 32 bits come from the same product of the
 * bit-reversed operands. Two levels of Karatsuba make the 128×128 product from nine 32×32 ones.
 * Words are read big-endian, so the product is bit-reflected; one left shift and a reduction that
 * folds the low half into the high half with right shifts finish the multiplication.
 */
import type { Bytes } from "../core/bytes.js";
import { redactKeyMaterial } from "../core/redact.js";

/** Low 32 bits of the carry-less product of x and y. */
function bmul32(x: number, y: number): number {
  const x0 = x & 0x11111111;
  const x1 = x & 0x22222222;
  const x2 = x & 0x44444444;
  const x3 = x & 0x88888888;
  const y0 = y & 0x11111111;
  const y1 = y & 0x22222222;
  const y2 = y & 0x44444444;
  const y3 = y & 0x88888888;
  const z0 = Math.imul(x0, y0) ^ Math.imul(x1, y3) ^ Math.imul(x2, y2) ^ Math.imul(x3, y1);
  const z1 = Math.imul(x0, y1) ^ Math.imul(x1, y0) ^ Math.imul(x2, y3) ^ Math.imul(x3, y2);
  const z2 = Math.imul(x0, y2) ^ Math.imul(x1, y1) ^ Math.imul(x2, y0) ^ Math.imul(x3, y3);
  const z3 = Math.imul(x0, y3) ^ Math.imul(x1, y2) ^ Math.imul(x2, y1) ^ Math.imul(x3, y0);
  return (z0 & 0x11111111) | (z1 & 0x22222222) | (z2 & 0x44444444) | (z3 & 0x88888888);
}

function rev32(x: number): number {
  x = ((x >>> 1) & 0x55555555) | ((x & 0x55555555) << 1);
  x = ((x >>> 2) & 0x33333333) | ((x & 0x33333333) << 2);
  x = ((x >>> 4) & 0x0f0f0f0f) | ((x & 0x0f0f0f0f) << 4);
  x = ((x >>> 8) & 0x00ff00ff) | ((x & 0x00ff00ff) << 8);
  return (x >>> 16) | (x << 16);
}

/**
 * The nine H-side operands of the Karatsuba tree, in order: h3, h2, h3^h2, h1, h0, h1^h0,
 * h3^h1, h2^h0, h3^h1^h2^h0 (h0 the most significant word), then the same nine bit-reversed.
 */
function karatsubaOperands(h0: number, h1: number, h2: number, h3: number, out: Int32Array): void {
  const m1 = h3 ^ h1;
  const m0 = h2 ^ h0;
  const ops = [h3, h2, h3 ^ h2, h1, h0, h1 ^ h0, m1, m0, m1 ^ m0];
  for (let i = 0; i < 9; i++) {
    out[i] = ops[i];
    out[9 + i] = rev32(ops[i]);
  }
}

/** A GHASH computation under one hash subkey H. */
export class Ghash {
  /** H's Karatsuba operands and their reversals. */
  private readonly h = new Int32Array(18);
  /** Y's, recomputed per block. */
  private readonly y = new Int32Array(18);
  /** The nine 64-bit partial products as (low, high) pairs. */
  private readonly p = new Int32Array(18);
  /** The accumulator Y, big-endian words. */
  private readonly acc = new Int32Array(4);

  /** `subkey` is H = E(K, 0^128), 16 bytes. */
  constructor(subkey: Bytes) {
    karatsubaOperands(
      readWord(subkey, 0),
      readWord(subkey, 4),
      readWord(subkey, 8),
      readWord(subkey, 12),
      this.h,
    );
  }

  /** Back to Y = 0 under the same H, for the next message. */
  reset(): void {
    this.acc.fill(0);
  }

  /** A new, reset computation under the same H. */
  clone(): Ghash {
    const copy = new Ghash(new Uint8Array(16));
    copy.h.set(this.h);
    return copy;
  }

  /** Absorbs the 16-byte block at data[offset]. */
  updateBlock(data: Uint8Array, offset: number): void {
    const acc = this.acc;
    this.multiply(
      acc[0] ^ readWord(data, offset),
      acc[1] ^ readWord(data, offset + 4),
      acc[2] ^ readWord(data, offset + 8),
      acc[3] ^ readWord(data, offset + 12),
    );
  }

  /** Absorbs a block given as four big-endian words. */
  updateWords(w0: number, w1: number, w2: number, w3: number): void {
    const acc = this.acc;
    this.multiply(acc[0] ^ w0, acc[1] ^ w1, acc[2] ^ w2, acc[3] ^ w3);
  }

  /** Absorbs `data[offset .. offset + length)`, zero-padded to whole blocks (length ≤ 16·k). */
  updatePadded(data: Uint8Array, offset: number, length: number): void {
    const end = offset + length;
    for (; offset + 16 <= end; offset += 16) this.updateBlock(data, offset);
    if (offset < end) {
      const tail = this.tail;
      tail.fill(0);
      for (let i = 0; offset + i < end; i++) tail[i] = data[offset + i];
      this.updateBlock(tail, 0);
      tail.fill(0);
    }
  }
  private readonly tail = new Uint8Array(16);

  /** Writes Y (16 bytes) to out[offset]. */
  digestInto(out: Uint8Array, offset: number): void {
    for (let i = 0; i < 4; i++) writeWord(out, offset + 4 * i, this.acc[i]);
  }

  /** acc = (y0, y1, y2, y3) · H. */
  private multiply(y0: number, y1: number, y2: number, y3: number): void {
    const h = this.h;
    const y = this.y;
    const p = this.p;
    karatsubaOperandsInto(y0, y1, y2, y3, y);
    for (let i = 0; i < 9; i++) {
      p[2 * i] = bmul32(y[i], h[i]);
      p[2 * i + 1] = rev32(bmul32(y[9 + i], h[9 + i])) >>> 1;
    }
    // Level 2: each 64×64 product from three 32×32 ones (low word product, high, and middle).
    // Low half Y0·H0 (words y2:y3 × h2:h3) → l3..l0; high half Y1·H1 → g3..g0; sums → s3..s0.
    const lm0 = p[4] ^ p[0] ^ p[2];
    const lm1 = p[5] ^ p[1] ^ p[3];
    const l0 = p[0];
    const l1 = p[1] ^ lm0;
    const l2 = p[2] ^ lm1;
    const l3 = p[3];
    const gm0 = p[10] ^ p[6] ^ p[8];
    const gm1 = p[11] ^ p[7] ^ p[9];
    const g0 = p[6];
    const g1 = p[7] ^ gm0;
    const g2 = p[8] ^ gm1;
    const g3 = p[9];
    const sm0 = p[16] ^ p[12] ^ p[14];
    const sm1 = p[17] ^ p[13] ^ p[15];
    // Level 1: middle = (Y0 ⊕ Y1)(H0 ⊕ H1) ⊕ low ⊕ high.
    const m0 = p[12] ^ l0 ^ g0;
    const m1 = p[13] ^ sm0 ^ l1 ^ g1;
    const m2 = p[14] ^ sm1 ^ l2 ^ g2;
    const m3 = p[15] ^ l3 ^ g3;
    // The 256-bit product, least significant word first.
    let z0 = l0;
    let z1 = l1;
    let z2 = l2 ^ m0;
    let z3 = l3 ^ m1;
    let z4 = g0 ^ m2;
    let z5 = g1 ^ m3;
    let z6 = g2;
    let z7 = g3;
    // Reflected operands give a product one bit short: shift the 256 bits left by one.
    z7 = (z7 << 1) | (z6 >>> 31);
    z6 = (z6 << 1) | (z5 >>> 31);
    z5 = (z5 << 1) | (z4 >>> 31);
    z4 = (z4 << 1) | (z3 >>> 31);
    z3 = (z3 << 1) | (z2 >>> 31);
    z2 = (z2 << 1) | (z1 >>> 31);
    z1 = (z1 << 1) | (z0 >>> 31);
    z0 <<= 1;
    // Reduction: x^128 = x^7 + x^2 + x + 1. In reflected order, multiplying by x^s is a right
    // shift by s; each low word folds into the word four places up, spilling into the one three
    // up. The spill from z0 lands in z3, which is folded in its turn.
    z4 ^= z0 ^ (z0 >>> 1) ^ (z0 >>> 2) ^ (z0 >>> 7);
    z3 ^= (z0 << 31) ^ (z0 << 30) ^ (z0 << 25);
    z5 ^= z1 ^ (z1 >>> 1) ^ (z1 >>> 2) ^ (z1 >>> 7);
    z4 ^= (z1 << 31) ^ (z1 << 30) ^ (z1 << 25);
    z6 ^= z2 ^ (z2 >>> 1) ^ (z2 >>> 2) ^ (z2 >>> 7);
    z5 ^= (z2 << 31) ^ (z2 << 30) ^ (z2 << 25);
    z7 ^= z3 ^ (z3 >>> 1) ^ (z3 >>> 2) ^ (z3 >>> 7);
    z6 ^= (z3 << 31) ^ (z3 << 30) ^ (z3 << 25);
    const acc = this.acc;
    acc[0] = z7;
    acc[1] = z6;
    acc[2] = z5;
    acc[3] = z4;
  }

  /** Overwrites H, the accumulator and the scratch words with zeros. */
  wipe(): void {
    this.h.fill(0);
    this.y.fill(0);
    this.p.fill(0);
    this.acc.fill(0);
  }
}

redactKeyMaterial(Ghash);

function karatsubaOperandsInto(
  y0: number,
  y1: number,
  y2: number,
  y3: number,
  out: Int32Array,
): void {
  const m1 = y3 ^ y1;
  const m0 = y2 ^ y0;
  out[0] = y3;
  out[1] = y2;
  out[2] = y3 ^ y2;
  out[3] = y1;
  out[4] = y0;
  out[5] = y1 ^ y0;
  out[6] = m1;
  out[7] = m0;
  out[8] = m1 ^ m0;
  for (let i = 0; i < 9; i++) out[9 + i] = rev32(out[i]);
}

export function readWord(b: Uint8Array, o: number): number {
  return (b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3];
}

export function writeWord(b: Uint8Array, o: number, v: number): void {
  b[o] = v >>> 24;
  b[o + 1] = v >>> 16;
  b[o + 2] = v >>> 8;
  b[o + 3] = v;
}
