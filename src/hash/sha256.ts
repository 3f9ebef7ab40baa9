/**
 * SHA-224 and SHA-256 (FIPS 180-4 sections 5.3.2, 5.3.3, 6.2 and 6.3). The round constant table is
 * indexed by the round number only, never by data, so the compression runs in constant time.
 */
import type { Bytes } from "../core/bytes.js";
import { type HashFunction, hashOnce } from "./hash.js";
import { loadWordsBE, MerkleDamgard } from "./md.js";

/** FIPS 180-4 section 4.2.2. */
const K = Int32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** Initial hash values, sections 5.3.3 (SHA-256) and 5.3.2 (SHA-224). */
const IV256 = Int32Array.from([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);
const IV224 = Int32Array.from([
  0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939, 0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4,
]);

/** Message schedule, shared by every instance: compress() is not re-entrant and need not be. */
const W = new Int32Array(64);

/** The SHA-256 compression function (section 6.2.2) over one 64-byte block. */
function compress256(state: Int32Array, block: Uint8Array, offset: number): void {
  loadWordsBE(block, offset, W, 16);
  for (let t = 16; t < 64; t++) {
    const w15 = W[t - 15];
    const w2 = W[t - 2];
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    W[t] = (s1 + W[t - 7] + s0 + W[t - 16]) | 0;
  }
  let a = state[0];
  let b = state[1];
  let c = state[2];
  let d = state[3];
  let e = state[4];
  let f = state[5];
  let g = state[6];
  let h = state[7];
  for (let t = 0; t < 64; t++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const ch = (e & f) ^ (~e & g);
    const T1 = (h + S1 + ch + K[t] + W[t]) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const maj = (a & b) ^ (a & c) ^ (b & c);
    const T2 = (S0 + maj) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + T1) | 0;
    d = c;
    c = b;
    b = a;
    a = (T1 + T2) | 0;
  }
  state[0] = (state[0] + a) | 0;
  state[1] = (state[1] + b) | 0;
  state[2] = (state[2] + c) | 0;
  state[3] = (state[3] + d) | 0;
  state[4] = (state[4] + e) | 0;
  state[5] = (state[5] + f) | 0;
  state[6] = (state[6] + g) | 0;
  state[7] = (state[7] + h) | 0;
}

/** SHA-256 (FIPS 180-4 section 6.2). */
export class Sha256 extends MerkleDamgard {
  constructor(outputLength = 32, iv: Int32Array = IV256) {
    super(64, outputLength, 8, iv, W);
  }
  protected compress(block: Uint8Array, offset: number): void {
    compress256(this.state, block, offset);
  }
}

/** SHA-224 (FIPS 180-4 section 6.3): SHA-256 with its own IV, truncated to 28 bytes. */
export class Sha224 extends Sha256 {
  constructor() {
    super(28, IV224);
  }
}

export const SHA256: HashFunction<Sha256> = {
  name: "sha256",
  blockLength: 64,
  outputLength: 32,
  create: () => new Sha256(),
};
export const SHA224: HashFunction<Sha224> = {
  name: "sha224",
  blockLength: 64,
  outputLength: 28,
  create: () => new Sha224(),
};

/** SHA-256 of `message`. */
export const sha256 = (message: Bytes): Bytes => hashOnce(SHA256, message);
/** SHA-224 of `message`. */
export const sha224 = (message: Bytes): Bytes => hashOnce(SHA224, message);
