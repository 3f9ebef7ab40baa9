// asc: --enable simd
// AssemblyScript: HMAC over SHA-1, SHA-256 (and SHA-224) and SHA-512 (and SHA-384, SHA-512/t)
// from prepared key states, in one call (FIPS 180-4, RFC 2104). The JavaScript side writes the
// inner and outer chaining values after the padded-key blocks into a key slot, the message into
// MSG, and gets the tag from OUT; or, for key setup, the initial values into the slot and the
// two padded-key blocks into MSG (hmac_key); or, for a batch, the messages into MSG and their
// places into QUEUE, and gets the tags from behind the messages (hmac_queue and the lanes).
//
// The compression functions keep the working variables in locals, with rounds unrolled so that
// the variables' roles rotate instead of their values moving (FIPS 180-4 6.1.3 / 6.2.2's
// "alternate method" with a 16-word circular schedule), all 64 or 80 rounds written out. SHA-1
// keeps its sixteen schedule words in locals too. SHA-256 and SHA-512 compute their schedules in
// SIMD (four or two words per v128), each group as the rounds free its ring slot, and hand each
// round W[t] + K[t] through a ring in memory (WK): the vector units do the schedule's work while
// the scalar units do the rounds, and the rounds' eight variables stay in registers. Measured
// module against module (AMD EPYC Zen 5, Node 20): SHA-512's HMAC takes 0.68-0.87x the time of
// the all-scalar kernel (16 B to 8 KiB); SHA-256's 0.78-0.92x (16 B to 1 KiB, 2026-12-04 evening;
// an earlier session measured it within 2% on the same host, so it had stayed scalar until then).
// SHA-1's (with a fix-up for W[t+3]'s use of W[t]) measured 5-10% slower, so it stays scalar.
//
// The order of a round's additions is chosen for latency: the value a round computes last (SHA-1's
// new a, SHA-2's new e) feeds the next round through one addition, the rest summed beside it.
// SHA-1 adds rotl(a, 5) last (T = (f + K + W + e) + rotl(a, 5)); SHA-512 and the SHA-256 lanes
// add Σ1(e) last or next to last (h + W + K first). Measured module against module (Zen 5, Node
// 20): SHA-1 0.76-0.81x the time of the written-in-order rounds (one message) and 0.82-0.85x
// (four lanes); SHA-512 0.91-0.95x; SHA-256's four lanes 0.94x. SHA-256's one-message rounds
// stay in source order: the same regrouping there measured no faster (with the schedule in SIMD)
// or 3-7% slower (with it in locals).
//
// Constant time: only ARX and Boolean operations, fixed rotations and shifts, and round constants
// indexed by the public round number; branches depend on lengths alone. No secret stays in module
// memory: STATE, BLOCK, WK, STATEX, WX, the messages and the padding written into MSG are zeroed
// before an export returns (the working variables never leave locals); the tags in OUT, or behind
// a batch's messages, the JavaScript side zeroes as it takes them.

// Memory map (bytes), above the static data: the SHA-2 round-constant tables (under 1 KiB; SHA-1's
// constants are immediates in its unrolled rounds) and PAD_WK, the lanes' padding-block schedule
// (public, kept between calls). Key slots start at SLOTS and are managed by
// the JavaScript side: inner chaining value at +0, outer at +32 (SHA-1, SHA-256) or +64 (SHA-512).
// Between OUT and MSG: WK (4480, the SHA-2 W + K ring), and for the batch path STATEX (4608), WX
// (4736), DESC (4992) and QUEUE (5120-7168), defined with it.
export const STATE: usize = 4096; // the working chaining value, 8 × u64
export const BLOCK: usize = 4224; // the outer hash's one block (up to 128 bytes), zero at rest
export const OUT: usize = 4352; // the tag
export const MSG: usize = 8192; // the message, up to MSG_CAPACITY bytes
export const MSG_CAPACITY: usize = 65536;
// The message is padded in place (MSG is zero past the message at rest): up to two blocks past it.
export const SLOTS: usize = MSG + MSG_CAPACITY + 256;

// --- the functions of FIPS 180-4 section 4.1 ----------------------------------------------------

// Ch and Maj in the forms with one operation fewer (same truth tables as 4.2, 4.8). SHA-256 and
// SHA-512's rounds compute Maj(a, b, c) as b ^ ((a ^ b) & (b ^ c)), where b ^ c is the previous
// round's a ^ b (the roles shift by one): one XOR, one AND and one XOR per round, in x0 and x1.
@inline function ch<T>(x: T, y: T, z: T): T {
  return z ^ (x & (y ^ z));
}
@inline function maj<T>(x: T, y: T, z: T): T {
  return (x & y) ^ (z & (x ^ y));
}
@inline function S0_32(x: u32): u32 {
  return rotr<u32>(x, 2) ^ rotr<u32>(x, 13) ^ rotr<u32>(x, 22);
}
@inline function S1_32(x: u32): u32 {
  return rotr<u32>(x, 6) ^ rotr<u32>(x, 11) ^ rotr<u32>(x, 25);
}
@inline function S0_64(x: u64): u64 {
  return rotr<u64>(x, 28) ^ rotr<u64>(x, 34) ^ rotr<u64>(x, 39);
}
@inline function S1_64(x: u64): u64 {
  return rotr<u64>(x, 14) ^ rotr<u64>(x, 18) ^ rotr<u64>(x, 41);
}
// --- SHA-256 (FIPS 180-4 6.2.2) ------------------------------------------------------------------

/**
 * The one-message kernels' schedule ring: W[t] + K[t] for the rounds ahead (compress256: 16 × u32;
 * compress512: 16 × u64, up to STATEX).
 */
const WK: usize = 4480;
/** SHA-256's round constants K (4.2.2), in order: the table both SHA-256 kernels read. */
const K256_TABLE: StaticArray<u32> = [0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2];
const K256: usize = changetype<usize>(K256_TABLE);

/** Each 32-bit lane's bytes reversed: four big-endian words in, four native ones out. */
@inline function bswap32x4(x: v128): v128 {
  return i8x16.shuffle(x, x, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
}

/**
 * σ0 (4.6) on four words, for both SHA-256 schedules (compress256's and the four lanes'): the
 * rotations' two halves XORed, as their bits never meet. `or`-rotations measured 8-18% slower in
 * compress256's schedule at 16 B and within 4% at 256 B-1 KiB, as they did for SHA-512's; in the
 * lanes' schedule the two forms measured within 1.5% (16 B-1 KiB), module against module. Left
 * shifts as multiplications by 2^n (another execution port) measured 1.01-1.03x the lanes' time
 * here and 1.10x in the lanes' rotations too (Zen 5, Node 20, 2026-12-05).
 */
@inline function sigma0x4(x: v128): v128 {
  return v128.xor(
    v128.xor(v128.xor(i32x4.shr_u(x, 7), i32x4.shl(x, 25)), v128.xor(i32x4.shr_u(x, 18), i32x4.shl(x, 14))),
    i32x4.shr_u(x, 3),
  );
}

/** σ1 (4.7) on four words. */
@inline function sigma1x4(x: v128): v128 {
  return v128.xor(
    v128.xor(v128.xor(i32x4.shr_u(x, 17), i32x4.shl(x, 15)), v128.xor(i32x4.shr_u(x, 19), i32x4.shl(x, 13))),
    i32x4.shr_u(x, 10),
  );
}

/**
 * W[t..t+3] from w16 = W[t-16..t-13], w12 = W[t-12..t-9], w8 = W[t-8..t-5] and w4 = W[t-4..t-1]
 * (6.2.2 step 1: W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16]). W[t-15..] and W[t-7..] are
 * byte-aligned concatenations of neighbours; σ1 needs W[t-2], so lanes 0-1 take it from w4's upper
 * half and lanes 2-3 from the new lanes 0-1 (σ1(0) = 0 leaves the other half alone).
 */
@inline function schedule256(w16: v128, w12: v128, w8: v128, w4: v128): v128 {
  const zero = i64x2.splat(0);
  let w = i32x4.add(
    i32x4.add(w16, sigma0x4(i32x4.shuffle(w16, w12, 1, 2, 3, 4))),
    i32x4.shuffle(w8, w4, 1, 2, 3, 4),
  );
  w = i32x4.add(w, sigma1x4(i64x2.shuffle(w4, zero, 1, 3)));
  return i32x4.add(w, sigma1x4(i64x2.shuffle(zero, w, 0, 2)));
}

/**
 * STATE ← compression of STATE with the 64-byte block at `block` (FIPS 180-4 6.2.2). The message
 * schedule (6.2.2 step 1) runs in SIMD, four words at a time, each group computed as the rounds
 * free its slot (twelve rounds before its first use): W[t..t+3] + K[t..t+3] goes to a 64-byte ring
 * at WK, and each round loads its word. The schedule's ALU work moves to the vector units, and the
 * rounds need only the eight working variables in registers (no sixteen schedule words to spill).
 * σ1's dependence on W[t-2] is met in two halves: lanes 0-1 from the previous group, then lanes
 * 2-3 from lanes 0-1. Constant time: shifts, XORs and additions only; WK is zeroed before
 * returning.
 */
function compress256(block: usize): void {
  // Message words, big-endian (5.2.1): a byte shuffle per four.
  let m0 = bswap32x4(v128.load(block, 0));
  let m1 = bswap32x4(v128.load(block, 16));
  let m2 = bswap32x4(v128.load(block, 32));
  let m3 = bswap32x4(v128.load(block, 48));
  v128.store(WK, i32x4.add(m0, v128.load(K256, 0)), 0);
  v128.store(WK, i32x4.add(m1, v128.load(K256, 16)), 16);
  v128.store(WK, i32x4.add(m2, v128.load(K256, 32)), 32);
  v128.store(WK, i32x4.add(m3, v128.load(K256, 48)), 48);
  let a = load<u32>(STATE);
  let b = load<u32>(STATE, 4);
  let c = load<u32>(STATE, 8);
  let d = load<u32>(STATE, 12);
  let e = load<u32>(STATE, 16);
  let f = load<u32>(STATE, 20);
  let g = load<u32>(STATE, 24);
  let h = load<u32>(STATE, 28);
  let x0: u32 = 0;
  let x1: u32 = 0;
  h += S1_32(e) + ch<u32>(e, f, g) + load<u32>(WK);
  d += h;
  x1 = b ^ c;
  x0 = a ^ b;
  h += S0_32(a) + (b ^ (x0 & x1));
  g += S1_32(d) + ch<u32>(d, e, f) + load<u32>(WK, 4);
  c += g;
  x1 = h ^ a;
  g += S0_32(h) + (a ^ (x1 & x0));
  f += S1_32(c) + ch<u32>(c, d, e) + load<u32>(WK, 8);
  b += f;
  x0 = g ^ h;
  f += S0_32(g) + (h ^ (x0 & x1));
  e += S1_32(b) + ch<u32>(b, c, d) + load<u32>(WK, 12);
  a += e;
  x1 = f ^ g;
  e += S0_32(f) + (g ^ (x1 & x0));
  // W[16..19] + K, into the ring slot rounds 0-3 just read.
  m0 = schedule256(m0, m1, m2, m3);
  v128.store(WK, i32x4.add(m0, v128.load(K256, 64)));
  d += S1_32(a) + ch<u32>(a, b, c) + load<u32>(WK, 16);
  h += d;
  x0 = e ^ f;
  d += S0_32(e) + (f ^ (x0 & x1));
  c += S1_32(h) + ch<u32>(h, a, b) + load<u32>(WK, 20);
  g += c;
  x1 = d ^ e;
  c += S0_32(d) + (e ^ (x1 & x0));
  b += S1_32(g) + ch<u32>(g, h, a) + load<u32>(WK, 24);
  f += b;
  x0 = c ^ d;
  b += S0_32(c) + (d ^ (x0 & x1));
  a += S1_32(f) + ch<u32>(f, g, h) + load<u32>(WK, 28);
  e += a;
  x1 = b ^ c;
  a += S0_32(b) + (c ^ (x1 & x0));
  // W[20..23] + K, into the ring slot rounds 4-7 just read.
  m1 = schedule256(m1, m2, m3, m0);
  v128.store(WK, i32x4.add(m1, v128.load(K256, 80)), 16);
  h += S1_32(e) + ch<u32>(e, f, g) + load<u32>(WK, 32);
  d += h;
  x0 = a ^ b;
  h += S0_32(a) + (b ^ (x0 & x1));
  g += S1_32(d) + ch<u32>(d, e, f) + load<u32>(WK, 36);
  c += g;
  x1 = h ^ a;
  g += S0_32(h) + (a ^ (x1 & x0));
  f += S1_32(c) + ch<u32>(c, d, e) + load<u32>(WK, 40);
  b += f;
  x0 = g ^ h;
  f += S0_32(g) + (h ^ (x0 & x1));
  e += S1_32(b) + ch<u32>(b, c, d) + load<u32>(WK, 44);
  a += e;
  x1 = f ^ g;
  e += S0_32(f) + (g ^ (x1 & x0));
  // W[24..27] + K, into the ring slot rounds 8-11 just read.
  m2 = schedule256(m2, m3, m0, m1);
  v128.store(WK, i32x4.add(m2, v128.load(K256, 96)), 32);
  d += S1_32(a) + ch<u32>(a, b, c) + load<u32>(WK, 48);
  h += d;
  x0 = e ^ f;
  d += S0_32(e) + (f ^ (x0 & x1));
  c += S1_32(h) + ch<u32>(h, a, b) + load<u32>(WK, 52);
  g += c;
  x1 = d ^ e;
  c += S0_32(d) + (e ^ (x1 & x0));
  b += S1_32(g) + ch<u32>(g, h, a) + load<u32>(WK, 56);
  f += b;
  x0 = c ^ d;
  b += S0_32(c) + (d ^ (x0 & x1));
  a += S1_32(f) + ch<u32>(f, g, h) + load<u32>(WK, 60);
  e += a;
  x1 = b ^ c;
  a += S0_32(b) + (c ^ (x1 & x0));
  // W[28..31] + K, into the ring slot rounds 12-15 just read.
  m3 = schedule256(m3, m0, m1, m2);
  v128.store(WK, i32x4.add(m3, v128.load(K256, 112)), 48);
  h += S1_32(e) + ch<u32>(e, f, g) + load<u32>(WK);
  d += h;
  x0 = a ^ b;
  h += S0_32(a) + (b ^ (x0 & x1));
  g += S1_32(d) + ch<u32>(d, e, f) + load<u32>(WK, 4);
  c += g;
  x1 = h ^ a;
  g += S0_32(h) + (a ^ (x1 & x0));
  f += S1_32(c) + ch<u32>(c, d, e) + load<u32>(WK, 8);
  b += f;
  x0 = g ^ h;
  f += S0_32(g) + (h ^ (x0 & x1));
  e += S1_32(b) + ch<u32>(b, c, d) + load<u32>(WK, 12);
  a += e;
  x1 = f ^ g;
  e += S0_32(f) + (g ^ (x1 & x0));
  // W[32..35] + K, into the ring slot rounds 16-19 just read.
  m0 = schedule256(m0, m1, m2, m3);
  v128.store(WK, i32x4.add(m0, v128.load(K256, 128)));
  d += S1_32(a) + ch<u32>(a, b, c) + load<u32>(WK, 16);
  h += d;
  x0 = e ^ f;
  d += S0_32(e) + (f ^ (x0 & x1));
  c += S1_32(h) + ch<u32>(h, a, b) + load<u32>(WK, 20);
  g += c;
  x1 = d ^ e;
  c += S0_32(d) + (e ^ (x1 & x0));
  b += S1_32(g) + ch<u32>(g, h, a) + load<u32>(WK, 24);
  f += b;
  x0 = c ^ d;
  b += S0_32(c) + (d ^ (x0 & x1));
  a += S1_32(f) + ch<u32>(f, g, h) + load<u32>(WK, 28);
  e += a;
  x1 = b ^ c;
  a += S0_32(b) + (c ^ (x1 & x0));
  // W[36..39] + K, into the ring slot rounds 20-23 just read.
  m1 = schedule256(m1, m2, m3, m0);
  v128.store(WK, i32x4.add(m1, v128.load(K256, 144)), 16);
  h += S1_32(e) + ch<u32>(e, f, g) + load<u32>(WK, 32);
  d += h;
  x0 = a ^ b;
  h += S0_32(a) + (b ^ (x0 & x1));
  g += S1_32(d) + ch<u32>(d, e, f) + load<u32>(WK, 36);
  c += g;
  x1 = h ^ a;
  g += S0_32(h) + (a ^ (x1 & x0));
  f += S1_32(c) + ch<u32>(c, d, e) + load<u32>(WK, 40);
  b += f;
  x0 = g ^ h;
  f += S0_32(g) + (h ^ (x0 & x1));
  e += S1_32(b) + ch<u32>(b, c, d) + load<u32>(WK, 44);
  a += e;
  x1 = f ^ g;
  e += S0_32(f) + (g ^ (x1 & x0));
  // W[40..43] + K, into the ring slot rounds 24-27 just read.
  m2 = schedule256(m2, m3, m0, m1);
  v128.store(WK, i32x4.add(m2, v128.load(K256, 160)), 32);
  d += S1_32(a) + ch<u32>(a, b, c) + load<u32>(WK, 48);
  h += d;
  x0 = e ^ f;
  d += S0_32(e) + (f ^ (x0 & x1));
  c += S1_32(h) + ch<u32>(h, a, b) + load<u32>(WK, 52);
  g += c;
  x1 = d ^ e;
  c += S0_32(d) + (e ^ (x1 & x0));
  b += S1_32(g) + ch<u32>(g, h, a) + load<u32>(WK, 56);
  f += b;
  x0 = c ^ d;
  b += S0_32(c) + (d ^ (x0 & x1));
  a += S1_32(f) + ch<u32>(f, g, h) + load<u32>(WK, 60);
  e += a;
  x1 = b ^ c;
  a += S0_32(b) + (c ^ (x1 & x0));
  // W[44..47] + K, into the ring slot rounds 28-31 just read.
  m3 = schedule256(m3, m0, m1, m2);
  v128.store(WK, i32x4.add(m3, v128.load(K256, 176)), 48);
  h += S1_32(e) + ch<u32>(e, f, g) + load<u32>(WK);
  d += h;
  x0 = a ^ b;
  h += S0_32(a) + (b ^ (x0 & x1));
  g += S1_32(d) + ch<u32>(d, e, f) + load<u32>(WK, 4);
  c += g;
  x1 = h ^ a;
  g += S0_32(h) + (a ^ (x1 & x0));
  f += S1_32(c) + ch<u32>(c, d, e) + load<u32>(WK, 8);
  b += f;
  x0 = g ^ h;
  f += S0_32(g) + (h ^ (x0 & x1));
  e += S1_32(b) + ch<u32>(b, c, d) + load<u32>(WK, 12);
  a += e;
  x1 = f ^ g;
  e += S0_32(f) + (g ^ (x1 & x0));
  // W[48..51] + K, into the ring slot rounds 32-35 just read.
  m0 = schedule256(m0, m1, m2, m3);
  v128.store(WK, i32x4.add(m0, v128.load(K256, 192)));
  d += S1_32(a) + ch<u32>(a, b, c) + load<u32>(WK, 16);
  h += d;
  x0 = e ^ f;
  d += S0_32(e) + (f ^ (x0 & x1));
  c += S1_32(h) + ch<u32>(h, a, b) + load<u32>(WK, 20);
  g += c;
  x1 = d ^ e;
  c += S0_32(d) + (e ^ (x1 & x0));
  b += S1_32(g) + ch<u32>(g, h, a) + load<u32>(WK, 24);
  f += b;
  x0 = c ^ d;
  b += S0_32(c) + (d ^ (x0 & x1));
  a += S1_32(f) + ch<u32>(f, g, h) + load<u32>(WK, 28);
  e += a;
  x1 = b ^ c;
  a += S0_32(b) + (c ^ (x1 & x0));
  // W[52..55] + K, into the ring slot rounds 36-39 just read.
  m1 = schedule256(m1, m2, m3, m0);
  v128.store(WK, i32x4.add(m1, v128.load(K256, 208)), 16);
  h += S1_32(e) + ch<u32>(e, f, g) + load<u32>(WK, 32);
  d += h;
  x0 = a ^ b;
  h += S0_32(a) + (b ^ (x0 & x1));
  g += S1_32(d) + ch<u32>(d, e, f) + load<u32>(WK, 36);
  c += g;
  x1 = h ^ a;
  g += S0_32(h) + (a ^ (x1 & x0));
  f += S1_32(c) + ch<u32>(c, d, e) + load<u32>(WK, 40);
  b += f;
  x0 = g ^ h;
  f += S0_32(g) + (h ^ (x0 & x1));
  e += S1_32(b) + ch<u32>(b, c, d) + load<u32>(WK, 44);
  a += e;
  x1 = f ^ g;
  e += S0_32(f) + (g ^ (x1 & x0));
  // W[56..59] + K, into the ring slot rounds 40-43 just read.
  m2 = schedule256(m2, m3, m0, m1);
  v128.store(WK, i32x4.add(m2, v128.load(K256, 224)), 32);
  d += S1_32(a) + ch<u32>(a, b, c) + load<u32>(WK, 48);
  h += d;
  x0 = e ^ f;
  d += S0_32(e) + (f ^ (x0 & x1));
  c += S1_32(h) + ch<u32>(h, a, b) + load<u32>(WK, 52);
  g += c;
  x1 = d ^ e;
  c += S0_32(d) + (e ^ (x1 & x0));
  b += S1_32(g) + ch<u32>(g, h, a) + load<u32>(WK, 56);
  f += b;
  x0 = c ^ d;
  b += S0_32(c) + (d ^ (x0 & x1));
  a += S1_32(f) + ch<u32>(f, g, h) + load<u32>(WK, 60);
  e += a;
  x1 = b ^ c;
  a += S0_32(b) + (c ^ (x1 & x0));
  // W[60..63] + K, into the ring slot rounds 44-47 just read.
  m3 = schedule256(m3, m0, m1, m2);
  v128.store(WK, i32x4.add(m3, v128.load(K256, 240)), 48);
  h += S1_32(e) + ch<u32>(e, f, g) + load<u32>(WK);
  d += h;
  x0 = a ^ b;
  h += S0_32(a) + (b ^ (x0 & x1));
  g += S1_32(d) + ch<u32>(d, e, f) + load<u32>(WK, 4);
  c += g;
  x1 = h ^ a;
  g += S0_32(h) + (a ^ (x1 & x0));
  f += S1_32(c) + ch<u32>(c, d, e) + load<u32>(WK, 8);
  b += f;
  x0 = g ^ h;
  f += S0_32(g) + (h ^ (x0 & x1));
  e += S1_32(b) + ch<u32>(b, c, d) + load<u32>(WK, 12);
  a += e;
  x1 = f ^ g;
  e += S0_32(f) + (g ^ (x1 & x0));
  d += S1_32(a) + ch<u32>(a, b, c) + load<u32>(WK, 16);
  h += d;
  x0 = e ^ f;
  d += S0_32(e) + (f ^ (x0 & x1));
  c += S1_32(h) + ch<u32>(h, a, b) + load<u32>(WK, 20);
  g += c;
  x1 = d ^ e;
  c += S0_32(d) + (e ^ (x1 & x0));
  b += S1_32(g) + ch<u32>(g, h, a) + load<u32>(WK, 24);
  f += b;
  x0 = c ^ d;
  b += S0_32(c) + (d ^ (x0 & x1));
  a += S1_32(f) + ch<u32>(f, g, h) + load<u32>(WK, 28);
  e += a;
  x1 = b ^ c;
  a += S0_32(b) + (c ^ (x1 & x0));
  h += S1_32(e) + ch<u32>(e, f, g) + load<u32>(WK, 32);
  d += h;
  x0 = a ^ b;
  h += S0_32(a) + (b ^ (x0 & x1));
  g += S1_32(d) + ch<u32>(d, e, f) + load<u32>(WK, 36);
  c += g;
  x1 = h ^ a;
  g += S0_32(h) + (a ^ (x1 & x0));
  f += S1_32(c) + ch<u32>(c, d, e) + load<u32>(WK, 40);
  b += f;
  x0 = g ^ h;
  f += S0_32(g) + (h ^ (x0 & x1));
  e += S1_32(b) + ch<u32>(b, c, d) + load<u32>(WK, 44);
  a += e;
  x1 = f ^ g;
  e += S0_32(f) + (g ^ (x1 & x0));
  d += S1_32(a) + ch<u32>(a, b, c) + load<u32>(WK, 48);
  h += d;
  x0 = e ^ f;
  d += S0_32(e) + (f ^ (x0 & x1));
  c += S1_32(h) + ch<u32>(h, a, b) + load<u32>(WK, 52);
  g += c;
  x1 = d ^ e;
  c += S0_32(d) + (e ^ (x1 & x0));
  b += S1_32(g) + ch<u32>(g, h, a) + load<u32>(WK, 56);
  f += b;
  x0 = c ^ d;
  b += S0_32(c) + (d ^ (x0 & x1));
  a += S1_32(f) + ch<u32>(f, g, h) + load<u32>(WK, 60);
  e += a;
  x1 = b ^ c;
  a += S0_32(b) + (c ^ (x1 & x0));
  store<u32>(STATE, load<u32>(STATE) + a);
  store<u32>(STATE, load<u32>(STATE, 4) + b, 4);
  store<u32>(STATE, load<u32>(STATE, 8) + c, 8);
  store<u32>(STATE, load<u32>(STATE, 12) + d, 12);
  store<u32>(STATE, load<u32>(STATE, 16) + e, 16);
  store<u32>(STATE, load<u32>(STATE, 20) + f, 20);
  store<u32>(STATE, load<u32>(STATE, 24) + g, 24);
  store<u32>(STATE, load<u32>(STATE, 28) + h, 28);
  const zero = i64x2.splat(0);
  v128.store(WK, zero);
  v128.store(WK, zero, 16);
  v128.store(WK, zero, 32);
  v128.store(WK, zero, 48);
}

// --- SHA-1 (FIPS 180-4 6.1.2) --------------------------------------------------------------------

/** STATE ← compression of STATE with the 64-byte block at `block`. */
function compress1(block: usize): void {
  let w0: u32 = bswap<u32>(load<u32>(block, 0));
  let w1: u32 = bswap<u32>(load<u32>(block, 4));
  let w2: u32 = bswap<u32>(load<u32>(block, 8));
  let w3: u32 = bswap<u32>(load<u32>(block, 12));
  let w4: u32 = bswap<u32>(load<u32>(block, 16));
  let w5: u32 = bswap<u32>(load<u32>(block, 20));
  let w6: u32 = bswap<u32>(load<u32>(block, 24));
  let w7: u32 = bswap<u32>(load<u32>(block, 28));
  let w8: u32 = bswap<u32>(load<u32>(block, 32));
  let w9: u32 = bswap<u32>(load<u32>(block, 36));
  let w10: u32 = bswap<u32>(load<u32>(block, 40));
  let w11: u32 = bswap<u32>(load<u32>(block, 44));
  let w12: u32 = bswap<u32>(load<u32>(block, 48));
  let w13: u32 = bswap<u32>(load<u32>(block, 52));
  let w14: u32 = bswap<u32>(load<u32>(block, 56));
  let w15: u32 = bswap<u32>(load<u32>(block, 60));
  let a = load<u32>(STATE);
  let b = load<u32>(STATE, 4);
  let c = load<u32>(STATE, 8);
  let d = load<u32>(STATE, 12);
  let e = load<u32>(STATE, 16);
  // Rounds 0-19 Ch, 20-39 Parity, 40-59 Maj, 60-79 Parity (4.1.1); W[t] for t ≥ 16 replaces
  // W[t - 16] just before its round.
  e += (ch<u32>(b, c, d)) + 0x5a827999 + w0;
  e += rotl<u32>(a, 5);
  b = rotl<u32>(b, 30);
  d += (ch<u32>(a, b, c)) + 0x5a827999 + w1;
  d += rotl<u32>(e, 5);
  a = rotl<u32>(a, 30);
  c += (ch<u32>(e, a, b)) + 0x5a827999 + w2;
  c += rotl<u32>(d, 5);
  e = rotl<u32>(e, 30);
  b += (ch<u32>(d, e, a)) + 0x5a827999 + w3;
  b += rotl<u32>(c, 5);
  d = rotl<u32>(d, 30);
  a += (ch<u32>(c, d, e)) + 0x5a827999 + w4;
  a += rotl<u32>(b, 5);
  c = rotl<u32>(c, 30);
  e += (ch<u32>(b, c, d)) + 0x5a827999 + w5;
  e += rotl<u32>(a, 5);
  b = rotl<u32>(b, 30);
  d += (ch<u32>(a, b, c)) + 0x5a827999 + w6;
  d += rotl<u32>(e, 5);
  a = rotl<u32>(a, 30);
  c += (ch<u32>(e, a, b)) + 0x5a827999 + w7;
  c += rotl<u32>(d, 5);
  e = rotl<u32>(e, 30);
  b += (ch<u32>(d, e, a)) + 0x5a827999 + w8;
  b += rotl<u32>(c, 5);
  d = rotl<u32>(d, 30);
  a += (ch<u32>(c, d, e)) + 0x5a827999 + w9;
  a += rotl<u32>(b, 5);
  c = rotl<u32>(c, 30);
  e += (ch<u32>(b, c, d)) + 0x5a827999 + w10;
  e += rotl<u32>(a, 5);
  b = rotl<u32>(b, 30);
  d += (ch<u32>(a, b, c)) + 0x5a827999 + w11;
  d += rotl<u32>(e, 5);
  a = rotl<u32>(a, 30);
  c += (ch<u32>(e, a, b)) + 0x5a827999 + w12;
  c += rotl<u32>(d, 5);
  e = rotl<u32>(e, 30);
  b += (ch<u32>(d, e, a)) + 0x5a827999 + w13;
  b += rotl<u32>(c, 5);
  d = rotl<u32>(d, 30);
  a += (ch<u32>(c, d, e)) + 0x5a827999 + w14;
  a += rotl<u32>(b, 5);
  c = rotl<u32>(c, 30);
  e += (ch<u32>(b, c, d)) + 0x5a827999 + w15;
  e += rotl<u32>(a, 5);
  b = rotl<u32>(b, 30);
  w0 = rotl<u32>(w13 ^ w8 ^ w2 ^ w0, 1);
  d += (ch<u32>(a, b, c)) + 0x5a827999 + w0;
  d += rotl<u32>(e, 5);
  a = rotl<u32>(a, 30);
  w1 = rotl<u32>(w14 ^ w9 ^ w3 ^ w1, 1);
  c += (ch<u32>(e, a, b)) + 0x5a827999 + w1;
  c += rotl<u32>(d, 5);
  e = rotl<u32>(e, 30);
  w2 = rotl<u32>(w15 ^ w10 ^ w4 ^ w2, 1);
  b += (ch<u32>(d, e, a)) + 0x5a827999 + w2;
  b += rotl<u32>(c, 5);
  d = rotl<u32>(d, 30);
  w3 = rotl<u32>(w0 ^ w11 ^ w5 ^ w3, 1);
  a += (ch<u32>(c, d, e)) + 0x5a827999 + w3;
  a += rotl<u32>(b, 5);
  c = rotl<u32>(c, 30);
  w4 = rotl<u32>(w1 ^ w12 ^ w6 ^ w4, 1);
  e += (b ^ c ^ d) + 0x6ed9eba1 + w4;
  e += rotl<u32>(a, 5);
  b = rotl<u32>(b, 30);
  w5 = rotl<u32>(w2 ^ w13 ^ w7 ^ w5, 1);
  d += (a ^ b ^ c) + 0x6ed9eba1 + w5;
  d += rotl<u32>(e, 5);
  a = rotl<u32>(a, 30);
  w6 = rotl<u32>(w3 ^ w14 ^ w8 ^ w6, 1);
  c += (e ^ a ^ b) + 0x6ed9eba1 + w6;
  c += rotl<u32>(d, 5);
  e = rotl<u32>(e, 30);
  w7 = rotl<u32>(w4 ^ w15 ^ w9 ^ w7, 1);
  b += (d ^ e ^ a) + 0x6ed9eba1 + w7;
  b += rotl<u32>(c, 5);
  d = rotl<u32>(d, 30);
  w8 = rotl<u32>(w5 ^ w0 ^ w10 ^ w8, 1);
  a += (c ^ d ^ e) + 0x6ed9eba1 + w8;
  a += rotl<u32>(b, 5);
  c = rotl<u32>(c, 30);
  w9 = rotl<u32>(w6 ^ w1 ^ w11 ^ w9, 1);
  e += (b ^ c ^ d) + 0x6ed9eba1 + w9;
  e += rotl<u32>(a, 5);
  b = rotl<u32>(b, 30);
  w10 = rotl<u32>(w7 ^ w2 ^ w12 ^ w10, 1);
  d += (a ^ b ^ c) + 0x6ed9eba1 + w10;
  d += rotl<u32>(e, 5);
  a = rotl<u32>(a, 30);
  w11 = rotl<u32>(w8 ^ w3 ^ w13 ^ w11, 1);
  c += (e ^ a ^ b) + 0x6ed9eba1 + w11;
  c += rotl<u32>(d, 5);
  e = rotl<u32>(e, 30);
  w12 = rotl<u32>(w9 ^ w4 ^ w14 ^ w12, 1);
  b += (d ^ e ^ a) + 0x6ed9eba1 + w12;
  b += rotl<u32>(c, 5);
  d = rotl<u32>(d, 30);
  w13 = rotl<u32>(w10 ^ w5 ^ w15 ^ w13, 1);
  a += (c ^ d ^ e) + 0x6ed9eba1 + w13;
  a += rotl<u32>(b, 5);
  c = rotl<u32>(c, 30);
  w14 = rotl<u32>(w11 ^ w6 ^ w0 ^ w14, 1);
  e += (b ^ c ^ d) + 0x6ed9eba1 + w14;
  e += rotl<u32>(a, 5);
  b = rotl<u32>(b, 30);
  w15 = rotl<u32>(w12 ^ w7 ^ w1 ^ w15, 1);
  d += (a ^ b ^ c) + 0x6ed9eba1 + w15;
  d += rotl<u32>(e, 5);
  a = rotl<u32>(a, 30);
  w0 = rotl<u32>(w13 ^ w8 ^ w2 ^ w0, 1);
  c += (e ^ a ^ b) + 0x6ed9eba1 + w0;
  c += rotl<u32>(d, 5);
  e = rotl<u32>(e, 30);
  w1 = rotl<u32>(w14 ^ w9 ^ w3 ^ w1, 1);
  b += (d ^ e ^ a) + 0x6ed9eba1 + w1;
  b += rotl<u32>(c, 5);
  d = rotl<u32>(d, 30);
  w2 = rotl<u32>(w15 ^ w10 ^ w4 ^ w2, 1);
  a += (c ^ d ^ e) + 0x6ed9eba1 + w2;
  a += rotl<u32>(b, 5);
  c = rotl<u32>(c, 30);
  w3 = rotl<u32>(w0 ^ w11 ^ w5 ^ w3, 1);
  e += (b ^ c ^ d) + 0x6ed9eba1 + w3;
  e += rotl<u32>(a, 5);
  b = rotl<u32>(b, 30);
  w4 = rotl<u32>(w1 ^ w12 ^ w6 ^ w4, 1);
  d += (a ^ b ^ c) + 0x6ed9eba1 + w4;
  d += rotl<u32>(e, 5);
  a = rotl<u32>(a, 30);
  w5 = rotl<u32>(w2 ^ w13 ^ w7 ^ w5, 1);
  c += (e ^ a ^ b) + 0x6ed9eba1 + w5;
  c += rotl<u32>(d, 5);
  e = rotl<u32>(e, 30);
  w6 = rotl<u32>(w3 ^ w14 ^ w8 ^ w6, 1);
  b += (d ^ e ^ a) + 0x6ed9eba1 + w6;
  b += rotl<u32>(c, 5);
  d = rotl<u32>(d, 30);
  w7 = rotl<u32>(w4 ^ w15 ^ w9 ^ w7, 1);
  a += (c ^ d ^ e) + 0x6ed9eba1 + w7;
  a += rotl<u32>(b, 5);
  c = rotl<u32>(c, 30);
  w8 = rotl<u32>(w5 ^ w0 ^ w10 ^ w8, 1);
  e += (maj<u32>(b, c, d)) + 0x8f1bbcdc + w8;
  e += rotl<u32>(a, 5);
  b = rotl<u32>(b, 30);
  w9 = rotl<u32>(w6 ^ w1 ^ w11 ^ w9, 1);
  d += (maj<u32>(a, b, c)) + 0x8f1bbcdc + w9;
  d += rotl<u32>(e, 5);
  a = rotl<u32>(a, 30);
  w10 = rotl<u32>(w7 ^ w2 ^ w12 ^ w10, 1);
  c += (maj<u32>(e, a, b)) + 0x8f1bbcdc + w10;
  c += rotl<u32>(d, 5);
  e = rotl<u32>(e, 30);
  w11 = rotl<u32>(w8 ^ w3 ^ w13 ^ w11, 1);
  b += (maj<u32>(d, e, a)) + 0x8f1bbcdc + w11;
  b += rotl<u32>(c, 5);
  d = rotl<u32>(d, 30);
  w12 = rotl<u32>(w9 ^ w4 ^ w14 ^ w12, 1);
  a += (maj<u32>(c, d, e)) + 0x8f1bbcdc + w12;
  a += rotl<u32>(b, 5);
  c = rotl<u32>(c, 30);
  w13 = rotl<u32>(w10 ^ w5 ^ w15 ^ w13, 1);
  e += (maj<u32>(b, c, d)) + 0x8f1bbcdc + w13;
  e += rotl<u32>(a, 5);
  b = rotl<u32>(b, 30);
  w14 = rotl<u32>(w11 ^ w6 ^ w0 ^ w14, 1);
  d += (maj<u32>(a, b, c)) + 0x8f1bbcdc + w14;
  d += rotl<u32>(e, 5);
  a = rotl<u32>(a, 30);
  w15 = rotl<u32>(w12 ^ w7 ^ w1 ^ w15, 1);
  c += (maj<u32>(e, a, b)) + 0x8f1bbcdc + w15;
  c += rotl<u32>(d, 5);
  e = rotl<u32>(e, 30);
  w0 = rotl<u32>(w13 ^ w8 ^ w2 ^ w0, 1);
  b += (maj<u32>(d, e, a)) + 0x8f1bbcdc + w0;
  b += rotl<u32>(c, 5);
  d = rotl<u32>(d, 30);
  w1 = rotl<u32>(w14 ^ w9 ^ w3 ^ w1, 1);
  a += (maj<u32>(c, d, e)) + 0x8f1bbcdc + w1;
  a += rotl<u32>(b, 5);
  c = rotl<u32>(c, 30);
  w2 = rotl<u32>(w15 ^ w10 ^ w4 ^ w2, 1);
  e += (maj<u32>(b, c, d)) + 0x8f1bbcdc + w2;
  e += rotl<u32>(a, 5);
  b = rotl<u32>(b, 30);
  w3 = rotl<u32>(w0 ^ w11 ^ w5 ^ w3, 1);
  d += (maj<u32>(a, b, c)) + 0x8f1bbcdc + w3;
  d += rotl<u32>(e, 5);
  a = rotl<u32>(a, 30);
  w4 = rotl<u32>(w1 ^ w12 ^ w6 ^ w4, 1);
  c += (maj<u32>(e, a, b)) + 0x8f1bbcdc + w4;
  c += rotl<u32>(d, 5);
  e = rotl<u32>(e, 30);
  w5 = rotl<u32>(w2 ^ w13 ^ w7 ^ w5, 1);
  b += (maj<u32>(d, e, a)) + 0x8f1bbcdc + w5;
  b += rotl<u32>(c, 5);
  d = rotl<u32>(d, 30);
  w6 = rotl<u32>(w3 ^ w14 ^ w8 ^ w6, 1);
  a += (maj<u32>(c, d, e)) + 0x8f1bbcdc + w6;
  a += rotl<u32>(b, 5);
  c = rotl<u32>(c, 30);
  w7 = rotl<u32>(w4 ^ w15 ^ w9 ^ w7, 1);
  e += (maj<u32>(b, c, d)) + 0x8f1bbcdc + w7;
  e += rotl<u32>(a, 5);
  b = rotl<u32>(b, 30);
  w8 = rotl<u32>(w5 ^ w0 ^ w10 ^ w8, 1);
  d += (maj<u32>(a, b, c)) + 0x8f1bbcdc + w8;
  d += rotl<u32>(e, 5);
  a = rotl<u32>(a, 30);
  w9 = rotl<u32>(w6 ^ w1 ^ w11 ^ w9, 1);
  c += (maj<u32>(e, a, b)) + 0x8f1bbcdc + w9;
  c += rotl<u32>(d, 5);
  e = rotl<u32>(e, 30);
  w10 = rotl<u32>(w7 ^ w2 ^ w12 ^ w10, 1);
  b += (maj<u32>(d, e, a)) + 0x8f1bbcdc + w10;
  b += rotl<u32>(c, 5);
  d = rotl<u32>(d, 30);
  w11 = rotl<u32>(w8 ^ w3 ^ w13 ^ w11, 1);
  a += (maj<u32>(c, d, e)) + 0x8f1bbcdc + w11;
  a += rotl<u32>(b, 5);
  c = rotl<u32>(c, 30);
  w12 = rotl<u32>(w9 ^ w4 ^ w14 ^ w12, 1);
  e += (b ^ c ^ d) + 0xca62c1d6 + w12;
  e += rotl<u32>(a, 5);
  b = rotl<u32>(b, 30);
  w13 = rotl<u32>(w10 ^ w5 ^ w15 ^ w13, 1);
  d += (a ^ b ^ c) + 0xca62c1d6 + w13;
  d += rotl<u32>(e, 5);
  a = rotl<u32>(a, 30);
  w14 = rotl<u32>(w11 ^ w6 ^ w0 ^ w14, 1);
  c += (e ^ a ^ b) + 0xca62c1d6 + w14;
  c += rotl<u32>(d, 5);
  e = rotl<u32>(e, 30);
  w15 = rotl<u32>(w12 ^ w7 ^ w1 ^ w15, 1);
  b += (d ^ e ^ a) + 0xca62c1d6 + w15;
  b += rotl<u32>(c, 5);
  d = rotl<u32>(d, 30);
  w0 = rotl<u32>(w13 ^ w8 ^ w2 ^ w0, 1);
  a += (c ^ d ^ e) + 0xca62c1d6 + w0;
  a += rotl<u32>(b, 5);
  c = rotl<u32>(c, 30);
  w1 = rotl<u32>(w14 ^ w9 ^ w3 ^ w1, 1);
  e += (b ^ c ^ d) + 0xca62c1d6 + w1;
  e += rotl<u32>(a, 5);
  b = rotl<u32>(b, 30);
  w2 = rotl<u32>(w15 ^ w10 ^ w4 ^ w2, 1);
  d += (a ^ b ^ c) + 0xca62c1d6 + w2;
  d += rotl<u32>(e, 5);
  a = rotl<u32>(a, 30);
  w3 = rotl<u32>(w0 ^ w11 ^ w5 ^ w3, 1);
  c += (e ^ a ^ b) + 0xca62c1d6 + w3;
  c += rotl<u32>(d, 5);
  e = rotl<u32>(e, 30);
  w4 = rotl<u32>(w1 ^ w12 ^ w6 ^ w4, 1);
  b += (d ^ e ^ a) + 0xca62c1d6 + w4;
  b += rotl<u32>(c, 5);
  d = rotl<u32>(d, 30);
  w5 = rotl<u32>(w2 ^ w13 ^ w7 ^ w5, 1);
  a += (c ^ d ^ e) + 0xca62c1d6 + w5;
  a += rotl<u32>(b, 5);
  c = rotl<u32>(c, 30);
  w6 = rotl<u32>(w3 ^ w14 ^ w8 ^ w6, 1);
  e += (b ^ c ^ d) + 0xca62c1d6 + w6;
  e += rotl<u32>(a, 5);
  b = rotl<u32>(b, 30);
  w7 = rotl<u32>(w4 ^ w15 ^ w9 ^ w7, 1);
  d += (a ^ b ^ c) + 0xca62c1d6 + w7;
  d += rotl<u32>(e, 5);
  a = rotl<u32>(a, 30);
  w8 = rotl<u32>(w5 ^ w0 ^ w10 ^ w8, 1);
  c += (e ^ a ^ b) + 0xca62c1d6 + w8;
  c += rotl<u32>(d, 5);
  e = rotl<u32>(e, 30);
  w9 = rotl<u32>(w6 ^ w1 ^ w11 ^ w9, 1);
  b += (d ^ e ^ a) + 0xca62c1d6 + w9;
  b += rotl<u32>(c, 5);
  d = rotl<u32>(d, 30);
  w10 = rotl<u32>(w7 ^ w2 ^ w12 ^ w10, 1);
  a += (c ^ d ^ e) + 0xca62c1d6 + w10;
  a += rotl<u32>(b, 5);
  c = rotl<u32>(c, 30);
  w11 = rotl<u32>(w8 ^ w3 ^ w13 ^ w11, 1);
  e += (b ^ c ^ d) + 0xca62c1d6 + w11;
  e += rotl<u32>(a, 5);
  b = rotl<u32>(b, 30);
  w12 = rotl<u32>(w9 ^ w4 ^ w14 ^ w12, 1);
  d += (a ^ b ^ c) + 0xca62c1d6 + w12;
  d += rotl<u32>(e, 5);
  a = rotl<u32>(a, 30);
  w13 = rotl<u32>(w10 ^ w5 ^ w15 ^ w13, 1);
  c += (e ^ a ^ b) + 0xca62c1d6 + w13;
  c += rotl<u32>(d, 5);
  e = rotl<u32>(e, 30);
  w14 = rotl<u32>(w11 ^ w6 ^ w0 ^ w14, 1);
  b += (d ^ e ^ a) + 0xca62c1d6 + w14;
  b += rotl<u32>(c, 5);
  d = rotl<u32>(d, 30);
  w15 = rotl<u32>(w12 ^ w7 ^ w1 ^ w15, 1);
  a += (c ^ d ^ e) + 0xca62c1d6 + w15;
  a += rotl<u32>(b, 5);
  c = rotl<u32>(c, 30);
  store<u32>(STATE, load<u32>(STATE) + a);
  store<u32>(STATE, load<u32>(STATE, 4) + b, 4);
  store<u32>(STATE, load<u32>(STATE, 8) + c, 8);
  store<u32>(STATE, load<u32>(STATE, 12) + d, 12);
  store<u32>(STATE, load<u32>(STATE, 16) + e, 16);
}

// --- SHA-512 (FIPS 180-4 6.4.2) ------------------------------------------------------------------

/** SHA-512's round constants K (4.2.3), in order. */
const K512_TABLE: StaticArray<u64> = [0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc, 0x3956c25bf348b538, 0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118, 0xd807aa98a3030242, 0x12835b0145706fbe, 0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2, 0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235, 0xc19bf174cf692694, 0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65, 0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5, 0x983e5152ee66dfab, 0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4, 0xc6e00bf33da88fc2, 0xd5a79147930aa725, 0x06ca6351e003826f, 0x142929670a0e6e70, 0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed, 0x53380d139d95b3df, 0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b, 0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30, 0xd192e819d6ef5218, 0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8, 0x19a4c116b8d2d0c8, 0x1e376c085141ab53, 0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8, 0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373, 0x682e6ff3d6b2b8a3, 0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec, 0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b, 0xca273eceea26619c, 0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178, 0x06f067aa72176fba, 0x0a637dc5a2c898a6, 0x113f9804bef90dae, 0x1b710b35131c471b, 0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc, 0x431d67c49c100d4c, 0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817];
const K512: usize = changetype<usize>(K512_TABLE);

/** Each 64-bit lane's bytes reversed: two big-endian words in, two native ones out. */
@inline function bswap64x2(x: v128): v128 {
  return i8x16.shuffle(x, x, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
}

/**
 * σ0 (4.12) on two words, for compress512's schedule: the rotations' two halves XORed, as their
 * bits never meet. The same with `or`-rotations and a byte shuffle for the rotation by 8 measured
 * a few percent slower in this schedule (module against module, 16 B to 8 KiB).
 */
@inline function sigma0x2(x: v128): v128 {
  return v128.xor(
    v128.xor(v128.xor(i64x2.shr_u(x, 1), i64x2.shl(x, 63)), v128.xor(i64x2.shr_u(x, 8), i64x2.shl(x, 56))),
    i64x2.shr_u(x, 7),
  );
}

/** σ1 (4.13) on two words, as sigma0x2. */
@inline function sigma1x2(x: v128): v128 {
  return v128.xor(
    v128.xor(v128.xor(i64x2.shr_u(x, 19), i64x2.shl(x, 45)), v128.xor(i64x2.shr_u(x, 61), i64x2.shl(x, 3))),
    i64x2.shr_u(x, 6),
  );
}

/**
 * W[t..t+1] (6.4.2 step 1: W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16]) from the groups
 * w16 = W[t-16..t-15], w14 = W[t-14..], w8 = W[t-8..], w6 = W[t-6..] and w2 = W[t-2..t-1]; W[t-15..]
 * and W[t-7..] straddle two groups.
 */
@inline function schedule512(w16: v128, w14: v128, w8: v128, w6: v128, w2: v128): v128 {
  return i64x2.add(
    i64x2.add(w16, sigma0x2(i64x2.shuffle(w16, w14, 1, 2))),
    i64x2.add(i64x2.shuffle(w8, w6, 1, 2), sigma1x2(w2)),
  );
}

/**
 * STATE ← compression of STATE with the 128-byte block at `block` (FIPS 180-4 6.4.2). The message
 * schedule (6.4.2 step 1) runs in SIMD, two words at a time, W + K into the 128-byte ring at WK
 * eight groups ahead of the rounds that load it. With two lanes, σ1's W[t-2] and W[t-1] are the
 * previous group whole. Constant time: shifts, XORs and additions only; WK is zeroed before
 * returning.
 */
function compress512(block: usize): void {
  // Message words, big-endian (5.2.2): a byte shuffle per two.
  let m0 = bswap64x2(v128.load(block, 0));
  let m1 = bswap64x2(v128.load(block, 16));
  let m2 = bswap64x2(v128.load(block, 32));
  let m3 = bswap64x2(v128.load(block, 48));
  let m4 = bswap64x2(v128.load(block, 64));
  let m5 = bswap64x2(v128.load(block, 80));
  let m6 = bswap64x2(v128.load(block, 96));
  let m7 = bswap64x2(v128.load(block, 112));
  v128.store(WK, i64x2.add(m0, v128.load(K512, 0)));
  v128.store(WK, i64x2.add(m1, v128.load(K512, 16)), 16);
  v128.store(WK, i64x2.add(m2, v128.load(K512, 32)), 32);
  v128.store(WK, i64x2.add(m3, v128.load(K512, 48)), 48);
  v128.store(WK, i64x2.add(m4, v128.load(K512, 64)), 64);
  v128.store(WK, i64x2.add(m5, v128.load(K512, 80)), 80);
  v128.store(WK, i64x2.add(m6, v128.load(K512, 96)), 96);
  v128.store(WK, i64x2.add(m7, v128.load(K512, 112)), 112);
  let a = load<u64>(STATE);
  let b = load<u64>(STATE, 8);
  let c = load<u64>(STATE, 16);
  let d = load<u64>(STATE, 24);
  let e = load<u64>(STATE, 32);
  let f = load<u64>(STATE, 40);
  let g = load<u64>(STATE, 48);
  let h = load<u64>(STATE, 56);
  let x0: u64 = 0;
  let x1: u64 = 0;
  h += load<u64>(WK);
  h += S1_64(e) + ch<u64>(e, f, g);
  d += h;
  x1 = b ^ c;
  x0 = a ^ b;
  h += S0_64(a) + (b ^ (x0 & x1));
  g += load<u64>(WK, 8);
  g += S1_64(d) + ch<u64>(d, e, f);
  c += g;
  x1 = h ^ a;
  g += S0_64(h) + (a ^ (x1 & x0));
  // W[16..17] + K, into the ring slot rounds 0-1 just read.
  m0 = schedule512(m0, m1, m4, m5, m7);
  v128.store(WK, i64x2.add(m0, v128.load(K512, 128)));
  f += load<u64>(WK, 16);
  f += S1_64(c) + ch<u64>(c, d, e);
  b += f;
  x0 = g ^ h;
  f += S0_64(g) + (h ^ (x0 & x1));
  e += load<u64>(WK, 24);
  e += S1_64(b) + ch<u64>(b, c, d);
  a += e;
  x1 = f ^ g;
  e += S0_64(f) + (g ^ (x1 & x0));
  // W[18..19] + K, into the ring slot rounds 2-3 just read.
  m1 = schedule512(m1, m2, m5, m6, m0);
  v128.store(WK, i64x2.add(m1, v128.load(K512, 144)), 16);
  d += load<u64>(WK, 32);
  d += S1_64(a) + ch<u64>(a, b, c);
  h += d;
  x0 = e ^ f;
  d += S0_64(e) + (f ^ (x0 & x1));
  c += load<u64>(WK, 40);
  c += S1_64(h) + ch<u64>(h, a, b);
  g += c;
  x1 = d ^ e;
  c += S0_64(d) + (e ^ (x1 & x0));
  // W[20..21] + K, into the ring slot rounds 4-5 just read.
  m2 = schedule512(m2, m3, m6, m7, m1);
  v128.store(WK, i64x2.add(m2, v128.load(K512, 160)), 32);
  b += load<u64>(WK, 48);
  b += S1_64(g) + ch<u64>(g, h, a);
  f += b;
  x0 = c ^ d;
  b += S0_64(c) + (d ^ (x0 & x1));
  a += load<u64>(WK, 56);
  a += S1_64(f) + ch<u64>(f, g, h);
  e += a;
  x1 = b ^ c;
  a += S0_64(b) + (c ^ (x1 & x0));
  // W[22..23] + K, into the ring slot rounds 6-7 just read.
  m3 = schedule512(m3, m4, m7, m0, m2);
  v128.store(WK, i64x2.add(m3, v128.load(K512, 176)), 48);
  h += load<u64>(WK, 64);
  h += S1_64(e) + ch<u64>(e, f, g);
  d += h;
  x0 = a ^ b;
  h += S0_64(a) + (b ^ (x0 & x1));
  g += load<u64>(WK, 72);
  g += S1_64(d) + ch<u64>(d, e, f);
  c += g;
  x1 = h ^ a;
  g += S0_64(h) + (a ^ (x1 & x0));
  // W[24..25] + K, into the ring slot rounds 8-9 just read.
  m4 = schedule512(m4, m5, m0, m1, m3);
  v128.store(WK, i64x2.add(m4, v128.load(K512, 192)), 64);
  f += load<u64>(WK, 80);
  f += S1_64(c) + ch<u64>(c, d, e);
  b += f;
  x0 = g ^ h;
  f += S0_64(g) + (h ^ (x0 & x1));
  e += load<u64>(WK, 88);
  e += S1_64(b) + ch<u64>(b, c, d);
  a += e;
  x1 = f ^ g;
  e += S0_64(f) + (g ^ (x1 & x0));
  // W[26..27] + K, into the ring slot rounds 10-11 just read.
  m5 = schedule512(m5, m6, m1, m2, m4);
  v128.store(WK, i64x2.add(m5, v128.load(K512, 208)), 80);
  d += load<u64>(WK, 96);
  d += S1_64(a) + ch<u64>(a, b, c);
  h += d;
  x0 = e ^ f;
  d += S0_64(e) + (f ^ (x0 & x1));
  c += load<u64>(WK, 104);
  c += S1_64(h) + ch<u64>(h, a, b);
  g += c;
  x1 = d ^ e;
  c += S0_64(d) + (e ^ (x1 & x0));
  // W[28..29] + K, into the ring slot rounds 12-13 just read.
  m6 = schedule512(m6, m7, m2, m3, m5);
  v128.store(WK, i64x2.add(m6, v128.load(K512, 224)), 96);
  b += load<u64>(WK, 112);
  b += S1_64(g) + ch<u64>(g, h, a);
  f += b;
  x0 = c ^ d;
  b += S0_64(c) + (d ^ (x0 & x1));
  a += load<u64>(WK, 120);
  a += S1_64(f) + ch<u64>(f, g, h);
  e += a;
  x1 = b ^ c;
  a += S0_64(b) + (c ^ (x1 & x0));
  // W[30..31] + K, into the ring slot rounds 14-15 just read.
  m7 = schedule512(m7, m0, m3, m4, m6);
  v128.store(WK, i64x2.add(m7, v128.load(K512, 240)), 112);
  h += load<u64>(WK);
  h += S1_64(e) + ch<u64>(e, f, g);
  d += h;
  x0 = a ^ b;
  h += S0_64(a) + (b ^ (x0 & x1));
  g += load<u64>(WK, 8);
  g += S1_64(d) + ch<u64>(d, e, f);
  c += g;
  x1 = h ^ a;
  g += S0_64(h) + (a ^ (x1 & x0));
  // W[32..33] + K, into the ring slot rounds 16-17 just read.
  m0 = schedule512(m0, m1, m4, m5, m7);
  v128.store(WK, i64x2.add(m0, v128.load(K512, 256)));
  f += load<u64>(WK, 16);
  f += S1_64(c) + ch<u64>(c, d, e);
  b += f;
  x0 = g ^ h;
  f += S0_64(g) + (h ^ (x0 & x1));
  e += load<u64>(WK, 24);
  e += S1_64(b) + ch<u64>(b, c, d);
  a += e;
  x1 = f ^ g;
  e += S0_64(f) + (g ^ (x1 & x0));
  // W[34..35] + K, into the ring slot rounds 18-19 just read.
  m1 = schedule512(m1, m2, m5, m6, m0);
  v128.store(WK, i64x2.add(m1, v128.load(K512, 272)), 16);
  d += load<u64>(WK, 32);
  d += S1_64(a) + ch<u64>(a, b, c);
  h += d;
  x0 = e ^ f;
  d += S0_64(e) + (f ^ (x0 & x1));
  c += load<u64>(WK, 40);
  c += S1_64(h) + ch<u64>(h, a, b);
  g += c;
  x1 = d ^ e;
  c += S0_64(d) + (e ^ (x1 & x0));
  // W[36..37] + K, into the ring slot rounds 20-21 just read.
  m2 = schedule512(m2, m3, m6, m7, m1);
  v128.store(WK, i64x2.add(m2, v128.load(K512, 288)), 32);
  b += load<u64>(WK, 48);
  b += S1_64(g) + ch<u64>(g, h, a);
  f += b;
  x0 = c ^ d;
  b += S0_64(c) + (d ^ (x0 & x1));
  a += load<u64>(WK, 56);
  a += S1_64(f) + ch<u64>(f, g, h);
  e += a;
  x1 = b ^ c;
  a += S0_64(b) + (c ^ (x1 & x0));
  // W[38..39] + K, into the ring slot rounds 22-23 just read.
  m3 = schedule512(m3, m4, m7, m0, m2);
  v128.store(WK, i64x2.add(m3, v128.load(K512, 304)), 48);
  h += load<u64>(WK, 64);
  h += S1_64(e) + ch<u64>(e, f, g);
  d += h;
  x0 = a ^ b;
  h += S0_64(a) + (b ^ (x0 & x1));
  g += load<u64>(WK, 72);
  g += S1_64(d) + ch<u64>(d, e, f);
  c += g;
  x1 = h ^ a;
  g += S0_64(h) + (a ^ (x1 & x0));
  // W[40..41] + K, into the ring slot rounds 24-25 just read.
  m4 = schedule512(m4, m5, m0, m1, m3);
  v128.store(WK, i64x2.add(m4, v128.load(K512, 320)), 64);
  f += load<u64>(WK, 80);
  f += S1_64(c) + ch<u64>(c, d, e);
  b += f;
  x0 = g ^ h;
  f += S0_64(g) + (h ^ (x0 & x1));
  e += load<u64>(WK, 88);
  e += S1_64(b) + ch<u64>(b, c, d);
  a += e;
  x1 = f ^ g;
  e += S0_64(f) + (g ^ (x1 & x0));
  // W[42..43] + K, into the ring slot rounds 26-27 just read.
  m5 = schedule512(m5, m6, m1, m2, m4);
  v128.store(WK, i64x2.add(m5, v128.load(K512, 336)), 80);
  d += load<u64>(WK, 96);
  d += S1_64(a) + ch<u64>(a, b, c);
  h += d;
  x0 = e ^ f;
  d += S0_64(e) + (f ^ (x0 & x1));
  c += load<u64>(WK, 104);
  c += S1_64(h) + ch<u64>(h, a, b);
  g += c;
  x1 = d ^ e;
  c += S0_64(d) + (e ^ (x1 & x0));
  // W[44..45] + K, into the ring slot rounds 28-29 just read.
  m6 = schedule512(m6, m7, m2, m3, m5);
  v128.store(WK, i64x2.add(m6, v128.load(K512, 352)), 96);
  b += load<u64>(WK, 112);
  b += S1_64(g) + ch<u64>(g, h, a);
  f += b;
  x0 = c ^ d;
  b += S0_64(c) + (d ^ (x0 & x1));
  a += load<u64>(WK, 120);
  a += S1_64(f) + ch<u64>(f, g, h);
  e += a;
  x1 = b ^ c;
  a += S0_64(b) + (c ^ (x1 & x0));
  // W[46..47] + K, into the ring slot rounds 30-31 just read.
  m7 = schedule512(m7, m0, m3, m4, m6);
  v128.store(WK, i64x2.add(m7, v128.load(K512, 368)), 112);
  h += load<u64>(WK);
  h += S1_64(e) + ch<u64>(e, f, g);
  d += h;
  x0 = a ^ b;
  h += S0_64(a) + (b ^ (x0 & x1));
  g += load<u64>(WK, 8);
  g += S1_64(d) + ch<u64>(d, e, f);
  c += g;
  x1 = h ^ a;
  g += S0_64(h) + (a ^ (x1 & x0));
  // W[48..49] + K, into the ring slot rounds 32-33 just read.
  m0 = schedule512(m0, m1, m4, m5, m7);
  v128.store(WK, i64x2.add(m0, v128.load(K512, 384)));
  f += load<u64>(WK, 16);
  f += S1_64(c) + ch<u64>(c, d, e);
  b += f;
  x0 = g ^ h;
  f += S0_64(g) + (h ^ (x0 & x1));
  e += load<u64>(WK, 24);
  e += S1_64(b) + ch<u64>(b, c, d);
  a += e;
  x1 = f ^ g;
  e += S0_64(f) + (g ^ (x1 & x0));
  // W[50..51] + K, into the ring slot rounds 34-35 just read.
  m1 = schedule512(m1, m2, m5, m6, m0);
  v128.store(WK, i64x2.add(m1, v128.load(K512, 400)), 16);
  d += load<u64>(WK, 32);
  d += S1_64(a) + ch<u64>(a, b, c);
  h += d;
  x0 = e ^ f;
  d += S0_64(e) + (f ^ (x0 & x1));
  c += load<u64>(WK, 40);
  c += S1_64(h) + ch<u64>(h, a, b);
  g += c;
  x1 = d ^ e;
  c += S0_64(d) + (e ^ (x1 & x0));
  // W[52..53] + K, into the ring slot rounds 36-37 just read.
  m2 = schedule512(m2, m3, m6, m7, m1);
  v128.store(WK, i64x2.add(m2, v128.load(K512, 416)), 32);
  b += load<u64>(WK, 48);
  b += S1_64(g) + ch<u64>(g, h, a);
  f += b;
  x0 = c ^ d;
  b += S0_64(c) + (d ^ (x0 & x1));
  a += load<u64>(WK, 56);
  a += S1_64(f) + ch<u64>(f, g, h);
  e += a;
  x1 = b ^ c;
  a += S0_64(b) + (c ^ (x1 & x0));
  // W[54..55] + K, into the ring slot rounds 38-39 just read.
  m3 = schedule512(m3, m4, m7, m0, m2);
  v128.store(WK, i64x2.add(m3, v128.load(K512, 432)), 48);
  h += load<u64>(WK, 64);
  h += S1_64(e) + ch<u64>(e, f, g);
  d += h;
  x0 = a ^ b;
  h += S0_64(a) + (b ^ (x0 & x1));
  g += load<u64>(WK, 72);
  g += S1_64(d) + ch<u64>(d, e, f);
  c += g;
  x1 = h ^ a;
  g += S0_64(h) + (a ^ (x1 & x0));
  // W[56..57] + K, into the ring slot rounds 40-41 just read.
  m4 = schedule512(m4, m5, m0, m1, m3);
  v128.store(WK, i64x2.add(m4, v128.load(K512, 448)), 64);
  f += load<u64>(WK, 80);
  f += S1_64(c) + ch<u64>(c, d, e);
  b += f;
  x0 = g ^ h;
  f += S0_64(g) + (h ^ (x0 & x1));
  e += load<u64>(WK, 88);
  e += S1_64(b) + ch<u64>(b, c, d);
  a += e;
  x1 = f ^ g;
  e += S0_64(f) + (g ^ (x1 & x0));
  // W[58..59] + K, into the ring slot rounds 42-43 just read.
  m5 = schedule512(m5, m6, m1, m2, m4);
  v128.store(WK, i64x2.add(m5, v128.load(K512, 464)), 80);
  d += load<u64>(WK, 96);
  d += S1_64(a) + ch<u64>(a, b, c);
  h += d;
  x0 = e ^ f;
  d += S0_64(e) + (f ^ (x0 & x1));
  c += load<u64>(WK, 104);
  c += S1_64(h) + ch<u64>(h, a, b);
  g += c;
  x1 = d ^ e;
  c += S0_64(d) + (e ^ (x1 & x0));
  // W[60..61] + K, into the ring slot rounds 44-45 just read.
  m6 = schedule512(m6, m7, m2, m3, m5);
  v128.store(WK, i64x2.add(m6, v128.load(K512, 480)), 96);
  b += load<u64>(WK, 112);
  b += S1_64(g) + ch<u64>(g, h, a);
  f += b;
  x0 = c ^ d;
  b += S0_64(c) + (d ^ (x0 & x1));
  a += load<u64>(WK, 120);
  a += S1_64(f) + ch<u64>(f, g, h);
  e += a;
  x1 = b ^ c;
  a += S0_64(b) + (c ^ (x1 & x0));
  // W[62..63] + K, into the ring slot rounds 46-47 just read.
  m7 = schedule512(m7, m0, m3, m4, m6);
  v128.store(WK, i64x2.add(m7, v128.load(K512, 496)), 112);
  h += load<u64>(WK);
  h += S1_64(e) + ch<u64>(e, f, g);
  d += h;
  x0 = a ^ b;
  h += S0_64(a) + (b ^ (x0 & x1));
  g += load<u64>(WK, 8);
  g += S1_64(d) + ch<u64>(d, e, f);
  c += g;
  x1 = h ^ a;
  g += S0_64(h) + (a ^ (x1 & x0));
  // W[64..65] + K, into the ring slot rounds 48-49 just read.
  m0 = schedule512(m0, m1, m4, m5, m7);
  v128.store(WK, i64x2.add(m0, v128.load(K512, 512)));
  f += load<u64>(WK, 16);
  f += S1_64(c) + ch<u64>(c, d, e);
  b += f;
  x0 = g ^ h;
  f += S0_64(g) + (h ^ (x0 & x1));
  e += load<u64>(WK, 24);
  e += S1_64(b) + ch<u64>(b, c, d);
  a += e;
  x1 = f ^ g;
  e += S0_64(f) + (g ^ (x1 & x0));
  // W[66..67] + K, into the ring slot rounds 50-51 just read.
  m1 = schedule512(m1, m2, m5, m6, m0);
  v128.store(WK, i64x2.add(m1, v128.load(K512, 528)), 16);
  d += load<u64>(WK, 32);
  d += S1_64(a) + ch<u64>(a, b, c);
  h += d;
  x0 = e ^ f;
  d += S0_64(e) + (f ^ (x0 & x1));
  c += load<u64>(WK, 40);
  c += S1_64(h) + ch<u64>(h, a, b);
  g += c;
  x1 = d ^ e;
  c += S0_64(d) + (e ^ (x1 & x0));
  // W[68..69] + K, into the ring slot rounds 52-53 just read.
  m2 = schedule512(m2, m3, m6, m7, m1);
  v128.store(WK, i64x2.add(m2, v128.load(K512, 544)), 32);
  b += load<u64>(WK, 48);
  b += S1_64(g) + ch<u64>(g, h, a);
  f += b;
  x0 = c ^ d;
  b += S0_64(c) + (d ^ (x0 & x1));
  a += load<u64>(WK, 56);
  a += S1_64(f) + ch<u64>(f, g, h);
  e += a;
  x1 = b ^ c;
  a += S0_64(b) + (c ^ (x1 & x0));
  // W[70..71] + K, into the ring slot rounds 54-55 just read.
  m3 = schedule512(m3, m4, m7, m0, m2);
  v128.store(WK, i64x2.add(m3, v128.load(K512, 560)), 48);
  h += load<u64>(WK, 64);
  h += S1_64(e) + ch<u64>(e, f, g);
  d += h;
  x0 = a ^ b;
  h += S0_64(a) + (b ^ (x0 & x1));
  g += load<u64>(WK, 72);
  g += S1_64(d) + ch<u64>(d, e, f);
  c += g;
  x1 = h ^ a;
  g += S0_64(h) + (a ^ (x1 & x0));
  // W[72..73] + K, into the ring slot rounds 56-57 just read.
  m4 = schedule512(m4, m5, m0, m1, m3);
  v128.store(WK, i64x2.add(m4, v128.load(K512, 576)), 64);
  f += load<u64>(WK, 80);
  f += S1_64(c) + ch<u64>(c, d, e);
  b += f;
  x0 = g ^ h;
  f += S0_64(g) + (h ^ (x0 & x1));
  e += load<u64>(WK, 88);
  e += S1_64(b) + ch<u64>(b, c, d);
  a += e;
  x1 = f ^ g;
  e += S0_64(f) + (g ^ (x1 & x0));
  // W[74..75] + K, into the ring slot rounds 58-59 just read.
  m5 = schedule512(m5, m6, m1, m2, m4);
  v128.store(WK, i64x2.add(m5, v128.load(K512, 592)), 80);
  d += load<u64>(WK, 96);
  d += S1_64(a) + ch<u64>(a, b, c);
  h += d;
  x0 = e ^ f;
  d += S0_64(e) + (f ^ (x0 & x1));
  c += load<u64>(WK, 104);
  c += S1_64(h) + ch<u64>(h, a, b);
  g += c;
  x1 = d ^ e;
  c += S0_64(d) + (e ^ (x1 & x0));
  // W[76..77] + K, into the ring slot rounds 60-61 just read.
  m6 = schedule512(m6, m7, m2, m3, m5);
  v128.store(WK, i64x2.add(m6, v128.load(K512, 608)), 96);
  b += load<u64>(WK, 112);
  b += S1_64(g) + ch<u64>(g, h, a);
  f += b;
  x0 = c ^ d;
  b += S0_64(c) + (d ^ (x0 & x1));
  a += load<u64>(WK, 120);
  a += S1_64(f) + ch<u64>(f, g, h);
  e += a;
  x1 = b ^ c;
  a += S0_64(b) + (c ^ (x1 & x0));
  // W[78..79] + K, into the ring slot rounds 62-63 just read.
  m7 = schedule512(m7, m0, m3, m4, m6);
  v128.store(WK, i64x2.add(m7, v128.load(K512, 624)), 112);
  h += load<u64>(WK);
  h += S1_64(e) + ch<u64>(e, f, g);
  d += h;
  x0 = a ^ b;
  h += S0_64(a) + (b ^ (x0 & x1));
  g += load<u64>(WK, 8);
  g += S1_64(d) + ch<u64>(d, e, f);
  c += g;
  x1 = h ^ a;
  g += S0_64(h) + (a ^ (x1 & x0));
  f += load<u64>(WK, 16);
  f += S1_64(c) + ch<u64>(c, d, e);
  b += f;
  x0 = g ^ h;
  f += S0_64(g) + (h ^ (x0 & x1));
  e += load<u64>(WK, 24);
  e += S1_64(b) + ch<u64>(b, c, d);
  a += e;
  x1 = f ^ g;
  e += S0_64(f) + (g ^ (x1 & x0));
  d += load<u64>(WK, 32);
  d += S1_64(a) + ch<u64>(a, b, c);
  h += d;
  x0 = e ^ f;
  d += S0_64(e) + (f ^ (x0 & x1));
  c += load<u64>(WK, 40);
  c += S1_64(h) + ch<u64>(h, a, b);
  g += c;
  x1 = d ^ e;
  c += S0_64(d) + (e ^ (x1 & x0));
  b += load<u64>(WK, 48);
  b += S1_64(g) + ch<u64>(g, h, a);
  f += b;
  x0 = c ^ d;
  b += S0_64(c) + (d ^ (x0 & x1));
  a += load<u64>(WK, 56);
  a += S1_64(f) + ch<u64>(f, g, h);
  e += a;
  x1 = b ^ c;
  a += S0_64(b) + (c ^ (x1 & x0));
  h += load<u64>(WK, 64);
  h += S1_64(e) + ch<u64>(e, f, g);
  d += h;
  x0 = a ^ b;
  h += S0_64(a) + (b ^ (x0 & x1));
  g += load<u64>(WK, 72);
  g += S1_64(d) + ch<u64>(d, e, f);
  c += g;
  x1 = h ^ a;
  g += S0_64(h) + (a ^ (x1 & x0));
  f += load<u64>(WK, 80);
  f += S1_64(c) + ch<u64>(c, d, e);
  b += f;
  x0 = g ^ h;
  f += S0_64(g) + (h ^ (x0 & x1));
  e += load<u64>(WK, 88);
  e += S1_64(b) + ch<u64>(b, c, d);
  a += e;
  x1 = f ^ g;
  e += S0_64(f) + (g ^ (x1 & x0));
  d += load<u64>(WK, 96);
  d += S1_64(a) + ch<u64>(a, b, c);
  h += d;
  x0 = e ^ f;
  d += S0_64(e) + (f ^ (x0 & x1));
  c += load<u64>(WK, 104);
  c += S1_64(h) + ch<u64>(h, a, b);
  g += c;
  x1 = d ^ e;
  c += S0_64(d) + (e ^ (x1 & x0));
  b += load<u64>(WK, 112);
  b += S1_64(g) + ch<u64>(g, h, a);
  f += b;
  x0 = c ^ d;
  b += S0_64(c) + (d ^ (x0 & x1));
  a += load<u64>(WK, 120);
  a += S1_64(f) + ch<u64>(f, g, h);
  e += a;
  x1 = b ^ c;
  a += S0_64(b) + (c ^ (x1 & x0));
  store<u64>(STATE, load<u64>(STATE) + a);
  store<u64>(STATE, load<u64>(STATE, 8) + b, 8);
  store<u64>(STATE, load<u64>(STATE, 16) + c, 16);
  store<u64>(STATE, load<u64>(STATE, 24) + d, 24);
  store<u64>(STATE, load<u64>(STATE, 32) + e, 32);
  store<u64>(STATE, load<u64>(STATE, 40) + f, 40);
  store<u64>(STATE, load<u64>(STATE, 48) + g, 48);
  store<u64>(STATE, load<u64>(STATE, 56) + h, 56);
  // WK's eight v128 stores written out (as compress256's four): the module's zeroWords loop here
  // measured 7-8% slower for a 16-byte HMAC-SHA512, module against module.
  const zero = i64x2.splat(0);
  v128.store(WK, zero);
  v128.store(WK, zero, 16);
  v128.store(WK, zero, 32);
  v128.store(WK, zero, 48);
  v128.store(WK, zero, 64);
  v128.store(WK, zero, 80);
  v128.store(WK, zero, 96);
  v128.store(WK, zero, 112);
}

// --- the HMAC driver -----------------------------------------------------------------------------

/** Which compression function: 1 = SHA-1, 2 = SHA-256, 5 = SHA-512. */
@inline function compressWith(kind: i32, block: usize): void {
  if (kind == 1) compress1(block);
  else if (kind == 2) compress256(block);
  else compress512(block);
}

/**
 * Hashes `len` bytes at `data` into STATE (holding the chaining value after one prefix block),
 * padded in place (5.1): 0x80 after the message and the bit length at the end of the last block,
 * in memory that is zero past the message, and zero again when this returns.
 */
function absorbPadded(kind: i32, data: usize, len: usize): void {
  const blockLen: usize = kind == 5 ? 128 : 64;
  const lengthField: usize = kind == 5 ? 16 : 8;
  const rest = len & (blockLen - 1);
  const last = len - rest; // where the last (padded) block starts
  const end = last + (rest + 1 + lengthField <= blockLen ? blockLen : 2 * blockLen);
  store<u8>(data + len, 0x80);
  store<u64>(data + end - 8, bswap<u64>((<u64>(blockLen + len)) << 3));
  for (let offset: usize = 0; offset < end; offset += blockLen) compressWith(kind, data + offset);
  store<u8>(data + len, 0);
  store<u64>(data + end - 8, 0);
}

/**
 * Writes the first `length` bytes (a multiple of 4) of STATE as the digest, big-endian per word,
 * to `to`: 32-bit words for SHA-1 and SHA-256, 64-bit words high half first for SHA-512.
 */
function putDigest(kind: i32, to: usize, length: usize): void {
  if (kind == 5) {
    for (let i: usize = 0; i < length; i += 4) {
      const word = load<u64>(STATE + (i & ~7));
      const half = <u32>((i & 4) == 0 ? word >> 32 : word);
      store<u32>(to + i, bswap<u32>(half));
    }
  } else {
    for (let i: usize = 0; i < length; i += 4) store<u32>(to + i, bswap<u32>(load<u32>(STATE + i)));
  }
}

// The module's own copy and zero helpers, inlined, rather than lib/memory's copyBytes and
// zeroBytes (v128 loops with a byte tail, called): with those, HMAC of 16 B took 1.06-1.21x the
// time for SHA-256 and 1.07-1.18x for SHA-512 (SHA-1, and every hash at 256 B, within noise), and
// the module grew by 732 bytes, module against module, both load orders (Zen 5, Node 20,
// 2026-12-04). Every length here is a multiple of 8 (states, blocks) or 4 (digests).

/** Copies `length` bytes (a multiple of 8) from `from` to `to` with u64 moves. */
@inline function copyWords(to: usize, from: usize, length: usize): void {
  for (let i: usize = 0; i < length; i += 8) store<u64>(to + i, load<u64>(from + i));
}

/** Copies `length` bytes (a multiple of 4: every digest length here) from `from` to `to`, u32 moves. */
@inline function copyDigest(to: usize, from: usize, length: usize): void {
  for (let i: usize = 0; i < length; i += 4) store<u32>(to + i, load<u32>(from + i));
}

/** Zeroes `length` bytes (a multiple of 8) at `at` with u64 stores (memory.fill calls out of wasm). */
@inline function zeroWords(at: usize, length: usize): void {
  for (let i: usize = 0; i < length; i += 8) store<u64>(at + i, 0);
}

/** HMAC of `len` bytes at `data` (zero past them, see absorbPadded) under the key slot; tag to `to`. */
function hmac(kind: i32, slot: usize, data: usize, len: usize, digestLen: usize, to: usize): void {
  const stateLen: usize = kind == 5 ? 64 : 32;
  // Inner hash: from the prepared inner state (one block of K ⊕ ipad already absorbed).
  copyWords(STATE, slot, stateLen);
  absorbPadded(kind, data, len);
  // Outer hash over the inner digest: one block, built in BLOCK (zero at rest).
  putDigest(kind, BLOCK, digestLen);
  outerHash(kind, slot, digestLen, to);
}

/**
 * The outer hash, H(K ⊕ opad ‖ inner): BLOCK[0..digestLen) holds the inner digest; it is padded
 * there (5.1) and compressed from the slot's outer chaining value, and the tag goes to `to`.
 * STATE and BLOCK are zeroed: nothing key-derived stays behind.
 */
function outerHash(kind: i32, slot: usize, digestLen: usize, to: usize): void {
  const blockLen: usize = kind == 5 ? 128 : 64;
  const stateLen: usize = kind == 5 ? 64 : 32;
  store<u8>(BLOCK + digestLen, 0x80);
  store<u64>(BLOCK + blockLen - 8, bswap<u64>((<u64>(blockLen + digestLen)) << 3));
  copyWords(STATE, slot + stateLen, stateLen);
  compressWith(kind, BLOCK);
  putDigest(kind, to, digestLen);
  zeroWords(STATE, stateLen);
  zeroWords(BLOCK, blockLen);
}

/**
 * Key setup (RFC 2104 section 2): the slot holds the hash's initial value in its inner and outer
 * halves, MSG holds K ⊕ ipad then K ⊕ opad (one block each); each half becomes the chaining value
 * after its block. `kind`: 1 SHA-1, 2 SHA-256/224, 5 the SHA-512 family. MSG's pads are zeroed.
 */
export function hmac_key(slot: usize, kind: i32): void {
  const blockLen: usize = kind == 5 ? 128 : 64;
  const stateLen: usize = kind == 5 ? 64 : 32;
  copyWords(STATE, slot, stateLen);
  compressWith(kind, MSG);
  copyWords(slot, STATE, stateLen);
  copyWords(STATE, slot + stateLen, stateLen);
  compressWith(kind, MSG + blockLen);
  copyWords(slot + stateLen, STATE, stateLen);
  zeroWords(STATE, stateLen);
  zeroWords(MSG, 2 * blockLen);
}

/**
 * The outer hash alone (RFC 2104 section 2's H(K ⊕ opad ‖ inner)), for an inner digest computed
 * elsewhere (node:crypto's one-shot hash, engine/native-hmac.ts): MSG[0..digestLen) holds the inner
 * digest as bytes; the tag goes to OUT. One compression from the slot's outer chaining value.
 * MSG's digest, STATE and BLOCK are zeroed.
 */
export function hmac_outer(slot: usize, kind: i32, digestLen: usize): void {
  // The digest is big-endian bytes already: it goes into BLOCK as it is (every digest length here
  // is a multiple of 4).
  copyDigest(BLOCK, MSG, digestLen);
  zeroWords(MSG, 64);
  outerHash(kind, slot, digestLen, OUT);
}

/** HMAC-SHA-1 of MSG[0..len) under the key slot; the 20-byte tag goes to OUT. */
export function hmac_sha1(slot: usize, len: usize): void {
  hmac(1, slot, MSG, len, 20, OUT);
}
/** HMAC-SHA-256 (digestLen 32) or HMAC-SHA-224 (28). */
export function hmac_sha256(slot: usize, len: usize, digestLen: usize): void {
  hmac(2, slot, MSG, len, digestLen, OUT);
}
/** HMAC-SHA-512 (64), -384 (48), -512/256 (32), -512/224 (28). */
export function hmac_sha512(slot: usize, len: usize, digestLen: usize): void {
  hmac(5, slot, MSG, len, digestLen, OUT);
}

// --- many messages in one call (the batch path, tagMany / verifyMany) ----------------------------
//
// The JavaScript side lays a batch's messages out in MSG, each at a 16-byte-aligned offset with
// its padded length of zeros behind it, and lists them in QUEUE (offset and length, u32 each).
// Entry q's tag goes to `tags` + q × digestLen as bytes (`tags` is in MSG past the messages): the
// caller copies every tag out at once and zeroes them. Each message is zeroed once hashed. One
// call per batch (or per group of lanes) instead of one per message: no copy out and no zeroing
// from JavaScript per message.

export const QUEUE: usize = 5120; // up to QUEUE_LENGTH entries: offset, length (u32 each)
export const QUEUE_LENGTH: usize = 256;

/**
 * HMAC of the messages of QUEUE entries [first, first + count) under the key slot, one by one
 * through the one-message kernel (`kind` 1 SHA-1, 2 SHA-256/224, 5 the SHA-512 family); entry
 * q's tag to tags + q × digestLen. The messages and their entries are zeroed.
 */
export function hmac_queue(kind: i32, slot: usize, first: usize, count: usize, digestLen: usize, tags: usize): void {
  for (let q = first; q < first + count; q++) {
    const entry = QUEUE + (q << 3);
    const at = <usize>load<u32>(entry);
    const len = <usize>load<u32>(entry, 4);
    hmac(kind, slot, at, len, digestLen, tags + q * digestLen);
    // absorbPadded took its padding back; the message itself goes now (to its 8-byte end: the
    // rest of its region is padding room, zero already).
    zeroWords(at, (len + 7) & ~7);
    store<u64>(entry, 0);
  }
}

// --- many messages at once: SIMD lanes (the batch path) -------------------------------------------
//
// The same compressions over four messages at once (SHA-1, SHA-256: one message per i32x4 lane),
// for tagMany / verifyMany under one key: the key's prepared states are splatted to every lane,
// and the inner hashes' chaining values are already the outer block's words, lane by lane.
// Messages of one call have the same number of padded blocks (the JavaScript side groups them).
// Ch and Maj are bitselects (Ch(e, f, g) = bitselect(f, g, e), Maj(a, b, c) = bitselect(b, a,
// a ^ c)); rotations are two shifts and an or. Constant time as above: lanes never branch, and
// nothing but lengths steers the driver. STATEX, WX and the lanes' messages (with their padding)
// are zeroed before return.
//
// SHA-512 has no lanes here: two i64x2 lanes (a 64-bit rotation is three vector operations, and a
// dependent vector addition or XOR two cycles on Zen 5) took 1.02-1.33x the one-message kernel's
// time per message even for one-block messages once that kernel's schedule went into SIMD and its
// additions were ordered for latency (tagMany HMAC-SHA512, 16-100 B, AMD EPYC Zen 5, Node 20,
// 2026-12-04), so the batch path runs SHA-384/512 through hmac_queue.

export const STATEX: usize = 4608; // the lanes' chaining values, 8 × v128
export const WX: usize = 4736; // one block's sixteen schedule words, lane by lane, 16 × v128
export const DESC: usize = 4992; // per lane: the message's offset in memory and its length (u32 each)
// Lane k's result: OUT + 32k.

@inline function rotr4(x: v128, n: i32): v128 {
  return v128.or(i32x4.shr_u(x, n), i32x4.shl(x, 32 - n));
}
@inline function rotl4(x: v128, n: i32): v128 {
  return v128.or(i32x4.shl(x, n), i32x4.shr_u(x, 32 - n));
}
@inline function S0x4(x: v128): v128 {
  return v128.xor(v128.xor(rotr4(x, 2), rotr4(x, 13)), rotr4(x, 22));
}
@inline function S1x4(x: v128): v128 {
  return v128.xor(v128.xor(rotr4(x, 6), rotr4(x, 11)), rotr4(x, 25));
}
/**
 * Four 16-byte rows (four big-endian words of one lane each, at r0..r3) into four columns (word j
 * of every lane), byte-swapped on the way: the 4 × 4 transpose by two rounds of shuffles.
 */
@inline function transpose4(r0: v128, r1: v128, r2: v128, r3: v128, to: usize): void {
  const t0 = i8x16.shuffle(r0, r1, 3, 2, 1, 0, 19, 18, 17, 16, 7, 6, 5, 4, 23, 22, 21, 20);
  const t1 = i8x16.shuffle(r0, r1, 11, 10, 9, 8, 27, 26, 25, 24, 15, 14, 13, 12, 31, 30, 29, 28);
  const t2 = i8x16.shuffle(r2, r3, 3, 2, 1, 0, 19, 18, 17, 16, 7, 6, 5, 4, 23, 22, 21, 20);
  const t3 = i8x16.shuffle(r2, r3, 11, 10, 9, 8, 27, 26, 25, 24, 15, 14, 13, 12, 31, 30, 29, 28);
  v128.store(to, i32x4.shuffle(t0, t2, 0, 1, 4, 5));
  v128.store(to, i32x4.shuffle(t0, t2, 2, 3, 6, 7), 16);
  v128.store(to, i32x4.shuffle(t1, t3, 0, 1, 4, 5), 32);
  v128.store(to, i32x4.shuffle(t1, t3, 2, 3, 6, 7), 48);
}

/** WX ← block `b` (64 bytes) of the four lanes' messages, word j of every lane in WX + 16j. */
function loadBlock4(b: usize): void {
  const p0 = <usize>load<u32>(DESC) + (b << 6);
  const p1 = <usize>load<u32>(DESC, 8) + (b << 6);
  const p2 = <usize>load<u32>(DESC, 16) + (b << 6);
  const p3 = <usize>load<u32>(DESC, 24) + (b << 6);
  for (let m: usize = 0; m < 64; m += 16) {
    transpose4(v128.load(p0 + m), v128.load(p1 + m), v128.load(p2 + m), v128.load(p3 + m), WX + (m << 2));
  }
}

/**
 * STATEX ← SHA-256 compression of STATEX (four lanes) with the schedule words in WX and the round
 * constants at `k` (K256). Without `schedule`, for a padding-only block, WX is zero and `k` holds
 * the block's W[t] + K[t] for all 64 rounds (PAD_WK below). The sixteen
 * schedule words are locals, although with the eight working variables they outnumber the
 * registers: rounds reading W[t] from WX in place, each new word computed into its slot as its
 * round frees it (the ring compress256 uses), measured 1.08-1.13x the time from 64 B to 1 KiB
 * (0.93-1.03x at 16 B), module against module (Zen 5, Node 20, 2026-12-05).
 */
function compress256x4(k: usize, schedule: bool): void {
  let w0 = v128.load(WX, 0);
  let w1 = v128.load(WX, 16);
  let w2 = v128.load(WX, 32);
  let w3 = v128.load(WX, 48);
  let w4 = v128.load(WX, 64);
  let w5 = v128.load(WX, 80);
  let w6 = v128.load(WX, 96);
  let w7 = v128.load(WX, 112);
  let w8 = v128.load(WX, 128);
  let w9 = v128.load(WX, 144);
  let w10 = v128.load(WX, 160);
  let w11 = v128.load(WX, 176);
  let w12 = v128.load(WX, 192);
  let w13 = v128.load(WX, 208);
  let w14 = v128.load(WX, 224);
  let w15 = v128.load(WX, 240);
  let a = v128.load(STATEX, 0);
  let b = v128.load(STATEX, 16);
  let c = v128.load(STATEX, 32);
  let d = v128.load(STATEX, 48);
  let e = v128.load(STATEX, 64);
  let f = v128.load(STATEX, 80);
  let g = v128.load(STATEX, 96);
  let h = v128.load(STATEX, 112);
  let x0 = v128.xor(b, c);
  let x1 = x0;
  for (let t: usize = 0; t < 64; t += 16) {
    h = i32x4.add(S1x4(e), i32x4.add(i32x4.add(h, i32x4.add(w0, v128.load32_splat(k + ((t + 0) << 2)))), v128.bitselect(f, g, e)));
    d = i32x4.add(d, h);
    x0 = v128.xor(a, b);
    h = i32x4.add(h, i32x4.add(S0x4(a), v128.xor(b, v128.and(x0, x1))));
    g = i32x4.add(S1x4(d), i32x4.add(i32x4.add(g, i32x4.add(w1, v128.load32_splat(k + ((t + 1) << 2)))), v128.bitselect(e, f, d)));
    c = i32x4.add(c, g);
    x1 = v128.xor(h, a);
    g = i32x4.add(g, i32x4.add(S0x4(h), v128.xor(a, v128.and(x1, x0))));
    f = i32x4.add(S1x4(c), i32x4.add(i32x4.add(f, i32x4.add(w2, v128.load32_splat(k + ((t + 2) << 2)))), v128.bitselect(d, e, c)));
    b = i32x4.add(b, f);
    x0 = v128.xor(g, h);
    f = i32x4.add(f, i32x4.add(S0x4(g), v128.xor(h, v128.and(x0, x1))));
    e = i32x4.add(S1x4(b), i32x4.add(i32x4.add(e, i32x4.add(w3, v128.load32_splat(k + ((t + 3) << 2)))), v128.bitselect(c, d, b)));
    a = i32x4.add(a, e);
    x1 = v128.xor(f, g);
    e = i32x4.add(e, i32x4.add(S0x4(f), v128.xor(g, v128.and(x1, x0))));
    d = i32x4.add(S1x4(a), i32x4.add(i32x4.add(d, i32x4.add(w4, v128.load32_splat(k + ((t + 4) << 2)))), v128.bitselect(b, c, a)));
    h = i32x4.add(h, d);
    x0 = v128.xor(e, f);
    d = i32x4.add(d, i32x4.add(S0x4(e), v128.xor(f, v128.and(x0, x1))));
    c = i32x4.add(S1x4(h), i32x4.add(i32x4.add(c, i32x4.add(w5, v128.load32_splat(k + ((t + 5) << 2)))), v128.bitselect(a, b, h)));
    g = i32x4.add(g, c);
    x1 = v128.xor(d, e);
    c = i32x4.add(c, i32x4.add(S0x4(d), v128.xor(e, v128.and(x1, x0))));
    b = i32x4.add(S1x4(g), i32x4.add(i32x4.add(b, i32x4.add(w6, v128.load32_splat(k + ((t + 6) << 2)))), v128.bitselect(h, a, g)));
    f = i32x4.add(f, b);
    x0 = v128.xor(c, d);
    b = i32x4.add(b, i32x4.add(S0x4(c), v128.xor(d, v128.and(x0, x1))));
    a = i32x4.add(S1x4(f), i32x4.add(i32x4.add(a, i32x4.add(w7, v128.load32_splat(k + ((t + 7) << 2)))), v128.bitselect(g, h, f)));
    e = i32x4.add(e, a);
    x1 = v128.xor(b, c);
    a = i32x4.add(a, i32x4.add(S0x4(b), v128.xor(c, v128.and(x1, x0))));
    h = i32x4.add(S1x4(e), i32x4.add(i32x4.add(h, i32x4.add(w8, v128.load32_splat(k + ((t + 8) << 2)))), v128.bitselect(f, g, e)));
    d = i32x4.add(d, h);
    x0 = v128.xor(a, b);
    h = i32x4.add(h, i32x4.add(S0x4(a), v128.xor(b, v128.and(x0, x1))));
    g = i32x4.add(S1x4(d), i32x4.add(i32x4.add(g, i32x4.add(w9, v128.load32_splat(k + ((t + 9) << 2)))), v128.bitselect(e, f, d)));
    c = i32x4.add(c, g);
    x1 = v128.xor(h, a);
    g = i32x4.add(g, i32x4.add(S0x4(h), v128.xor(a, v128.and(x1, x0))));
    f = i32x4.add(S1x4(c), i32x4.add(i32x4.add(f, i32x4.add(w10, v128.load32_splat(k + ((t + 10) << 2)))), v128.bitselect(d, e, c)));
    b = i32x4.add(b, f);
    x0 = v128.xor(g, h);
    f = i32x4.add(f, i32x4.add(S0x4(g), v128.xor(h, v128.and(x0, x1))));
    e = i32x4.add(S1x4(b), i32x4.add(i32x4.add(e, i32x4.add(w11, v128.load32_splat(k + ((t + 11) << 2)))), v128.bitselect(c, d, b)));
    a = i32x4.add(a, e);
    x1 = v128.xor(f, g);
    e = i32x4.add(e, i32x4.add(S0x4(f), v128.xor(g, v128.and(x1, x0))));
    d = i32x4.add(S1x4(a), i32x4.add(i32x4.add(d, i32x4.add(w12, v128.load32_splat(k + ((t + 12) << 2)))), v128.bitselect(b, c, a)));
    h = i32x4.add(h, d);
    x0 = v128.xor(e, f);
    d = i32x4.add(d, i32x4.add(S0x4(e), v128.xor(f, v128.and(x0, x1))));
    c = i32x4.add(S1x4(h), i32x4.add(i32x4.add(c, i32x4.add(w13, v128.load32_splat(k + ((t + 13) << 2)))), v128.bitselect(a, b, h)));
    g = i32x4.add(g, c);
    x1 = v128.xor(d, e);
    c = i32x4.add(c, i32x4.add(S0x4(d), v128.xor(e, v128.and(x1, x0))));
    b = i32x4.add(S1x4(g), i32x4.add(i32x4.add(b, i32x4.add(w14, v128.load32_splat(k + ((t + 14) << 2)))), v128.bitselect(h, a, g)));
    f = i32x4.add(f, b);
    x0 = v128.xor(c, d);
    b = i32x4.add(b, i32x4.add(S0x4(c), v128.xor(d, v128.and(x0, x1))));
    a = i32x4.add(S1x4(f), i32x4.add(i32x4.add(a, i32x4.add(w15, v128.load32_splat(k + ((t + 15) << 2)))), v128.bitselect(g, h, f)));
    e = i32x4.add(e, a);
    x1 = v128.xor(b, c);
    a = i32x4.add(a, i32x4.add(S0x4(b), v128.xor(c, v128.and(x1, x0))));
    if (schedule && t < 48) {
      w0 = i32x4.add(i32x4.add(w0, sigma1x4(w14)), i32x4.add(w9, sigma0x4(w1)));
      w1 = i32x4.add(i32x4.add(w1, sigma1x4(w15)), i32x4.add(w10, sigma0x4(w2)));
      w2 = i32x4.add(i32x4.add(w2, sigma1x4(w0)), i32x4.add(w11, sigma0x4(w3)));
      w3 = i32x4.add(i32x4.add(w3, sigma1x4(w1)), i32x4.add(w12, sigma0x4(w4)));
      w4 = i32x4.add(i32x4.add(w4, sigma1x4(w2)), i32x4.add(w13, sigma0x4(w5)));
      w5 = i32x4.add(i32x4.add(w5, sigma1x4(w3)), i32x4.add(w14, sigma0x4(w6)));
      w6 = i32x4.add(i32x4.add(w6, sigma1x4(w4)), i32x4.add(w15, sigma0x4(w7)));
      w7 = i32x4.add(i32x4.add(w7, sigma1x4(w5)), i32x4.add(w0, sigma0x4(w8)));
      w8 = i32x4.add(i32x4.add(w8, sigma1x4(w6)), i32x4.add(w1, sigma0x4(w9)));
      w9 = i32x4.add(i32x4.add(w9, sigma1x4(w7)), i32x4.add(w2, sigma0x4(w10)));
      w10 = i32x4.add(i32x4.add(w10, sigma1x4(w8)), i32x4.add(w3, sigma0x4(w11)));
      w11 = i32x4.add(i32x4.add(w11, sigma1x4(w9)), i32x4.add(w4, sigma0x4(w12)));
      w12 = i32x4.add(i32x4.add(w12, sigma1x4(w10)), i32x4.add(w5, sigma0x4(w13)));
      w13 = i32x4.add(i32x4.add(w13, sigma1x4(w11)), i32x4.add(w6, sigma0x4(w14)));
      w14 = i32x4.add(i32x4.add(w14, sigma1x4(w12)), i32x4.add(w7, sigma0x4(w15)));
      w15 = i32x4.add(i32x4.add(w15, sigma1x4(w13)), i32x4.add(w8, sigma0x4(w0)));
    }
  }
  v128.store(STATEX, i32x4.add(v128.load(STATEX, 0), a), 0);
  v128.store(STATEX, i32x4.add(v128.load(STATEX, 16), b), 16);
  v128.store(STATEX, i32x4.add(v128.load(STATEX, 32), c), 32);
  v128.store(STATEX, i32x4.add(v128.load(STATEX, 48), d), 48);
  v128.store(STATEX, i32x4.add(v128.load(STATEX, 64), e), 64);
  v128.store(STATEX, i32x4.add(v128.load(STATEX, 80), f), 80);
  v128.store(STATEX, i32x4.add(v128.load(STATEX, 96), g), 96);
  v128.store(STATEX, i32x4.add(v128.load(STATEX, 112), h), 112);
}

// A padding-only last block (FIPS 180-4 5.1.1: the 0x80 byte and the 64-bit length did not fit
// the message's last block, so a block of padding follows it) is the same for every message of one
// length, and so is its schedule. When the four lanes hold messages of one length that end in such
// a block (64, 128, 256 B, …: groups of two to four; a lone message goes through hmac_queue), its
// W[t] + K[t] for the 64 rounds are computed once
// per length, with scalar operations, into PAD_WK, and the lanes run that block's rounds without a
// schedule (compress256x4 over PAD_WK, its words zero). The lanes' time, module against module
// (Zen 5, Node 20, 2026-12-05): 0.85-0.95x at 64 B, 0.95-0.97x at 128 B, 0.96-0.98x at 256 B,
// within 1% at 16 B and 1 KiB; a round function of its own for the block measured the same and
// made the module 3.3 KB larger. PAD_WK is kept between calls, outside the scratch that is zeroed:
// it is a function of the public length alone. SHA-1's lanes are well within their goal and keep
// one path; SHA-512's one-message kernel runs its schedule on the vector units beside the scalar
// rounds, so a precomputed one saved it 7% of one block of three or more (not kept).
export const PAD_WK: usize = memory.data(256, 16); // 64 × u32, in the static data (below STATE)
/** The inner hash's bit length PAD_WK holds the padding block of (0: none yet). */
let padBits: u64 = 0;

/** σ0 and σ1 (4.6, 4.7) on one word, for the padding block's schedule. */
@inline function sigma0_32(x: u32): u32 {
  return rotr<u32>(x, 7) ^ rotr<u32>(x, 18) ^ (x >> 3);
}
@inline function sigma1_32(x: u32): u32 {
  return rotr<u32>(x, 17) ^ rotr<u32>(x, 19) ^ (x >> 10);
}

/**
 * The four lanes' common length when it ends in a padding-only block (of `blocks`), else -1.
 * Lengths are public: this branches on nothing else.
 */
function paddingOnlyLength(blocks: usize): i64 {
  const len = load<u32>(DESC, 4);
  if (load<u32>(DESC, 12) != len || load<u32>(DESC, 20) != len || load<u32>(DESC, 28) != len) return -1;
  return <usize>len <= (blocks - 1) << 6 ? <i64>len : -1;
}

/**
 * PAD_WK ← W[t] + K[t] (6.2.2 step 1) of the padding-only last block of a `len`-byte message after
 * the one-block key prefix: 0x80 first when the message ends on the block boundary, the bit length
 * in W[14..15], zeros between.
 */
function padSchedule(len: usize): void {
  const bits = (<u64>(64 + len)) << 3;
  if (bits == padBits) return;
  store<u32>(PAD_WK, (len & 63) == 0 ? 0x80000000 : 0);
  for (let t: usize = 1; t < 14; t++) store<u32>(PAD_WK + (t << 2), 0);
  store<u32>(PAD_WK, <u32>(bits >> 32), 56);
  store<u32>(PAD_WK, <u32>bits, 60);
  for (let t: usize = 16; t < 64; t++) {
    const w = sigma1_32(load<u32>(PAD_WK + ((t - 2) << 2))) + load<u32>(PAD_WK + ((t - 7) << 2)) +
      sigma0_32(load<u32>(PAD_WK + ((t - 15) << 2))) + load<u32>(PAD_WK + ((t - 16) << 2));
    store<u32>(PAD_WK + (t << 2), w);
  }
  for (let t: usize = 0; t < 64; t++) store<u32>(PAD_WK + (t << 2), load<u32>(PAD_WK + (t << 2)) + load<u32>(K256 + (t << 2)));
  padBits = bits;
}

/** STATEX ← SHA-1 compression of STATEX (four lanes, five words) with the words in WX. */
function compressigma1x4(): void {
  let w0 = v128.load(WX, 0);
  let w1 = v128.load(WX, 16);
  let w2 = v128.load(WX, 32);
  let w3 = v128.load(WX, 48);
  let w4 = v128.load(WX, 64);
  let w5 = v128.load(WX, 80);
  let w6 = v128.load(WX, 96);
  let w7 = v128.load(WX, 112);
  let w8 = v128.load(WX, 128);
  let w9 = v128.load(WX, 144);
  let w10 = v128.load(WX, 160);
  let w11 = v128.load(WX, 176);
  let w12 = v128.load(WX, 192);
  let w13 = v128.load(WX, 208);
  let w14 = v128.load(WX, 224);
  let w15 = v128.load(WX, 240);
  let a = v128.load(STATEX, 0);
  let b = v128.load(STATEX, 16);
  let c = v128.load(STATEX, 32);
  let d = v128.load(STATEX, 48);
  let e = v128.load(STATEX, 64);
  e = i32x4.add(rotl4(a, 5), i32x4.add(e, i32x4.add(v128.bitselect(c, d, b), i32x4.add(w0, i32x4.splat(0x5a827999)))));
  b = rotl4(b, 30);
  d = i32x4.add(rotl4(e, 5), i32x4.add(d, i32x4.add(v128.bitselect(b, c, a), i32x4.add(w1, i32x4.splat(0x5a827999)))));
  a = rotl4(a, 30);
  c = i32x4.add(rotl4(d, 5), i32x4.add(c, i32x4.add(v128.bitselect(a, b, e), i32x4.add(w2, i32x4.splat(0x5a827999)))));
  e = rotl4(e, 30);
  b = i32x4.add(rotl4(c, 5), i32x4.add(b, i32x4.add(v128.bitselect(e, a, d), i32x4.add(w3, i32x4.splat(0x5a827999)))));
  d = rotl4(d, 30);
  a = i32x4.add(rotl4(b, 5), i32x4.add(a, i32x4.add(v128.bitselect(d, e, c), i32x4.add(w4, i32x4.splat(0x5a827999)))));
  c = rotl4(c, 30);
  e = i32x4.add(rotl4(a, 5), i32x4.add(e, i32x4.add(v128.bitselect(c, d, b), i32x4.add(w5, i32x4.splat(0x5a827999)))));
  b = rotl4(b, 30);
  d = i32x4.add(rotl4(e, 5), i32x4.add(d, i32x4.add(v128.bitselect(b, c, a), i32x4.add(w6, i32x4.splat(0x5a827999)))));
  a = rotl4(a, 30);
  c = i32x4.add(rotl4(d, 5), i32x4.add(c, i32x4.add(v128.bitselect(a, b, e), i32x4.add(w7, i32x4.splat(0x5a827999)))));
  e = rotl4(e, 30);
  b = i32x4.add(rotl4(c, 5), i32x4.add(b, i32x4.add(v128.bitselect(e, a, d), i32x4.add(w8, i32x4.splat(0x5a827999)))));
  d = rotl4(d, 30);
  a = i32x4.add(rotl4(b, 5), i32x4.add(a, i32x4.add(v128.bitselect(d, e, c), i32x4.add(w9, i32x4.splat(0x5a827999)))));
  c = rotl4(c, 30);
  e = i32x4.add(rotl4(a, 5), i32x4.add(e, i32x4.add(v128.bitselect(c, d, b), i32x4.add(w10, i32x4.splat(0x5a827999)))));
  b = rotl4(b, 30);
  d = i32x4.add(rotl4(e, 5), i32x4.add(d, i32x4.add(v128.bitselect(b, c, a), i32x4.add(w11, i32x4.splat(0x5a827999)))));
  a = rotl4(a, 30);
  c = i32x4.add(rotl4(d, 5), i32x4.add(c, i32x4.add(v128.bitselect(a, b, e), i32x4.add(w12, i32x4.splat(0x5a827999)))));
  e = rotl4(e, 30);
  b = i32x4.add(rotl4(c, 5), i32x4.add(b, i32x4.add(v128.bitselect(e, a, d), i32x4.add(w13, i32x4.splat(0x5a827999)))));
  d = rotl4(d, 30);
  a = i32x4.add(rotl4(b, 5), i32x4.add(a, i32x4.add(v128.bitselect(d, e, c), i32x4.add(w14, i32x4.splat(0x5a827999)))));
  c = rotl4(c, 30);
  e = i32x4.add(rotl4(a, 5), i32x4.add(e, i32x4.add(v128.bitselect(c, d, b), i32x4.add(w15, i32x4.splat(0x5a827999)))));
  b = rotl4(b, 30);
  w0 = rotl4(v128.xor(v128.xor(w13, w8), v128.xor(w2, w0)), 1);
  d = i32x4.add(rotl4(e, 5), i32x4.add(d, i32x4.add(v128.bitselect(b, c, a), i32x4.add(w0, i32x4.splat(0x5a827999)))));
  a = rotl4(a, 30);
  w1 = rotl4(v128.xor(v128.xor(w14, w9), v128.xor(w3, w1)), 1);
  c = i32x4.add(rotl4(d, 5), i32x4.add(c, i32x4.add(v128.bitselect(a, b, e), i32x4.add(w1, i32x4.splat(0x5a827999)))));
  e = rotl4(e, 30);
  w2 = rotl4(v128.xor(v128.xor(w15, w10), v128.xor(w4, w2)), 1);
  b = i32x4.add(rotl4(c, 5), i32x4.add(b, i32x4.add(v128.bitselect(e, a, d), i32x4.add(w2, i32x4.splat(0x5a827999)))));
  d = rotl4(d, 30);
  w3 = rotl4(v128.xor(v128.xor(w0, w11), v128.xor(w5, w3)), 1);
  a = i32x4.add(rotl4(b, 5), i32x4.add(a, i32x4.add(v128.bitselect(d, e, c), i32x4.add(w3, i32x4.splat(0x5a827999)))));
  c = rotl4(c, 30);
  w4 = rotl4(v128.xor(v128.xor(w1, w12), v128.xor(w6, w4)), 1);
  e = i32x4.add(rotl4(a, 5), i32x4.add(e, i32x4.add(v128.xor(v128.xor(b, c), d), i32x4.add(w4, i32x4.splat(0x6ed9eba1)))));
  b = rotl4(b, 30);
  w5 = rotl4(v128.xor(v128.xor(w2, w13), v128.xor(w7, w5)), 1);
  d = i32x4.add(rotl4(e, 5), i32x4.add(d, i32x4.add(v128.xor(v128.xor(a, b), c), i32x4.add(w5, i32x4.splat(0x6ed9eba1)))));
  a = rotl4(a, 30);
  w6 = rotl4(v128.xor(v128.xor(w3, w14), v128.xor(w8, w6)), 1);
  c = i32x4.add(rotl4(d, 5), i32x4.add(c, i32x4.add(v128.xor(v128.xor(e, a), b), i32x4.add(w6, i32x4.splat(0x6ed9eba1)))));
  e = rotl4(e, 30);
  w7 = rotl4(v128.xor(v128.xor(w4, w15), v128.xor(w9, w7)), 1);
  b = i32x4.add(rotl4(c, 5), i32x4.add(b, i32x4.add(v128.xor(v128.xor(d, e), a), i32x4.add(w7, i32x4.splat(0x6ed9eba1)))));
  d = rotl4(d, 30);
  w8 = rotl4(v128.xor(v128.xor(w5, w0), v128.xor(w10, w8)), 1);
  a = i32x4.add(rotl4(b, 5), i32x4.add(a, i32x4.add(v128.xor(v128.xor(c, d), e), i32x4.add(w8, i32x4.splat(0x6ed9eba1)))));
  c = rotl4(c, 30);
  w9 = rotl4(v128.xor(v128.xor(w6, w1), v128.xor(w11, w9)), 1);
  e = i32x4.add(rotl4(a, 5), i32x4.add(e, i32x4.add(v128.xor(v128.xor(b, c), d), i32x4.add(w9, i32x4.splat(0x6ed9eba1)))));
  b = rotl4(b, 30);
  w10 = rotl4(v128.xor(v128.xor(w7, w2), v128.xor(w12, w10)), 1);
  d = i32x4.add(rotl4(e, 5), i32x4.add(d, i32x4.add(v128.xor(v128.xor(a, b), c), i32x4.add(w10, i32x4.splat(0x6ed9eba1)))));
  a = rotl4(a, 30);
  w11 = rotl4(v128.xor(v128.xor(w8, w3), v128.xor(w13, w11)), 1);
  c = i32x4.add(rotl4(d, 5), i32x4.add(c, i32x4.add(v128.xor(v128.xor(e, a), b), i32x4.add(w11, i32x4.splat(0x6ed9eba1)))));
  e = rotl4(e, 30);
  w12 = rotl4(v128.xor(v128.xor(w9, w4), v128.xor(w14, w12)), 1);
  b = i32x4.add(rotl4(c, 5), i32x4.add(b, i32x4.add(v128.xor(v128.xor(d, e), a), i32x4.add(w12, i32x4.splat(0x6ed9eba1)))));
  d = rotl4(d, 30);
  w13 = rotl4(v128.xor(v128.xor(w10, w5), v128.xor(w15, w13)), 1);
  a = i32x4.add(rotl4(b, 5), i32x4.add(a, i32x4.add(v128.xor(v128.xor(c, d), e), i32x4.add(w13, i32x4.splat(0x6ed9eba1)))));
  c = rotl4(c, 30);
  w14 = rotl4(v128.xor(v128.xor(w11, w6), v128.xor(w0, w14)), 1);
  e = i32x4.add(rotl4(a, 5), i32x4.add(e, i32x4.add(v128.xor(v128.xor(b, c), d), i32x4.add(w14, i32x4.splat(0x6ed9eba1)))));
  b = rotl4(b, 30);
  w15 = rotl4(v128.xor(v128.xor(w12, w7), v128.xor(w1, w15)), 1);
  d = i32x4.add(rotl4(e, 5), i32x4.add(d, i32x4.add(v128.xor(v128.xor(a, b), c), i32x4.add(w15, i32x4.splat(0x6ed9eba1)))));
  a = rotl4(a, 30);
  w0 = rotl4(v128.xor(v128.xor(w13, w8), v128.xor(w2, w0)), 1);
  c = i32x4.add(rotl4(d, 5), i32x4.add(c, i32x4.add(v128.xor(v128.xor(e, a), b), i32x4.add(w0, i32x4.splat(0x6ed9eba1)))));
  e = rotl4(e, 30);
  w1 = rotl4(v128.xor(v128.xor(w14, w9), v128.xor(w3, w1)), 1);
  b = i32x4.add(rotl4(c, 5), i32x4.add(b, i32x4.add(v128.xor(v128.xor(d, e), a), i32x4.add(w1, i32x4.splat(0x6ed9eba1)))));
  d = rotl4(d, 30);
  w2 = rotl4(v128.xor(v128.xor(w15, w10), v128.xor(w4, w2)), 1);
  a = i32x4.add(rotl4(b, 5), i32x4.add(a, i32x4.add(v128.xor(v128.xor(c, d), e), i32x4.add(w2, i32x4.splat(0x6ed9eba1)))));
  c = rotl4(c, 30);
  w3 = rotl4(v128.xor(v128.xor(w0, w11), v128.xor(w5, w3)), 1);
  e = i32x4.add(rotl4(a, 5), i32x4.add(e, i32x4.add(v128.xor(v128.xor(b, c), d), i32x4.add(w3, i32x4.splat(0x6ed9eba1)))));
  b = rotl4(b, 30);
  w4 = rotl4(v128.xor(v128.xor(w1, w12), v128.xor(w6, w4)), 1);
  d = i32x4.add(rotl4(e, 5), i32x4.add(d, i32x4.add(v128.xor(v128.xor(a, b), c), i32x4.add(w4, i32x4.splat(0x6ed9eba1)))));
  a = rotl4(a, 30);
  w5 = rotl4(v128.xor(v128.xor(w2, w13), v128.xor(w7, w5)), 1);
  c = i32x4.add(rotl4(d, 5), i32x4.add(c, i32x4.add(v128.xor(v128.xor(e, a), b), i32x4.add(w5, i32x4.splat(0x6ed9eba1)))));
  e = rotl4(e, 30);
  w6 = rotl4(v128.xor(v128.xor(w3, w14), v128.xor(w8, w6)), 1);
  b = i32x4.add(rotl4(c, 5), i32x4.add(b, i32x4.add(v128.xor(v128.xor(d, e), a), i32x4.add(w6, i32x4.splat(0x6ed9eba1)))));
  d = rotl4(d, 30);
  w7 = rotl4(v128.xor(v128.xor(w4, w15), v128.xor(w9, w7)), 1);
  a = i32x4.add(rotl4(b, 5), i32x4.add(a, i32x4.add(v128.xor(v128.xor(c, d), e), i32x4.add(w7, i32x4.splat(0x6ed9eba1)))));
  c = rotl4(c, 30);
  w8 = rotl4(v128.xor(v128.xor(w5, w0), v128.xor(w10, w8)), 1);
  e = i32x4.add(rotl4(a, 5), i32x4.add(e, i32x4.add(v128.bitselect(c, b, v128.xor(b, d)), i32x4.add(w8, i32x4.splat(0x8f1bbcdc)))));
  b = rotl4(b, 30);
  w9 = rotl4(v128.xor(v128.xor(w6, w1), v128.xor(w11, w9)), 1);
  d = i32x4.add(rotl4(e, 5), i32x4.add(d, i32x4.add(v128.bitselect(b, a, v128.xor(a, c)), i32x4.add(w9, i32x4.splat(0x8f1bbcdc)))));
  a = rotl4(a, 30);
  w10 = rotl4(v128.xor(v128.xor(w7, w2), v128.xor(w12, w10)), 1);
  c = i32x4.add(rotl4(d, 5), i32x4.add(c, i32x4.add(v128.bitselect(a, e, v128.xor(e, b)), i32x4.add(w10, i32x4.splat(0x8f1bbcdc)))));
  e = rotl4(e, 30);
  w11 = rotl4(v128.xor(v128.xor(w8, w3), v128.xor(w13, w11)), 1);
  b = i32x4.add(rotl4(c, 5), i32x4.add(b, i32x4.add(v128.bitselect(e, d, v128.xor(d, a)), i32x4.add(w11, i32x4.splat(0x8f1bbcdc)))));
  d = rotl4(d, 30);
  w12 = rotl4(v128.xor(v128.xor(w9, w4), v128.xor(w14, w12)), 1);
  a = i32x4.add(rotl4(b, 5), i32x4.add(a, i32x4.add(v128.bitselect(d, c, v128.xor(c, e)), i32x4.add(w12, i32x4.splat(0x8f1bbcdc)))));
  c = rotl4(c, 30);
  w13 = rotl4(v128.xor(v128.xor(w10, w5), v128.xor(w15, w13)), 1);
  e = i32x4.add(rotl4(a, 5), i32x4.add(e, i32x4.add(v128.bitselect(c, b, v128.xor(b, d)), i32x4.add(w13, i32x4.splat(0x8f1bbcdc)))));
  b = rotl4(b, 30);
  w14 = rotl4(v128.xor(v128.xor(w11, w6), v128.xor(w0, w14)), 1);
  d = i32x4.add(rotl4(e, 5), i32x4.add(d, i32x4.add(v128.bitselect(b, a, v128.xor(a, c)), i32x4.add(w14, i32x4.splat(0x8f1bbcdc)))));
  a = rotl4(a, 30);
  w15 = rotl4(v128.xor(v128.xor(w12, w7), v128.xor(w1, w15)), 1);
  c = i32x4.add(rotl4(d, 5), i32x4.add(c, i32x4.add(v128.bitselect(a, e, v128.xor(e, b)), i32x4.add(w15, i32x4.splat(0x8f1bbcdc)))));
  e = rotl4(e, 30);
  w0 = rotl4(v128.xor(v128.xor(w13, w8), v128.xor(w2, w0)), 1);
  b = i32x4.add(rotl4(c, 5), i32x4.add(b, i32x4.add(v128.bitselect(e, d, v128.xor(d, a)), i32x4.add(w0, i32x4.splat(0x8f1bbcdc)))));
  d = rotl4(d, 30);
  w1 = rotl4(v128.xor(v128.xor(w14, w9), v128.xor(w3, w1)), 1);
  a = i32x4.add(rotl4(b, 5), i32x4.add(a, i32x4.add(v128.bitselect(d, c, v128.xor(c, e)), i32x4.add(w1, i32x4.splat(0x8f1bbcdc)))));
  c = rotl4(c, 30);
  w2 = rotl4(v128.xor(v128.xor(w15, w10), v128.xor(w4, w2)), 1);
  e = i32x4.add(rotl4(a, 5), i32x4.add(e, i32x4.add(v128.bitselect(c, b, v128.xor(b, d)), i32x4.add(w2, i32x4.splat(0x8f1bbcdc)))));
  b = rotl4(b, 30);
  w3 = rotl4(v128.xor(v128.xor(w0, w11), v128.xor(w5, w3)), 1);
  d = i32x4.add(rotl4(e, 5), i32x4.add(d, i32x4.add(v128.bitselect(b, a, v128.xor(a, c)), i32x4.add(w3, i32x4.splat(0x8f1bbcdc)))));
  a = rotl4(a, 30);
  w4 = rotl4(v128.xor(v128.xor(w1, w12), v128.xor(w6, w4)), 1);
  c = i32x4.add(rotl4(d, 5), i32x4.add(c, i32x4.add(v128.bitselect(a, e, v128.xor(e, b)), i32x4.add(w4, i32x4.splat(0x8f1bbcdc)))));
  e = rotl4(e, 30);
  w5 = rotl4(v128.xor(v128.xor(w2, w13), v128.xor(w7, w5)), 1);
  b = i32x4.add(rotl4(c, 5), i32x4.add(b, i32x4.add(v128.bitselect(e, d, v128.xor(d, a)), i32x4.add(w5, i32x4.splat(0x8f1bbcdc)))));
  d = rotl4(d, 30);
  w6 = rotl4(v128.xor(v128.xor(w3, w14), v128.xor(w8, w6)), 1);
  a = i32x4.add(rotl4(b, 5), i32x4.add(a, i32x4.add(v128.bitselect(d, c, v128.xor(c, e)), i32x4.add(w6, i32x4.splat(0x8f1bbcdc)))));
  c = rotl4(c, 30);
  w7 = rotl4(v128.xor(v128.xor(w4, w15), v128.xor(w9, w7)), 1);
  e = i32x4.add(rotl4(a, 5), i32x4.add(e, i32x4.add(v128.bitselect(c, b, v128.xor(b, d)), i32x4.add(w7, i32x4.splat(0x8f1bbcdc)))));
  b = rotl4(b, 30);
  w8 = rotl4(v128.xor(v128.xor(w5, w0), v128.xor(w10, w8)), 1);
  d = i32x4.add(rotl4(e, 5), i32x4.add(d, i32x4.add(v128.bitselect(b, a, v128.xor(a, c)), i32x4.add(w8, i32x4.splat(0x8f1bbcdc)))));
  a = rotl4(a, 30);
  w9 = rotl4(v128.xor(v128.xor(w6, w1), v128.xor(w11, w9)), 1);
  c = i32x4.add(rotl4(d, 5), i32x4.add(c, i32x4.add(v128.bitselect(a, e, v128.xor(e, b)), i32x4.add(w9, i32x4.splat(0x8f1bbcdc)))));
  e = rotl4(e, 30);
  w10 = rotl4(v128.xor(v128.xor(w7, w2), v128.xor(w12, w10)), 1);
  b = i32x4.add(rotl4(c, 5), i32x4.add(b, i32x4.add(v128.bitselect(e, d, v128.xor(d, a)), i32x4.add(w10, i32x4.splat(0x8f1bbcdc)))));
  d = rotl4(d, 30);
  w11 = rotl4(v128.xor(v128.xor(w8, w3), v128.xor(w13, w11)), 1);
  a = i32x4.add(rotl4(b, 5), i32x4.add(a, i32x4.add(v128.bitselect(d, c, v128.xor(c, e)), i32x4.add(w11, i32x4.splat(0x8f1bbcdc)))));
  c = rotl4(c, 30);
  w12 = rotl4(v128.xor(v128.xor(w9, w4), v128.xor(w14, w12)), 1);
  e = i32x4.add(rotl4(a, 5), i32x4.add(e, i32x4.add(v128.xor(v128.xor(b, c), d), i32x4.add(w12, i32x4.splat(0xca62c1d6)))));
  b = rotl4(b, 30);
  w13 = rotl4(v128.xor(v128.xor(w10, w5), v128.xor(w15, w13)), 1);
  d = i32x4.add(rotl4(e, 5), i32x4.add(d, i32x4.add(v128.xor(v128.xor(a, b), c), i32x4.add(w13, i32x4.splat(0xca62c1d6)))));
  a = rotl4(a, 30);
  w14 = rotl4(v128.xor(v128.xor(w11, w6), v128.xor(w0, w14)), 1);
  c = i32x4.add(rotl4(d, 5), i32x4.add(c, i32x4.add(v128.xor(v128.xor(e, a), b), i32x4.add(w14, i32x4.splat(0xca62c1d6)))));
  e = rotl4(e, 30);
  w15 = rotl4(v128.xor(v128.xor(w12, w7), v128.xor(w1, w15)), 1);
  b = i32x4.add(rotl4(c, 5), i32x4.add(b, i32x4.add(v128.xor(v128.xor(d, e), a), i32x4.add(w15, i32x4.splat(0xca62c1d6)))));
  d = rotl4(d, 30);
  w0 = rotl4(v128.xor(v128.xor(w13, w8), v128.xor(w2, w0)), 1);
  a = i32x4.add(rotl4(b, 5), i32x4.add(a, i32x4.add(v128.xor(v128.xor(c, d), e), i32x4.add(w0, i32x4.splat(0xca62c1d6)))));
  c = rotl4(c, 30);
  w1 = rotl4(v128.xor(v128.xor(w14, w9), v128.xor(w3, w1)), 1);
  e = i32x4.add(rotl4(a, 5), i32x4.add(e, i32x4.add(v128.xor(v128.xor(b, c), d), i32x4.add(w1, i32x4.splat(0xca62c1d6)))));
  b = rotl4(b, 30);
  w2 = rotl4(v128.xor(v128.xor(w15, w10), v128.xor(w4, w2)), 1);
  d = i32x4.add(rotl4(e, 5), i32x4.add(d, i32x4.add(v128.xor(v128.xor(a, b), c), i32x4.add(w2, i32x4.splat(0xca62c1d6)))));
  a = rotl4(a, 30);
  w3 = rotl4(v128.xor(v128.xor(w0, w11), v128.xor(w5, w3)), 1);
  c = i32x4.add(rotl4(d, 5), i32x4.add(c, i32x4.add(v128.xor(v128.xor(e, a), b), i32x4.add(w3, i32x4.splat(0xca62c1d6)))));
  e = rotl4(e, 30);
  w4 = rotl4(v128.xor(v128.xor(w1, w12), v128.xor(w6, w4)), 1);
  b = i32x4.add(rotl4(c, 5), i32x4.add(b, i32x4.add(v128.xor(v128.xor(d, e), a), i32x4.add(w4, i32x4.splat(0xca62c1d6)))));
  d = rotl4(d, 30);
  w5 = rotl4(v128.xor(v128.xor(w2, w13), v128.xor(w7, w5)), 1);
  a = i32x4.add(rotl4(b, 5), i32x4.add(a, i32x4.add(v128.xor(v128.xor(c, d), e), i32x4.add(w5, i32x4.splat(0xca62c1d6)))));
  c = rotl4(c, 30);
  w6 = rotl4(v128.xor(v128.xor(w3, w14), v128.xor(w8, w6)), 1);
  e = i32x4.add(rotl4(a, 5), i32x4.add(e, i32x4.add(v128.xor(v128.xor(b, c), d), i32x4.add(w6, i32x4.splat(0xca62c1d6)))));
  b = rotl4(b, 30);
  w7 = rotl4(v128.xor(v128.xor(w4, w15), v128.xor(w9, w7)), 1);
  d = i32x4.add(rotl4(e, 5), i32x4.add(d, i32x4.add(v128.xor(v128.xor(a, b), c), i32x4.add(w7, i32x4.splat(0xca62c1d6)))));
  a = rotl4(a, 30);
  w8 = rotl4(v128.xor(v128.xor(w5, w0), v128.xor(w10, w8)), 1);
  c = i32x4.add(rotl4(d, 5), i32x4.add(c, i32x4.add(v128.xor(v128.xor(e, a), b), i32x4.add(w8, i32x4.splat(0xca62c1d6)))));
  e = rotl4(e, 30);
  w9 = rotl4(v128.xor(v128.xor(w6, w1), v128.xor(w11, w9)), 1);
  b = i32x4.add(rotl4(c, 5), i32x4.add(b, i32x4.add(v128.xor(v128.xor(d, e), a), i32x4.add(w9, i32x4.splat(0xca62c1d6)))));
  d = rotl4(d, 30);
  w10 = rotl4(v128.xor(v128.xor(w7, w2), v128.xor(w12, w10)), 1);
  a = i32x4.add(rotl4(b, 5), i32x4.add(a, i32x4.add(v128.xor(v128.xor(c, d), e), i32x4.add(w10, i32x4.splat(0xca62c1d6)))));
  c = rotl4(c, 30);
  w11 = rotl4(v128.xor(v128.xor(w8, w3), v128.xor(w13, w11)), 1);
  e = i32x4.add(rotl4(a, 5), i32x4.add(e, i32x4.add(v128.xor(v128.xor(b, c), d), i32x4.add(w11, i32x4.splat(0xca62c1d6)))));
  b = rotl4(b, 30);
  w12 = rotl4(v128.xor(v128.xor(w9, w4), v128.xor(w14, w12)), 1);
  d = i32x4.add(rotl4(e, 5), i32x4.add(d, i32x4.add(v128.xor(v128.xor(a, b), c), i32x4.add(w12, i32x4.splat(0xca62c1d6)))));
  a = rotl4(a, 30);
  w13 = rotl4(v128.xor(v128.xor(w10, w5), v128.xor(w15, w13)), 1);
  c = i32x4.add(rotl4(d, 5), i32x4.add(c, i32x4.add(v128.xor(v128.xor(e, a), b), i32x4.add(w13, i32x4.splat(0xca62c1d6)))));
  e = rotl4(e, 30);
  w14 = rotl4(v128.xor(v128.xor(w11, w6), v128.xor(w0, w14)), 1);
  b = i32x4.add(rotl4(c, 5), i32x4.add(b, i32x4.add(v128.xor(v128.xor(d, e), a), i32x4.add(w14, i32x4.splat(0xca62c1d6)))));
  d = rotl4(d, 30);
  w15 = rotl4(v128.xor(v128.xor(w12, w7), v128.xor(w1, w15)), 1);
  a = i32x4.add(rotl4(b, 5), i32x4.add(a, i32x4.add(v128.xor(v128.xor(c, d), e), i32x4.add(w15, i32x4.splat(0xca62c1d6)))));
  c = rotl4(c, 30);
  v128.store(STATEX, i32x4.add(v128.load(STATEX, 0), a), 0);
  v128.store(STATEX, i32x4.add(v128.load(STATEX, 16), b), 16);
  v128.store(STATEX, i32x4.add(v128.load(STATEX, 32), c), 32);
  v128.store(STATEX, i32x4.add(v128.load(STATEX, 48), d), 48);
  v128.store(STATEX, i32x4.add(v128.load(STATEX, 64), e), 64);
}

/**
 * Pads each lane's message in place (0x80, the bit length of prefix block and message at the end
 * of its last 64-byte block).
 */
function padLanes(blocks: usize): void {
  for (let k: usize = 0; k < 4; k++) {
    const p = <usize>load<u32>(DESC + (k << 3));
    const len = <usize>load<u32>(DESC + (k << 3), 4);
    store<u8>(p + len, 0x80);
    store<u64>(p + (blocks << 6) - 8, bswap<u64>((<u64>(64 + len)) << 3));
  }
}

/** Zeroes WX, the lanes' sixteen schedule words. */
@inline function zeroWX(): void {
  for (let i: usize = 0; i < 256; i += 16) v128.store(WX + i, i64x2.splat(0));
}

/**
 * Zeroes STATEX, WX and the lanes' messages with their padding (whole blocks from each lane's
 * offset, which the JavaScript side aligns to 16 bytes): nothing of a key or a message stays.
 */
function clearLanes(blocks: usize): void {
  for (let k: usize = 0; k < 4; k++) {
    const p = <usize>load<u32>(DESC + (k << 3));
    const end = p + (blocks << 6);
    for (let i = p; i < end; i += 16) v128.store(i, i64x2.splat(0));
  }
  for (let i: usize = 0; i < 128; i += 16) v128.store(STATEX + i, i64x2.splat(0));
  zeroWX();
  // The descriptors are public (offsets and lengths) but are cleared too: scratch is zero at rest.
  v128.store(DESC, i64x2.splat(0));
  v128.store(DESC, i64x2.splat(0), 16);
}

/**
 * DESC ← QUEUE entries [first, first + size) for the four lanes: a group short of a full set
 * repeats its last message in the spare lanes (their results are dropped).
 */
function lanesFromQueue(first: usize, size: usize): void {
  for (let k: usize = 0; k < 4; k++) {
    const lane = k < size ? k : size - 1;
    store<u64>(DESC + (k << 3), load<u64>(QUEUE + ((first + lane) << 3)));
  }
}

/**
 * Lane k's tag (at OUT + 32k) to tags + (first + k) × digestLen for the group's `size` messages;
 * OUT and the group's QUEUE entries are zeroed.
 */
function tagsFromLanes(first: usize, size: usize, digestLen: usize, tags: usize): void {
  for (let k: usize = 0; k < size; k++) {
    copyDigest(tags + (first + k) * digestLen, OUT + (k << 5), digestLen);
    store<u64>(QUEUE + ((first + k) << 3), 0);
  }
  zeroWords(OUT, 128);
}

/**
 * HMAC-SHA-256/224 (`kind` 2) or HMAC-SHA-1 (`kind` 1) of four messages (DESC) of `blocks` padded
 * blocks each under the key slot; lane k's tag to OUT + 32k.
 */
function hmacX4(kind: i32, slot: usize, blocks: usize, digestLen: usize): void {
  padLanes(blocks);
  const words: usize = kind == 1 ? 5 : 8;
  for (let j: usize = 0; j < words; j++) v128.store(STATEX + (j << 4), i32x4.splat(load<u32>(slot + (j << 2))));
  // SHA-256's padding-only last block, when the lanes share it, without a schedule.
  const shared = kind == 2 ? paddingOnlyLength(blocks) : -1;
  const scheduled = shared < 0 ? blocks : blocks - 1;
  for (let b: usize = 0; b < scheduled; b++) {
    loadBlock4(b);
    if (kind == 1) compressigma1x4();
    else compress256x4(K256, true);
  }
  if (shared >= 0) {
    // The block's words are all in PAD_WK (with K): the lanes' schedule words are zero.
    zeroWX();
    padSchedule(<usize>shared);
    compress256x4(PAD_WK, false);
  }
  // The outer block: the inner digest's words, 0x80, zeros, the bit length (5.1.1).
  const d = digestLen >> 2;
  for (let j: usize = 0; j < 16; j++) v128.store(WX + (j << 4), j < d ? v128.load(STATEX + (j << 4)) : i64x2.splat(0));
  v128.store(WX + (d << 4), i32x4.splat(0x80000000));
  v128.store(WX + 240, i32x4.splat(<i32>((64 + <i32>digestLen) << 3)));
  for (let j: usize = 0; j < words; j++) v128.store(STATEX + (j << 4), i32x4.splat(load<u32>(slot + 32 + (j << 2))));
  if (kind == 1) compressigma1x4();
  else compress256x4(K256, true);
  // Lane k's digest, big-endian words, to OUT + 32k: the transpose back.
  transpose4(v128.load(STATEX), v128.load(STATEX, 16), v128.load(STATEX, 32), v128.load(STATEX, 48), BLOCK);
  for (let k: usize = 0; k < 4; k++) v128.store(OUT + (k << 5), v128.load(BLOCK + (k << 4)));
  if (kind == 1) {
    const e = i8x16.shuffle(v128.load(STATEX, 64), v128.load(STATEX, 64), 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
    store<u32>(OUT, i32x4.extract_lane(e, 0), 16);
    store<u32>(OUT, i32x4.extract_lane(e, 1), 48);
    store<u32>(OUT, i32x4.extract_lane(e, 2), 80);
    store<u32>(OUT, i32x4.extract_lane(e, 3), 112);
  } else {
    transpose4(v128.load(STATEX, 64), v128.load(STATEX, 80), v128.load(STATEX, 96), v128.load(STATEX, 112), BLOCK);
    for (let k: usize = 0; k < 4; k++) v128.store(OUT + (k << 5) + 16, v128.load(BLOCK + (k << 4)));
  }
  zeroWords(BLOCK, 64);
  clearLanes(blocks);
}

/**
 * HMAC-SHA-256 (digestLen 32) or -224 (28) of QUEUE entries [first, first + size) (2 ≤ size ≤ 4),
 * `blocks` blocks each; entry q's tag to tags + q × digestLen.
 */
export function hmac_sha256_x4(slot: usize, first: usize, size: usize, blocks: usize, digestLen: usize, tags: usize): void {
  lanesFromQueue(first, size);
  hmacX4(2, slot, blocks, digestLen);
  tagsFromLanes(first, size, digestLen, tags);
}

/** HMAC-SHA-1 of QUEUE entries [first, first + size), as hmac_sha256_x4. */
export function hmac_sha1_x4(slot: usize, first: usize, size: usize, blocks: usize, tags: usize): void {
  lanesFromQueue(first, size);
  hmacX4(1, slot, blocks, 20);
  tagsFromLanes(first, size, 20, tags);
}
