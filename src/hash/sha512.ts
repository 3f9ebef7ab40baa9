/**
 * SHA-384, SHA-512, SHA-512/224 and SHA-512/256 (FIPS 180-4 sections 5.3.4-5.3.6, 6.4-6.7).
 * 64-bit words are held as pairs of 32-bit integers (high, low); additions carry through a double.
 * No table is indexed by data, so the compression runs in constant time.
 */
import type { Bytes } from "../core/bytes.js";
import { type HashFunction, hashOnce } from "./hash.js";
import { loadWordsBE, MerkleDamgard } from "./md.js";

/** FIPS 180-4 section 4.2.3, as (high, low) pairs. */
const K = Int32Array.from([
  0x428a2f98, 0xd728ae22, 0x71374491, 0x23ef65cd, 0xb5c0fbcf, 0xec4d3b2f, 0xe9b5dba5, 0x8189dbbc,
  0x3956c25b, 0xf348b538, 0x59f111f1, 0xb605d019, 0x923f82a4, 0xaf194f9b, 0xab1c5ed5, 0xda6d8118,
  0xd807aa98, 0xa3030242, 0x12835b01, 0x45706fbe, 0x243185be, 0x4ee4b28c, 0x550c7dc3, 0xd5ffb4e2,
  0x72be5d74, 0xf27b896f, 0x80deb1fe, 0x3b1696b1, 0x9bdc06a7, 0x25c71235, 0xc19bf174, 0xcf692694,
  0xe49b69c1, 0x9ef14ad2, 0xefbe4786, 0x384f25e3, 0x0fc19dc6, 0x8b8cd5b5, 0x240ca1cc, 0x77ac9c65,
  0x2de92c6f, 0x592b0275, 0x4a7484aa, 0x6ea6e483, 0x5cb0a9dc, 0xbd41fbd4, 0x76f988da, 0x831153b5,
  0x983e5152, 0xee66dfab, 0xa831c66d, 0x2db43210, 0xb00327c8, 0x98fb213f, 0xbf597fc7, 0xbeef0ee4,
  0xc6e00bf3, 0x3da88fc2, 0xd5a79147, 0x930aa725, 0x06ca6351, 0xe003826f, 0x14292967, 0x0a0e6e70,
  0x27b70a85, 0x46d22ffc, 0x2e1b2138, 0x5c26c926, 0x4d2c6dfc, 0x5ac42aed, 0x53380d13, 0x9d95b3df,
  0x650a7354, 0x8baf63de, 0x766a0abb, 0x3c77b2a8, 0x81c2c92e, 0x47edaee6, 0x92722c85, 0x1482353b,
  0xa2bfe8a1, 0x4cf10364, 0xa81a664b, 0xbc423001, 0xc24b8b70, 0xd0f89791, 0xc76c51a3, 0x0654be30,
  0xd192e819, 0xd6ef5218, 0xd6990624, 0x5565a910, 0xf40e3585, 0x5771202a, 0x106aa070, 0x32bbd1b8,
  0x19a4c116, 0xb8d2d0c8, 0x1e376c08, 0x5141ab53, 0x2748774c, 0xdf8eeb99, 0x34b0bcb5, 0xe19b48a8,
  0x391c0cb3, 0xc5c95a63, 0x4ed8aa4a, 0xe3418acb, 0x5b9cca4f, 0x7763e373, 0x682e6ff3, 0xd6b2b8a3,
  0x748f82ee, 0x5defb2fc, 0x78a5636f, 0x43172f60, 0x84c87814, 0xa1f0ab72, 0x8cc70208, 0x1a6439ec,
  0x90befffa, 0x23631e28, 0xa4506ceb, 0xde82bde9, 0xbef9a3f7, 0xb2c67915, 0xc67178f2, 0xe372532b,
  0xca273ece, 0xea26619c, 0xd186b8c7, 0x21c0c207, 0xeada7dd6, 0xcde0eb1e, 0xf57d4f7f, 0xee6ed178,
  0x06f067aa, 0x72176fba, 0x0a637dc5, 0xa2c898a6, 0x113f9804, 0xbef90dae, 0x1b710b35, 0x131c471b,
  0x28db77f5, 0x23047d84, 0x32caab7b, 0x40c72493, 0x3c9ebe0a, 0x15c9bebc, 0x431d67c4, 0x9c100d4c,
  0x4cc5d4be, 0xcb3e42b6, 0x597f299c, 0xfc657e2a, 0x5fcb6fab, 0x3ad6faec, 0x6c44198c, 0x4a475817,
]);

/** Initial hash values, sections 5.3.4 (SHA-384), 5.3.5 (SHA-512), 5.3.6 (SHA-512/t). */
const IV512 = Int32Array.from([
  0x6a09e667, 0xf3bcc908, 0xbb67ae85, 0x84caa73b, 0x3c6ef372, 0xfe94f82b, 0xa54ff53a, 0x5f1d36f1,
  0x510e527f, 0xade682d1, 0x9b05688c, 0x2b3e6c1f, 0x1f83d9ab, 0xfb41bd6b, 0x5be0cd19, 0x137e2179,
]);
const IV384 = Int32Array.from([
  0xcbbb9d5d, 0xc1059ed8, 0x629a292a, 0x367cd507, 0x9159015a, 0x3070dd17, 0x152fecd8, 0xf70e5939,
  0x67332667, 0xffc00b31, 0x8eb44a87, 0x68581511, 0xdb0c2e0d, 0x64f98fa7, 0x47b5481d, 0xbefa4fa4,
]);
const IV512_224 = Int32Array.from([
  0x8c3d37c8, 0x19544da2, 0x73e19966, 0x89dcd4d6, 0x1dfab7ae, 0x32ff9c82, 0x679dd514, 0x582f9fcf,
  0x0f6d2b69, 0x7bd44da8, 0x77e36f73, 0x04c48942, 0x3f9d85a8, 0x6a1d36c8, 0x1112e6ad, 0x91d692a1,
]);
const IV512_256 = Int32Array.from([
  0x22312194, 0xfc2bf72c, 0x9f555fa3, 0xc84c64c2, 0x2393b86b, 0x6f53b151, 0x96387719, 0x5940eabd,
  0x96283ee2, 0xa88effe3, 0xbe5e1e25, 0x53863992, 0x2b0199fc, 0x2c85b8aa, 0x0eb72ddc, 0x81c52ca2,
]);

/** Message schedule as (high, low) pairs, shared by every instance. */
const W = new Int32Array(160);
const TWO_32 = 0x100000000;

/** The SHA-512 compression function (section 6.4.2) over one 128-byte block. */
function compress512(state: Int32Array, block: Uint8Array, offset: number): void {
  loadWordsBE(block, offset, W, 32);
  for (let i = 32; i < 160; i += 2) {
    // σ0(W[t-15]) = ROTR1 ^ ROTR8 ^ SHR7
    const xh = W[i - 30];
    const xl = W[i - 29];
    const s0h = ((xh >>> 1) | (xl << 31)) ^ ((xh >>> 8) | (xl << 24)) ^ (xh >>> 7);
    const s0l = ((xl >>> 1) | (xh << 31)) ^ ((xl >>> 8) | (xh << 24)) ^ ((xl >>> 7) | (xh << 25));
    // σ1(W[t-2]) = ROTR19 ^ ROTR61 ^ SHR6
    const yh = W[i - 4];
    const yl = W[i - 3];
    const s1h = ((yh >>> 19) | (yl << 13)) ^ ((yl >>> 29) | (yh << 3)) ^ (yh >>> 6);
    const s1l = ((yl >>> 19) | (yh << 13)) ^ ((yh >>> 29) | (yl << 3)) ^ ((yl >>> 6) | (yh << 26));
    // W[t] = σ1 + W[t-7] + σ0 + W[t-16]
    const low = (s1l >>> 0) + (W[i - 13] >>> 0) + (s0l >>> 0) + (W[i - 31] >>> 0);
    W[i] = (s1h + W[i - 14] + s0h + W[i - 32] + ((low / TWO_32) | 0)) | 0;
    W[i + 1] = low | 0;
  }
  let ah = state[0];
  let al = state[1];
  let bh = state[2];
  let bl = state[3];
  let ch = state[4];
  let cl = state[5];
  let dh = state[6];
  let dl = state[7];
  let eh = state[8];
  let el = state[9];
  let fh = state[10];
  let fl = state[11];
  let gh = state[12];
  let gl = state[13];
  let hh = state[14];
  let hl = state[15];
  for (let i = 0; i < 160; i += 2) {
    // Σ1(e) = ROTR14 ^ ROTR18 ^ ROTR41
    const S1h = ((eh >>> 14) | (el << 18)) ^ ((eh >>> 18) | (el << 14)) ^ ((el >>> 9) | (eh << 23));
    const S1l = ((el >>> 14) | (eh << 18)) ^ ((el >>> 18) | (eh << 14)) ^ ((eh >>> 9) | (el << 23));
    const CHh = (eh & fh) ^ (~eh & gh);
    const CHl = (el & fl) ^ (~el & gl);
    // T1 = h + Σ1(e) + Ch(e, f, g) + K[t] + W[t]
    const T1ll = (hl >>> 0) + (S1l >>> 0) + (CHl >>> 0) + (K[i + 1] >>> 0) + (W[i + 1] >>> 0);
    const T1h = (hh + S1h + CHh + K[i] + W[i] + ((T1ll / TWO_32) | 0)) | 0;
    const T1l = T1ll | 0;
    // Σ0(a) = ROTR28 ^ ROTR34 ^ ROTR39
    const S0h = ((ah >>> 28) | (al << 4)) ^ ((al >>> 2) | (ah << 30)) ^ ((al >>> 7) | (ah << 25));
    const S0l = ((al >>> 28) | (ah << 4)) ^ ((ah >>> 2) | (al << 30)) ^ ((ah >>> 7) | (al << 25));
    const MAJh = (ah & bh) ^ (ah & ch) ^ (bh & ch);
    const MAJl = (al & bl) ^ (al & cl) ^ (bl & cl);
    hh = gh;
    hl = gl;
    gh = fh;
    gl = fl;
    fh = eh;
    fl = el;
    // e = d + T1
    const ell = (dl >>> 0) + (T1l >>> 0);
    eh = (dh + T1h + ((ell / TWO_32) | 0)) | 0;
    el = ell | 0;
    dh = ch;
    dl = cl;
    ch = bh;
    cl = bl;
    bh = ah;
    bl = al;
    // a = T1 + Σ0(a) + Maj(a, b, c)
    const all = (T1l >>> 0) + (S0l >>> 0) + (MAJl >>> 0);
    ah = (T1h + S0h + MAJh + ((all / TWO_32) | 0)) | 0;
    al = all | 0;
  }
  add64(state, 0, ah, al);
  add64(state, 2, bh, bl);
  add64(state, 4, ch, cl);
  add64(state, 6, dh, dl);
  add64(state, 8, eh, el);
  add64(state, 10, fh, fl);
  add64(state, 12, gh, gl);
  add64(state, 14, hh, hl);
}

function add64(state: Int32Array, i: number, high: number, low: number): void {
  const sum = (state[i + 1] >>> 0) + (low >>> 0);
  state[i] = (state[i] + high + ((sum / TWO_32) | 0)) | 0;
  state[i + 1] = sum | 0;
}

/** SHA-512 (FIPS 180-4 section 6.4). */
export class Sha512 extends MerkleDamgard {
  constructor(outputLength = 64, iv: Int32Array = IV512) {
    super(128, outputLength, 16, iv, W);
  }
  protected compress(block: Uint8Array, offset: number): void {
    compress512(this.state, block, offset);
  }
}
/** SHA-384 (FIPS 180-4 section 6.5): SHA-512 with its own IV, truncated to 48 bytes. */
export class Sha384 extends Sha512 {
  constructor() {
    super(48, IV384);
  }
}
/** SHA-512/224 (FIPS 180-4 section 6.7): SHA-512 with its own IV, truncated to 28 bytes. */
export class Sha512_224 extends Sha512 {
  constructor() {
    super(28, IV512_224);
  }
}
/** SHA-512/256 (FIPS 180-4 section 6.7): SHA-512 with its own IV, truncated to 32 bytes. */
export class Sha512_256 extends Sha512 {
  constructor() {
    super(32, IV512_256);
  }
}

export const SHA512: HashFunction<Sha512> = {
  name: "sha512",
  blockLength: 128,
  outputLength: 64,
  create: () => new Sha512(),
};
export const SHA384: HashFunction<Sha384> = {
  name: "sha384",
  blockLength: 128,
  outputLength: 48,
  create: () => new Sha384(),
};
export const SHA512_224: HashFunction<Sha512_224> = {
  name: "sha512-224",
  blockLength: 128,
  outputLength: 28,
  create: () => new Sha512_224(),
};
export const SHA512_256: HashFunction<Sha512_256> = {
  name: "sha512-256",
  blockLength: 128,
  outputLength: 32,
  create: () => new Sha512_256(),
};

/** SHA-512 of `message`. */
export const sha512 = (message: Bytes): Bytes => hashOnce(SHA512, message);
/** SHA-384 of `message`. */
export const sha384 = (message: Bytes): Bytes => hashOnce(SHA384, message);
/** SHA-512/224 of `message`. */
export const sha512_224 = (message: Bytes): Bytes => hashOnce(SHA512_224, message);
/** SHA-512/256 of `message`. */
export const sha512_256 = (message: Bytes): Bytes => hashOnce(SHA512_256, message);
