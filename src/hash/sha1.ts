/**
 * SHA-1 (FIPS 180-4 sections 5.3.1 and 6.1). Collision attacks make SHA-1 unfit for signatures, but
 * HMAC-SHA1 is still sound as a MAC (RFC 6194 section 3.2) and protocols (TCP-AO, SRTP) require it.
 */
import type { Bytes } from "../core/bytes.js";
import { type HashFunction, hashOnce } from "./hash.js";
import { loadWordsBE, MerkleDamgard } from "./md.js";

const IV = Int32Array.from([0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0]);

/** Message schedule (section 6.1.2 step 1), shared by every instance. */
const W = new Int32Array(80);

function compress1(state: Int32Array, block: Uint8Array, offset: number): void {
  loadWordsBE(block, offset, W, 16);
  for (let t = 16; t < 80; t++) {
    const x = W[t - 3] ^ W[t - 8] ^ W[t - 14] ^ W[t - 16];
    W[t] = (x << 1) | (x >>> 31);
  }
  let a = state[0];
  let b = state[1];
  let c = state[2];
  let d = state[3];
  let e = state[4];
  // Four rounds of twenty, each with its own function f_t and constant K_t (section 4.1.1, 4.2.1).
  for (let t = 0; t < 20; t++) {
    const T = (((a << 5) | (a >>> 27)) + ((b & c) | (~b & d)) + e + 0x5a827999 + W[t]) | 0;
    e = d;
    d = c;
    c = (b << 30) | (b >>> 2);
    b = a;
    a = T;
  }
  for (let t = 20; t < 40; t++) {
    const T = (((a << 5) | (a >>> 27)) + (b ^ c ^ d) + e + 0x6ed9eba1 + W[t]) | 0;
    e = d;
    d = c;
    c = (b << 30) | (b >>> 2);
    b = a;
    a = T;
  }
  for (let t = 40; t < 60; t++) {
    const T = (((a << 5) | (a >>> 27)) + ((b & c) | (b & d) | (c & d)) + e + 0x8f1bbcdc + W[t]) | 0;
    e = d;
    d = c;
    c = (b << 30) | (b >>> 2);
    b = a;
    a = T;
  }
  for (let t = 60; t < 80; t++) {
    const T = (((a << 5) | (a >>> 27)) + (b ^ c ^ d) + e + 0xca62c1d6 + W[t]) | 0;
    e = d;
    d = c;
    c = (b << 30) | (b >>> 2);
    b = a;
    a = T;
  }
  state[0] = (state[0] + a) | 0;
  state[1] = (state[1] + b) | 0;
  state[2] = (state[2] + c) | 0;
  state[3] = (state[3] + d) | 0;
  state[4] = (state[4] + e) | 0;
}

/** SHA-1 (FIPS 180-4 section 6.1): broken for collisions, still sound inside HMAC (RFC 6151). */
export class Sha1 extends MerkleDamgard {
  constructor() {
    super(64, 20, 8, IV, W);
  }
  protected compress(block: Uint8Array, offset: number): void {
    compress1(this.state, block, offset);
  }
}

export const SHA1: HashFunction<Sha1> = {
  name: "sha1",
  blockLength: 64,
  outputLength: 20,
  create: () => new Sha1(),
};

/** SHA-1 of `message`. */
export const sha1 = (message: Bytes): Bytes => hashOnce(SHA1, message);
