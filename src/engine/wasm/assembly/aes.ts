// asc: --enable simd
// AssemblyScript: AES-128/192/256 encryption (FIPS 197 section 5.1, key expansion 5.2), CMAC over it
// (SP 800-38B section 6.2) and GHASH (SP 800-38D section 6.4) with GMAC's tag (section 7.1 with an
// empty plaintext). The JavaScript side writes a raw key to KEY and expands it into a key slot once;
// messages go to MSG (zeroed by the call that reads them), tags come from OUT, and a chain or
// accumulator that spans calls is carried in STATE (the caller copies it out and back).
//
// Constant time, by construction:
// - AES is Hamburg's vector-permute AES ("Accelerating AES with Vector Permute Instructions", CHES
//   2009; OpenSSL's vpaes). Each byte splits into two nibbles and SubBytes is an inversion in
//   GF(2^8) through GF(2^4), every step a 16-entry lookup done by i8x16.swizzle: the table is a
//   register and the index picks a lane, so no memory address depends on key or data (unlike
//   T-table AES, whose lookups leak through the cache: Bernstein 2005; Osvik, Shamir, Tromer 2006).
//   The key expansion runs its SubWord through the same S-box.
// - GHASH multiplies in GF(2^128) with integer multiplications whose operands are split into four
//   interleaved bit classes with three-bit holes, so that carries land in the holes and are masked
//   off (Pornin's BearSSL ghash_ctmul64): no table indexed by H or the data.
// - Loops and branches depend only on lengths and the round count. Scratch that held secrets is
//   zeroed before return.

// Memory map (bytes). The static data (the permute tables and a mask, 448 bytes) starts at 1024.
// Key slots start at SLOTS and are managed by the JavaScript side; SCRATCH is a slot for keys used
// once.
export const OUT: usize = 1536; // the tag or block
export const STATE: usize = 1552; // CMAC chaining value or GHASH accumulator, between calls
export const J0: usize = 1568; // GMAC's pre-counter block
export const KEY: usize = 1584; // a raw key, 16, 24 or 32 bytes, for aes_key
const BLOCK: usize = 1616; // a padded last block
export const SCRATCH: usize = 2048; // a key slot for one-shot use
export const MSG: usize = 4096; // the message, up to MSG_CAPACITY bytes
export const MSG_CAPACITY: usize = 65536;
export const SLOTS: usize = 69632;

// Key slot layout (512 bytes).
const RK: usize = 0; // round keys, 16 × (rounds + 1), in the forms the rounds below use
const ROUNDS: usize = 240; // u32: 10, 12 or 14
export const CMAC_SUBKEYS: usize = 256; // K1 then K2 (SP 800-38B 6.1)
const K1: usize = CMAC_SUBKEYS;
const K2: usize = CMAC_SUBKEYS + 16;
const HKEY: usize = 288; // GHASH: H's operands, six u64 (see ghashKey)

// Hamburg's tables, as 16-byte vectors (little-endian u64 pairs, as in vpaes). T is a change of
// basis of GF(2^8) that makes the tower-field inversion nibble-wise; the sb tables map the
// inversion's two nibble outputs to T(S'(x)) and T(2·S'(x)), sbo to S'(x), where S' is the S-box
// without its affine constant 0x63 (so T(0x63) = 0x5b must be put back through the round keys).
const TABLES = memory.data<u64>([
  0x0e05060f0d080180, 0x040703090a0b0c02, // 0: inv, 1/x in GF(2^4) (0x80 marks "zero")
  0x01040a060f0b0780, 0x030d0e0c02050809, // 16: inva
  0xc2b2e8985a2a7000, 0xcabae09052227808, // 32: ipt low nibble: T
  0x4c01307d317c4d00, 0xcd80b1fcb0fdcc81, // 48: ipt high nibble
  0xb19be18fcb503e00, 0xa5df7a6e142af544, // 64: sb1u
  0x3618d415fae22300, 0x3bf7ccc10d2ed9ef, // 80: sb1t
  0xe27a93c60b712400, 0x5eb7e955bc982fcd, // 96: sb2u
  0x69eb88400ae12900, 0xc2a163c8ab82234a, // 112: sb2t
  0xd0d26d176fbdc700, 0x15aabf7ac502a878, // 128: sbou
  0xcfe474a55fbb6a00, 0x8e1e90d1412b35fa, // 144: sbot
  0, 0, // 160: round key 0 of the bare S-box below
  0x6363636363636363, 0x6363636363636363, // 176: its last round key, the affine constant
  0xe060a020c0408000, 0xf070b030d0509010, // 192: bit reversal of a low nibble, into the high one
  0x0e060a020c040800, 0x0f070b030d050901, // 208: bit reversal of a high nibble, into the low one
  0x0001020304050607, 0x08090a0b0c0d0e0f, // 224: byte order of each 64-bit lane reversed
  // 240: ShiftRows^r as byte permutations, r = 0..3
  0x0706050403020100, 0x0f0e0d0c0b0a0908, 0x030e09040f0a0500, 0x0b06010c07020d08,
  0x0f060d040b020900, 0x070e050c030a0108, 0x0b0e0104070a0d00, 0x0306090c0f020508,
  // 304: the next row of a column after r ShiftRows, r = 0..3
  0x0407060500030201, 0x0c0f0e0d080b0a09, 0x080b0a0904070605, 0x000302010c0f0e0d,
  0x0c0f0e0d080b0a09, 0x0407060500030201, 0x000302010c0f0e0d, 0x080b0a0904070605,
  // 368: the previous row
  0x0605040702010003, 0x0e0d0c0f0a09080b, 0x020100030e0d0c0f, 0x0a09080b06050407,
  0x0e0d0c0f0a09080b, 0x0605040702010003, 0x0a09080b06050407, 0x020100030e0d0c0f,
  // 432: the low-nibble mask, loaded rather than a v128.const at each use (18 bytes each): the
  // module stays under Chrome's 4 KiB limit for synchronous compilation
  0x0f0f0f0f0f0f0f0f, 0x0f0f0f0f0f0f0f0f,
], 16);
const NIBBLE: usize = TABLES + 432;
const LAST_T: usize = TABLES + 64; // sb1: the last round's S-box into T's basis
const LAST_BYTES: usize = TABLES + 128; // sbo: into bytes
const SBOX_KEYS: usize = TABLES + 160;
const SHIFT_ROWS: usize = TABLES + 240;
const NEXT_ROW: usize = TABLES + 304;
const PREVIOUS_ROW: usize = TABLES + 368;

/** A bytewise map given by its two nibble tables (low nibble, high nibble), e.g. T. */
// @ts-ignore: decorator
@inline function nibbleMap(x: v128, low: v128, high: v128): v128 {
  const mask = v128.load(NIBBLE);
  return v128.xor(
    i8x16.swizzle(low, v128.and(x, mask)),
    i8x16.swizzle(high, v128.and(i16x8.shr_u(x, 4), mask)),
  );
}

/** T(x): a block into T's basis (ipt), bytewise: the cipher's input, CMAC's chain, the round keys. */
function toT(x: v128): v128 {
  return nibbleMap(x, v128.load(TABLES, 32), v128.load(TABLES, 48));
}

/** ShiftRows applied r times (r mod 4), as a byte permutation. */
// @ts-ignore: decorator
@inline function shiftRows(x: v128, r: i32): v128 {
  return i8x16.swizzle(x, v128.load(SHIFT_ROWS + (<usize>(r & 3) << 4)));
}

/** Cipher() (FIPS 197 5.1) on one block of bytes, with `rounds` rounds of the keys at `rk`. */
function encrypt(rk: usize, rounds: i32, block: v128): v128 {
  const lastKey = v128.load(rk + (<usize>rounds << 4));
  return cipher(rk, rounds, v128.xor(toT(block), v128.load(rk)), LAST_BYTES, lastKey);
}

/**
 * The rounds of Cipher() (FIPS 197 5.1), `rounds` of the keys at `rk`, from `t`: a block already in
 * T's basis with the first round key added. The state stays in T's basis to the last round and, as
 * in vpaes, it is not moved by ShiftRows: after r rounds it is the true state with ShiftRows^-r
 * applied, so MixColumns of round r takes its rows through the permutations NEXT_ROW[r mod 4] and
 * PREVIOUS_ROW[r mod 4], the keys are stored likewise permuted, and one ShiftRows^rounds ends the
 * cipher. A middle round: the nibble inversion; A = T(S'(x)) and 2A from the sb tables;
 * MixColumns as 2A ⊕ 3·next(A) ⊕ next²(A) ⊕ prev(A), grouped as b = next(A) ⊕ 2A,
 * x = next(b) ⊕ (prev(A) ⊕ k ⊕ b), k = T(round key) ⊕ 0x5b (AddRoundKey after MixColumns, as FIPS
 * 197 orders them). The round is a chain of dependent swizzles, each a `paddusb` and a `pshufb` in
 * V8 (the wasm swizzle zeroes indices ≥ 16); the grouping puts the key and prev(A) beside the
 * chain, so the round ends one XOR after next(b): 0.94–0.96× the time of adding a P-transformed
 * key to A before MixColumns (vpaes' order), CMAC of 16 B–1 KiB module against module, Node 20.
 *
 * The last round's S-box tables are at `last`, its key is `lastKey`. With sbo (LAST_BYTES) and the
 * stored last key the block returns to bytes (encrypt above); with sb1 (LAST_T) and T of the
 * stored key it stays in T's basis, T(Cipher(x)): T is GF(2)-linear, so a CBC chain XORs in T(m),
 * computed beside the chain, rather than moving each block into T's basis once the one before
 * it is done (chain(): 0.97× the time of CMAC at 144 B–1 KiB, module against module).
 */
function cipher(rk: usize, rounds: i32, t: v128, last: usize, lastKey: v128): v128 {
  const mask = v128.load(NIBBLE);
  const inv = v128.load(TABLES);
  const inva = v128.load(TABLES, 16);
  const sb1u = v128.load(TABLES, 64);
  const sb1t = v128.load(TABLES, 80);
  const sb2u = v128.load(TABLES, 96);
  const sb2t = v128.load(TABLES, 112);
  let x = t;
  let io = i64x2.splat(0);
  let jo = io;
  for (let round = 1; ; round++) {
    // Inversion through GF(2^4) (Hamburg section 3): i, k the high and low nibbles, j = i ⊕ k.
    // Table entries are nibbles or 0x80, and a swizzle index ≥ 16 gives 0, as vpaes relies on.
    const i = v128.and(i16x8.shr_u(x, 4), mask);
    const k = v128.and(x, mask);
    const j = v128.xor(i, k);
    const ak = i8x16.swizzle(inva, k);
    const iak = v128.xor(i8x16.swizzle(inv, i), ak);
    const jak = v128.xor(i8x16.swizzle(inv, j), ak);
    io = v128.xor(i8x16.swizzle(inv, iak), j);
    jo = v128.xor(i8x16.swizzle(inv, jak), i);
    rk += 16;
    if (round == rounds) break;
    const at = <usize>(round & 3) << 4;
    const next = v128.load(NEXT_ROW + at);
    const a = v128.xor(i8x16.swizzle(sb1u, io), i8x16.swizzle(sb1t, jo));
    const a2 = v128.xor(i8x16.swizzle(sb2u, io), i8x16.swizzle(sb2t, jo));
    const b = v128.xor(i8x16.swizzle(a, next), a2);
    // prev(A) ⊕ k ⊕ b while next(b) is permuted: the round ends one XOR after that swizzle.
    const rest = v128.xor(v128.xor(i8x16.swizzle(a, v128.load(PREVIOUS_ROW + at)), v128.load(rk)), b);
    x = v128.xor(i8x16.swizzle(b, next), rest);
  }
  // Last round: no MixColumns; the key carries the affine constant 0x63 (T(0x63) = 0x5b).
  const out = v128.xor(
    v128.xor(i8x16.swizzle(v128.load(last), io), lastKey),
    i8x16.swizzle(v128.load(last, 16), jo),
  );
  return shiftRows(out, rounds);
}

/** SubWord (FIPS 197 5.2): the S-box on each byte of a word, as a one-round cipher with no key. */
function subWord(w: u32): u32 {
  // A word repeated in all four columns is unmoved by ShiftRows.
  return i32x4.extract_lane(encrypt(SBOX_KEYS, 1, i32x4.splat(w)), 0);
}

/**
 * KeyExpansion (FIPS 197 5.2) of the `keyLength`-byte key at KEY into the slot, then each round key
 * put in the form the rounds use: T(k0); T(k) ⊕ 0x5b for the middle rounds; k ⊕ 0x63 for the
 * last; each permuted as the state is in its round (ShiftRows^-r). Words are little-endian, so
 * RotWord is a right rotation by 8 and Rcon goes in the low byte.
 */
export function aes_key(slot: usize, keyLength: i32): void {
  const nk = keyLength >> 2;
  const rounds = nk + 6;
  const words = (rounds + 1) << 2;
  const w = slot + RK;
  // Two blocks whatever the key length: words past it are computed below. (memory.copy and
  // memory.fill are calls out of the module in V8, slower than a few stores.)
  v128.store(w, v128.load(KEY));
  v128.store(w, v128.load(KEY, 16), 16);
  v128.store(KEY, i64x2.splat(0));
  v128.store(KEY, i64x2.splat(0), 16);
  let rcon: u32 = 1;
  for (let i = nk; i < words; i++) {
    let t = load<u32>(w + (<usize>(i - 1) << 2));
    if (i % nk == 0) {
      t = subWord(rotr<u32>(t, 8)) ^ rcon;
      rcon = (rcon << 1) ^ ((rcon >> 7) * 0x11b);
    } else if (nk > 6 && i % nk == 4) {
      t = subWord(t);
    }
    store<u32>(w + (<usize>i << 2), load<u32>(w + (<usize>(i - nk) << 2)) ^ t);
  }
  v128.store(w, toT(v128.load(w)));
  for (let round = 1; round < rounds; round++) {
    const at = w + (<usize>round << 4);
    const k = v128.xor(toT(v128.load(at)), i8x16.splat(0x5b));
    v128.store(at, shiftRows(k, 4 - round));
  }
  const last = w + (<usize>rounds << 4);
  v128.store(last, shiftRows(v128.xor(v128.load(last), i8x16.splat(0x63)), 4 - rounds));
  store<u32>(slot + ROUNDS, rounds);
}

/** BLOCK = data[0 .. count), count < 16, zero-padded. */
function padBlock(data: usize, count: usize): void {
  v128.store(BLOCK, i64x2.splat(0));
  for (let i: usize = 0; i < count; i++) store<u8>(BLOCK + i, load<u8>(data + i));
}

/** Zeroes MSG[0 .. length), rounded up to whole blocks: no message is left behind. */
function clearMessage(length: usize): void {
  for (let at: usize = 0; at < length; at += 16) v128.store(MSG + at, i64x2.splat(0));
}

// @ts-ignore: decorator
@inline function encryptWith(slot: usize, block: v128): v128 {
  return encrypt(slot + RK, load<i32>(slot + ROUNDS), block);
}

/** OUT = E(K, MSG[0..16)), for AES used as a block cipher. */
export function aes_encrypt(slot: usize): void {
  v128.store(OUT, encryptWith(slot, v128.load(MSG)));
  clearMessage(16);
}

// --- CMAC (SP 800-38B) -----------------------------------------------------------------------------

/** dbl(S) (SP 800-38B 6.1): the 128-bit big-endian S shifted left by one, 0x87 folded in on carry. */
function double(s: v128): v128 {
  const w = byteSwap(s);
  const hi = lane0(w);
  const lo = lane1(w);
  return byteSwap(pair((hi << 1) | (lo >> 63), (lo << 1) ^ (0x87 & (0 - (hi >> 63)))));
}

/** K1 = dbl(L), K2 = dbl(K1), L = E(K, 0^128) (SP 800-38B 6.1 steps 1-3), into the slot. */
export function cmac_key(slot: usize): void {
  const k1 = double(encryptWith(slot, i64x2.splat(0)));
  v128.store(slot + K1, k1);
  v128.store(slot + K2, double(k1));
}

/** The CBC-MAC chain over `blocks` whole blocks at `data`, from chaining value x. */
function chain(slot: usize, x: v128, data: usize, blocks: usize): v128 {
  // Not only a shortcut: `last` below is blocks - 1, which would wrap around for none.
  if (blocks == 0) return x;
  const rk = slot + RK;
  const rounds = load<i32>(slot + ROUNDS);
  const first = v128.load(rk);
  // In T's basis between blocks (see cipher()): T(x ⊕ m) ⊕ k0 = T(x) ⊕ (T(m) ⊕ k0), and the
  // message's half does not wait for the chain. The last block comes back to bytes.
  const lastKey = v128.load(rk + (<usize>rounds << 4));
  const lastT = toT(lastKey);
  let t = toT(x);
  const last = blocks - 1;
  for (let i: usize = 0; i <= last; i++) {
    const m = v128.xor(toT(v128.load(data + (i << 4))), first);
    const end = i == last; // public: the block count
    t = cipher(rk, rounds, v128.xor(t, m), end ? LAST_BYTES : LAST_T, end ? lastKey : lastT);
  }
  return t;
}

/** The last block (SP 800-38B 6.2 steps 3-4, 6): complete, ⊕ K1; else padded 10*, ⊕ K2. */
function lastBlock(slot: usize, x: v128, data: usize, count: usize): void {
  let m: v128;
  if (count == 16) {
    m = v128.xor(v128.load(data), v128.load(slot + K1));
  } else {
    padBlock(data, count);
    store<u8>(BLOCK + count, 0x80);
    m = v128.xor(v128.load(BLOCK), v128.load(slot + K2));
    v128.store(BLOCK, i64x2.splat(0));
  }
  v128.store(OUT, encryptWith(slot, v128.xor(x, m)));
}

/** CMAC of MSG[0..length) into OUT: all blocks but the last through the chain, then the last. */
export function cmac(slot: usize, length: usize): void {
  const before: usize = length == 0 ? 0 : (length - 1) >> 4;
  lastBlock(slot, chain(slot, i64x2.splat(0), MSG, before), MSG + (before << 4), length - (before << 4));
  clearMessage(length);
}

/** Streaming: STATE runs the chain over MSG[0..length), a whole number of blocks, none the last. */
export function cmac_update(slot: usize, length: usize): void {
  v128.store(STATE, chain(slot, v128.load(STATE), MSG, length >> 4));
  clearMessage(length);
}

/** Streaming: the last block, MSG[0..count) with 0 ≤ count ≤ 16, then the tag into OUT. */
export function cmac_final(slot: usize, count: usize): void {
  lastBlock(slot, v128.load(STATE), MSG, count);
  v128.store(STATE, i64x2.splat(0));
  clearMessage(count);
}

// --- GHASH (SP 800-38D 6.4) and GMAC --------------------------------------------------------------

/**
 * The low 64 bits of the carry-less product of x and y. Each operand is split into four classes of
 * bits 4 apart; a class product has at most 16 terms per bit position, and those positions are 4
 * apart, so the sums never carry into a kept bit below bit 64 (the one that reaches 16 carries out).
 */
function clmulLow(x: u64, y: u64): u64 {
  const m0: u64 = 0x1111111111111111;
  const m1: u64 = 0x2222222222222222;
  const m2: u64 = 0x4444444444444444;
  const m3: u64 = 0x8888888888888888;
  const x0 = x & m0;
  const x1 = x & m1;
  const x2 = x & m2;
  const x3 = x & m3;
  const y0 = y & m0;
  const y1 = y & m1;
  const y2 = y & m2;
  const y3 = y & m3;
  const z0 = (x0 * y0) ^ (x1 * y3) ^ (x2 * y2) ^ (x3 * y1);
  const z1 = (x0 * y1) ^ (x1 * y0) ^ (x2 * y3) ^ (x3 * y2);
  const z2 = (x0 * y2) ^ (x1 * y1) ^ (x2 * y0) ^ (x3 * y3);
  const z3 = (x0 * y3) ^ (x1 * y2) ^ (x2 * y1) ^ (x3 * y0);
  return (z0 & m0) | (z1 & m1) | (z2 & m2) | (z3 & m3);
}

/** Each 64-bit lane read as a big-endian integer (its bytes reversed). */
// @ts-ignore: decorator
@inline function byteSwap(x: v128): v128 {
  return i8x16.swizzle(x, v128.load(TABLES, 224));
}

/** Each 64-bit lane bit-reversed: bytes reversed, and the bits of each byte by nibble lookups. */
// @ts-ignore: decorator
@inline function reverseBits(x: v128): v128 {
  return nibbleMap(byteSwap(x), v128.load(TABLES, 192), v128.load(TABLES, 208));
}

/** The 64-bit lanes, unsigned (for logical shifts). */
// @ts-ignore: decorator
@inline function lane0(x: v128): u64 {
  return <u64>i64x2.extract_lane(x, 0);
}
// @ts-ignore: decorator
@inline function lane1(x: v128): u64 {
  return <u64>i64x2.extract_lane(x, 1);
}

// @ts-ignore: decorator
@inline function pair(lane0: u64, lane1: u64): v128 {
  return i64x2.replace_lane(i64x2.splat(lane0), 1, lane1);
}

/**
 * H's operands, stored once per key: h1 and h0 (H's first and last 8 bytes as big-endian
 * integers), h0 ⊕ h1 for Karatsuba, and the same three bit-reversed.
 */
function ghashKey(slot: usize, h: v128): void {
  const at = slot + HKEY;
  const hw = byteSwap(h);
  const hr = reverseBits(hw);
  v128.store(at, hw);
  v128.store(at, hr, 16);
  store<u64>(at, lane0(hw) ^ lane1(hw), 32);
  store<u64>(at, lane0(hr) ^ lane1(hr), 40);
}

/** H = E(K, 0^128) (SP 800-38D 7.1 step 1), into the slot as GHASH's operands. */
export function gmac_key(slot: usize): void {
  ghashKey(slot, encryptWith(slot, i64x2.splat(0)));
}

/**
 * STATE = GHASH_H over `blocks` blocks at `data`, from STATE: Y = (Y ⊕ X) · H for each block X.
 * GCM's bit order is reflected, so the blocks are read as big-endian integers and multiplied as
 * such: the 256-bit product comes out one bit short (shifted left back into place), and reduction
 * modulo x^128 + x^7 + x^2 + x + 1 folds the low half into the high half with right shifts. Each
 * 64 × 64 product takes three clmulLow calls by Karatsuba for the low halves, and three more on the
 * bit-reversed operands, whose low halves are the reversed high halves.
 */
function ghash(slot: usize, data: usize, blocks: usize): void {
  const at = slot + HKEY;
  const h1 = load<u64>(at);
  const h0 = load<u64>(at, 8);
  const h1r = load<u64>(at, 16);
  const h0r = load<u64>(at, 24);
  const h2 = load<u64>(at, 32);
  const h2r = load<u64>(at, 40);
  let y = byteSwap(v128.load(STATE));
  for (let i: usize = 0; i < blocks; i++) {
    y = v128.xor(y, byteSwap(v128.load(data + (i << 4))));
    const yr = reverseBits(y);
    const y1 = lane0(y);
    const y0 = lane1(y);
    const y1r = lane0(yr);
    const y0r = lane1(yr);
    const z0 = clmulLow(y0, h0);
    const z1 = clmulLow(y1, h1);
    const z2 = clmulLow(y0 ^ y1, h2) ^ z0 ^ z1;
    const z0h = clmulLow(y0r, h0r);
    const z1h = clmulLow(y1r, h1r);
    const z2h = clmulLow(y0r ^ y1r, h2r) ^ z0h ^ z1h;
    const high = reverseBits(pair(z0h, z1h));
    const middle = reverseBits(i64x2.splat(z2h));
    const w0 = z0;
    const w1 = (lane0(high) >> 1) ^ z2;
    const w2 = z1 ^ (lane0(middle) >> 1);
    const w3 = lane1(high) >> 1;
    // The product, shifted left by one (v3..v0, most significant first).
    const v3 = (w3 << 1) | (w2 >> 63);
    let v2 = (w2 << 1) | (w1 >> 63);
    let v1 = (w1 << 1) | (w0 >> 63);
    const v0 = w0 << 1;
    // Reduction: x^128 = x^7 + x^2 + x + 1, where multiplying by x^s is a right shift by s.
    v2 ^= v0 ^ (v0 >> 1) ^ (v0 >> 2) ^ (v0 >> 7);
    v1 ^= (v0 << 63) ^ (v0 << 62) ^ (v0 << 57);
    y = pair(v3 ^ v1 ^ (v1 >> 1) ^ (v1 >> 2) ^ (v1 >> 7), v2 ^ (v1 << 63) ^ (v1 << 62) ^ (v1 << 57));
  }
  v128.store(STATE, byteSwap(y));
}

/** Streaming: STATE absorbs MSG[0..length), zero-padded to whole blocks (SP 800-38D 7.1 step 5). */
export function ghash_update(slot: usize, length: usize): void {
  const whole = length >> 4;
  ghash(slot, MSG, whole);
  const rest = length & 15;
  if (rest != 0) {
    padBlock(MSG + (whole << 4), rest);
    ghash(slot, BLOCK, 1);
    v128.store(BLOCK, i64x2.splat(0));
  }
  clearMessage(length);
}

/** STATE absorbs the lengths block [len(A)]_64 ‖ [len(C)]_64, the lengths given in bytes. */
export function ghash_lengths(slot: usize, aBytes: f64, cBytes: f64): void {
  v128.store(BLOCK, byteSwap(pair(<u64>aBytes << 3, <u64>cBytes << 3)));
  ghash(slot, BLOCK, 1);
}

/** The tag: OUT = E(K, J0) ⊕ STATE (SP 800-38D 7.1 step 6); STATE and J0 are zeroed. */
export function gmac_final(slot: usize): void {
  v128.store(OUT, v128.xor(encryptWith(slot, v128.load(J0)), v128.load(STATE)));
  v128.store(STATE, i64x2.splat(0));
  v128.store(J0, i64x2.splat(0));
}

/** GMAC of MSG[0..length) in one call, J0 already at J0 (a 96-bit nonce ‖ 0^31 ‖ 1). */
export function gmac(slot: usize, length: usize): void {
  v128.store(STATE, i64x2.splat(0));
  ghash_update(slot, length);
  ghash_lengths(slot, <f64>length, 0);
  gmac_final(slot);
}
