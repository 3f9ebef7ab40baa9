// asc: --enable simd
// AssemblyScript: the ChaCha20 block function (RFC 8439 section 2.3) and keystream XOR (2.4), and
// HChaCha20 (draft-irtf-cfrg-xchacha-03 section 2.2), with WebAssembly SIMD. Long inputs take four
// blocks at a time, one block counter per i32x4 lane; a last single block and HChaCha20 take one
// block at a time, the state's rows in four vectors (diagonals by lane rotation). Only
// additions, XORs and fixed rotations (16 and 8 by byte swizzle, 12 and 7 by shifts), no branch
// or index on key or data: constant time. INPUT and scratch are zeroed before each export returns.

import { permuteRows, rot7, rot8, rot12, rot16 } from "./lib/chacha";

// Memory map (bytes). The JavaScript side writes the 16-word input state (constants, key, block
// counter, nonce; RFC 8439 2.3) to INPUT for each call. No key slots: a ChaCha20 key lives for
// one message, and INPUT is wiped after every call.
export const INPUT: usize = 1024; // 16 × u32
export const BLOCK: usize = 1088; // one block's permuted state
export const OUT: usize = 1152; // one keystream block, or the HChaCha20 subkey
export const MSG: usize = 2048; // data, XORed in place (see chacha20_xor for the bytes touched)
export const MSG_CAPACITY: usize = 65536; // a multiple of 256
export const SLOTS: usize = 67584;

const LANES: v128 = i32x4(0, 1, 2, 3);

/** Input word `i` in every lane. */
@inline function word(i: usize): v128 {
  return i32x4.splat(load<i32>(INPUT + (i << 2)));
}

/**
 * Adds input words first..first+3 to a, b, c, d (word k of blocks 0-3 in lanes 0-3), transposes
 * them into block-major rows, and XORs row j into the 16 bytes at p + 64 j.
 */
@inline function addTransposeXor(p: usize, a: v128, b: v128, c: v128, d: v128, first: usize): void {
  a = i32x4.add(a, word(first));
  b = i32x4.add(b, word(first + 1));
  c = i32x4.add(c, word(first + 2));
  d = i32x4.add(d, word(first + 3));
  const ab01 = i32x4.shuffle(a, b, 0, 4, 1, 5);
  const cd01 = i32x4.shuffle(c, d, 0, 4, 1, 5);
  const ab23 = i32x4.shuffle(a, b, 2, 6, 3, 7);
  const cd23 = i32x4.shuffle(c, d, 2, 6, 3, 7);
  v128.store(p, v128.xor(v128.load(p), i64x2.shuffle(ab01, cd01, 0, 2)));
  v128.store(p, v128.xor(v128.load(p, 64), i64x2.shuffle(ab01, cd01, 1, 3)), 64);
  v128.store(p, v128.xor(v128.load(p, 128), i64x2.shuffle(ab23, cd23, 0, 2)), 128);
  v128.store(p, v128.xor(v128.load(p, 192), i64x2.shuffle(ab23, cd23, 1, 3)), 192);
}

/** XORs four keystream blocks (counters INPUT[12] .. + 3) into the 256 bytes at p. */
function xor4(p: usize): void {
  let x0 = word(0), x1 = word(1), x2 = word(2), x3 = word(3);
  let x4 = word(4), x5 = word(5), x6 = word(6), x7 = word(7);
  let x8 = word(8), x9 = word(9), x10 = word(10), x11 = word(11);
  let x12 = i32x4.add(word(12), LANES), x13 = word(13), x14 = word(14), x15 = word(15);
  for (let i = 0; i < 10; i++) {
    // Quarter rounds (2.1) on the columns (2.2)...
    x0 = i32x4.add(x0, x4); x12 = rot16(v128.xor(x12, x0)); x8 = i32x4.add(x8, x12); x4 = rot12(v128.xor(x4, x8));
    x0 = i32x4.add(x0, x4); x12 = rot8(v128.xor(x12, x0)); x8 = i32x4.add(x8, x12); x4 = rot7(v128.xor(x4, x8));
    x1 = i32x4.add(x1, x5); x13 = rot16(v128.xor(x13, x1)); x9 = i32x4.add(x9, x13); x5 = rot12(v128.xor(x5, x9));
    x1 = i32x4.add(x1, x5); x13 = rot8(v128.xor(x13, x1)); x9 = i32x4.add(x9, x13); x5 = rot7(v128.xor(x5, x9));
    x2 = i32x4.add(x2, x6); x14 = rot16(v128.xor(x14, x2)); x10 = i32x4.add(x10, x14); x6 = rot12(v128.xor(x6, x10));
    x2 = i32x4.add(x2, x6); x14 = rot8(v128.xor(x14, x2)); x10 = i32x4.add(x10, x14); x6 = rot7(v128.xor(x6, x10));
    x3 = i32x4.add(x3, x7); x15 = rot16(v128.xor(x15, x3)); x11 = i32x4.add(x11, x15); x7 = rot12(v128.xor(x7, x11));
    x3 = i32x4.add(x3, x7); x15 = rot8(v128.xor(x15, x3)); x11 = i32x4.add(x11, x15); x7 = rot7(v128.xor(x7, x11));
    // ...and on the diagonals.
    x0 = i32x4.add(x0, x5); x15 = rot16(v128.xor(x15, x0)); x10 = i32x4.add(x10, x15); x5 = rot12(v128.xor(x5, x10));
    x0 = i32x4.add(x0, x5); x15 = rot8(v128.xor(x15, x0)); x10 = i32x4.add(x10, x15); x5 = rot7(v128.xor(x5, x10));
    x1 = i32x4.add(x1, x6); x12 = rot16(v128.xor(x12, x1)); x11 = i32x4.add(x11, x12); x6 = rot12(v128.xor(x6, x11));
    x1 = i32x4.add(x1, x6); x12 = rot8(v128.xor(x12, x1)); x11 = i32x4.add(x11, x12); x6 = rot7(v128.xor(x6, x11));
    x2 = i32x4.add(x2, x7); x13 = rot16(v128.xor(x13, x2)); x8 = i32x4.add(x8, x13); x7 = rot12(v128.xor(x7, x8));
    x2 = i32x4.add(x2, x7); x13 = rot8(v128.xor(x13, x2)); x8 = i32x4.add(x8, x13); x7 = rot7(v128.xor(x7, x8));
    x3 = i32x4.add(x3, x4); x14 = rot16(v128.xor(x14, x3)); x9 = i32x4.add(x9, x14); x4 = rot12(v128.xor(x4, x9));
    x3 = i32x4.add(x3, x4); x14 = rot8(v128.xor(x14, x3)); x9 = i32x4.add(x9, x14); x4 = rot7(v128.xor(x4, x9));
  }
  // The feed-forward (2.3): the input added back, lane j's counter being INPUT[12] + j.
  addTransposeXor(p, x0, x1, x2, x3, 0);
  addTransposeXor(p + 16, x4, x5, x6, x7, 4);
  addTransposeXor(p + 32, x8, x9, x10, x11, 8);
  addTransposeXor(p + 48, i32x4.add(x12, LANES), x13, x14, x15, 12);
}

/** The 20 rounds on the block at INPUT, without the feed-forward, into BLOCK. */
@inline function permute(): void {
  permuteRows(INPUT, BLOCK);
}

/** XORs one keystream block (counter INPUT[12]) into the 64 bytes at p, or stores it there. */
function block1(p: usize, xor: bool): void {
  permute();
  for (let i: usize = 0; i < 64; i += 16) {
    const ks = i32x4.add(v128.load(BLOCK + i), v128.load(INPUT + i));
    v128.store(p + i, xor ? v128.xor(v128.load(p + i), ks) : ks);
  }
}

@inline function advanceCounter(blocks: u32): void {
  store<u32>(INPUT + 48, load<u32>(INPUT + 48) + blocks);
}

/** Zeroes INPUT and BLOCK (eight stores: cheaper here than a memory.fill call). */
@inline function wipeScratch(): void {
  for (let i: usize = 0; i < 128; i += 16) v128.store(INPUT + i, i64x2.splat(0));
}

/**
 * XORs the keystream from block INPUT[12] on into MSG[0..len). Whole groups of four blocks are
 * XORed while more than one block remains (two or three blocks cost more one at a time), so
 * keystream stands past len up to a multiple of 256 bytes: the caller zeroes it. The caller
 * also keeps the 32-bit counter from wrapping within len.
 */
export function chacha20_xor(len: usize): void {
  let p = MSG;
  const end = MSG + len;
  for (; p + 64 < end; p += 256) {
    xor4(p);
    advanceCounter(4);
  }
  if (p < end) block1(p, true);
  wipeScratch();
}

/** One keystream block (counter INPUT[12]) into OUT. */
export function chacha20_block(): void {
  block1(OUT, false);
  wipeScratch();
}

/**
 * HChaCha20: INPUT holds the constants, the key and the first 16 nonce bytes (words 12-15); the
 * 32-byte subkey (rows 0 and 3 of the permuted state, no feed-forward) goes to OUT.
 */
export function hchacha20(): void {
  permute();
  v128.store(OUT, v128.load(BLOCK));
  v128.store(OUT, v128.load(BLOCK, 48), 16);
  wipeScratch();
}
