// AssemblyScript: HMAC over SHA-1, SHA-256 (and SHA-224) and SHA-512 (and SHA-384, SHA-512/t)
// from prepared key states, in one call (FIPS 180-4, RFC 2104). The JavaScript side writes the
// inner and outer chaining values after the padded-key blocks into a key slot, the message into
// MSG, and gets the tag from OUT; or, for key setup, the initial values into the slot and the
// two padded-key blocks into MSG (hmac_key).
//
// The compression functions keep the whole message schedule in sixteen locals and the working
// variables in locals, with rounds unrolled so that the variables' roles rotate instead of their
// values moving (FIPS 180-4 6.1.3 / 6.2.2's "alternate method" with a 16-word circular schedule):
// one block is read from memory once and nothing else touches memory until the chaining value is
// added back. SHA-256 and SHA-512 run a 16-round body four and five times; SHA-1's 80 rounds are
// written out (its five roles and sixteen schedule words only line up again after 80 rounds).
//
// Constant time: only ARX and Boolean operations, fixed rotations, and round constants indexed by
// the public round number; branches depend on lengths alone. No secret stays in module memory:
// STATE, BLOCK and the padding written into MSG are zeroed before an export returns (the
// schedule and working variables never leave locals).

// Memory map (bytes); no static data (the round constants are immediates in the unrolled rounds). Key slots
// start at SLOTS and are managed by the JavaScript side: inner chaining value at +0, outer at +32
// (SHA-1, SHA-256) or +64 (SHA-512).
export const STATE: usize = 4096; // the working chaining value, 8 × u64
export const BLOCK: usize = 4224; // the outer hash's one block (up to 128 bytes), zero at rest
export const OUT: usize = 4352; // the tag
export const MSG: usize = 8192; // the message, up to MSG_CAPACITY bytes
export const MSG_CAPACITY: usize = 65536;
// The message is padded in place (MSG is zero past the message at rest): up to two blocks past it.
export const SLOTS: usize = MSG + MSG_CAPACITY + 256;

// --- the functions of FIPS 180-4 section 4.1 ----------------------------------------------------

// Ch and Maj in the forms with one operation fewer (same truth tables as 4.2, 4.8).
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
@inline function s0_32(x: u32): u32 {
  return rotr<u32>(x, 7) ^ rotr<u32>(x, 18) ^ (x >>> 3);
}
@inline function s1_32(x: u32): u32 {
  return rotr<u32>(x, 17) ^ rotr<u32>(x, 19) ^ (x >>> 10);
}
@inline function S0_64(x: u64): u64 {
  return rotr<u64>(x, 28) ^ rotr<u64>(x, 34) ^ rotr<u64>(x, 39);
}
@inline function S1_64(x: u64): u64 {
  return rotr<u64>(x, 14) ^ rotr<u64>(x, 18) ^ rotr<u64>(x, 41);
}
@inline function s0_64(x: u64): u64 {
  return rotr<u64>(x, 1) ^ rotr<u64>(x, 8) ^ (x >> 7);
}
@inline function s1_64(x: u64): u64 {
  return rotr<u64>(x, 19) ^ rotr<u64>(x, 61) ^ (x >> 6);
}
// --- SHA-256 (FIPS 180-4 6.2.2) ------------------------------------------------------------------

/** STATE ← compression of STATE with the 64-byte block at `block`. */
function compress256(block: usize): void {
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
  let f = load<u32>(STATE, 20);
  let g = load<u32>(STATE, 24);
  let h = load<u32>(STATE, 28);
  h += S1_32(e) + ch<u32>(e, f, g) + 0x428a2f98 + w0;
  d += h;
  h += S0_32(a) + maj<u32>(a, b, c);
  g += S1_32(d) + ch<u32>(d, e, f) + 0x71374491 + w1;
  c += g;
  g += S0_32(h) + maj<u32>(h, a, b);
  f += S1_32(c) + ch<u32>(c, d, e) + 0xb5c0fbcf + w2;
  b += f;
  f += S0_32(g) + maj<u32>(g, h, a);
  e += S1_32(b) + ch<u32>(b, c, d) + 0xe9b5dba5 + w3;
  a += e;
  e += S0_32(f) + maj<u32>(f, g, h);
  d += S1_32(a) + ch<u32>(a, b, c) + 0x3956c25b + w4;
  h += d;
  d += S0_32(e) + maj<u32>(e, f, g);
  c += S1_32(h) + ch<u32>(h, a, b) + 0x59f111f1 + w5;
  g += c;
  c += S0_32(d) + maj<u32>(d, e, f);
  b += S1_32(g) + ch<u32>(g, h, a) + 0x923f82a4 + w6;
  f += b;
  b += S0_32(c) + maj<u32>(c, d, e);
  a += S1_32(f) + ch<u32>(f, g, h) + 0xab1c5ed5 + w7;
  e += a;
  a += S0_32(b) + maj<u32>(b, c, d);
  h += S1_32(e) + ch<u32>(e, f, g) + 0xd807aa98 + w8;
  d += h;
  h += S0_32(a) + maj<u32>(a, b, c);
  g += S1_32(d) + ch<u32>(d, e, f) + 0x12835b01 + w9;
  c += g;
  g += S0_32(h) + maj<u32>(h, a, b);
  f += S1_32(c) + ch<u32>(c, d, e) + 0x243185be + w10;
  b += f;
  f += S0_32(g) + maj<u32>(g, h, a);
  e += S1_32(b) + ch<u32>(b, c, d) + 0x550c7dc3 + w11;
  a += e;
  e += S0_32(f) + maj<u32>(f, g, h);
  d += S1_32(a) + ch<u32>(a, b, c) + 0x72be5d74 + w12;
  h += d;
  d += S0_32(e) + maj<u32>(e, f, g);
  c += S1_32(h) + ch<u32>(h, a, b) + 0x80deb1fe + w13;
  g += c;
  c += S0_32(d) + maj<u32>(d, e, f);
  b += S1_32(g) + ch<u32>(g, h, a) + 0x9bdc06a7 + w14;
  f += b;
  b += S0_32(c) + maj<u32>(c, d, e);
  a += S1_32(f) + ch<u32>(f, g, h) + 0xc19bf174 + w15;
  e += a;
  a += S0_32(b) + maj<u32>(b, c, d);
  w0 += s1_32(w14) + w9 + s0_32(w1);
  h += S1_32(e) + ch<u32>(e, f, g) + 0xe49b69c1 + w0;
  d += h;
  h += S0_32(a) + maj<u32>(a, b, c);
  w1 += s1_32(w15) + w10 + s0_32(w2);
  g += S1_32(d) + ch<u32>(d, e, f) + 0xefbe4786 + w1;
  c += g;
  g += S0_32(h) + maj<u32>(h, a, b);
  w2 += s1_32(w0) + w11 + s0_32(w3);
  f += S1_32(c) + ch<u32>(c, d, e) + 0x0fc19dc6 + w2;
  b += f;
  f += S0_32(g) + maj<u32>(g, h, a);
  w3 += s1_32(w1) + w12 + s0_32(w4);
  e += S1_32(b) + ch<u32>(b, c, d) + 0x240ca1cc + w3;
  a += e;
  e += S0_32(f) + maj<u32>(f, g, h);
  w4 += s1_32(w2) + w13 + s0_32(w5);
  d += S1_32(a) + ch<u32>(a, b, c) + 0x2de92c6f + w4;
  h += d;
  d += S0_32(e) + maj<u32>(e, f, g);
  w5 += s1_32(w3) + w14 + s0_32(w6);
  c += S1_32(h) + ch<u32>(h, a, b) + 0x4a7484aa + w5;
  g += c;
  c += S0_32(d) + maj<u32>(d, e, f);
  w6 += s1_32(w4) + w15 + s0_32(w7);
  b += S1_32(g) + ch<u32>(g, h, a) + 0x5cb0a9dc + w6;
  f += b;
  b += S0_32(c) + maj<u32>(c, d, e);
  w7 += s1_32(w5) + w0 + s0_32(w8);
  a += S1_32(f) + ch<u32>(f, g, h) + 0x76f988da + w7;
  e += a;
  a += S0_32(b) + maj<u32>(b, c, d);
  w8 += s1_32(w6) + w1 + s0_32(w9);
  h += S1_32(e) + ch<u32>(e, f, g) + 0x983e5152 + w8;
  d += h;
  h += S0_32(a) + maj<u32>(a, b, c);
  w9 += s1_32(w7) + w2 + s0_32(w10);
  g += S1_32(d) + ch<u32>(d, e, f) + 0xa831c66d + w9;
  c += g;
  g += S0_32(h) + maj<u32>(h, a, b);
  w10 += s1_32(w8) + w3 + s0_32(w11);
  f += S1_32(c) + ch<u32>(c, d, e) + 0xb00327c8 + w10;
  b += f;
  f += S0_32(g) + maj<u32>(g, h, a);
  w11 += s1_32(w9) + w4 + s0_32(w12);
  e += S1_32(b) + ch<u32>(b, c, d) + 0xbf597fc7 + w11;
  a += e;
  e += S0_32(f) + maj<u32>(f, g, h);
  w12 += s1_32(w10) + w5 + s0_32(w13);
  d += S1_32(a) + ch<u32>(a, b, c) + 0xc6e00bf3 + w12;
  h += d;
  d += S0_32(e) + maj<u32>(e, f, g);
  w13 += s1_32(w11) + w6 + s0_32(w14);
  c += S1_32(h) + ch<u32>(h, a, b) + 0xd5a79147 + w13;
  g += c;
  c += S0_32(d) + maj<u32>(d, e, f);
  w14 += s1_32(w12) + w7 + s0_32(w15);
  b += S1_32(g) + ch<u32>(g, h, a) + 0x06ca6351 + w14;
  f += b;
  b += S0_32(c) + maj<u32>(c, d, e);
  w15 += s1_32(w13) + w8 + s0_32(w0);
  a += S1_32(f) + ch<u32>(f, g, h) + 0x14292967 + w15;
  e += a;
  a += S0_32(b) + maj<u32>(b, c, d);
  w0 += s1_32(w14) + w9 + s0_32(w1);
  h += S1_32(e) + ch<u32>(e, f, g) + 0x27b70a85 + w0;
  d += h;
  h += S0_32(a) + maj<u32>(a, b, c);
  w1 += s1_32(w15) + w10 + s0_32(w2);
  g += S1_32(d) + ch<u32>(d, e, f) + 0x2e1b2138 + w1;
  c += g;
  g += S0_32(h) + maj<u32>(h, a, b);
  w2 += s1_32(w0) + w11 + s0_32(w3);
  f += S1_32(c) + ch<u32>(c, d, e) + 0x4d2c6dfc + w2;
  b += f;
  f += S0_32(g) + maj<u32>(g, h, a);
  w3 += s1_32(w1) + w12 + s0_32(w4);
  e += S1_32(b) + ch<u32>(b, c, d) + 0x53380d13 + w3;
  a += e;
  e += S0_32(f) + maj<u32>(f, g, h);
  w4 += s1_32(w2) + w13 + s0_32(w5);
  d += S1_32(a) + ch<u32>(a, b, c) + 0x650a7354 + w4;
  h += d;
  d += S0_32(e) + maj<u32>(e, f, g);
  w5 += s1_32(w3) + w14 + s0_32(w6);
  c += S1_32(h) + ch<u32>(h, a, b) + 0x766a0abb + w5;
  g += c;
  c += S0_32(d) + maj<u32>(d, e, f);
  w6 += s1_32(w4) + w15 + s0_32(w7);
  b += S1_32(g) + ch<u32>(g, h, a) + 0x81c2c92e + w6;
  f += b;
  b += S0_32(c) + maj<u32>(c, d, e);
  w7 += s1_32(w5) + w0 + s0_32(w8);
  a += S1_32(f) + ch<u32>(f, g, h) + 0x92722c85 + w7;
  e += a;
  a += S0_32(b) + maj<u32>(b, c, d);
  w8 += s1_32(w6) + w1 + s0_32(w9);
  h += S1_32(e) + ch<u32>(e, f, g) + 0xa2bfe8a1 + w8;
  d += h;
  h += S0_32(a) + maj<u32>(a, b, c);
  w9 += s1_32(w7) + w2 + s0_32(w10);
  g += S1_32(d) + ch<u32>(d, e, f) + 0xa81a664b + w9;
  c += g;
  g += S0_32(h) + maj<u32>(h, a, b);
  w10 += s1_32(w8) + w3 + s0_32(w11);
  f += S1_32(c) + ch<u32>(c, d, e) + 0xc24b8b70 + w10;
  b += f;
  f += S0_32(g) + maj<u32>(g, h, a);
  w11 += s1_32(w9) + w4 + s0_32(w12);
  e += S1_32(b) + ch<u32>(b, c, d) + 0xc76c51a3 + w11;
  a += e;
  e += S0_32(f) + maj<u32>(f, g, h);
  w12 += s1_32(w10) + w5 + s0_32(w13);
  d += S1_32(a) + ch<u32>(a, b, c) + 0xd192e819 + w12;
  h += d;
  d += S0_32(e) + maj<u32>(e, f, g);
  w13 += s1_32(w11) + w6 + s0_32(w14);
  c += S1_32(h) + ch<u32>(h, a, b) + 0xd6990624 + w13;
  g += c;
  c += S0_32(d) + maj<u32>(d, e, f);
  w14 += s1_32(w12) + w7 + s0_32(w15);
  b += S1_32(g) + ch<u32>(g, h, a) + 0xf40e3585 + w14;
  f += b;
  b += S0_32(c) + maj<u32>(c, d, e);
  w15 += s1_32(w13) + w8 + s0_32(w0);
  a += S1_32(f) + ch<u32>(f, g, h) + 0x106aa070 + w15;
  e += a;
  a += S0_32(b) + maj<u32>(b, c, d);
  w0 += s1_32(w14) + w9 + s0_32(w1);
  h += S1_32(e) + ch<u32>(e, f, g) + 0x19a4c116 + w0;
  d += h;
  h += S0_32(a) + maj<u32>(a, b, c);
  w1 += s1_32(w15) + w10 + s0_32(w2);
  g += S1_32(d) + ch<u32>(d, e, f) + 0x1e376c08 + w1;
  c += g;
  g += S0_32(h) + maj<u32>(h, a, b);
  w2 += s1_32(w0) + w11 + s0_32(w3);
  f += S1_32(c) + ch<u32>(c, d, e) + 0x2748774c + w2;
  b += f;
  f += S0_32(g) + maj<u32>(g, h, a);
  w3 += s1_32(w1) + w12 + s0_32(w4);
  e += S1_32(b) + ch<u32>(b, c, d) + 0x34b0bcb5 + w3;
  a += e;
  e += S0_32(f) + maj<u32>(f, g, h);
  w4 += s1_32(w2) + w13 + s0_32(w5);
  d += S1_32(a) + ch<u32>(a, b, c) + 0x391c0cb3 + w4;
  h += d;
  d += S0_32(e) + maj<u32>(e, f, g);
  w5 += s1_32(w3) + w14 + s0_32(w6);
  c += S1_32(h) + ch<u32>(h, a, b) + 0x4ed8aa4a + w5;
  g += c;
  c += S0_32(d) + maj<u32>(d, e, f);
  w6 += s1_32(w4) + w15 + s0_32(w7);
  b += S1_32(g) + ch<u32>(g, h, a) + 0x5b9cca4f + w6;
  f += b;
  b += S0_32(c) + maj<u32>(c, d, e);
  w7 += s1_32(w5) + w0 + s0_32(w8);
  a += S1_32(f) + ch<u32>(f, g, h) + 0x682e6ff3 + w7;
  e += a;
  a += S0_32(b) + maj<u32>(b, c, d);
  w8 += s1_32(w6) + w1 + s0_32(w9);
  h += S1_32(e) + ch<u32>(e, f, g) + 0x748f82ee + w8;
  d += h;
  h += S0_32(a) + maj<u32>(a, b, c);
  w9 += s1_32(w7) + w2 + s0_32(w10);
  g += S1_32(d) + ch<u32>(d, e, f) + 0x78a5636f + w9;
  c += g;
  g += S0_32(h) + maj<u32>(h, a, b);
  w10 += s1_32(w8) + w3 + s0_32(w11);
  f += S1_32(c) + ch<u32>(c, d, e) + 0x84c87814 + w10;
  b += f;
  f += S0_32(g) + maj<u32>(g, h, a);
  w11 += s1_32(w9) + w4 + s0_32(w12);
  e += S1_32(b) + ch<u32>(b, c, d) + 0x8cc70208 + w11;
  a += e;
  e += S0_32(f) + maj<u32>(f, g, h);
  w12 += s1_32(w10) + w5 + s0_32(w13);
  d += S1_32(a) + ch<u32>(a, b, c) + 0x90befffa + w12;
  h += d;
  d += S0_32(e) + maj<u32>(e, f, g);
  w13 += s1_32(w11) + w6 + s0_32(w14);
  c += S1_32(h) + ch<u32>(h, a, b) + 0xa4506ceb + w13;
  g += c;
  c += S0_32(d) + maj<u32>(d, e, f);
  w14 += s1_32(w12) + w7 + s0_32(w15);
  b += S1_32(g) + ch<u32>(g, h, a) + 0xbef9a3f7 + w14;
  f += b;
  b += S0_32(c) + maj<u32>(c, d, e);
  w15 += s1_32(w13) + w8 + s0_32(w0);
  a += S1_32(f) + ch<u32>(f, g, h) + 0xc67178f2 + w15;
  e += a;
  a += S0_32(b) + maj<u32>(b, c, d);
  store<u32>(STATE, load<u32>(STATE) + a);
  store<u32>(STATE, load<u32>(STATE, 4) + b, 4);
  store<u32>(STATE, load<u32>(STATE, 8) + c, 8);
  store<u32>(STATE, load<u32>(STATE, 12) + d, 12);
  store<u32>(STATE, load<u32>(STATE, 16) + e, 16);
  store<u32>(STATE, load<u32>(STATE, 20) + f, 20);
  store<u32>(STATE, load<u32>(STATE, 24) + g, 24);
  store<u32>(STATE, load<u32>(STATE, 28) + h, 28);
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
  e += rotl<u32>(a, 5) + (ch<u32>(b, c, d)) + 0x5a827999 + w0;
  b = rotl<u32>(b, 30);
  d += rotl<u32>(e, 5) + (ch<u32>(a, b, c)) + 0x5a827999 + w1;
  a = rotl<u32>(a, 30);
  c += rotl<u32>(d, 5) + (ch<u32>(e, a, b)) + 0x5a827999 + w2;
  e = rotl<u32>(e, 30);
  b += rotl<u32>(c, 5) + (ch<u32>(d, e, a)) + 0x5a827999 + w3;
  d = rotl<u32>(d, 30);
  a += rotl<u32>(b, 5) + (ch<u32>(c, d, e)) + 0x5a827999 + w4;
  c = rotl<u32>(c, 30);
  e += rotl<u32>(a, 5) + (ch<u32>(b, c, d)) + 0x5a827999 + w5;
  b = rotl<u32>(b, 30);
  d += rotl<u32>(e, 5) + (ch<u32>(a, b, c)) + 0x5a827999 + w6;
  a = rotl<u32>(a, 30);
  c += rotl<u32>(d, 5) + (ch<u32>(e, a, b)) + 0x5a827999 + w7;
  e = rotl<u32>(e, 30);
  b += rotl<u32>(c, 5) + (ch<u32>(d, e, a)) + 0x5a827999 + w8;
  d = rotl<u32>(d, 30);
  a += rotl<u32>(b, 5) + (ch<u32>(c, d, e)) + 0x5a827999 + w9;
  c = rotl<u32>(c, 30);
  e += rotl<u32>(a, 5) + (ch<u32>(b, c, d)) + 0x5a827999 + w10;
  b = rotl<u32>(b, 30);
  d += rotl<u32>(e, 5) + (ch<u32>(a, b, c)) + 0x5a827999 + w11;
  a = rotl<u32>(a, 30);
  c += rotl<u32>(d, 5) + (ch<u32>(e, a, b)) + 0x5a827999 + w12;
  e = rotl<u32>(e, 30);
  b += rotl<u32>(c, 5) + (ch<u32>(d, e, a)) + 0x5a827999 + w13;
  d = rotl<u32>(d, 30);
  a += rotl<u32>(b, 5) + (ch<u32>(c, d, e)) + 0x5a827999 + w14;
  c = rotl<u32>(c, 30);
  e += rotl<u32>(a, 5) + (ch<u32>(b, c, d)) + 0x5a827999 + w15;
  b = rotl<u32>(b, 30);
  w0 = rotl<u32>(w13 ^ w8 ^ w2 ^ w0, 1);
  d += rotl<u32>(e, 5) + (ch<u32>(a, b, c)) + 0x5a827999 + w0;
  a = rotl<u32>(a, 30);
  w1 = rotl<u32>(w14 ^ w9 ^ w3 ^ w1, 1);
  c += rotl<u32>(d, 5) + (ch<u32>(e, a, b)) + 0x5a827999 + w1;
  e = rotl<u32>(e, 30);
  w2 = rotl<u32>(w15 ^ w10 ^ w4 ^ w2, 1);
  b += rotl<u32>(c, 5) + (ch<u32>(d, e, a)) + 0x5a827999 + w2;
  d = rotl<u32>(d, 30);
  w3 = rotl<u32>(w0 ^ w11 ^ w5 ^ w3, 1);
  a += rotl<u32>(b, 5) + (ch<u32>(c, d, e)) + 0x5a827999 + w3;
  c = rotl<u32>(c, 30);
  w4 = rotl<u32>(w1 ^ w12 ^ w6 ^ w4, 1);
  e += rotl<u32>(a, 5) + (b ^ c ^ d) + 0x6ed9eba1 + w4;
  b = rotl<u32>(b, 30);
  w5 = rotl<u32>(w2 ^ w13 ^ w7 ^ w5, 1);
  d += rotl<u32>(e, 5) + (a ^ b ^ c) + 0x6ed9eba1 + w5;
  a = rotl<u32>(a, 30);
  w6 = rotl<u32>(w3 ^ w14 ^ w8 ^ w6, 1);
  c += rotl<u32>(d, 5) + (e ^ a ^ b) + 0x6ed9eba1 + w6;
  e = rotl<u32>(e, 30);
  w7 = rotl<u32>(w4 ^ w15 ^ w9 ^ w7, 1);
  b += rotl<u32>(c, 5) + (d ^ e ^ a) + 0x6ed9eba1 + w7;
  d = rotl<u32>(d, 30);
  w8 = rotl<u32>(w5 ^ w0 ^ w10 ^ w8, 1);
  a += rotl<u32>(b, 5) + (c ^ d ^ e) + 0x6ed9eba1 + w8;
  c = rotl<u32>(c, 30);
  w9 = rotl<u32>(w6 ^ w1 ^ w11 ^ w9, 1);
  e += rotl<u32>(a, 5) + (b ^ c ^ d) + 0x6ed9eba1 + w9;
  b = rotl<u32>(b, 30);
  w10 = rotl<u32>(w7 ^ w2 ^ w12 ^ w10, 1);
  d += rotl<u32>(e, 5) + (a ^ b ^ c) + 0x6ed9eba1 + w10;
  a = rotl<u32>(a, 30);
  w11 = rotl<u32>(w8 ^ w3 ^ w13 ^ w11, 1);
  c += rotl<u32>(d, 5) + (e ^ a ^ b) + 0x6ed9eba1 + w11;
  e = rotl<u32>(e, 30);
  w12 = rotl<u32>(w9 ^ w4 ^ w14 ^ w12, 1);
  b += rotl<u32>(c, 5) + (d ^ e ^ a) + 0x6ed9eba1 + w12;
  d = rotl<u32>(d, 30);
  w13 = rotl<u32>(w10 ^ w5 ^ w15 ^ w13, 1);
  a += rotl<u32>(b, 5) + (c ^ d ^ e) + 0x6ed9eba1 + w13;
  c = rotl<u32>(c, 30);
  w14 = rotl<u32>(w11 ^ w6 ^ w0 ^ w14, 1);
  e += rotl<u32>(a, 5) + (b ^ c ^ d) + 0x6ed9eba1 + w14;
  b = rotl<u32>(b, 30);
  w15 = rotl<u32>(w12 ^ w7 ^ w1 ^ w15, 1);
  d += rotl<u32>(e, 5) + (a ^ b ^ c) + 0x6ed9eba1 + w15;
  a = rotl<u32>(a, 30);
  w0 = rotl<u32>(w13 ^ w8 ^ w2 ^ w0, 1);
  c += rotl<u32>(d, 5) + (e ^ a ^ b) + 0x6ed9eba1 + w0;
  e = rotl<u32>(e, 30);
  w1 = rotl<u32>(w14 ^ w9 ^ w3 ^ w1, 1);
  b += rotl<u32>(c, 5) + (d ^ e ^ a) + 0x6ed9eba1 + w1;
  d = rotl<u32>(d, 30);
  w2 = rotl<u32>(w15 ^ w10 ^ w4 ^ w2, 1);
  a += rotl<u32>(b, 5) + (c ^ d ^ e) + 0x6ed9eba1 + w2;
  c = rotl<u32>(c, 30);
  w3 = rotl<u32>(w0 ^ w11 ^ w5 ^ w3, 1);
  e += rotl<u32>(a, 5) + (b ^ c ^ d) + 0x6ed9eba1 + w3;
  b = rotl<u32>(b, 30);
  w4 = rotl<u32>(w1 ^ w12 ^ w6 ^ w4, 1);
  d += rotl<u32>(e, 5) + (a ^ b ^ c) + 0x6ed9eba1 + w4;
  a = rotl<u32>(a, 30);
  w5 = rotl<u32>(w2 ^ w13 ^ w7 ^ w5, 1);
  c += rotl<u32>(d, 5) + (e ^ a ^ b) + 0x6ed9eba1 + w5;
  e = rotl<u32>(e, 30);
  w6 = rotl<u32>(w3 ^ w14 ^ w8 ^ w6, 1);
  b += rotl<u32>(c, 5) + (d ^ e ^ a) + 0x6ed9eba1 + w6;
  d = rotl<u32>(d, 30);
  w7 = rotl<u32>(w4 ^ w15 ^ w9 ^ w7, 1);
  a += rotl<u32>(b, 5) + (c ^ d ^ e) + 0x6ed9eba1 + w7;
  c = rotl<u32>(c, 30);
  w8 = rotl<u32>(w5 ^ w0 ^ w10 ^ w8, 1);
  e += rotl<u32>(a, 5) + (maj<u32>(b, c, d)) + 0x8f1bbcdc + w8;
  b = rotl<u32>(b, 30);
  w9 = rotl<u32>(w6 ^ w1 ^ w11 ^ w9, 1);
  d += rotl<u32>(e, 5) + (maj<u32>(a, b, c)) + 0x8f1bbcdc + w9;
  a = rotl<u32>(a, 30);
  w10 = rotl<u32>(w7 ^ w2 ^ w12 ^ w10, 1);
  c += rotl<u32>(d, 5) + (maj<u32>(e, a, b)) + 0x8f1bbcdc + w10;
  e = rotl<u32>(e, 30);
  w11 = rotl<u32>(w8 ^ w3 ^ w13 ^ w11, 1);
  b += rotl<u32>(c, 5) + (maj<u32>(d, e, a)) + 0x8f1bbcdc + w11;
  d = rotl<u32>(d, 30);
  w12 = rotl<u32>(w9 ^ w4 ^ w14 ^ w12, 1);
  a += rotl<u32>(b, 5) + (maj<u32>(c, d, e)) + 0x8f1bbcdc + w12;
  c = rotl<u32>(c, 30);
  w13 = rotl<u32>(w10 ^ w5 ^ w15 ^ w13, 1);
  e += rotl<u32>(a, 5) + (maj<u32>(b, c, d)) + 0x8f1bbcdc + w13;
  b = rotl<u32>(b, 30);
  w14 = rotl<u32>(w11 ^ w6 ^ w0 ^ w14, 1);
  d += rotl<u32>(e, 5) + (maj<u32>(a, b, c)) + 0x8f1bbcdc + w14;
  a = rotl<u32>(a, 30);
  w15 = rotl<u32>(w12 ^ w7 ^ w1 ^ w15, 1);
  c += rotl<u32>(d, 5) + (maj<u32>(e, a, b)) + 0x8f1bbcdc + w15;
  e = rotl<u32>(e, 30);
  w0 = rotl<u32>(w13 ^ w8 ^ w2 ^ w0, 1);
  b += rotl<u32>(c, 5) + (maj<u32>(d, e, a)) + 0x8f1bbcdc + w0;
  d = rotl<u32>(d, 30);
  w1 = rotl<u32>(w14 ^ w9 ^ w3 ^ w1, 1);
  a += rotl<u32>(b, 5) + (maj<u32>(c, d, e)) + 0x8f1bbcdc + w1;
  c = rotl<u32>(c, 30);
  w2 = rotl<u32>(w15 ^ w10 ^ w4 ^ w2, 1);
  e += rotl<u32>(a, 5) + (maj<u32>(b, c, d)) + 0x8f1bbcdc + w2;
  b = rotl<u32>(b, 30);
  w3 = rotl<u32>(w0 ^ w11 ^ w5 ^ w3, 1);
  d += rotl<u32>(e, 5) + (maj<u32>(a, b, c)) + 0x8f1bbcdc + w3;
  a = rotl<u32>(a, 30);
  w4 = rotl<u32>(w1 ^ w12 ^ w6 ^ w4, 1);
  c += rotl<u32>(d, 5) + (maj<u32>(e, a, b)) + 0x8f1bbcdc + w4;
  e = rotl<u32>(e, 30);
  w5 = rotl<u32>(w2 ^ w13 ^ w7 ^ w5, 1);
  b += rotl<u32>(c, 5) + (maj<u32>(d, e, a)) + 0x8f1bbcdc + w5;
  d = rotl<u32>(d, 30);
  w6 = rotl<u32>(w3 ^ w14 ^ w8 ^ w6, 1);
  a += rotl<u32>(b, 5) + (maj<u32>(c, d, e)) + 0x8f1bbcdc + w6;
  c = rotl<u32>(c, 30);
  w7 = rotl<u32>(w4 ^ w15 ^ w9 ^ w7, 1);
  e += rotl<u32>(a, 5) + (maj<u32>(b, c, d)) + 0x8f1bbcdc + w7;
  b = rotl<u32>(b, 30);
  w8 = rotl<u32>(w5 ^ w0 ^ w10 ^ w8, 1);
  d += rotl<u32>(e, 5) + (maj<u32>(a, b, c)) + 0x8f1bbcdc + w8;
  a = rotl<u32>(a, 30);
  w9 = rotl<u32>(w6 ^ w1 ^ w11 ^ w9, 1);
  c += rotl<u32>(d, 5) + (maj<u32>(e, a, b)) + 0x8f1bbcdc + w9;
  e = rotl<u32>(e, 30);
  w10 = rotl<u32>(w7 ^ w2 ^ w12 ^ w10, 1);
  b += rotl<u32>(c, 5) + (maj<u32>(d, e, a)) + 0x8f1bbcdc + w10;
  d = rotl<u32>(d, 30);
  w11 = rotl<u32>(w8 ^ w3 ^ w13 ^ w11, 1);
  a += rotl<u32>(b, 5) + (maj<u32>(c, d, e)) + 0x8f1bbcdc + w11;
  c = rotl<u32>(c, 30);
  w12 = rotl<u32>(w9 ^ w4 ^ w14 ^ w12, 1);
  e += rotl<u32>(a, 5) + (b ^ c ^ d) + 0xca62c1d6 + w12;
  b = rotl<u32>(b, 30);
  w13 = rotl<u32>(w10 ^ w5 ^ w15 ^ w13, 1);
  d += rotl<u32>(e, 5) + (a ^ b ^ c) + 0xca62c1d6 + w13;
  a = rotl<u32>(a, 30);
  w14 = rotl<u32>(w11 ^ w6 ^ w0 ^ w14, 1);
  c += rotl<u32>(d, 5) + (e ^ a ^ b) + 0xca62c1d6 + w14;
  e = rotl<u32>(e, 30);
  w15 = rotl<u32>(w12 ^ w7 ^ w1 ^ w15, 1);
  b += rotl<u32>(c, 5) + (d ^ e ^ a) + 0xca62c1d6 + w15;
  d = rotl<u32>(d, 30);
  w0 = rotl<u32>(w13 ^ w8 ^ w2 ^ w0, 1);
  a += rotl<u32>(b, 5) + (c ^ d ^ e) + 0xca62c1d6 + w0;
  c = rotl<u32>(c, 30);
  w1 = rotl<u32>(w14 ^ w9 ^ w3 ^ w1, 1);
  e += rotl<u32>(a, 5) + (b ^ c ^ d) + 0xca62c1d6 + w1;
  b = rotl<u32>(b, 30);
  w2 = rotl<u32>(w15 ^ w10 ^ w4 ^ w2, 1);
  d += rotl<u32>(e, 5) + (a ^ b ^ c) + 0xca62c1d6 + w2;
  a = rotl<u32>(a, 30);
  w3 = rotl<u32>(w0 ^ w11 ^ w5 ^ w3, 1);
  c += rotl<u32>(d, 5) + (e ^ a ^ b) + 0xca62c1d6 + w3;
  e = rotl<u32>(e, 30);
  w4 = rotl<u32>(w1 ^ w12 ^ w6 ^ w4, 1);
  b += rotl<u32>(c, 5) + (d ^ e ^ a) + 0xca62c1d6 + w4;
  d = rotl<u32>(d, 30);
  w5 = rotl<u32>(w2 ^ w13 ^ w7 ^ w5, 1);
  a += rotl<u32>(b, 5) + (c ^ d ^ e) + 0xca62c1d6 + w5;
  c = rotl<u32>(c, 30);
  w6 = rotl<u32>(w3 ^ w14 ^ w8 ^ w6, 1);
  e += rotl<u32>(a, 5) + (b ^ c ^ d) + 0xca62c1d6 + w6;
  b = rotl<u32>(b, 30);
  w7 = rotl<u32>(w4 ^ w15 ^ w9 ^ w7, 1);
  d += rotl<u32>(e, 5) + (a ^ b ^ c) + 0xca62c1d6 + w7;
  a = rotl<u32>(a, 30);
  w8 = rotl<u32>(w5 ^ w0 ^ w10 ^ w8, 1);
  c += rotl<u32>(d, 5) + (e ^ a ^ b) + 0xca62c1d6 + w8;
  e = rotl<u32>(e, 30);
  w9 = rotl<u32>(w6 ^ w1 ^ w11 ^ w9, 1);
  b += rotl<u32>(c, 5) + (d ^ e ^ a) + 0xca62c1d6 + w9;
  d = rotl<u32>(d, 30);
  w10 = rotl<u32>(w7 ^ w2 ^ w12 ^ w10, 1);
  a += rotl<u32>(b, 5) + (c ^ d ^ e) + 0xca62c1d6 + w10;
  c = rotl<u32>(c, 30);
  w11 = rotl<u32>(w8 ^ w3 ^ w13 ^ w11, 1);
  e += rotl<u32>(a, 5) + (b ^ c ^ d) + 0xca62c1d6 + w11;
  b = rotl<u32>(b, 30);
  w12 = rotl<u32>(w9 ^ w4 ^ w14 ^ w12, 1);
  d += rotl<u32>(e, 5) + (a ^ b ^ c) + 0xca62c1d6 + w12;
  a = rotl<u32>(a, 30);
  w13 = rotl<u32>(w10 ^ w5 ^ w15 ^ w13, 1);
  c += rotl<u32>(d, 5) + (e ^ a ^ b) + 0xca62c1d6 + w13;
  e = rotl<u32>(e, 30);
  w14 = rotl<u32>(w11 ^ w6 ^ w0 ^ w14, 1);
  b += rotl<u32>(c, 5) + (d ^ e ^ a) + 0xca62c1d6 + w14;
  d = rotl<u32>(d, 30);
  w15 = rotl<u32>(w12 ^ w7 ^ w1 ^ w15, 1);
  a += rotl<u32>(b, 5) + (c ^ d ^ e) + 0xca62c1d6 + w15;
  c = rotl<u32>(c, 30);
  store<u32>(STATE, load<u32>(STATE) + a);
  store<u32>(STATE, load<u32>(STATE, 4) + b, 4);
  store<u32>(STATE, load<u32>(STATE, 8) + c, 8);
  store<u32>(STATE, load<u32>(STATE, 12) + d, 12);
  store<u32>(STATE, load<u32>(STATE, 16) + e, 16);
}

// --- SHA-512 (FIPS 180-4 6.4.2) ------------------------------------------------------------------

/** STATE ← compression of STATE with the 128-byte block at `block`. */
function compress512(block: usize): void {
  let w0: u64 = bswap<u64>(load<u64>(block, 0));
  let w1: u64 = bswap<u64>(load<u64>(block, 8));
  let w2: u64 = bswap<u64>(load<u64>(block, 16));
  let w3: u64 = bswap<u64>(load<u64>(block, 24));
  let w4: u64 = bswap<u64>(load<u64>(block, 32));
  let w5: u64 = bswap<u64>(load<u64>(block, 40));
  let w6: u64 = bswap<u64>(load<u64>(block, 48));
  let w7: u64 = bswap<u64>(load<u64>(block, 56));
  let w8: u64 = bswap<u64>(load<u64>(block, 64));
  let w9: u64 = bswap<u64>(load<u64>(block, 72));
  let w10: u64 = bswap<u64>(load<u64>(block, 80));
  let w11: u64 = bswap<u64>(load<u64>(block, 88));
  let w12: u64 = bswap<u64>(load<u64>(block, 96));
  let w13: u64 = bswap<u64>(load<u64>(block, 104));
  let w14: u64 = bswap<u64>(load<u64>(block, 112));
  let w15: u64 = bswap<u64>(load<u64>(block, 120));
  let a = load<u64>(STATE);
  let b = load<u64>(STATE, 8);
  let c = load<u64>(STATE, 16);
  let d = load<u64>(STATE, 24);
  let e = load<u64>(STATE, 32);
  let f = load<u64>(STATE, 40);
  let g = load<u64>(STATE, 48);
  let h = load<u64>(STATE, 56);
  h += S1_64(e) + ch<u64>(e, f, g) + 0x428a2f98d728ae22 + w0;
  d += h;
  h += S0_64(a) + maj<u64>(a, b, c);
  g += S1_64(d) + ch<u64>(d, e, f) + 0x7137449123ef65cd + w1;
  c += g;
  g += S0_64(h) + maj<u64>(h, a, b);
  f += S1_64(c) + ch<u64>(c, d, e) + 0xb5c0fbcfec4d3b2f + w2;
  b += f;
  f += S0_64(g) + maj<u64>(g, h, a);
  e += S1_64(b) + ch<u64>(b, c, d) + 0xe9b5dba58189dbbc + w3;
  a += e;
  e += S0_64(f) + maj<u64>(f, g, h);
  d += S1_64(a) + ch<u64>(a, b, c) + 0x3956c25bf348b538 + w4;
  h += d;
  d += S0_64(e) + maj<u64>(e, f, g);
  c += S1_64(h) + ch<u64>(h, a, b) + 0x59f111f1b605d019 + w5;
  g += c;
  c += S0_64(d) + maj<u64>(d, e, f);
  b += S1_64(g) + ch<u64>(g, h, a) + 0x923f82a4af194f9b + w6;
  f += b;
  b += S0_64(c) + maj<u64>(c, d, e);
  a += S1_64(f) + ch<u64>(f, g, h) + 0xab1c5ed5da6d8118 + w7;
  e += a;
  a += S0_64(b) + maj<u64>(b, c, d);
  h += S1_64(e) + ch<u64>(e, f, g) + 0xd807aa98a3030242 + w8;
  d += h;
  h += S0_64(a) + maj<u64>(a, b, c);
  g += S1_64(d) + ch<u64>(d, e, f) + 0x12835b0145706fbe + w9;
  c += g;
  g += S0_64(h) + maj<u64>(h, a, b);
  f += S1_64(c) + ch<u64>(c, d, e) + 0x243185be4ee4b28c + w10;
  b += f;
  f += S0_64(g) + maj<u64>(g, h, a);
  e += S1_64(b) + ch<u64>(b, c, d) + 0x550c7dc3d5ffb4e2 + w11;
  a += e;
  e += S0_64(f) + maj<u64>(f, g, h);
  d += S1_64(a) + ch<u64>(a, b, c) + 0x72be5d74f27b896f + w12;
  h += d;
  d += S0_64(e) + maj<u64>(e, f, g);
  c += S1_64(h) + ch<u64>(h, a, b) + 0x80deb1fe3b1696b1 + w13;
  g += c;
  c += S0_64(d) + maj<u64>(d, e, f);
  b += S1_64(g) + ch<u64>(g, h, a) + 0x9bdc06a725c71235 + w14;
  f += b;
  b += S0_64(c) + maj<u64>(c, d, e);
  a += S1_64(f) + ch<u64>(f, g, h) + 0xc19bf174cf692694 + w15;
  e += a;
  a += S0_64(b) + maj<u64>(b, c, d);
  w0 += s1_64(w14) + w9 + s0_64(w1);
  h += S1_64(e) + ch<u64>(e, f, g) + 0xe49b69c19ef14ad2 + w0;
  d += h;
  h += S0_64(a) + maj<u64>(a, b, c);
  w1 += s1_64(w15) + w10 + s0_64(w2);
  g += S1_64(d) + ch<u64>(d, e, f) + 0xefbe4786384f25e3 + w1;
  c += g;
  g += S0_64(h) + maj<u64>(h, a, b);
  w2 += s1_64(w0) + w11 + s0_64(w3);
  f += S1_64(c) + ch<u64>(c, d, e) + 0x0fc19dc68b8cd5b5 + w2;
  b += f;
  f += S0_64(g) + maj<u64>(g, h, a);
  w3 += s1_64(w1) + w12 + s0_64(w4);
  e += S1_64(b) + ch<u64>(b, c, d) + 0x240ca1cc77ac9c65 + w3;
  a += e;
  e += S0_64(f) + maj<u64>(f, g, h);
  w4 += s1_64(w2) + w13 + s0_64(w5);
  d += S1_64(a) + ch<u64>(a, b, c) + 0x2de92c6f592b0275 + w4;
  h += d;
  d += S0_64(e) + maj<u64>(e, f, g);
  w5 += s1_64(w3) + w14 + s0_64(w6);
  c += S1_64(h) + ch<u64>(h, a, b) + 0x4a7484aa6ea6e483 + w5;
  g += c;
  c += S0_64(d) + maj<u64>(d, e, f);
  w6 += s1_64(w4) + w15 + s0_64(w7);
  b += S1_64(g) + ch<u64>(g, h, a) + 0x5cb0a9dcbd41fbd4 + w6;
  f += b;
  b += S0_64(c) + maj<u64>(c, d, e);
  w7 += s1_64(w5) + w0 + s0_64(w8);
  a += S1_64(f) + ch<u64>(f, g, h) + 0x76f988da831153b5 + w7;
  e += a;
  a += S0_64(b) + maj<u64>(b, c, d);
  w8 += s1_64(w6) + w1 + s0_64(w9);
  h += S1_64(e) + ch<u64>(e, f, g) + 0x983e5152ee66dfab + w8;
  d += h;
  h += S0_64(a) + maj<u64>(a, b, c);
  w9 += s1_64(w7) + w2 + s0_64(w10);
  g += S1_64(d) + ch<u64>(d, e, f) + 0xa831c66d2db43210 + w9;
  c += g;
  g += S0_64(h) + maj<u64>(h, a, b);
  w10 += s1_64(w8) + w3 + s0_64(w11);
  f += S1_64(c) + ch<u64>(c, d, e) + 0xb00327c898fb213f + w10;
  b += f;
  f += S0_64(g) + maj<u64>(g, h, a);
  w11 += s1_64(w9) + w4 + s0_64(w12);
  e += S1_64(b) + ch<u64>(b, c, d) + 0xbf597fc7beef0ee4 + w11;
  a += e;
  e += S0_64(f) + maj<u64>(f, g, h);
  w12 += s1_64(w10) + w5 + s0_64(w13);
  d += S1_64(a) + ch<u64>(a, b, c) + 0xc6e00bf33da88fc2 + w12;
  h += d;
  d += S0_64(e) + maj<u64>(e, f, g);
  w13 += s1_64(w11) + w6 + s0_64(w14);
  c += S1_64(h) + ch<u64>(h, a, b) + 0xd5a79147930aa725 + w13;
  g += c;
  c += S0_64(d) + maj<u64>(d, e, f);
  w14 += s1_64(w12) + w7 + s0_64(w15);
  b += S1_64(g) + ch<u64>(g, h, a) + 0x06ca6351e003826f + w14;
  f += b;
  b += S0_64(c) + maj<u64>(c, d, e);
  w15 += s1_64(w13) + w8 + s0_64(w0);
  a += S1_64(f) + ch<u64>(f, g, h) + 0x142929670a0e6e70 + w15;
  e += a;
  a += S0_64(b) + maj<u64>(b, c, d);
  w0 += s1_64(w14) + w9 + s0_64(w1);
  h += S1_64(e) + ch<u64>(e, f, g) + 0x27b70a8546d22ffc + w0;
  d += h;
  h += S0_64(a) + maj<u64>(a, b, c);
  w1 += s1_64(w15) + w10 + s0_64(w2);
  g += S1_64(d) + ch<u64>(d, e, f) + 0x2e1b21385c26c926 + w1;
  c += g;
  g += S0_64(h) + maj<u64>(h, a, b);
  w2 += s1_64(w0) + w11 + s0_64(w3);
  f += S1_64(c) + ch<u64>(c, d, e) + 0x4d2c6dfc5ac42aed + w2;
  b += f;
  f += S0_64(g) + maj<u64>(g, h, a);
  w3 += s1_64(w1) + w12 + s0_64(w4);
  e += S1_64(b) + ch<u64>(b, c, d) + 0x53380d139d95b3df + w3;
  a += e;
  e += S0_64(f) + maj<u64>(f, g, h);
  w4 += s1_64(w2) + w13 + s0_64(w5);
  d += S1_64(a) + ch<u64>(a, b, c) + 0x650a73548baf63de + w4;
  h += d;
  d += S0_64(e) + maj<u64>(e, f, g);
  w5 += s1_64(w3) + w14 + s0_64(w6);
  c += S1_64(h) + ch<u64>(h, a, b) + 0x766a0abb3c77b2a8 + w5;
  g += c;
  c += S0_64(d) + maj<u64>(d, e, f);
  w6 += s1_64(w4) + w15 + s0_64(w7);
  b += S1_64(g) + ch<u64>(g, h, a) + 0x81c2c92e47edaee6 + w6;
  f += b;
  b += S0_64(c) + maj<u64>(c, d, e);
  w7 += s1_64(w5) + w0 + s0_64(w8);
  a += S1_64(f) + ch<u64>(f, g, h) + 0x92722c851482353b + w7;
  e += a;
  a += S0_64(b) + maj<u64>(b, c, d);
  w8 += s1_64(w6) + w1 + s0_64(w9);
  h += S1_64(e) + ch<u64>(e, f, g) + 0xa2bfe8a14cf10364 + w8;
  d += h;
  h += S0_64(a) + maj<u64>(a, b, c);
  w9 += s1_64(w7) + w2 + s0_64(w10);
  g += S1_64(d) + ch<u64>(d, e, f) + 0xa81a664bbc423001 + w9;
  c += g;
  g += S0_64(h) + maj<u64>(h, a, b);
  w10 += s1_64(w8) + w3 + s0_64(w11);
  f += S1_64(c) + ch<u64>(c, d, e) + 0xc24b8b70d0f89791 + w10;
  b += f;
  f += S0_64(g) + maj<u64>(g, h, a);
  w11 += s1_64(w9) + w4 + s0_64(w12);
  e += S1_64(b) + ch<u64>(b, c, d) + 0xc76c51a30654be30 + w11;
  a += e;
  e += S0_64(f) + maj<u64>(f, g, h);
  w12 += s1_64(w10) + w5 + s0_64(w13);
  d += S1_64(a) + ch<u64>(a, b, c) + 0xd192e819d6ef5218 + w12;
  h += d;
  d += S0_64(e) + maj<u64>(e, f, g);
  w13 += s1_64(w11) + w6 + s0_64(w14);
  c += S1_64(h) + ch<u64>(h, a, b) + 0xd69906245565a910 + w13;
  g += c;
  c += S0_64(d) + maj<u64>(d, e, f);
  w14 += s1_64(w12) + w7 + s0_64(w15);
  b += S1_64(g) + ch<u64>(g, h, a) + 0xf40e35855771202a + w14;
  f += b;
  b += S0_64(c) + maj<u64>(c, d, e);
  w15 += s1_64(w13) + w8 + s0_64(w0);
  a += S1_64(f) + ch<u64>(f, g, h) + 0x106aa07032bbd1b8 + w15;
  e += a;
  a += S0_64(b) + maj<u64>(b, c, d);
  w0 += s1_64(w14) + w9 + s0_64(w1);
  h += S1_64(e) + ch<u64>(e, f, g) + 0x19a4c116b8d2d0c8 + w0;
  d += h;
  h += S0_64(a) + maj<u64>(a, b, c);
  w1 += s1_64(w15) + w10 + s0_64(w2);
  g += S1_64(d) + ch<u64>(d, e, f) + 0x1e376c085141ab53 + w1;
  c += g;
  g += S0_64(h) + maj<u64>(h, a, b);
  w2 += s1_64(w0) + w11 + s0_64(w3);
  f += S1_64(c) + ch<u64>(c, d, e) + 0x2748774cdf8eeb99 + w2;
  b += f;
  f += S0_64(g) + maj<u64>(g, h, a);
  w3 += s1_64(w1) + w12 + s0_64(w4);
  e += S1_64(b) + ch<u64>(b, c, d) + 0x34b0bcb5e19b48a8 + w3;
  a += e;
  e += S0_64(f) + maj<u64>(f, g, h);
  w4 += s1_64(w2) + w13 + s0_64(w5);
  d += S1_64(a) + ch<u64>(a, b, c) + 0x391c0cb3c5c95a63 + w4;
  h += d;
  d += S0_64(e) + maj<u64>(e, f, g);
  w5 += s1_64(w3) + w14 + s0_64(w6);
  c += S1_64(h) + ch<u64>(h, a, b) + 0x4ed8aa4ae3418acb + w5;
  g += c;
  c += S0_64(d) + maj<u64>(d, e, f);
  w6 += s1_64(w4) + w15 + s0_64(w7);
  b += S1_64(g) + ch<u64>(g, h, a) + 0x5b9cca4f7763e373 + w6;
  f += b;
  b += S0_64(c) + maj<u64>(c, d, e);
  w7 += s1_64(w5) + w0 + s0_64(w8);
  a += S1_64(f) + ch<u64>(f, g, h) + 0x682e6ff3d6b2b8a3 + w7;
  e += a;
  a += S0_64(b) + maj<u64>(b, c, d);
  w8 += s1_64(w6) + w1 + s0_64(w9);
  h += S1_64(e) + ch<u64>(e, f, g) + 0x748f82ee5defb2fc + w8;
  d += h;
  h += S0_64(a) + maj<u64>(a, b, c);
  w9 += s1_64(w7) + w2 + s0_64(w10);
  g += S1_64(d) + ch<u64>(d, e, f) + 0x78a5636f43172f60 + w9;
  c += g;
  g += S0_64(h) + maj<u64>(h, a, b);
  w10 += s1_64(w8) + w3 + s0_64(w11);
  f += S1_64(c) + ch<u64>(c, d, e) + 0x84c87814a1f0ab72 + w10;
  b += f;
  f += S0_64(g) + maj<u64>(g, h, a);
  w11 += s1_64(w9) + w4 + s0_64(w12);
  e += S1_64(b) + ch<u64>(b, c, d) + 0x8cc702081a6439ec + w11;
  a += e;
  e += S0_64(f) + maj<u64>(f, g, h);
  w12 += s1_64(w10) + w5 + s0_64(w13);
  d += S1_64(a) + ch<u64>(a, b, c) + 0x90befffa23631e28 + w12;
  h += d;
  d += S0_64(e) + maj<u64>(e, f, g);
  w13 += s1_64(w11) + w6 + s0_64(w14);
  c += S1_64(h) + ch<u64>(h, a, b) + 0xa4506cebde82bde9 + w13;
  g += c;
  c += S0_64(d) + maj<u64>(d, e, f);
  w14 += s1_64(w12) + w7 + s0_64(w15);
  b += S1_64(g) + ch<u64>(g, h, a) + 0xbef9a3f7b2c67915 + w14;
  f += b;
  b += S0_64(c) + maj<u64>(c, d, e);
  w15 += s1_64(w13) + w8 + s0_64(w0);
  a += S1_64(f) + ch<u64>(f, g, h) + 0xc67178f2e372532b + w15;
  e += a;
  a += S0_64(b) + maj<u64>(b, c, d);
  w0 += s1_64(w14) + w9 + s0_64(w1);
  h += S1_64(e) + ch<u64>(e, f, g) + 0xca273eceea26619c + w0;
  d += h;
  h += S0_64(a) + maj<u64>(a, b, c);
  w1 += s1_64(w15) + w10 + s0_64(w2);
  g += S1_64(d) + ch<u64>(d, e, f) + 0xd186b8c721c0c207 + w1;
  c += g;
  g += S0_64(h) + maj<u64>(h, a, b);
  w2 += s1_64(w0) + w11 + s0_64(w3);
  f += S1_64(c) + ch<u64>(c, d, e) + 0xeada7dd6cde0eb1e + w2;
  b += f;
  f += S0_64(g) + maj<u64>(g, h, a);
  w3 += s1_64(w1) + w12 + s0_64(w4);
  e += S1_64(b) + ch<u64>(b, c, d) + 0xf57d4f7fee6ed178 + w3;
  a += e;
  e += S0_64(f) + maj<u64>(f, g, h);
  w4 += s1_64(w2) + w13 + s0_64(w5);
  d += S1_64(a) + ch<u64>(a, b, c) + 0x06f067aa72176fba + w4;
  h += d;
  d += S0_64(e) + maj<u64>(e, f, g);
  w5 += s1_64(w3) + w14 + s0_64(w6);
  c += S1_64(h) + ch<u64>(h, a, b) + 0x0a637dc5a2c898a6 + w5;
  g += c;
  c += S0_64(d) + maj<u64>(d, e, f);
  w6 += s1_64(w4) + w15 + s0_64(w7);
  b += S1_64(g) + ch<u64>(g, h, a) + 0x113f9804bef90dae + w6;
  f += b;
  b += S0_64(c) + maj<u64>(c, d, e);
  w7 += s1_64(w5) + w0 + s0_64(w8);
  a += S1_64(f) + ch<u64>(f, g, h) + 0x1b710b35131c471b + w7;
  e += a;
  a += S0_64(b) + maj<u64>(b, c, d);
  w8 += s1_64(w6) + w1 + s0_64(w9);
  h += S1_64(e) + ch<u64>(e, f, g) + 0x28db77f523047d84 + w8;
  d += h;
  h += S0_64(a) + maj<u64>(a, b, c);
  w9 += s1_64(w7) + w2 + s0_64(w10);
  g += S1_64(d) + ch<u64>(d, e, f) + 0x32caab7b40c72493 + w9;
  c += g;
  g += S0_64(h) + maj<u64>(h, a, b);
  w10 += s1_64(w8) + w3 + s0_64(w11);
  f += S1_64(c) + ch<u64>(c, d, e) + 0x3c9ebe0a15c9bebc + w10;
  b += f;
  f += S0_64(g) + maj<u64>(g, h, a);
  w11 += s1_64(w9) + w4 + s0_64(w12);
  e += S1_64(b) + ch<u64>(b, c, d) + 0x431d67c49c100d4c + w11;
  a += e;
  e += S0_64(f) + maj<u64>(f, g, h);
  w12 += s1_64(w10) + w5 + s0_64(w13);
  d += S1_64(a) + ch<u64>(a, b, c) + 0x4cc5d4becb3e42b6 + w12;
  h += d;
  d += S0_64(e) + maj<u64>(e, f, g);
  w13 += s1_64(w11) + w6 + s0_64(w14);
  c += S1_64(h) + ch<u64>(h, a, b) + 0x597f299cfc657e2a + w13;
  g += c;
  c += S0_64(d) + maj<u64>(d, e, f);
  w14 += s1_64(w12) + w7 + s0_64(w15);
  b += S1_64(g) + ch<u64>(g, h, a) + 0x5fcb6fab3ad6faec + w14;
  f += b;
  b += S0_64(c) + maj<u64>(c, d, e);
  w15 += s1_64(w13) + w8 + s0_64(w0);
  a += S1_64(f) + ch<u64>(f, g, h) + 0x6c44198c4a475817 + w15;
  e += a;
  a += S0_64(b) + maj<u64>(b, c, d);
  store<u64>(STATE, load<u64>(STATE) + a);
  store<u64>(STATE, load<u64>(STATE, 8) + b, 8);
  store<u64>(STATE, load<u64>(STATE, 16) + c, 16);
  store<u64>(STATE, load<u64>(STATE, 24) + d, 24);
  store<u64>(STATE, load<u64>(STATE, 32) + e, 32);
  store<u64>(STATE, load<u64>(STATE, 40) + f, 40);
  store<u64>(STATE, load<u64>(STATE, 48) + g, 48);
  store<u64>(STATE, load<u64>(STATE, 56) + h, 56);
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

/** Copies `length` bytes (a multiple of 8) from `from` to `to` with u64 moves. */
@inline function copyWords(to: usize, from: usize, length: usize): void {
  for (let i: usize = 0; i < length; i += 8) store<u64>(to + i, load<u64>(from + i));
}

/** Zeroes `length` bytes (a multiple of 8) at `at` with u64 stores (memory.fill calls out of wasm). */
@inline function zeroWords(at: usize, length: usize): void {
  for (let i: usize = 0; i < length; i += 8) store<u64>(at + i, 0);
}

function hmac(kind: i32, slot: usize, len: usize, digestLen: usize): void {
  const blockLen: usize = kind == 5 ? 128 : 64;
  const stateLen: usize = kind == 5 ? 64 : 32;
  // Inner hash: from the prepared inner state (one block of K ⊕ ipad already absorbed).
  copyWords(STATE, slot, stateLen);
  absorbPadded(kind, MSG, len);
  // Outer hash over the inner digest: one block, built in BLOCK (zero at rest).
  putDigest(kind, BLOCK, digestLen);
  store<u8>(BLOCK + digestLen, 0x80);
  store<u64>(BLOCK + blockLen - 8, bswap<u64>((<u64>(blockLen + digestLen)) << 3));
  copyWords(STATE, slot + stateLen, stateLen);
  compressWith(kind, BLOCK);
  putDigest(kind, OUT, digestLen);
  // Scratch: nothing key-derived stays behind.
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

/** HMAC-SHA-1 of MSG[0..len) under the key slot; the 20-byte tag goes to OUT. */
export function hmac_sha1(slot: usize, len: usize): void {
  hmac(1, slot, len, 20);
}
/** HMAC-SHA-256 (digestLen 32) or HMAC-SHA-224 (28). */
export function hmac_sha256(slot: usize, len: usize, digestLen: usize): void {
  hmac(2, slot, len, digestLen);
}
/** HMAC-SHA-512 (64), -384 (48), -512/256 (32), -512/224 (28). */
export function hmac_sha512(slot: usize, len: usize, digestLen: usize): void {
  hmac(5, slot, len, digestLen);
}
