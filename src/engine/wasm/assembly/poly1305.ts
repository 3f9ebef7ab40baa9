// asc: --enable simd
// AssemblyScript: Poly1305 (RFC 8439 section 2.5). The JavaScript side writes a 32-byte one-time
// key r ‖ s into a state area (a key slot, or ONE_SHOT for work that finishes within one call
// from JavaScript), the message into MSG, and reads the 16-byte tag from OUT. The state (r and
// its powers, s, the accumulator h and a partial block) stays in the state area between calls,
// so a stream costs one call per chunk and a message up to MSG_CAPACITY bytes one call in all:
// mac = init + update + finish. The kernel zeroes the MSG bytes it read and the state area once
// the tag is out.
//
// Arithmetic: poly1305-donna-32. h and r are five 26-bit limbs; products are 64-bit; limbs that
// wrap past 2^130 are multiplied by 5 (2^130 ≡ 5 mod p). Long inputs take a path with three
// Horner lanes, six blocks per step: two lanes in SIMD (h·r^6 + m·r^3 + m', the scheme of
// poly1305-opt's SSE2 code and of Goll and Gueron, "Vectorization of Poly1305 Message
// Authentication Code", ITNG 2015, with 32×32→64-bit products by i64x2.extmul) and a third in
// scalar registers beside them, so that the vector units and the integer multiplier work at once
// (0.76-0.85x the time of the two SIMD lanes alone from 1 KiB on, module against module); the
// lanes combined at the end as a·r^3 + b·r^2 + c·r.
//
// Constant time: no branch and no memory index depends on the key, the accumulator or the
// message bytes (only on lengths). The final reduction h mod p and the tag h + s use masks and
// carries.

import { permuteRows } from "./lib/chacha";
import { copyBytes, zeroBytes } from "./lib/memory";

// Memory map (bytes). Key slots start at SLOTS and are managed by the JavaScript side.
export const OUT: usize = 1024; // the tag
const ZEROS: usize = 1088; // 64 bytes that stay zero
export const ONE_SHOT: usize = 1152; // a state area for calls that finish before returning
export const MSG: usize = 4096; // the message, up to MSG_CAPACITY bytes and 16 of padding
export const MSG_CAPACITY: usize = 65536;
export const SLOTS: usize = 69632 + 64;
export const STATE_SIZE: usize = 560;
// The ChaCha20-Poly1305 MAC's input (chacha_mac): a ChaCha20 state of 16 words (RFC 8439 2.3) with
// the key at +16 and a 12-byte nonce at +52, or an XChaCha20 nonce of 24 bytes at XNONCE; and the
// permuted block. Zeroed before chacha_mac returns.
export const CHACHA: usize = 2048;
export const XNONCE: usize = 2112;
const CHACHA_BLOCK: usize = 2176;

// State area layout: the raw key r ‖ s at +0 until init, then:
const PARTIAL: usize = 0; // bytes of an incomplete block (r's raw bytes cleared)
const S: usize = 16; // s, four u32 words, where the key brought them
const R: usize = 32; // r, five u32 limbs
const H: usize = 52; // h, five u32 limbs (partially reduced: each < 2^28)
const R3: usize = 72; // r^3 limbs, once the SIMD path has run
const R6: usize = 92; // r^6 limbs
const FILL: usize = 112; // u32: bytes in PARTIAL
const POWERS: usize = 116; // u32: 1 once R3, R6 and the tables below are set
// Three tables of nine SIMD multipliers (16 bytes each): limbs 0-4 of a power, then 5× limbs 1-4
// (for the columns that wrap past 2^130). CUBE and SIXTH hold r^3 and r^6 in every 32-bit
// lane; COMBINE holds r^3 in lanes 0 and 2 and r^2 in lanes 1 and 3.
const CUBE: usize = 128;
const SIXTH: usize = 272;
const COMBINE: usize = 416;

const M26: u64 = 0x3ffffff;
const HIBIT: u32 = 1 << 24; // 2^128 in the top limb
/**
 * Blocks past which (with the last) the SIMD path pays for r^3, r^6, its tables and combining the
 * lanes: 24 blocks and more (384 bytes). Module against module (AMD EPYC, Node 20, 2026-12-04),
 * against the scalar kernel alone: 0.92x the time at 464-496 bytes, within 1% at 400-432, and
 * 1.07-1.09x at 256-320 bytes, where the scalar kernel keeps them.
 */
const SIMD_MIN_BLOCKS: usize = 23;

/** Clamps r (RFC 8439 2.5.1: r &= 0x0ffffffc0ffffffc0ffffffc0fffffff) and splits it into limbs. */
export function init(st: usize): void {
  const t0 = load<u32>(st);
  const t1 = load<u32>(st, 4);
  const t2 = load<u32>(st, 8);
  const t3 = load<u32>(st, 12);
  v128.store(st + PARTIAL, i64x2.splat(0));
  store<u32>(st, t0 & 0x3ffffff, R);
  store<u32>(st, ((t0 >> 26) | (t1 << 6)) & 0x3ffff03, R + 4);
  store<u32>(st, ((t1 >> 20) | (t2 << 12)) & 0x3ffc0ff, R + 8);
  store<u32>(st, ((t2 >> 14) | (t3 << 18)) & 0x3f03fff, R + 12);
  store<u32>(st, (t3 >> 8) & 0x00fffff, R + 16);
  store<u64>(st, 0, H);
  store<u64>(st, 0, H + 8);
  store<u32>(st, 0, H + 16);
  store<u64>(st, 0, FILL); // and POWERS
}

/**
 * For each 16-byte block m in [p, end): h = (h + m + 2^128)·r mod p (partially reduced), h and r
 * five limbs at hp and rp; the last block adds lastHibit·2^128 instead (0 for a padded block).
 * Each block is zeroed once read (here and in blocksSimd): no second pass over MSG to clear it,
 * 3–6% of a one-call MAC's time from 256 B on, module against module.
 */
function blocks(hp: usize, rp: usize, p: usize, end: usize, lastHibit: u32): void {
  const r0 = <u64>load<u32>(rp);
  const r1 = <u64>load<u32>(rp, 4);
  const r2 = <u64>load<u32>(rp, 8);
  const r3 = <u64>load<u32>(rp, 12);
  const r4 = <u64>load<u32>(rp, 16);
  const s1 = r1 * 5;
  const s2 = r2 * 5;
  const s3 = r3 * 5;
  const s4 = r4 * 5;
  let h0 = <u64>load<u32>(hp);
  let h1 = <u64>load<u32>(hp, 4);
  let h2 = <u64>load<u32>(hp, 8);
  let h3 = <u64>load<u32>(hp, 12);
  let h4 = <u64>load<u32>(hp, 16);
  for (; p < end; p += 16) {
    const hibit = p + 16 < end ? HIBIT : lastHibit;
    // The five limbs and the carries below are written out here and in blocksSimd's scalar lane:
    // an inline helper taking the byte offset measured 2-3% slower (AssemblyScript makes a load's
    // offset immediate only from a literal), and storeCarried's round trip through memory is for
    // code outside the loops.
    h0 += <u64>(load<u32>(p) & 0x3ffffff);
    h1 += <u64>((load<u32>(p, 3) >> 2) & 0x3ffffff);
    h2 += <u64>((load<u32>(p, 6) >> 4) & 0x3ffffff);
    h3 += <u64>((load<u32>(p, 9) >> 6) & 0x3ffffff);
    h4 += <u64>((load<u32>(p, 12) >> 8) | hibit);
    v128.store(p, i64x2.splat(0)); // read once: the message leaves memory as it is absorbed
    let d0 = h0 * r0 + h1 * s4 + h2 * s3 + h3 * s2 + h4 * s1;
    let d1 = h0 * r1 + h1 * r0 + h2 * s4 + h3 * s3 + h4 * s2;
    let d2 = h0 * r2 + h1 * r1 + h2 * r0 + h3 * s4 + h4 * s3;
    let d3 = h0 * r3 + h1 * r2 + h2 * r1 + h3 * r0 + h4 * s4;
    let d4 = h0 * r4 + h1 * r3 + h2 * r2 + h3 * r1 + h4 * r0;
    d1 += d0 >> 26;
    d2 += d1 >> 26;
    d3 += d2 >> 26;
    d4 += d3 >> 26;
    h0 = (d0 & M26) + (d4 >> 26) * 5;
    h1 = (d1 & M26) + (h0 >> 26);
    h0 &= M26;
    h2 = d2 & M26;
    h3 = d3 & M26;
    h4 = d4 & M26;
  }
  store<u32>(hp, <u32>h0);
  store<u32>(hp, <u32>h1, 4);
  store<u32>(hp, <u32>h2, 8);
  store<u32>(hp, <u32>h3, 12);
  store<u32>(hp, <u32>h4, 16);
}

// --- the SIMD path ---------------------------------------------------------------------------------

/**
 * One column of a product of two-lane limb vectors: Σ h_i·c_i, where h is packed as
 * [a0 b0 a1 b1], [a2 b2 a3 b3], [a4 b4 · ·] (32-bit lanes; a, b the two Horner lanes) and c_i is
 * a multiplier limb (or 5× it) in the lanes that meet lane a and lane b.
 */
@inline function column(h01: v128, h23: v128, h4: v128, c0: v128, c1: v128, c2: v128, c3: v128, c4: v128): v128 {
  return i64x2.add(
    i64x2.add(
      i64x2.add(i64x2.extmul_low_i32x4_u(h01, c0), i64x2.extmul_high_i32x4_u(h01, c1)),
      i64x2.add(i64x2.extmul_low_i32x4_u(h23, c2), i64x2.extmul_high_i32x4_u(h23, c3)),
    ),
    i64x2.extmul_low_i32x4_u(h4, c4),
  );
}

/** Packs two 64-bit-lane limb vectors [x_a x_b], [y_a y_b] into 32-bit lanes [x_a x_b y_a y_b]. */
@inline function pack(x: v128, y: v128): v128 {
  return i32x4.shuffle(x, y, 0, 2, 4, 6);
}

/** Multiplier `index` (0-8) of the table at `table`. */
@inline function multiplier(table: usize, index: usize): v128 {
  return v128.load(table + (index << 4));
}

/**
 * The five limbs at dst = (the five at src)^2 mod p, partially reduced: blocks()'s product and
 * carries with h = r and no message, the cross terms doubled instead of computed twice (the same
 * limbs, in 15 products instead of 25 and no loop).
 */
function squareLimbs(dst: usize, src: usize): void {
  const x0 = <u64>load<u32>(src);
  const x1 = <u64>load<u32>(src, 4);
  const x2 = <u64>load<u32>(src, 8);
  const x3 = <u64>load<u32>(src, 12);
  const x4 = <u64>load<u32>(src, 16);
  const y0 = x0 << 1; // 2·x0
  const y1 = x1 << 1;
  const t3 = x3 * 5;
  const t4 = x4 * 5;
  const d0 = x0 * x0 + ((x1 * t4 + x2 * t3) << 1);
  const d1 = y0 * x1 + ((x2 * t4) << 1) + x3 * t3;
  const d2 = y0 * x2 + x1 * x1 + ((x3 * t4) << 1);
  const d3 = y0 * x3 + y1 * x2 + x4 * t4;
  const d4 = y0 * x4 + y1 * x3 + x2 * x2;
  storeCarried(dst, d0, d1, d2, d3, d4);
}

/** The five limbs at dst = (the five at x)·(the five at y) mod p, partially reduced. */
function mulLimbs(dst: usize, x: usize, y: usize): void {
  const a0 = <u64>load<u32>(x);
  const a1 = <u64>load<u32>(x, 4);
  const a2 = <u64>load<u32>(x, 8);
  const a3 = <u64>load<u32>(x, 12);
  const a4 = <u64>load<u32>(x, 16);
  const b0 = <u64>load<u32>(y);
  const b1 = <u64>load<u32>(y, 4);
  const b2 = <u64>load<u32>(y, 8);
  const b3 = <u64>load<u32>(y, 12);
  const b4 = <u64>load<u32>(y, 16);
  const t1 = b1 * 5;
  const t2 = b2 * 5;
  const t3 = b3 * 5;
  const t4 = b4 * 5;
  const d0 = a0 * b0 + a1 * t4 + a2 * t3 + a3 * t2 + a4 * t1;
  const d1 = a0 * b1 + a1 * b0 + a2 * t4 + a3 * t3 + a4 * t2;
  const d2 = a0 * b2 + a1 * b1 + a2 * b0 + a3 * t4 + a4 * t3;
  const d3 = a0 * b3 + a1 * b2 + a2 * b1 + a3 * b0 + a4 * t4;
  const d4 = a0 * b4 + a1 * b3 + a2 * b2 + a3 * b1 + a4 * b0;
  storeCarried(dst, d0, d1, d2, d3, d4);
}

/** Stores five product columns as limbs, carried once (blocks()'s carries): each < 2^26 + 2^12. */
function storeCarried(dst: usize, d0: u64, d1: u64, d2: u64, d3: u64, d4: u64): void {
  d1 += d0 >> 26;
  d2 += d1 >> 26;
  d3 += d2 >> 26;
  d4 += d3 >> 26;
  const h0 = (d0 & M26) + (d4 >> 26) * 5;
  store<u32>(dst, <u32>((d1 & M26) + (h0 >> 26)), 4);
  store<u32>(dst, <u32>(h0 & M26));
  store<u32>(dst, <u32>(d2 & M26), 8);
  store<u32>(dst, <u32>(d3 & M26), 12);
  store<u32>(dst, <u32>(d4 & M26), 16);
}

/**
 * r^3, r^6 and the multiplier tables, on first use (r^2 passes through R6 on the way): about 30 ns,
 * a tenth of a 1 KiB tag (against tables left unset, module against module), as the three products
 * are a chain. The same products and tables from locals, with no limbs stored and loaded back
 * between them, measured within 2% from 384 B to 2 KiB (Zen 5, Node 20, 2026-12-05).
 */
function powers(st: usize): void {
  if (load<u32>(st, POWERS) != 0) return;
  squareLimbs(st + R6, st + R);
  mulLimbs(st + R3, st + R6, st + R);
  for (let i: usize = 0; i < 5; i++) {
    const squared = load<u32>(st + R6 + (i << 2));
    const cubed = load<u32>(st + R3 + (i << 2));
    // Entry i, and for i ≥ 1 entry 4 + i with 5× the limb (entry 4 is rewritten at i = 4).
    v128.store(st + CUBE + (i << 4), i32x4.splat(cubed));
    v128.store(st + CUBE + ((4 + i) << 4), i32x4.splat(cubed * 5));
    v128.store(st + COMBINE + (i << 4), i64x2.splat(<i64>cubed | (<i64>squared << 32)));
    v128.store(st + COMBINE + ((4 + i) << 4), i64x2.splat(<i64>(cubed * 5) | (<i64>(squared * 5) << 32)));
  }
  squareLimbs(st + R6, st + R3);
  for (let i: usize = 0; i < 5; i++) {
    const sixth = load<u32>(st + R6 + (i << 2));
    v128.store(st + SIXTH + (i << 4), i32x4.splat(sixth));
    v128.store(st + SIXTH + ((4 + i) << 4), i32x4.splat(sixth * 5));
  }
  store<u32>(st, 1, POWERS);
}

/**
 * Absorbs 3 + 6·steps blocks from p with three Horner lanes: two in SIMD (a, b) and one in scalar
 * registers (c), so that the vector units (the SIMD lanes' products and lane shuffles) and the
 * integer multiplier (the scalar lane's) work at once. The lanes start as h + m0, m1 and m2; each
 * step of six blocks is (a, b) = (a, b)·r^6 + (m0, m1)·r^3 + (m3, m4) and c = c·r^6 + m2·r^3 + m5;
 * a last step with the COMBINE multipliers and no message gives (a·r^3, b·r^2), and with c·r their
 * sum is h (H·r^6 + m0·r^6 + … + m5·r, Horner's six blocks, at every step).
 */
function blocksSimd(st: usize, p: usize, steps: usize): void {
  powers(st);
  const mask = i64x2.splat(M26);
  const zero = i64x2.splat(0);
  let hibit = i64x2.splat(HIBIT);
  const u0 = multiplier(st + CUBE, 0);
  const u1 = multiplier(st + CUBE, 1);
  const u2 = multiplier(st + CUBE, 2);
  const u3 = multiplier(st + CUBE, 3);
  const u4 = multiplier(st + CUBE, 4);
  const v1 = multiplier(st + CUBE, 5);
  const v2 = multiplier(st + CUBE, 6);
  const v3 = multiplier(st + CUBE, 7);
  const v4 = multiplier(st + CUBE, 8);
  let table = st + SIXTH;
  // The scalar lane's multipliers: r^3 and r^6, and 5× their limbs 1-4.
  const q0 = <u64>load<u32>(st, R3);
  const q1 = <u64>load<u32>(st, R3 + 4);
  const q2 = <u64>load<u32>(st, R3 + 8);
  const q3 = <u64>load<u32>(st, R3 + 12);
  const q4 = <u64>load<u32>(st, R3 + 16);
  const e0 = <u64>load<u32>(st, R6);
  const e1 = <u64>load<u32>(st, R6 + 4);
  const e2 = <u64>load<u32>(st, R6 + 8);
  const e3 = <u64>load<u32>(st, R6 + 12);
  const e4 = <u64>load<u32>(st, R6 + 16);
  const q5 = q1 * 5;
  const q6 = q2 * 5;
  const q7 = q3 * 5;
  const q8 = q4 * 5;
  const e5 = e1 * 5;
  const e6 = e2 * 5;
  const e7 = e3 * 5;
  const e8 = e4 * 5;

  // Blocks 0 and 1 in 64-bit lanes [m0, m1], limb by limb, with h added to lane a.
  let lo = i64x2.shuffle(v128.load(p), v128.load(p, 16), 0, 2);
  let hi = i64x2.shuffle(v128.load(p), v128.load(p, 16), 1, 3);
  v128.store(p, zero);
  v128.store(p, zero, 16);
  let h0 = i64x2.add(v128.and(lo, mask), i64x2.replace_lane(zero, 0, <i64>load<u32>(st, H)));
  let h1 = i64x2.add(v128.and(i64x2.shr_u(lo, 26), mask), i64x2.replace_lane(zero, 0, <i64>load<u32>(st, H + 4)));
  let h2 = i64x2.add(
    v128.and(v128.or(i64x2.shr_u(lo, 52), i64x2.shl(hi, 12)), mask),
    i64x2.replace_lane(zero, 0, <i64>load<u32>(st, H + 8)),
  );
  let h3 = i64x2.add(v128.and(i64x2.shr_u(hi, 14), mask), i64x2.replace_lane(zero, 0, <i64>load<u32>(st, H + 12)));
  let h4 = i64x2.add(v128.or(i64x2.shr_u(hi, 40), hibit), i64x2.replace_lane(zero, 0, <i64>load<u32>(st, H + 16)));
  // Block 2 in the scalar lane.
  let c0 = <u64>(load<u32>(p, 32) & 0x3ffffff);
  let c1 = <u64>((load<u32>(p, 35) >> 2) & 0x3ffffff);
  let c2 = <u64>((load<u32>(p, 38) >> 4) & 0x3ffffff);
  let c3 = <u64>((load<u32>(p, 41) >> 6) & 0x3ffffff);
  let c4 = <u64>((load<u32>(p, 44) >> 8) | HIBIT);
  v128.store(p, zero, 32);
  p += 48;

  while (true) {
    if (steps == 0) {
      table = st + COMBINE;
      hibit = zero;
      p = ZEROS - 48; // the last step's "blocks 3 and 4" are ZEROS
    }
    const w0 = multiplier(table, 0);
    const w1 = multiplier(table, 1);
    const w2 = multiplier(table, 2);
    const w3 = multiplier(table, 3);
    const w4 = multiplier(table, 4);
    const x1 = multiplier(table, 5);
    const x2 = multiplier(table, 6);
    const x3 = multiplier(table, 7);
    const x4 = multiplier(table, 8);
    const a01 = pack(h0, h1);
    const a23 = pack(h2, h3);
    const a4 = pack(h4, h4);
    // Blocks 3 and 4, added as they are.
    lo = i64x2.shuffle(v128.load(p, 48), v128.load(p, 64), 0, 2);
    hi = i64x2.shuffle(v128.load(p, 48), v128.load(p, 64), 1, 3);
    v128.store(p, zero, 48);
    v128.store(p, zero, 64);
    let d0 = i64x2.add(column(a01, a23, a4, w0, x4, x3, x2, x1), v128.and(lo, mask));
    let d1 = i64x2.add(column(a01, a23, a4, w1, w0, x4, x3, x2), v128.and(i64x2.shr_u(lo, 26), mask));
    let d2 = i64x2.add(
      column(a01, a23, a4, w2, w1, w0, x4, x3),
      v128.and(v128.or(i64x2.shr_u(lo, 52), i64x2.shl(hi, 12)), mask),
    );
    let d3 = i64x2.add(column(a01, a23, a4, w3, w2, w1, w0, x4), v128.and(i64x2.shr_u(hi, 14), mask));
    let d4 = i64x2.add(column(a01, a23, a4, w4, w3, w2, w1, w0), v128.or(i64x2.shr_u(hi, 40), hibit));
    if (steps != 0) {
      // Blocks 0 and 1, times r^3.
      lo = i64x2.shuffle(v128.load(p), v128.load(p, 16), 0, 2);
      hi = i64x2.shuffle(v128.load(p), v128.load(p, 16), 1, 3);
      v128.store(p, zero);
      v128.store(p, zero, 16);
      const m01 = pack(v128.and(lo, mask), v128.and(i64x2.shr_u(lo, 26), mask));
      const m23 = pack(v128.and(v128.or(i64x2.shr_u(lo, 52), i64x2.shl(hi, 12)), mask), v128.and(i64x2.shr_u(hi, 14), mask));
      const m4 = pack(v128.or(i64x2.shr_u(hi, 40), hibit), hibit);
      d0 = i64x2.add(d0, column(m01, m23, m4, u0, v4, v3, v2, v1));
      d1 = i64x2.add(d1, column(m01, m23, m4, u1, u0, v4, v3, v2));
      d2 = i64x2.add(d2, column(m01, m23, m4, u2, u1, u0, v4, v3));
      d3 = i64x2.add(d3, column(m01, m23, m4, u3, u2, u1, u0, v4));
      d4 = i64x2.add(d4, column(m01, m23, m4, u4, u3, u2, u1, u0));
      // The scalar lane: c·r^6 + block 2·r^3 + block 5.
      const n0 = <u64>(load<u32>(p, 32) & 0x3ffffff);
      const n1 = <u64>((load<u32>(p, 35) >> 2) & 0x3ffffff);
      const n2 = <u64>((load<u32>(p, 38) >> 4) & 0x3ffffff);
      const n3 = <u64>((load<u32>(p, 41) >> 6) & 0x3ffffff);
      const n4 = <u64>((load<u32>(p, 44) >> 8) | HIBIT);
      let f0 = c0 * e0 + c1 * e8 + c2 * e7 + c3 * e6 + c4 * e5 + n0 * q0 + n1 * q8 + n2 * q7 + n3 * q6 + n4 * q5;
      let f1 = c0 * e1 + c1 * e0 + c2 * e8 + c3 * e7 + c4 * e6 + n0 * q1 + n1 * q0 + n2 * q8 + n3 * q7 + n4 * q6;
      let f2 = c0 * e2 + c1 * e1 + c2 * e0 + c3 * e8 + c4 * e7 + n0 * q2 + n1 * q1 + n2 * q0 + n3 * q8 + n4 * q7;
      let f3 = c0 * e3 + c1 * e2 + c2 * e1 + c3 * e0 + c4 * e8 + n0 * q3 + n1 * q2 + n2 * q1 + n3 * q0 + n4 * q8;
      let f4 = c0 * e4 + c1 * e3 + c2 * e2 + c3 * e1 + c4 * e0 + n0 * q4 + n1 * q3 + n2 * q2 + n3 * q1 + n4 * q0;
      f0 += <u64>(load<u32>(p, 80) & 0x3ffffff);
      f1 += <u64>((load<u32>(p, 83) >> 2) & 0x3ffffff);
      f2 += <u64>((load<u32>(p, 86) >> 4) & 0x3ffffff);
      f3 += <u64>((load<u32>(p, 89) >> 6) & 0x3ffffff);
      f4 += <u64>((load<u32>(p, 92) >> 8) | HIBIT);
      v128.store(p, zero, 32);
      v128.store(p, zero, 80);
      f1 += f0 >> 26;
      f2 += f1 >> 26;
      f3 += f2 >> 26;
      f4 += f3 >> 26;
      c0 = (f0 & M26) + (f4 >> 26) * 5;
      c1 = (f1 & M26) + (c0 >> 26);
      c0 &= M26;
      c2 = f2 & M26;
      c3 = f3 & M26;
      c4 = f4 & M26;
    }
    // Partial carry in two interleaved chains (d0→d1→d2→d3, d3→d4→d0→d1): limbs end < 2^27.
    d1 = i64x2.add(d1, i64x2.shr_u(d0, 26));
    h0 = v128.and(d0, mask);
    d4 = i64x2.add(d4, i64x2.shr_u(d3, 26));
    h3 = v128.and(d3, mask);
    d2 = i64x2.add(d2, i64x2.shr_u(d1, 26));
    h1 = v128.and(d1, mask);
    const c = i64x2.shr_u(d4, 26);
    h4 = v128.and(d4, mask);
    h0 = i64x2.add(h0, i64x2.add(c, i64x2.shl(c, 2)));
    h3 = i64x2.add(h3, i64x2.shr_u(d2, 26));
    h2 = v128.and(d2, mask);
    h1 = i64x2.add(h1, i64x2.shr_u(h0, 26));
    h0 = v128.and(h0, mask);
    h4 = i64x2.add(h4, i64x2.shr_u(h3, 26));
    h3 = v128.and(h3, mask);
    if (steps == 0) break;
    steps--;
    p += 96;
  }
  // c·r, then h = a·r^3 + b·r^2 + c·r limb by limb, carried once more. c·r written out, not by
  // mulLimbs through H: that measured 2-3% slower at 512 B-1 KiB, module against module.
  const r0 = <u64>load<u32>(st, R);
  const r1 = <u64>load<u32>(st, R + 4);
  const r2 = <u64>load<u32>(st, R + 8);
  const r3 = <u64>load<u32>(st, R + 12);
  const r4 = <u64>load<u32>(st, R + 16);
  const s1 = r1 * 5;
  const s2 = r2 * 5;
  const s3 = r3 * 5;
  const s4 = r4 * 5;
  let g0 = c0 * r0 + c1 * s4 + c2 * s3 + c3 * s2 + c4 * s1;
  let g1 = c0 * r1 + c1 * r0 + c2 * s4 + c3 * s3 + c4 * s2;
  let g2 = c0 * r2 + c1 * r1 + c2 * r0 + c3 * s4 + c4 * s3;
  let g3 = c0 * r3 + c1 * r2 + c2 * r1 + c3 * r0 + c4 * s4;
  let g4 = c0 * r4 + c1 * r3 + c2 * r2 + c3 * r1 + c4 * r0;
  g0 += <u64>i64x2.extract_lane(h0, 0) + <u64>i64x2.extract_lane(h0, 1);
  g1 += <u64>i64x2.extract_lane(h1, 0) + <u64>i64x2.extract_lane(h1, 1);
  g2 += <u64>i64x2.extract_lane(h2, 0) + <u64>i64x2.extract_lane(h2, 1);
  g3 += <u64>i64x2.extract_lane(h3, 0) + <u64>i64x2.extract_lane(h3, 1);
  g4 += <u64>i64x2.extract_lane(h4, 0) + <u64>i64x2.extract_lane(h4, 1);
  storeCarried(st + H, g0, g1, g2, g3, g4);

}

// --- the exported operations -------------------------------------------------------------------

/** Absorbs the blocks from p to end (a multiple of 16 bytes); the last adds lastHibit·2^128. */
function absorb(st: usize, p: usize, end: usize, lastHibit: u32): void {
  const count = (end - p) >> 4;
  if (count > SIMD_MIN_BLOCKS) {
    // All but the last block, in steps of 3 + 6k.
    const steps = (count - 4) / 6;
    blocksSimd(st, p, steps);
    p += (3 + steps * 6) << 4;
  }
  blocks(st + H, st + R, p, end, lastHibit);
}

/**
 * Absorbs MSG[0..len), keeping an incomplete last block for the next call, and zeroes those bytes
 * of MSG: it is all zeros between calls, so update(st, n) with nothing written absorbs n zero
 * bytes (the AEAD's pad16).
 */
export function update(st: usize, len: usize): void {
  let p = MSG;
  const end = MSG + len;
  let fill = <usize>load<u32>(st, FILL);
  if (fill != 0) {
    const take = min<usize>(16 - fill, len);
    copyBytes(st + PARTIAL + fill, p, take);
    fill += take;
    p += take;
    if (fill < 16) {
      store<u32>(st, <u32>fill, FILL);
      zeroBytes(MSG, len);
      return;
    }
    blocks(st + H, st + R, st + PARTIAL, st + PARTIAL + 16, HIBIT);
  }
  const whole = p + ((end - p) & ~15);
  absorb(st, p, whole, HIBIT); // zeroes the blocks it reads
  fill = end - whole;
  if (fill != 0) copyBytes(st + PARTIAL, whole, fill);
  store<u32>(st, <u32>fill, FILL);
  // What went to PARTIAL instead: the head that completed it, and the tail.
  zeroBytes(MSG, p - MSG);
  zeroBytes(whole, fill);
}

/**
 * Pads the short last block of `fill` bytes at p (room for 16) in place: its 0x01 byte stands in
 * for the 2^(8·fill) term, in the block's two 64-bit words, the bytes after it cleared.
 */
function padLast(p: usize, fill: usize): void {
  if (fill < 8) {
    const one = (<u64>1) << (<u64>fill << 3);
    store<u64>(p, (load<u64>(p) & (one - 1)) | one);
    store<u64>(p, 0, 8);
  } else {
    const one = (<u64>1) << (<u64>(fill - 8) << 3);
    store<u64>(p, (load<u64>(p, 8) & (one - 1)) | one, 8);
  }
}

/** Writes the tag (h mod p) + s mod 2^128 to OUT and zeroes the state area. */
function tag(st: usize): void {
  // Full carry: h < 2^130 + small, then h < 2^130.
  let h0 = load<u32>(st, H);
  let h1 = load<u32>(st, H + 4);
  let h2 = load<u32>(st, H + 8);
  let h3 = load<u32>(st, H + 12);
  let h4 = load<u32>(st, H + 16);
  h2 += h1 >> 26;
  h1 &= 0x3ffffff;
  h3 += h2 >> 26;
  h2 &= 0x3ffffff;
  h4 += h3 >> 26;
  h3 &= 0x3ffffff;
  h0 += (h4 >> 26) * 5;
  h4 &= 0x3ffffff;
  h1 += h0 >> 26;
  h0 &= 0x3ffffff;
  // g = h + 5 - 2^130: taken when it does not borrow (h ≥ p), by mask.
  let g0 = h0 + 5;
  let g1 = h1 + (g0 >> 26);
  g0 &= 0x3ffffff;
  let g2 = h2 + (g1 >> 26);
  g1 &= 0x3ffffff;
  let g3 = h3 + (g2 >> 26);
  g2 &= 0x3ffffff;
  const g4 = h4 + (g3 >> 26) - (1 << 26);
  g3 &= 0x3ffffff;
  const useG = (g4 >> 31) - 1; // all ones when g4 did not go negative
  h0 = (h0 & ~useG) | (g0 & useG);
  h1 = (h1 & ~useG) | (g1 & useG);
  h2 = (h2 & ~useG) | (g2 & useG);
  h3 = (h3 & ~useG) | (g3 & useG);
  h4 = (h4 & ~useG) | (g4 & useG);
  // h mod 2^128 plus s, by additions with carries (a limb of 2^26 exactly still lands right).
  let f = <u64>h0 + (<u64>h1 << 26) + <u64>load<u32>(st, S);
  store<u32>(OUT, <u32>f);
  f = (f >> 32) + (<u64>h2 << 20) + <u64>load<u32>(st, S + 4);
  store<u32>(OUT, <u32>f, 4);
  f = (f >> 32) + (<u64>h3 << 14) + <u64>load<u32>(st, S + 8);
  store<u32>(OUT, <u32>f, 8);
  f = (f >> 32) + (<u64>h4 << 8) + <u64>load<u32>(st, S + 12);
  store<u32>(OUT, <u32>f, 12);
  zeroBytes(st, load<u32>(st, POWERS) != 0 ? STATE_SIZE : CUBE);
}

/** Absorbs the incomplete last block, writes the tag to OUT and zeroes the state area. */
export function finish(st: usize): void {
  const fill = <usize>load<u32>(st, FILL);
  if (fill != 0) {
    padLast(st + PARTIAL, fill);
    blocks(st + H, st + R, st + PARTIAL, st + PARTIAL + 16, 0);
  }
  tag(st);
}

/**
 * The tag of MSG[0..len) under the key at st, in one call (init, update, finish); the last
 * block is padded in place, and each block zeroed as it is absorbed.
 */
export function mac(st: usize, len: usize): void {
  init(st);
  const fill = len & 15;
  let end = MSG + len;
  if (fill != 0) {
    padLast(end - fill, fill);
    end += 16 - fill;
  }
  absorb(st, MSG, end, fill != 0 ? 0 : HIBIT); // zeroes the blocks it reads
  tag(st);
}

/**
 * The ChaCha20-Poly1305 AEAD's tag over an empty plaintext with MSG[0..len) as associated data
 * (RFC 8439 2.8), in one call: the one-time Poly1305 key is the first 32 bytes of ChaCha20 block 0
 * under the key and nonce at CHACHA (2.6); `extended`: XChaCha20 (draft-irtf-cfrg-xchacha-03
 * 2.3), the key at CHACHA and the 24-byte nonce at XNONCE, whose HChaCha20 subkey (2.2) and last
 * 8 bytes take their place. Poly1305 runs over AD ‖ pad16 ‖ le64(len) ‖ le64(0), laid out in MSG
 * (zero past the message at rest). The tag goes to OUT; MSG, the ChaCha20 state and block, and the
 * state area are zeroed. Constant time as the rest: only lengths steer it.
 */
export function chacha_mac(len: usize, extended: bool): void {
  // "expand 32-byte k" (2.3).
  store<u32>(CHACHA, 0x61707865);
  store<u32>(CHACHA, 0x3320646e, 4);
  store<u32>(CHACHA, 0x79622d32, 8);
  store<u32>(CHACHA, 0x6b206574, 12);
  if (extended) {
    // HChaCha20 over the key and nonce[0..16): the subkey is rows 0 and 3, no feed-forward.
    v128.store(CHACHA, v128.load(XNONCE), 48);
    permuteRows(CHACHA, CHACHA_BLOCK);
    v128.store(CHACHA, v128.load(CHACHA_BLOCK), 16);
    v128.store(CHACHA, v128.load(CHACHA_BLOCK, 48), 32);
    // ChaCha20's nonce: four zero bytes ‖ nonce[16..24).
    store<u32>(CHACHA, 0, 52);
    store<u64>(CHACHA, load<u64>(XNONCE, 16), 56);
  }
  store<u32>(CHACHA, 0, 48); // block counter 0
  permuteRows(CHACHA, CHACHA_BLOCK);
  // r ‖ s: rows 0 and 1 of block 0 after the feed-forward.
  const st = ONE_SHOT;
  v128.store(st, i32x4.add(v128.load(CHACHA_BLOCK), v128.load(CHACHA)));
  v128.store(st, i32x4.add(v128.load(CHACHA_BLOCK, 16), v128.load(CHACHA, 16)), 16);
  for (let i: usize = 0; i < 64; i += 16) {
    v128.store(CHACHA + i, i64x2.splat(0));
    v128.store(CHACHA_BLOCK + i, i64x2.splat(0));
  }
  v128.store(XNONCE, i64x2.splat(0));
  v128.store(XNONCE, i64x2.splat(0), 16);
  init(st);
  const padded = (len + 15) & ~15;
  store<u64>(MSG + padded, <u64>len);
  store<u64>(MSG + padded, 0, 8);
  const end = MSG + padded + 16;
  absorb(st, MSG, end, HIBIT); // zeroes the blocks it reads
  tag(st);
}
