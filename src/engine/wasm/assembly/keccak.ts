// AssemblyScript: Keccak-f[1600] (FIPS 202 section 3.3, 24 rounds of θ, ρ, π, χ, ι on 64-bit
// lanes) and the sponge around it (FIPS 202 section 4: absorb at rate r, pad10*1 after the domain
// bits, squeeze), for SHA-3, SHAKE, cSHAKE and KMAC (SP 800-185 sections 3 and 4).
//
// Constant time by construction: the permutation is XOR, AND, NOT and fixed rotations of native
// i64 lanes; the only table (the round constants) is indexed by the round number. Lengths,
// positions and rates are public. Nothing key-derived is left in scratch: `tag` wipes STATE before
// returning, and the JavaScript side zeroes MSG and OUT after each call (WasmKernels.takeOut).
//
// Memory map (bytes). The static data (the round constants) sits at 1024, under 256 bytes. A state
// is 25 little-endian u64 lanes, lane (x, y) at byte 8 · (x + 5y), so byte i of the sponge is byte
// i of the state. Key slots (KMAC's prepared states, stream states) start at SLOTS, 200 bytes
// each, managed by the JavaScript side.
export const ZERO: usize = 2048; // 200 bytes that stay zero: the initial state
export const STATE: usize = 2304; // working state of a one-call tag, and of the JS sponge's calls
export const OUT: usize = 4096; // squeezed output, up to OUT_CAPACITY bytes per call
export const OUT_CAPACITY: usize = 4096;
export const MSG: usize = 8192; // input, up to MSG_CAPACITY bytes per call
export const MSG_CAPACITY: usize = 65536;
export const SLOTS: usize = 73728;

const STATE_BYTES: usize = 200;

// ι round constants (FIPS 202 3.2.5, RC[i] for i = 0..23).
const RC: StaticArray<u64> = [
  0x0000000000000001, 0x0000000000008082, 0x800000000000808a, 0x8000000080008000,
  0x000000000000808b, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
  0x000000000000008a, 0x0000000000000088, 0x0000000080008009, 0x000000008000000a,
  0x000000008000808b, 0x800000000000008b, 0x8000000000008089, 0x8000000000008003,
  0x8000000000008002, 0x8000000000000080, 0x000000000000800a, 0x800000008000000a,
  0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
];

/**
 * Keccak-f[1600] on the state at `s`, in place. The 25 lanes stay in locals for all 24 rounds:
 * θ's column parities C and D[x] = C[x-1] ^ rotl(C[x+1], 1); ρ and π together,
 * B[y][2x+3y] = rotl(A[x][y] ^ D[x], r[x][y]); χ along each row of B, A = B ^ (~B[x+1] & B[x+2]);
 * ι into lane (0, 0). (Two rounds per pass, a → e → a, measured no faster and is 600 bytes more.)
 */
export function permute(s: usize): void {
  let a0 = load<u64>(s, 0);
  let a1 = load<u64>(s, 8);
  let a2 = load<u64>(s, 16);
  let a3 = load<u64>(s, 24);
  let a4 = load<u64>(s, 32);
  let a5 = load<u64>(s, 40);
  let a6 = load<u64>(s, 48);
  let a7 = load<u64>(s, 56);
  let a8 = load<u64>(s, 64);
  let a9 = load<u64>(s, 72);
  let a10 = load<u64>(s, 80);
  let a11 = load<u64>(s, 88);
  let a12 = load<u64>(s, 96);
  let a13 = load<u64>(s, 104);
  let a14 = load<u64>(s, 112);
  let a15 = load<u64>(s, 120);
  let a16 = load<u64>(s, 128);
  let a17 = load<u64>(s, 136);
  let a18 = load<u64>(s, 144);
  let a19 = load<u64>(s, 152);
  let a20 = load<u64>(s, 160);
  let a21 = load<u64>(s, 168);
  let a22 = load<u64>(s, 176);
  let a23 = load<u64>(s, 184);
  let a24 = load<u64>(s, 192);
  for (let round = 0; round < 24; round++) {
    const c0 = a0 ^ a5 ^ a10 ^ a15 ^ a20;
    const c1 = a1 ^ a6 ^ a11 ^ a16 ^ a21;
    const c2 = a2 ^ a7 ^ a12 ^ a17 ^ a22;
    const c3 = a3 ^ a8 ^ a13 ^ a18 ^ a23;
    const c4 = a4 ^ a9 ^ a14 ^ a19 ^ a24;
    const d0 = c4 ^ rotl<u64>(c1, 1);
    const d1 = c0 ^ rotl<u64>(c2, 1);
    const d2 = c1 ^ rotl<u64>(c3, 1);
    const d3 = c2 ^ rotl<u64>(c4, 1);
    const d4 = c3 ^ rotl<u64>(c0, 1);
    const b0 = a0 ^ d0;
    const b1 = rotl<u64>(a6 ^ d1, 44);
    const b2 = rotl<u64>(a12 ^ d2, 43);
    const b3 = rotl<u64>(a18 ^ d3, 21);
    const b4 = rotl<u64>(a24 ^ d4, 14);
    const b5 = rotl<u64>(a3 ^ d3, 28);
    const b6 = rotl<u64>(a9 ^ d4, 20);
    const b7 = rotl<u64>(a10 ^ d0, 3);
    const b8 = rotl<u64>(a16 ^ d1, 45);
    const b9 = rotl<u64>(a22 ^ d2, 61);
    const b10 = rotl<u64>(a1 ^ d1, 1);
    const b11 = rotl<u64>(a7 ^ d2, 6);
    const b12 = rotl<u64>(a13 ^ d3, 25);
    const b13 = rotl<u64>(a19 ^ d4, 8);
    const b14 = rotl<u64>(a20 ^ d0, 18);
    const b15 = rotl<u64>(a4 ^ d4, 27);
    const b16 = rotl<u64>(a5 ^ d0, 36);
    const b17 = rotl<u64>(a11 ^ d1, 10);
    const b18 = rotl<u64>(a17 ^ d2, 15);
    const b19 = rotl<u64>(a23 ^ d3, 56);
    const b20 = rotl<u64>(a2 ^ d2, 62);
    const b21 = rotl<u64>(a8 ^ d3, 55);
    const b22 = rotl<u64>(a14 ^ d4, 39);
    const b23 = rotl<u64>(a15 ^ d0, 41);
    const b24 = rotl<u64>(a21 ^ d1, 2);
    a0 = b0 ^ (~b1 & b2) ^ unchecked(RC[round]);
    a1 = b1 ^ (~b2 & b3);
    a2 = b2 ^ (~b3 & b4);
    a3 = b3 ^ (~b4 & b0);
    a4 = b4 ^ (~b0 & b1);
    a5 = b5 ^ (~b6 & b7);
    a6 = b6 ^ (~b7 & b8);
    a7 = b7 ^ (~b8 & b9);
    a8 = b8 ^ (~b9 & b5);
    a9 = b9 ^ (~b5 & b6);
    a10 = b10 ^ (~b11 & b12);
    a11 = b11 ^ (~b12 & b13);
    a12 = b12 ^ (~b13 & b14);
    a13 = b13 ^ (~b14 & b10);
    a14 = b14 ^ (~b10 & b11);
    a15 = b15 ^ (~b16 & b17);
    a16 = b16 ^ (~b17 & b18);
    a17 = b17 ^ (~b18 & b19);
    a18 = b18 ^ (~b19 & b15);
    a19 = b19 ^ (~b15 & b16);
    a20 = b20 ^ (~b21 & b22);
    a21 = b21 ^ (~b22 & b23);
    a22 = b22 ^ (~b23 & b24);
    a23 = b23 ^ (~b24 & b20);
    a24 = b24 ^ (~b20 & b21);
  }
  store<u64>(s, a0, 0);
  store<u64>(s, a1, 8);
  store<u64>(s, a2, 16);
  store<u64>(s, a3, 24);
  store<u64>(s, a4, 32);
  store<u64>(s, a5, 40);
  store<u64>(s, a6, 48);
  store<u64>(s, a7, 56);
  store<u64>(s, a8, 64);
  store<u64>(s, a9, 72);
  store<u64>(s, a10, 80);
  store<u64>(s, a11, 88);
  store<u64>(s, a12, 96);
  store<u64>(s, a13, 104);
  store<u64>(s, a14, 112);
  store<u64>(s, a15, 120);
  store<u64>(s, a16, 128);
  store<u64>(s, a17, 136);
  store<u64>(s, a18, 144);
  store<u64>(s, a19, 152);
  store<u64>(s, a20, 160);
  store<u64>(s, a21, 168);
  store<u64>(s, a22, 176);
  store<u64>(s, a23, 184);
  store<u64>(s, a24, 192);
}

// --- the sponge (FIPS 202 section 4) -------------------------------------------------------------

/**
 * XORs MSG[0..len) into the state at `s`, starting at byte `pos` of the current block, applying
 * the permutation after each `rate` bytes. Returns the position in the block after the last byte.
 */
export function absorb(s: usize, pos: usize, len: usize, rate: usize): usize {
  let src = MSG;
  const end = MSG + len;
  // Top up a partly filled block.
  while (pos != 0 && src < end) {
    store<u8>(s + pos, load<u8>(s + pos) ^ load<u8>(src++));
    if (++pos == rate) {
      permute(s);
      pos = 0;
    }
  }
  // Whole blocks, a lane at a time (every rate here is a multiple of 8).
  while (end - src >= rate) {
    for (let i: usize = 0; i < rate; i += 8) store<u64>(s + i, load<u64>(s + i) ^ load<u64>(src + i));
    permute(s);
    src += rate;
  }
  while (src < end) {
    store<u8>(s + pos, load<u8>(s + pos) ^ load<u8>(src++));
    pos++;
  }
  return pos;
}

/** Pads (the domain bits with pad10*1's first 1 in `suffix`, its last 1 at byte rate - 1), permutes. */
export function pad(s: usize, pos: usize, rate: usize, suffix: u8): void {
  store<u8>(s + pos, load<u8>(s + pos) ^ suffix);
  store<u8>(s + rate - 1, load<u8>(s + rate - 1) ^ 0x80);
  permute(s);
}

/**
 * Squeezes `len` bytes (at most OUT_CAPACITY) to OUT from byte `pos` of the current output block,
 * permuting whenever a block is used up. Returns the new position.
 */
export function squeeze(s: usize, pos: usize, rate: usize, len: usize): usize {
  let out = OUT;
  const end = OUT + len;
  while (out < end) {
    if (pos == rate) {
      permute(s);
      pos = 0;
    }
    let n = rate - pos;
    if (n > end - out) n = end - out;
    memory.copy(out, s + pos, n);
    out += n;
    pos += n;
  }
  return pos;
}

/**
 * One whole computation from the block-aligned state at `source` (a key slot, or ZERO): absorbs
 * MSG[0..len), pads with `suffix`, squeezes `outLen` bytes (at most OUT_CAPACITY) to OUT. For KMAC
 * the JavaScript side writes X ‖ right_encode(L) to MSG and passes 0x04 (cSHAKE's domain bits).
 */
export function tag(source: usize, len: usize, rate: usize, suffix: u8, outLen: usize): void {
  memory.copy(STATE, source, STATE_BYTES);
  pad(STATE, absorb(STATE, 0, len, rate), rate, suffix);
  squeeze(STATE, 0, rate, outLen);
  memory.fill(STATE, 0, STATE_BYTES);
}
