// AssemblyScript: HMAC over SHA-1, SHA-256 (and SHA-224) and SHA-512 (and SHA-384, SHA-512/t)
// from prepared key states, in one call (FIPS 180-4, RFC 2104). The JavaScript side writes the
// inner and outer states after the padded-key blocks into a key slot, the message into MSG, and
// gets the tag from OUT. Only ARX and Boolean operations, fixed rotations, and tables indexed by
// the round number: constant time. Scratch that held key-derived state is zeroed before return.

// Memory map (bytes), above the static data (the round-constant tables, under 2 KiB). Key slots
// start at SLOTS and are managed by the JavaScript side: inner chaining value at +0, outer at +32
// (SHA-1, SHA-256) or +64 (SHA-512).
export const W: usize = 8192; // message schedule, 80 × u64 = 640 bytes
export const STATE: usize = 9216; // working chaining value, 8 × u64
export const BLOCK: usize = 9344; // one padded block (up to 128 bytes) and a spare
export const DIGEST: usize = 9728; // the inner digest (up to 64 bytes)
export const OUT: usize = 9856; // the tag
export const MSG: usize = 12288; // the message, up to MSG_CAPACITY bytes
export const MSG_CAPACITY: usize = 65536;
export const SLOTS: usize = 77824;

const K256: StaticArray<u32> = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

const K512: StaticArray<u64> = [
  0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc, 0x3956c25bf348b538,
  0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118, 0xd807aa98a3030242, 0x12835b0145706fbe,
  0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2, 0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235,
  0xc19bf174cf692694, 0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
  0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5, 0x983e5152ee66dfab,
  0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4, 0xc6e00bf33da88fc2, 0xd5a79147930aa725,
  0x06ca6351e003826f, 0x142929670a0e6e70, 0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed,
  0x53380d139d95b3df, 0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
  0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30, 0xd192e819d6ef5218,
  0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8, 0x19a4c116b8d2d0c8, 0x1e376c085141ab53,
  0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8, 0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373,
  0x682e6ff3d6b2b8a3, 0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
  0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b, 0xca273eceea26619c,
  0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178, 0x06f067aa72176fba, 0x0a637dc5a2c898a6,
  0x113f9804bef90dae, 0x1b710b35131c471b, 0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc,
  0x431d67c49c100d4c, 0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817,
];

// --- SHA-256 (FIPS 180-4 6.2.2) ------------------------------------------------------------------

function compress256(block: usize): void {
  for (let t: usize = 0; t < 16; t++) store<u32>(W + (t << 2), bswap<u32>(load<u32>(block + (t << 2))));
  for (let t: usize = 16; t < 64; t++) {
    const w15 = load<u32>(W + ((t - 15) << 2));
    const w2 = load<u32>(W + ((t - 2) << 2));
    const s0 = rotr<u32>(w15, 7) ^ rotr<u32>(w15, 18) ^ (w15 >>> 3);
    const s1 = rotr<u32>(w2, 17) ^ rotr<u32>(w2, 19) ^ (w2 >>> 10);
    store<u32>(W + (t << 2), s1 + load<u32>(W + ((t - 7) << 2)) + s0 + load<u32>(W + ((t - 16) << 2)));
  }
  let a = load<u32>(STATE);
  let b = load<u32>(STATE + 4);
  let c = load<u32>(STATE + 8);
  let d = load<u32>(STATE + 12);
  let e = load<u32>(STATE + 16);
  let f = load<u32>(STATE + 20);
  let g = load<u32>(STATE + 24);
  let h = load<u32>(STATE + 28);
  for (let t: i32 = 0; t < 64; t++) {
    const S1 = rotr<u32>(e, 6) ^ rotr<u32>(e, 11) ^ rotr<u32>(e, 25);
    const ch = (e & f) ^ (~e & g);
    const T1 = h + S1 + ch + unchecked(K256[t]) + load<u32>(W + (<usize>t << 2));
    const S0 = rotr<u32>(a, 2) ^ rotr<u32>(a, 13) ^ rotr<u32>(a, 22);
    const maj = (a & b) ^ (a & c) ^ (b & c);
    h = g;
    g = f;
    f = e;
    e = d + T1;
    d = c;
    c = b;
    b = a;
    a = T1 + S0 + maj;
  }
  store<u32>(STATE, load<u32>(STATE) + a);
  store<u32>(STATE + 4, load<u32>(STATE + 4) + b);
  store<u32>(STATE + 8, load<u32>(STATE + 8) + c);
  store<u32>(STATE + 12, load<u32>(STATE + 12) + d);
  store<u32>(STATE + 16, load<u32>(STATE + 16) + e);
  store<u32>(STATE + 20, load<u32>(STATE + 20) + f);
  store<u32>(STATE + 24, load<u32>(STATE + 24) + g);
  store<u32>(STATE + 28, load<u32>(STATE + 28) + h);
}

// --- SHA-1 (FIPS 180-4 6.1.2) --------------------------------------------------------------------

function compress1(block: usize): void {
  for (let t: usize = 0; t < 16; t++) store<u32>(W + (t << 2), bswap<u32>(load<u32>(block + (t << 2))));
  for (let t: usize = 16; t < 80; t++) {
    const x =
      load<u32>(W + ((t - 3) << 2)) ^ load<u32>(W + ((t - 8) << 2)) ^ load<u32>(W + ((t - 14) << 2)) ^ load<u32>(W + ((t - 16) << 2));
    store<u32>(W + (t << 2), rotl<u32>(x, 1));
  }
  let a = load<u32>(STATE);
  let b = load<u32>(STATE + 4);
  let c = load<u32>(STATE + 8);
  let d = load<u32>(STATE + 12);
  let e = load<u32>(STATE + 16);
  for (let t: usize = 0; t < 80; t++) {
    let f: u32;
    let k: u32;
    // The round function depends on the public round number only.
    if (t < 20) {
      f = (b & c) | (~b & d);
      k = 0x5a827999;
    } else if (t < 40) {
      f = b ^ c ^ d;
      k = 0x6ed9eba1;
    } else if (t < 60) {
      f = (b & c) | (b & d) | (c & d);
      k = 0x8f1bbcdc;
    } else {
      f = b ^ c ^ d;
      k = 0xca62c1d6;
    }
    const T = rotl<u32>(a, 5) + f + e + k + load<u32>(W + (t << 2));
    e = d;
    d = c;
    c = rotl<u32>(b, 30);
    b = a;
    a = T;
  }
  store<u32>(STATE, load<u32>(STATE) + a);
  store<u32>(STATE + 4, load<u32>(STATE + 4) + b);
  store<u32>(STATE + 8, load<u32>(STATE + 8) + c);
  store<u32>(STATE + 12, load<u32>(STATE + 12) + d);
  store<u32>(STATE + 16, load<u32>(STATE + 16) + e);
}

// --- SHA-512 (FIPS 180-4 6.4.2) ------------------------------------------------------------------

function compress512(block: usize): void {
  for (let t: usize = 0; t < 16; t++) store<u64>(W + (t << 3), bswap<u64>(load<u64>(block + (t << 3))));
  for (let t: usize = 16; t < 80; t++) {
    const w15 = load<u64>(W + ((t - 15) << 3));
    const w2 = load<u64>(W + ((t - 2) << 3));
    const s0 = rotr<u64>(w15, 1) ^ rotr<u64>(w15, 8) ^ (w15 >> 7);
    const s1 = rotr<u64>(w2, 19) ^ rotr<u64>(w2, 61) ^ (w2 >> 6);
    store<u64>(W + (t << 3), s1 + load<u64>(W + ((t - 7) << 3)) + s0 + load<u64>(W + ((t - 16) << 3)));
  }
  let a = load<u64>(STATE);
  let b = load<u64>(STATE + 8);
  let c = load<u64>(STATE + 16);
  let d = load<u64>(STATE + 24);
  let e = load<u64>(STATE + 32);
  let f = load<u64>(STATE + 40);
  let g = load<u64>(STATE + 48);
  let h = load<u64>(STATE + 56);
  for (let t: i32 = 0; t < 80; t++) {
    const S1 = rotr<u64>(e, 14) ^ rotr<u64>(e, 18) ^ rotr<u64>(e, 41);
    const ch = (e & f) ^ (~e & g);
    const T1 = h + S1 + ch + unchecked(K512[t]) + load<u64>(W + (<usize>t << 3));
    const S0 = rotr<u64>(a, 28) ^ rotr<u64>(a, 34) ^ rotr<u64>(a, 39);
    const maj = (a & b) ^ (a & c) ^ (b & c);
    h = g;
    g = f;
    f = e;
    e = d + T1;
    d = c;
    c = b;
    b = a;
    a = T1 + S0 + maj;
  }
  store<u64>(STATE, load<u64>(STATE) + a);
  store<u64>(STATE + 8, load<u64>(STATE + 8) + b);
  store<u64>(STATE + 16, load<u64>(STATE + 16) + c);
  store<u64>(STATE + 24, load<u64>(STATE + 24) + d);
  store<u64>(STATE + 32, load<u64>(STATE + 32) + e);
  store<u64>(STATE + 40, load<u64>(STATE + 40) + f);
  store<u64>(STATE + 48, load<u64>(STATE + 48) + g);
  store<u64>(STATE + 56, load<u64>(STATE + 56) + h);
}

// --- the shared Merkle–Damgård driver ------------------------------------------------------------

/** Which compression function: 1 = SHA-1, 2 = SHA-256, 5 = SHA-512. */
@inline function compressWith(kind: i32, block: usize): void {
  if (kind == 1) compress1(block);
  else if (kind == 2) compress256(block);
  else compress512(block);
}

/**
 * Hashes `len` bytes at `data` into STATE (already holding a chaining value after `prefix` bytes),
 * then pads (0x80, zeros, the bit length big-endian) and compresses the last block(s).
 */
function absorbAndPad(kind: i32, data: usize, len: usize, prefix: usize): void {
  const blockLen: usize = kind == 5 ? 128 : 64;
  const lengthField: usize = kind == 5 ? 16 : 8;
  let offset: usize = 0;
  for (; offset + blockLen <= len; offset += blockLen) compressWith(kind, data + offset);
  const rest = len - offset;
  memory.fill(BLOCK, 0, 256);
  memory.copy(BLOCK, data + offset, rest);
  store<u8>(BLOCK + rest, 0x80);
  let lastBlock = BLOCK;
  if (rest + 1 > blockLen - lengthField) {
    compressWith(kind, BLOCK);
    lastBlock = BLOCK + blockLen;
  }
  const bits: u64 = (<u64>(prefix + len)) << 3;
  store<u64>(lastBlock + blockLen - 8, bswap<u64>(bits));
  compressWith(kind, lastBlock);
}

/** Writes the first `digestLen` bytes of STATE, big-endian per word, to `out`. */
function writeDigest(kind: i32, out: usize, digestLen: usize): void {
  if (kind == 5) {
    for (let i: usize = 0; i < 8; i++) store<u64>(BLOCK + (i << 3), bswap<u64>(load<u64>(STATE + (i << 3))));
  } else {
    for (let i: usize = 0; i < 8; i++) store<u32>(BLOCK + (i << 2), bswap<u32>(load<u32>(STATE + (i << 2))));
  }
  memory.copy(out, BLOCK, digestLen);
}

function hmac(kind: i32, slot: usize, len: usize, digestLen: usize): void {
  const blockLen: usize = kind == 5 ? 128 : 64;
  const stateLen: usize = kind == 5 ? 64 : 32;
  // Inner hash: from the prepared inner state (one block of K ⊕ ipad already absorbed).
  memory.copy(STATE, slot, stateLen);
  absorbAndPad(kind, MSG, len, blockLen);
  writeDigest(kind, DIGEST, digestLen);
  // Outer hash over the inner digest.
  memory.copy(STATE, slot + stateLen, stateLen);
  absorbAndPad(kind, DIGEST, digestLen, blockLen);
  writeDigest(kind, OUT, digestLen);
  // Scratch: nothing key-derived stays behind.
  memory.fill(STATE, 0, 128);
  memory.fill(BLOCK, 0, 384);
  memory.fill(W, 0, 640);
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
