// AssemblyScript, shared by the chacha20 and poly1305 modules (imported, not a module of its own):
// ChaCha20's rotations (RFC 8439 section 2.1) on i32x4 lanes and the 20 rounds on one block held
// as four row vectors (2.3). Only additions, XORs and fixed rotations (16 and 8 by byte swizzle,
// 12 and 7 by shifts): constant time.

const ROT16: v128 = i8x16(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
const ROT8: v128 = i8x16(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14);

@inline export function rot16(x: v128): v128 {
  return i8x16.swizzle(x, ROT16);
}
@inline export function rot12(x: v128): v128 {
  return v128.or(i32x4.shl(x, 12), i32x4.shr_u(x, 20));
}
@inline export function rot8(x: v128): v128 {
  return i8x16.swizzle(x, ROT8);
}
@inline export function rot7(x: v128): v128 {
  return v128.or(i32x4.shl(x, 7), i32x4.shr_u(x, 25));
}

/**
 * The 20 rounds on the 16-word block at `input`, without the feed-forward, into the 64 bytes at
 * `block`: the four column quarter rounds at once, one per lane, then the diagonals, lined up as
 * columns by rotating rows 1-3 left by 1, 2 and 3 lanes (2.2).
 */
export function permuteRows(input: usize, block: usize): void {
  let a = v128.load(input);
  let b = v128.load(input, 16);
  let c = v128.load(input, 32);
  let d = v128.load(input, 48);
  for (let i = 0; i < 10; i++) {
    a = i32x4.add(a, b); d = rot16(v128.xor(d, a)); c = i32x4.add(c, d); b = rot12(v128.xor(b, c));
    a = i32x4.add(a, b); d = rot8(v128.xor(d, a)); c = i32x4.add(c, d); b = rot7(v128.xor(b, c));
    b = i32x4.shuffle(b, b, 1, 2, 3, 0);
    c = i32x4.shuffle(c, c, 2, 3, 0, 1);
    d = i32x4.shuffle(d, d, 3, 0, 1, 2);
    a = i32x4.add(a, b); d = rot16(v128.xor(d, a)); c = i32x4.add(c, d); b = rot12(v128.xor(b, c));
    a = i32x4.add(a, b); d = rot8(v128.xor(d, a)); c = i32x4.add(c, d); b = rot7(v128.xor(b, c));
    b = i32x4.shuffle(b, b, 3, 0, 1, 2);
    c = i32x4.shuffle(c, c, 2, 3, 0, 1);
    d = i32x4.shuffle(d, d, 1, 2, 3, 0);
  }
  v128.store(block, a);
  v128.store(block, b, 16);
  v128.store(block, c, 32);
  v128.store(block, d, 48);
}
