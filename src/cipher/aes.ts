/**
 * AES-128/192/256 block encryption (FIPS 197), constant time by bitslicing.
 *
 * Technique: the 16-byte state is held as eight 16-bit "slices", slice j carrying bit j of every
 * byte (byte i of the block at bit i, i.e. row i mod 4 of column i div 4). SubBytes is then the
 * Boyar–Peralta depth-16 Boolean circuit (ePrint 2011/332: 32 AND, 83 XOR/XNOR) evaluated on all 16
 * bytes at once, and ShiftRows and MixColumns are fixed shifts and masks. There is no table and no
 * branch on key or data, so timing and cache behaviour do not depend on secrets — unlike the usual
 * T-table AES, whose lookups leak the key through the cache (Bernstein 2005; Osvik, Shamir, Tromer
 * 2006). The key schedule (FIPS 197 section 5.2) uses the same circuit and is computed once per key.
 *
 * Modes (CMAC, GMAC) work in the sliced domain: `packBlock`/`xorPackedBlock` bring bytes in,
 * `encryptPacked` runs the rounds in place, `unpackBlock` brings bytes out. XOR is linear, so a
 * CBC-MAC chain never leaves the sliced domain, and nothing is allocated per block.
 *
 * This is the JavaScript kernel, and the reference. Where WebAssembly SIMD is available (and
 * KEYED_BACKEND is not js), `AesKey` runs the vector-permute AES of src/engine/wasm/assembly/aes.ts
 * instead, equally constant time and many times faster.
 */
import { assertBytes, type Bytes } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import { redactKeyMaterial } from "../core/redact.js";
import type { WasmAesKey } from "../engine/wasm-aes.js";
import { wasmFamily } from "../engine/wasm-families.js";

/** A block in sliced form: eight 16-bit slices (in the low bits of 32-bit integers). */
export type PackedBlock = Int32Array;

export function newPackedBlock(): PackedBlock {
  return new Int32Array(8);
}

/** state = slices of bytes[offset .. offset + 16). */
export function packBlock(bytes: Uint8Array, offset: number, state: PackedBlock): void {
  state.fill(0);
  xorPackedBlock(bytes, offset, state);
}

/** state ^= slices of bytes[offset .. offset + 16). */
export function xorPackedBlock(bytes: Uint8Array, offset: number, state: PackedBlock): void {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let s4 = 0;
  let s5 = 0;
  let s6 = 0;
  let s7 = 0;
  for (let i = 0; i < 16; i++) {
    const x = bytes[offset + i];
    s0 |= (x & 1) << i;
    s1 |= ((x >>> 1) & 1) << i;
    s2 |= ((x >>> 2) & 1) << i;
    s3 |= ((x >>> 3) & 1) << i;
    s4 |= ((x >>> 4) & 1) << i;
    s5 |= ((x >>> 5) & 1) << i;
    s6 |= ((x >>> 6) & 1) << i;
    s7 |= ((x >>> 7) & 1) << i;
  }
  state[0] ^= s0;
  state[1] ^= s1;
  state[2] ^= s2;
  state[3] ^= s3;
  state[4] ^= s4;
  state[5] ^= s5;
  state[6] ^= s6;
  state[7] ^= s7;
}

/** bytes[offset .. offset + 16) = the block held in `state`. */
export function unpackBlock(state: PackedBlock, out: Uint8Array, offset: number): void {
  const s0 = state[0];
  const s1 = state[1];
  const s2 = state[2];
  const s3 = state[3];
  const s4 = state[4];
  const s5 = state[5];
  const s6 = state[6];
  const s7 = state[7];
  for (let i = 0; i < 16; i++) {
    out[offset + i] =
      ((s0 >>> i) & 1) |
      (((s1 >>> i) & 1) << 1) |
      (((s2 >>> i) & 1) << 2) |
      (((s3 >>> i) & 1) << 3) |
      (((s4 >>> i) & 1) << 4) |
      (((s5 >>> i) & 1) << 5) |
      (((s6 >>> i) & 1) << 6) |
      (((s7 >>> i) & 1) << 7);
  }
}

/**
 * SubBytes on every byte of a packed block, in place: the Boyar–Peralta circuit. Inputs U0..U7 are
 * the byte's bits from the most significant; outputs S0..S7 likewise, with S1, S2, S6 and S7
 * complemented (the 0x63 of the affine map).
 */
function subBytes(q: PackedBlock): void {
  const U0 = q[7];
  const U1 = q[6];
  const U2 = q[5];
  const U3 = q[4];
  const U4 = q[3];
  const U5 = q[2];
  const U6 = q[1];
  const U7 = q[0];
  // Top linear transform.
  const T1 = U0 ^ U3;
  const T2 = U0 ^ U5;
  const T3 = U0 ^ U6;
  const T4 = U3 ^ U5;
  const T5 = U4 ^ U6;
  const T6 = T1 ^ T5;
  const T7 = U1 ^ U2;
  const T8 = U7 ^ T6;
  const T9 = U7 ^ T7;
  const T10 = T6 ^ T7;
  const T11 = U1 ^ U5;
  const T12 = U2 ^ U5;
  const T13 = T3 ^ T4;
  const T14 = T6 ^ T11;
  const T15 = T5 ^ T11;
  const T16 = T5 ^ T12;
  const T17 = T9 ^ T16;
  const T18 = U3 ^ U7;
  const T19 = T7 ^ T18;
  const T20 = T1 ^ T19;
  const T21 = U6 ^ U7;
  const T22 = T7 ^ T21;
  const T23 = T2 ^ T22;
  const T24 = T2 ^ T10;
  const T25 = T20 ^ T17;
  const T26 = T3 ^ T16;
  const T27 = T1 ^ T12;
  // Middle non-linear section: inversion in GF(2^8) through a tower of subfields.
  const M1 = T13 & T6;
  const M2 = T23 & T8;
  const M3 = T14 ^ M1;
  const M4 = T19 & U7;
  const M5 = M4 ^ M1;
  const M6 = T3 & T16;
  const M7 = T22 & T9;
  const M8 = T26 ^ M6;
  const M9 = T20 & T17;
  const M10 = M9 ^ M6;
  const M11 = T1 & T15;
  const M12 = T4 & T27;
  const M13 = M12 ^ M11;
  const M14 = T2 & T10;
  const M15 = M14 ^ M11;
  const M16 = M3 ^ M2;
  const M17 = M5 ^ T24;
  const M18 = M8 ^ M7;
  const M19 = M10 ^ M15;
  const M20 = M16 ^ M13;
  const M21 = M17 ^ M15;
  const M22 = M18 ^ M13;
  const M23 = M19 ^ T25;
  const M24 = M22 ^ M23;
  const M25 = M22 & M20;
  const M26 = M21 ^ M25;
  const M27 = M20 ^ M21;
  const M28 = M23 ^ M25;
  const M29 = M28 & M27;
  const M30 = M26 & M24;
  const M31 = M20 & M23;
  const M32 = M27 & M31;
  const M33 = M27 ^ M25;
  const M34 = M21 & M22;
  const M35 = M24 & M34;
  const M36 = M24 ^ M25;
  const M37 = M21 ^ M29;
  const M38 = M32 ^ M33;
  const M39 = M23 ^ M30;
  const M40 = M35 ^ M36;
  const M41 = M38 ^ M40;
  const M42 = M37 ^ M39;
  const M43 = M37 ^ M38;
  const M44 = M39 ^ M40;
  const M45 = M42 ^ M41;
  const M46 = M44 & T6;
  const M47 = M40 & T8;
  const M48 = M39 & U7;
  const M49 = M43 & T16;
  const M50 = M38 & T9;
  const M51 = M37 & T17;
  const M52 = M42 & T15;
  const M53 = M45 & T27;
  const M54 = M41 & T10;
  const M55 = M44 & T13;
  const M56 = M40 & T23;
  const M57 = M39 & T19;
  const M58 = M43 & T3;
  const M59 = M38 & T22;
  const M60 = M37 & T20;
  const M61 = M42 & T1;
  const M62 = M45 & T4;
  const M63 = M41 & T2;
  // Bottom linear transform, with the affine constant.
  const L0 = M61 ^ M62;
  const L1 = M50 ^ M56;
  const L2 = M46 ^ M48;
  const L3 = M47 ^ M55;
  const L4 = M54 ^ M58;
  const L5 = M49 ^ M61;
  const L6 = M62 ^ L5;
  const L7 = M46 ^ L3;
  const L8 = M51 ^ M59;
  const L9 = M52 ^ M53;
  const L10 = M53 ^ L4;
  const L11 = M60 ^ L2;
  const L12 = M48 ^ M51;
  const L13 = M50 ^ L0;
  const L14 = M52 ^ M61;
  const L15 = M55 ^ L1;
  const L16 = M56 ^ L0;
  const L17 = M57 ^ L1;
  const L18 = M58 ^ L8;
  const L19 = M63 ^ L4;
  const L20 = L0 ^ L1;
  const L21 = L1 ^ L7;
  const L22 = L3 ^ L12;
  const L23 = L18 ^ L2;
  const L24 = L15 ^ L9;
  const L25 = L6 ^ L10;
  const L26 = L7 ^ L9;
  const L27 = L8 ^ L10;
  const L28 = L11 ^ L14;
  const L29 = L11 ^ L17;
  q[7] = L6 ^ L24;
  q[6] = ~(L16 ^ L26);
  q[5] = ~(L19 ^ L28);
  q[4] = L6 ^ L21;
  q[3] = L20 ^ L22;
  q[2] = L25 ^ L29;
  q[1] = ~(L13 ^ L27);
  q[0] = ~(L6 ^ L23);
}

/** ShiftRows (FIPS 197 5.1.2): row r of the state rotates left by r columns, i.e. 4r bit places. */
function shiftRow(x: number): number {
  const r1 = x & 0x2222;
  const r2 = x & 0x4444;
  const r3 = x & 0x8888;
  return (
    (x & 0x1111) |
    (((r1 >>> 4) | (r1 << 12)) & 0xffff) |
    (((r2 >>> 8) | (r2 << 8)) & 0xffff) |
    (((r3 >>> 12) | (r3 << 4)) & 0xffff)
  );
}

/** The byte of the next row in the same column: a rotation within each 4-bit column group. */
const nextRow = (x: number) => ((x >>> 1) & 0x7777) | ((x << 3) & 0x8888);
/** Two rows on. */
const rowAfterNext = (x: number) => ((x >>> 2) & 0x3333) | ((x << 2) & 0xcccc);

/**
 * ShiftRows, then (unless `last`) MixColumns (FIPS 197 5.1.3), then AddRoundKey, in place.
 * MixColumns: b_r = 2·(a_r ⊕ a_r+1) ⊕ a_r+1 ⊕ a_r+2 ⊕ a_r+3 within each column; doubling in
 * GF(2^8) shifts the slices up one, with x^8 = x^4 + x^3 + x + 1 folded in from slice 7.
 */
function linearLayer(q: PackedBlock, roundKeys: Int32Array, round: number, last: boolean): void {
  const o = round * 8;
  const a0 = shiftRow(q[0]);
  const a1 = shiftRow(q[1]);
  const a2 = shiftRow(q[2]);
  const a3 = shiftRow(q[3]);
  const a4 = shiftRow(q[4]);
  const a5 = shiftRow(q[5]);
  const a6 = shiftRow(q[6]);
  const a7 = shiftRow(q[7]);
  if (last) {
    q[0] = a0 ^ roundKeys[o];
    q[1] = a1 ^ roundKeys[o + 1];
    q[2] = a2 ^ roundKeys[o + 2];
    q[3] = a3 ^ roundKeys[o + 3];
    q[4] = a4 ^ roundKeys[o + 4];
    q[5] = a5 ^ roundKeys[o + 5];
    q[6] = a6 ^ roundKeys[o + 6];
    q[7] = a7 ^ roundKeys[o + 7];
    return;
  }
  const n0 = nextRow(a0);
  const n1 = nextRow(a1);
  const n2 = nextRow(a2);
  const n3 = nextRow(a3);
  const n4 = nextRow(a4);
  const n5 = nextRow(a5);
  const n6 = nextRow(a6);
  const n7 = nextRow(a7);
  // u = a_r ⊕ a_r+1;  a_r+1 ⊕ a_r+2 ⊕ a_r+3 = next ⊕ rowAfterNext(u).
  const u0 = a0 ^ n0;
  const u1 = a1 ^ n1;
  const u2 = a2 ^ n2;
  const u3 = a3 ^ n3;
  const u4 = a4 ^ n4;
  const u5 = a5 ^ n5;
  const u6 = a6 ^ n6;
  const u7 = a7 ^ n7;
  q[0] = u7 ^ n0 ^ rowAfterNext(u0) ^ roundKeys[o];
  q[1] = u0 ^ u7 ^ n1 ^ rowAfterNext(u1) ^ roundKeys[o + 1];
  q[2] = u1 ^ n2 ^ rowAfterNext(u2) ^ roundKeys[o + 2];
  q[3] = u2 ^ u7 ^ n3 ^ rowAfterNext(u3) ^ roundKeys[o + 3];
  q[4] = u3 ^ u7 ^ n4 ^ rowAfterNext(u4) ^ roundKeys[o + 4];
  q[5] = u4 ^ n5 ^ rowAfterNext(u5) ^ roundKeys[o + 5];
  q[6] = u5 ^ n6 ^ rowAfterNext(u6) ^ roundKeys[o + 6];
  q[7] = u6 ^ n7 ^ rowAfterNext(u7) ^ roundKeys[o + 7];
}

/** Encrypts the packed block in place (FIPS 197 section 5.1, Cipher()). */
function encryptRounds(q: PackedBlock, roundKeys: Int32Array, rounds: number): void {
  for (let j = 0; j < 8; j++) q[j] ^= roundKeys[j];
  for (let round = 1; round <= rounds; round++) {
    subBytes(q);
    linearLayer(q, roundKeys, round, round === rounds);
  }
}

const RCON = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36];

/** Throws KEY_LENGTH unless `key` is 16, 24 or 32 bytes; returns the number of rounds. */
export function aesRounds(key: Bytes): number {
  assertBytes(key, "key");
  if (key.length !== 16 && key.length !== 24 && key.length !== 32) {
    throw new KeyedError("KEY_LENGTH", `AES takes a key of 16, 24 or 32 bytes; got ${key.length}.`);
  }
  return key.length / 4 + 6;
}

/** @internal The JavaScript kernel: an AES key with its schedule expanded once, in sliced form. */
export class BitslicedAes {
  readonly rounds: number;
  private readonly roundKeys: Int32Array;

  /** `key` must be 16, 24 or 32 bytes; it is not kept. */
  constructor(key: Bytes) {
    this.rounds = aesRounds(key);
    const nk = key.length / 4;
    const total = 4 * (this.rounds + 1);
    // Key expansion (FIPS 197 section 5.2) over bytes; SubWord goes through the sliced S-box.
    const w = new Uint8Array(4 * total);
    w.set(key);
    const word = newPackedBlock();
    const temp = new Uint8Array(16);
    for (let i = nk; i < total; i++) {
      const p = 4 * (i - 1);
      if (i % nk === 0) {
        // RotWord then SubWord, then Rcon.
        temp[0] = w[p + 1];
        temp[1] = w[p + 2];
        temp[2] = w[p + 3];
        temp[3] = w[p];
      } else {
        temp[0] = w[p];
        temp[1] = w[p + 1];
        temp[2] = w[p + 2];
        temp[3] = w[p + 3];
      }
      if (i % nk === 0 || (nk > 6 && i % nk === 4)) {
        packBlock(temp, 0, word);
        subBytes(word);
        unpackBlock(word, temp, 0);
        if (i % nk === 0) temp[0] ^= RCON[i / nk - 1];
      }
      const q = 4 * i;
      const r = 4 * (i - nk);
      w[q] = w[r] ^ temp[0];
      w[q + 1] = w[r + 1] ^ temp[1];
      w[q + 2] = w[r + 2] ^ temp[2];
      w[q + 3] = w[r + 3] ^ temp[3];
    }
    this.roundKeys = new Int32Array(8 * (this.rounds + 1));
    for (let round = 0; round <= this.rounds; round++) {
      packBlock(w, 16 * round, word);
      this.roundKeys.set(word, 8 * round);
    }
    w.fill(0);
    temp.fill(0);
    word.fill(0);
  }

  /** Encrypts a packed block in place. */
  encryptPacked(state: PackedBlock): void {
    encryptRounds(state, this.roundKeys, this.rounds);
  }

  /** Encrypts input[inOffset .. +16) into output[outOffset .. +16) (the two may overlap). */
  encryptBlock(input: Uint8Array, inOffset: number, output: Uint8Array, outOffset: number): void {
    const state = this.scratch;
    packBlock(input, inOffset, state);
    encryptRounds(state, this.roundKeys, this.rounds);
    unpackBlock(state, output, outOffset);
    state.fill(0);
  }
  private readonly scratch = newPackedBlock();

  wipe(): void {
    this.roundKeys.fill(0);
    this.scratch.fill(0);
  }
}

redactKeyMaterial(BitslicedAes);

/**
 * An AES key (FIPS 197) for block encryption, its schedule expanded once: in WebAssembly where
 * available, else in the bitsliced JavaScript kernel above. Both are constant time.
 */
export class AesKey {
  /** 10, 12 or 14 for AES-128, -192, -256 (FIPS 197 section 5). */
  readonly rounds: number;
  private readonly wasm: WasmAesKey | undefined;
  private readonly js: BitslicedAes | undefined;

  /** `key` must be 16, 24 or 32 bytes; a copy is kept only until the key is first used. */
  constructor(key: Bytes) {
    this.rounds = aesRounds(key);
    const glue = wasmFamily("aes");
    const wasm = glue?.wasmAes();
    if (glue === undefined || wasm === undefined) this.js = new BitslicedAes(key);
    else this.wasm = new glue.WasmAesKey(wasm, key, "block");
  }

  /** Encrypts input[inOffset .. +16) into output[outOffset .. +16) (the two may overlap). */
  encryptBlock(input: Uint8Array, inOffset: number, output: Uint8Array, outOffset: number): void {
    const key = this.wasm;
    if (key === undefined) {
      (this.js as BitslicedAes).encryptBlock(input, inOffset, output, outOffset);
      return;
    }
    const slot = key.acquire();
    key.input(input, inOffset, 16);
    key.exports.aes_encrypt(slot);
    key.takeOut(output, outOffset);
    key.release(slot);
  }

  /** Zeroes the key schedule, in JavaScript or in its WebAssembly slot. */
  wipe(): void {
    this.wasm?.wipe();
    this.js?.wipe();
  }
}

redactKeyMaterial(AesKey);

/** One AES block encryption under `key` (16, 24 or 32 bytes). For repeated use keep an AesKey. */
export function aesEncryptBlock(key: Bytes, block: Bytes): Bytes {
  assertBytes(key, "key");
  assertBytes(block, "block");
  if (block.length !== 16) {
    throw new KeyedError("BAD_INPUT", `block must be exactly 16 bytes; got ${block.length}.`);
  }
  const aes = new AesKey(key);
  const out = new Uint8Array(16);
  aes.encryptBlock(block, 0, out, 0);
  aes.wipe();
  return out;
}
