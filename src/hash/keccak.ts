/**
 * Keccak-f[1600] and the functions on it: SHA3-224/256/384/512 and SHAKE128/256 (FIPS 202), and
 * cSHAKE128/256 with the encodings of SP 800-185 section 2.3. KMAC and TupleHash build on these.
 *
 * The 25 lanes of 64 bits are pairs of 32-bit integers (low word first, so byte p of the state is
 * byte p & 3 of word p >> 2). The permutation uses only XOR, AND, NOT and fixed rotations: constant
 * time by construction. Where the WebAssembly kernel loads (src/engine/wasm-keccak.ts), the sponge
 * runs its permutations and whole-block absorbs there, on native 64-bit lanes; the state stays here.
 */

import { assertBytes, assertInteger, type Bytes } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import { leftEncode, rightEncode } from "../core/fields.js";
import { checkOptions } from "../core/options.js";
import { redactKeyMaterial } from "../core/redact.js";
import { wasmFamily } from "../engine/wasm-families.js";
import { assertDigestTarget, type HashFunction, type HashState } from "./hash.js";

// Round constants (FIPS 202 3.2.5, the rc(t) LFSR), ρ offsets and π positions (3.2.2, 3.2.3),
// derived rather than typed in.
const RC_LOW = new Int32Array(24);
const RC_HIGH = new Int32Array(24);
const RHO = new Int32Array(24);
const PI = new Int32Array(24);
{
  let r = 1;
  for (let round = 0, x = 1, y = 0; round < 24; round++) {
    [x, y] = [y, (2 * x + 3 * y) % 5];
    PI[round] = 2 * (5 * y + x);
    RHO[round] = (((round + 1) * (round + 2)) / 2) % 64;
    let low = 0;
    let high = 0;
    for (let j = 0; j < 7; j++) {
      r = ((r << 1) ^ ((r >> 7) * 0x71)) & 0xff;
      if (r & 2) {
        const bit = (1 << j) - 1;
        if (bit < 32) low ^= 1 << bit;
        else high ^= 1 << (bit - 32);
      }
    }
    RC_LOW[round] = low;
    RC_HIGH[round] = high;
  }
}

/** Keccak-f[1600] (FIPS 202 3.3) on a state of 50 words, in place. */
export function keccakF1600(s: Int32Array): void {
  for (let round = 0; round < 24; round++) {
    // θ: each column's parity (C), folded into its neighbours: D[x] = C[x-1] ^ rotl(C[x+1], 1).
    const c0 = s[0] ^ s[10] ^ s[20] ^ s[30] ^ s[40];
    const c1 = s[1] ^ s[11] ^ s[21] ^ s[31] ^ s[41];
    const c2 = s[2] ^ s[12] ^ s[22] ^ s[32] ^ s[42];
    const c3 = s[3] ^ s[13] ^ s[23] ^ s[33] ^ s[43];
    const c4 = s[4] ^ s[14] ^ s[24] ^ s[34] ^ s[44];
    const c5 = s[5] ^ s[15] ^ s[25] ^ s[35] ^ s[45];
    const c6 = s[6] ^ s[16] ^ s[26] ^ s[36] ^ s[46];
    const c7 = s[7] ^ s[17] ^ s[27] ^ s[37] ^ s[47];
    const c8 = s[8] ^ s[18] ^ s[28] ^ s[38] ^ s[48];
    const c9 = s[9] ^ s[19] ^ s[29] ^ s[39] ^ s[49];
    const d0 = c8 ^ ((c2 << 1) | (c3 >>> 31));
    const d1 = c9 ^ ((c3 << 1) | (c2 >>> 31));
    const d2 = c0 ^ ((c4 << 1) | (c5 >>> 31));
    const d3 = c1 ^ ((c5 << 1) | (c4 >>> 31));
    const d4 = c2 ^ ((c6 << 1) | (c7 >>> 31));
    const d5 = c3 ^ ((c7 << 1) | (c6 >>> 31));
    const d6 = c4 ^ ((c8 << 1) | (c9 >>> 31));
    const d7 = c5 ^ ((c9 << 1) | (c8 >>> 31));
    const d8 = c6 ^ ((c0 << 1) | (c1 >>> 31));
    const d9 = c7 ^ ((c1 << 1) | (c0 >>> 31));
    for (let y = 0; y < 50; y += 10) {
      s[y] ^= d0;
      s[y + 1] ^= d1;
      s[y + 2] ^= d2;
      s[y + 3] ^= d3;
      s[y + 4] ^= d4;
      s[y + 5] ^= d5;
      s[y + 6] ^= d6;
      s[y + 7] ^= d7;
      s[y + 8] ^= d8;
      s[y + 9] ^= d9;
    }
    // ρ and π together: walk the lanes along π, rotating each by its ρ offset.
    let curLow = s[2];
    let curHigh = s[3];
    for (let t = 0; t < 24; t++) {
      const n = RHO[t];
      const p = PI[t];
      const keepLow = s[p];
      const keepHigh = s[p + 1];
      if (n < 32) {
        s[p] = (curLow << n) | (curHigh >>> (32 - n));
        s[p + 1] = (curHigh << n) | (curLow >>> (32 - n));
      } else {
        const m = n - 32;
        s[p] = (curHigh << m) | (curLow >>> (32 - m));
        s[p + 1] = (curLow << m) | (curHigh >>> (32 - m));
      }
      curLow = keepLow;
      curHigh = keepHigh;
    }
    // χ: along each row, a[x] ^= ~a[x+1] & a[x+2].
    for (let y = 0; y < 50; y += 10) {
      const a0 = s[y];
      const a1 = s[y + 1];
      const a2 = s[y + 2];
      const a3 = s[y + 3];
      const a4 = s[y + 4];
      const a5 = s[y + 5];
      const a6 = s[y + 6];
      const a7 = s[y + 7];
      const a8 = s[y + 8];
      const a9 = s[y + 9];
      s[y] = a0 ^ (~a2 & a4);
      s[y + 1] = a1 ^ (~a3 & a5);
      s[y + 2] = a2 ^ (~a4 & a6);
      s[y + 3] = a3 ^ (~a5 & a7);
      s[y + 4] = a4 ^ (~a6 & a8);
      s[y + 5] = a5 ^ (~a7 & a9);
      s[y + 6] = a6 ^ (~a8 & a0);
      s[y + 7] = a7 ^ (~a9 & a1);
      s[y + 8] = a8 ^ (~a0 & a2);
      s[y + 9] = a9 ^ (~a1 & a3);
    }
    // ι
    s[0] ^= RC_LOW[round];
    s[1] ^= RC_HIGH[round];
  }
}

/**
 * A Keccak sponge: absorb, pad with the domain suffix, squeeze. `rate` in bytes; `suffix` is the
 * domain bits with the first padding bit (0x06 SHA-3, 0x1f SHAKE, 0x04 cSHAKE).
 */
export class Keccak implements HashState {
  /** The rate in bytes (136 for SHA3-256). */
  readonly blockLength: number;
  /** Bytes `digest()` squeezes. */
  readonly outputLength: number;
  private readonly suffix: number;
  private readonly state = new Int32Array(50);
  private pos = 0;
  private squeezing = false;

  constructor(rate: number, suffix: number, outputLength: number) {
    this.blockLength = rate;
    this.suffix = suffix;
    this.outputLength = outputLength;
  }

  /** Absorbs `data`; chainable. FINISHED once squeezing has begun. */
  update(data: Bytes): this {
    assertBytes(data, "data");
    if (this.squeezing) {
      throw new KeyedError("FINISHED", "this sponge is already squeezing; reset() it first.");
    }
    this.absorb(data, 0, data.length);
    return this;
  }

  /** Absorbs data[offset .. end) (no argument checks: for callers inside keyed). */
  absorb(data: Uint8Array, offset: number, end: number): void {
    const s = this.state;
    const rate = this.blockLength;
    let pos = this.pos;
    if (pos + end - offset >= rate) {
      // At least one permutation: worth the trip to WebAssembly.
      const glue = wasmFamily("keccak");
      const wasm = glue?.wasmKeccak();
      if (glue !== undefined && wasm !== undefined) {
        this.pos = glue.absorbWords(wasm, s, pos, rate, data, offset, end);
        return;
      }
    }
    while (offset < end) {
      if (pos === 0 && end - offset >= rate) {
        // A whole block, a word at a time.
        for (let w = 0; w < rate >> 2; w++, offset += 4) {
          s[w] ^=
            data[offset] |
            (data[offset + 1] << 8) |
            (data[offset + 2] << 16) |
            (data[offset + 3] << 24);
        }
        this.permute();
        continue;
      }
      s[pos >> 2] ^= data[offset++] << ((pos & 3) << 3);
      if (++pos === rate) {
        this.permute();
        pos = 0;
      }
    }
    this.pos = pos;
  }

  /** Keccak-f[1600] on the state: in WebAssembly where it loads, else keccakF1600. */
  private permute(): void {
    const glue = wasmFamily("keccak");
    const wasm = glue?.wasmKeccak();
    if (glue !== undefined && wasm !== undefined) glue.permuteWords(wasm, this.state);
    else keccakF1600(this.state);
  }

  /** Pads (FIPS 202 5.1 pad10*1 after the suffix) and switches to squeezing. */
  private pad(): void {
    const s = this.state;
    s[this.pos >> 2] ^= this.suffix << ((this.pos & 3) << 3);
    const last = this.blockLength - 1;
    s[last >> 2] ^= 0x80 << ((last & 3) << 3);
    this.permute();
    this.pos = 0;
    this.squeezing = true;
  }

  /** Squeezes out[offset .. offset + length) (extendable output; may be called repeatedly). */
  squeeze(out: Uint8Array, offset: number, length: number): void {
    if (!this.squeezing) this.pad();
    const s = this.state;
    const rate = this.blockLength;
    let pos = this.pos;
    for (let i = 0; i < length; i++) {
      if (pos === rate) {
        this.permute();
        pos = 0;
      }
      out[offset + i] = s[pos >> 2] >>> ((pos & 3) << 3);
      pos++;
    }
    this.pos = pos;
  }

  digestInto(out: Bytes, offset = 0): void {
    assertDigestTarget(out, offset, this.outputLength);
    if (this.squeezing) {
      throw new KeyedError(
        "FINISHED",
        "this hash state already produced its digest; reset() it first.",
      );
    }
    this.squeeze(out, offset, this.outputLength);
  }

  /** `outputLength` bytes in a new array; the sponge must be reset before reuse. */
  digest(): Bytes {
    const out = new Uint8Array(this.outputLength);
    this.digestInto(out);
    return out;
  }

  /** `length` bytes of extendable output (SHAKE, cSHAKE, KMACXOF). */
  xof(length: number): Bytes {
    assertInteger(length, "length", 0, 2 ** 31 - 1);
    const out = new Uint8Array(length);
    this.squeeze(out, 0, length);
    return out;
  }

  reset(): this {
    this.state.fill(0);
    this.pos = 0;
    this.squeezing = false;
    return this;
  }

  /** An independent copy of this sponge, mid-absorb or mid-squeeze. */
  clone(): Keccak {
    return this.copyTo(new Keccak(this.blockLength, this.suffix, this.outputLength) as this);
  }

  copyTo(target: this): this {
    target.state.set(this.state);
    target.pos = this.pos;
    target.squeezing = this.squeezing;
    return target;
  }

  wipe(): void {
    this.state.fill(0);
    this.pos = 0;
    this.squeezing = true;
  }
}

redactKeyMaterial(Keccak);

function sha3(name: string, outputLength: number): HashFunction<Keccak> {
  const rate = 200 - 2 * outputLength;
  return {
    name,
    blockLength: rate,
    outputLength,
    create: () => new Keccak(rate, 0x06, outputLength),
  };
}

export const SHA3_224 = sha3("sha3-224", 28);
export const SHA3_256 = sha3("sha3-256", 32);
export const SHA3_384 = sha3("sha3-384", 48);
export const SHA3_512 = sha3("sha3-512", 64);

const oneShot = (fn: HashFunction) => (message: Bytes) => {
  assertBytes(message, "message");
  return fn.create().update(message).digest();
};
/** SHA3-224 of `message` (FIPS 202). */
export const sha3_224 = oneShot(SHA3_224);
/** SHA3-256 of `message` (FIPS 202). */
export const sha3_256 = oneShot(SHA3_256);
/** SHA3-384 of `message` (FIPS 202). */
export const sha3_384 = oneShot(SHA3_384);
/** SHA3-512 of `message` (FIPS 202). */
export const sha3_512 = oneShot(SHA3_512);

/** Security level of the SHAKE/cSHAKE/KMAC/TupleHash instance: 128 or 256. */
export type Strength = 128 | 256;

export const rateOf = (strength: Strength) => (strength === 128 ? 168 : 136);

/** SHAKE128 or SHAKE256 (FIPS 202 6.2) of `message`, `length` bytes of output. */
export function shake(strength: Strength, message: Bytes, length: number): Bytes {
  assertBytes(message, "message");
  const k = new Keccak(rateOf(strength), 0x1f, 0);
  k.absorb(message, 0, message.length);
  return k.xof(length);
}

// --- SP 800-185 section 2.3 encodings (left_encode and right_encode live in core/fields.ts) -------

export { leftEncode, rightEncode };

/** A string's length in bits, as encode_string (2.3.2) writes it. */
function encodedBits(byteLength: number): number {
  if (byteLength > (2 ** 53 - 1) / 8) throw new KeyedError("LENGTH", "string too long to encode.");
  return byteLength * 8;
}

/** The prefix of encode_string(S) (2.3.2): left_encode of S's length in bits. */
export function encodeStringPrefix(byteLength: number): Uint8Array {
  return leftEncode(encodedBits(byteLength));
}

/** Absorbs encode_string(S) = left_encode(len(S) in bits) ‖ S. */
export function absorbEncodedString(sponge: Keccak, s: Uint8Array): void {
  const prefix = encodeStringPrefix(s.length);
  sponge.absorb(prefix, 0, prefix.length);
  sponge.absorb(s, 0, s.length);
}

/**
 * Writes left_encode(x) (2.3.1) at out[at..) and returns where it ends; with no `out`, only
 * measures.
 */
function putLeftEncode(out: Uint8Array | undefined, at: number, x: number): number {
  let n = 1;
  while (x >= 256 ** n) n++;
  if (out !== undefined) {
    out[at] = n;
    for (let i = n, v = x; i > 0; i--, v = Math.floor(v / 256)) out[at + i] = v % 256;
  }
  return at + 1 + n;
}

/**
 * Writes bytepad(encode_string(x1) ‖ encode_string(x2) ‖ …, rate) (2.3.3) for each group of
 * strings, one after another, at out[at..) (zero padding included) and returns where it ends;
 * with no `out`, only measures. Writing in place lets KMAC put its key block straight into
 * WebAssembly memory.
 */
export function putBytepad(
  out: Uint8Array | undefined,
  at: number,
  groups: readonly (readonly Uint8Array[])[],
  rate: number,
): number {
  for (const strings of groups) {
    const start = at;
    at = putLeftEncode(out, at, rate);
    for (const s of strings) {
      at = putLeftEncode(out, at, encodedBits(s.length));
      out?.set(s, at);
      at += s.length;
    }
    const end = start + Math.ceil((at - start) / rate) * rate;
    out?.fill(0, at, end);
    at = end;
  }
  return at;
}

/** bytepad of each group (see putBytepad), as whole blocks in a new array. */
export function bytepad(groups: readonly (readonly Uint8Array[])[], rate: number): Uint8Array {
  const out = new Uint8Array(putBytepad(undefined, 0, groups, rate));
  putBytepad(out, 0, groups, rate);
  return out;
}

/** Absorbs bytepad(encode_string(x1) ‖ encode_string(x2) ‖ …, rate) (2.3.3). */
export function absorbBytepad(sponge: Keccak, strings: Uint8Array[]): void {
  const padded = bytepad([strings], sponge.blockLength);
  sponge.absorb(padded, 0, padded.length);
  padded.fill(0);
}

/**
 * A cSHAKE sponge (SP 800-185 section 3) with function name N and customization S absorbed. With
 * both empty it is plain SHAKE, as the standard says.
 */
export function cshakeSponge(
  strength: Strength,
  functionName: Uint8Array,
  customization: Uint8Array,
): Keccak {
  const rate = rateOf(strength);
  if (functionName.length === 0 && customization.length === 0) return new Keccak(rate, 0x1f, 0);
  const sponge = new Keccak(rate, 0x04, 0);
  absorbBytepad(sponge, [functionName, customization]);
  return sponge;
}

const utf8 = new TextEncoder();

/** Bytes or UTF-8 text; BAD_INPUT otherwise. */
export function bytesOrText(value: unknown, name: string): Uint8Array {
  if (typeof value === "string") return utf8.encode(value);
  assertBytes(value, name);
  return value;
}

/** cSHAKE's two strings (SP 800-185 section 3.3); text is encoded as UTF-8. */
export interface CshakeOptions {
  /** Function-name string N (reserved for NIST-defined functions; usually empty). */
  functionName?: Bytes | string;
  /** Customization string S. */
  customization?: Bytes | string;
}

/** cSHAKE128 or cSHAKE256 (SP 800-185 section 3.3) of `message`, `length` bytes of output. */
export function cshake(
  strength: Strength,
  message: Bytes,
  length: number,
  options: CshakeOptions = {},
): Bytes {
  assertBytes(message, "message");
  assertInteger(length, "length", 0, 2 ** 31 - 1);
  checkOptions(options, ["functionName", "customization"], "cshake options");
  const sponge = cshakeSponge(
    strength,
    bytesOrText(options.functionName ?? "", "options.functionName"),
    bytesOrText(options.customization ?? "", "options.customization"),
  );
  sponge.absorb(message, 0, message.length);
  return sponge.xof(length);
}

/**
 * TupleHash128 / TupleHash256 (SP 800-185 section 5): a hash of a list of byte strings in which
 * ("ab", "c") and ("a", "bc") differ, since each item is absorbed as encode_string(item).
 * `length` is the output in bytes; `xof` selects TupleHashXOF (right_encode(0) instead of L).
 */
export function tupleHash(
  strength: Strength,
  items: readonly (Bytes | string)[],
  length: number,
  options: { customization?: Bytes | string; xof?: boolean } = {},
): Bytes {
  if (!Array.isArray(items))
    throw new KeyedError("BAD_INPUT", "items must be an array of byte strings or text.");
  assertInteger(length, "length", 0, 2 ** 31 - 1);
  checkOptions(options, ["customization", "xof"], "tupleHash options");
  const encoded = items.map((item, i) => bytesOrText(item, `items[${i}]`));
  const sponge = cshakeSponge(
    strength,
    utf8.encode("TupleHash"),
    bytesOrText(options.customization ?? "", "options.customization"),
  );
  for (const item of encoded) absorbEncodedString(sponge, item);
  const suffix = rightEncode(options.xof ? 0 : length * 8);
  sponge.absorb(suffix, 0, suffix.length);
  return sponge.xof(length);
}
