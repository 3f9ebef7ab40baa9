/**
 * ChaCha20 (RFC 8439 sections 2.1-2.4) and HChaCha20 (draft-irtf-cfrg-xchacha section 2.2).
 * Only additions, XORs and fixed rotations on 32-bit words: constant time by construction. Two
 * kernels give the same bytes: the WebAssembly one (src/engine/wasm/assembly/chacha20.ts, SIMD,
 * four blocks at a time) wherever it loads, and this module's JavaScript one.
 */
import { assertBytes, assertInteger, type Bytes, readWordLE as le32 } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import { redactKeyMaterial } from "../core/redact.js";
import { FORCED_BACKEND } from "../engine/native.js";
import type { ChaChaWasm } from "../engine/wasm-chacha20.js";
import { wasmFamily } from "../engine/wasm-families.js";

/** "expand 32-byte k" as four little-endian words (RFC 8439 2.3). */
const SIGMA0 = 0x61707865;
const SIGMA1 = 0x3320646e;
const SIGMA2 = 0x79622d32;
const SIGMA3 = 0x6b206574;

const rotl = (x: number, n: number) => (x << n) | (x >>> (32 - n));

/**
 * The 20 rounds (ten double rounds of RFC 8439 2.2's quarter round) over `input`, result into
 * `out`; with `addInput` the input is added back (the ChaCha20 block function, 2.3), without it the
 * raw state is kept (HChaCha20).
 */
function rounds(input: Int32Array, out: Int32Array, addInput: boolean): void {
  let x0 = input[0];
  let x1 = input[1];
  let x2 = input[2];
  let x3 = input[3];
  let x4 = input[4];
  let x5 = input[5];
  let x6 = input[6];
  let x7 = input[7];
  let x8 = input[8];
  let x9 = input[9];
  let x10 = input[10];
  let x11 = input[11];
  let x12 = input[12];
  let x13 = input[13];
  let x14 = input[14];
  let x15 = input[15];
  for (let i = 0; i < 10; i++) {
    // Column rounds.
    x0 = (x0 + x4) | 0;
    x12 = rotl(x12 ^ x0, 16);
    x8 = (x8 + x12) | 0;
    x4 = rotl(x4 ^ x8, 12);
    x0 = (x0 + x4) | 0;
    x12 = rotl(x12 ^ x0, 8);
    x8 = (x8 + x12) | 0;
    x4 = rotl(x4 ^ x8, 7);
    x1 = (x1 + x5) | 0;
    x13 = rotl(x13 ^ x1, 16);
    x9 = (x9 + x13) | 0;
    x5 = rotl(x5 ^ x9, 12);
    x1 = (x1 + x5) | 0;
    x13 = rotl(x13 ^ x1, 8);
    x9 = (x9 + x13) | 0;
    x5 = rotl(x5 ^ x9, 7);
    x2 = (x2 + x6) | 0;
    x14 = rotl(x14 ^ x2, 16);
    x10 = (x10 + x14) | 0;
    x6 = rotl(x6 ^ x10, 12);
    x2 = (x2 + x6) | 0;
    x14 = rotl(x14 ^ x2, 8);
    x10 = (x10 + x14) | 0;
    x6 = rotl(x6 ^ x10, 7);
    x3 = (x3 + x7) | 0;
    x15 = rotl(x15 ^ x3, 16);
    x11 = (x11 + x15) | 0;
    x7 = rotl(x7 ^ x11, 12);
    x3 = (x3 + x7) | 0;
    x15 = rotl(x15 ^ x3, 8);
    x11 = (x11 + x15) | 0;
    x7 = rotl(x7 ^ x11, 7);
    // Diagonal rounds.
    x0 = (x0 + x5) | 0;
    x15 = rotl(x15 ^ x0, 16);
    x10 = (x10 + x15) | 0;
    x5 = rotl(x5 ^ x10, 12);
    x0 = (x0 + x5) | 0;
    x15 = rotl(x15 ^ x0, 8);
    x10 = (x10 + x15) | 0;
    x5 = rotl(x5 ^ x10, 7);
    x1 = (x1 + x6) | 0;
    x12 = rotl(x12 ^ x1, 16);
    x11 = (x11 + x12) | 0;
    x6 = rotl(x6 ^ x11, 12);
    x1 = (x1 + x6) | 0;
    x12 = rotl(x12 ^ x1, 8);
    x11 = (x11 + x12) | 0;
    x6 = rotl(x6 ^ x11, 7);
    x2 = (x2 + x7) | 0;
    x13 = rotl(x13 ^ x2, 16);
    x8 = (x8 + x13) | 0;
    x7 = rotl(x7 ^ x8, 12);
    x2 = (x2 + x7) | 0;
    x13 = rotl(x13 ^ x2, 8);
    x8 = (x8 + x13) | 0;
    x7 = rotl(x7 ^ x8, 7);
    x3 = (x3 + x4) | 0;
    x14 = rotl(x14 ^ x3, 16);
    x9 = (x9 + x14) | 0;
    x4 = rotl(x4 ^ x9, 12);
    x3 = (x3 + x4) | 0;
    x14 = rotl(x14 ^ x3, 8);
    x9 = (x9 + x14) | 0;
    x4 = rotl(x4 ^ x9, 7);
  }
  out[0] = x0;
  out[1] = x1;
  out[2] = x2;
  out[3] = x3;
  out[4] = x4;
  out[5] = x5;
  out[6] = x6;
  out[7] = x7;
  out[8] = x8;
  out[9] = x9;
  out[10] = x10;
  out[11] = x11;
  out[12] = x12;
  out[13] = x13;
  out[14] = x14;
  out[15] = x15;
  // Int32Array stores wrap modulo 2^32, which is the addition the block function wants.
  if (addInput) for (let i = 0; i < 16; i++) out[i] += input[i];
}

// --- the WebAssembly kernel (engine/wasm-chacha20.ts) --------------------------------------------

/**
 * Data length from which the WebAssembly kernel beats the JavaScript one: two blocks. For one
 * block (a keystream block, HChaCha20, data up to 64 bytes) copying the state and data in and out
 * costs about what the SIMD rounds save. Measured in one process on Node 20: at 16-64 B the
 * wasm path took 1.1-1.5× the JavaScript time, at 65 B 0.7-0.8×, at 256 B 0.3×, at 8 KiB 0.06×.
 */
const WASM_FROM = 65;

/**
 * The WebAssembly kernel for `length` bytes of keystream, or undefined where JavaScript serves
 * (KEYED_BACKEND=wasm uses it for every length).
 */
function wasmFor(length: number): ChaChaWasm | undefined {
  if (length < WASM_FROM && FORCED_BACKEND !== "wasm") return undefined;
  return wasmFamily("chacha20")?.loadChaChaWasm();
}

function counterExhausted(): KeyedError {
  return new KeyedError(
    "LENGTH",
    "ChaCha20 block counter exhausted: at most 2^32 blocks (256 GiB) per nonce.",
  );
}

// --- ChaCha20 -------------------------------------------------------------------------------------

/** A ChaCha20 keystream under one key and 96-bit nonce (RFC 8439 2.4), with a block counter. */
export class ChaCha20 {
  private readonly input = new Int32Array(16);
  private readonly block = new Int32Array(16);
  private readonly bytes = new Uint8Array(64);
  /** Blocks this nonce still allows: the 32-bit counter must not wrap. */
  private blocksLeft: number;

  /** `key` 32 bytes, `nonce` 12 bytes, counter of the first block. */
  constructor(key: Uint8Array, nonce: Uint8Array, counter = 0) {
    this.blocksLeft = 0;
    this.reset(key, nonce, counter);
  }

  /** Starts over under a new key, nonce and counter (a MAC kernel keeps one instance). */
  reset(key: Uint8Array, nonce: Uint8Array, counter = 0): this {
    const s = this.input;
    s[0] = SIGMA0;
    s[1] = SIGMA1;
    s[2] = SIGMA2;
    s[3] = SIGMA3;
    for (let i = 0; i < 8; i++) s[4 + i] = le32(key, 4 * i);
    s[12] = counter;
    this.blocksLeft = 0x100000000 - (counter >>> 0);
    s[13] = le32(nonce, 0);
    s[14] = le32(nonce, 4);
    s[15] = le32(nonce, 8);
    return this;
  }

  /** Writes the next 64 keystream bytes to `this.bytes` and advances the counter. */
  private nextBlock(): Uint8Array {
    const s = this.input;
    if (this.blocksLeft-- <= 0) throw counterExhausted();
    rounds(s, this.block, true);
    s[12] = (s[12] + 1) | 0;
    const out = this.bytes;
    const b = this.block;
    for (let i = 0; i < 16; i++) {
      const w = b[i];
      out[4 * i] = w;
      out[4 * i + 1] = w >>> 8;
      out[4 * i + 2] = w >>> 16;
      out[4 * i + 3] = w >>> 24;
    }
    return out;
  }

  /** out[outOffset + i] = data[i] ⊕ keystream, block by block from the current counter. */
  xor(data: Uint8Array, out: Uint8Array, outOffset = 0): void {
    const wasm = wasmFor(data.length);
    if (wasm !== undefined) {
      // As the JavaScript loop does: the blocks the counter allows are written, then the error.
      const blocks = Math.ceil(data.length / 64);
      const allowed = Math.min(blocks, Math.max(this.blocksLeft, 0));
      const length = allowed === blocks ? data.length : allowed * 64;
      wasm.xor(
        this.input,
        length === data.length ? data : data.subarray(0, length),
        out,
        outOffset,
      );
      this.advance(allowed);
      if (allowed < blocks) {
        this.blocksLeft--;
        throw counterExhausted();
      }
      return;
    }
    for (let pos = 0; pos < data.length; pos += 64) {
      const ks = this.nextBlock();
      const n = Math.min(64, data.length - pos);
      for (let i = 0; i < n; i++) out[outOffset + pos + i] = data[pos + i] ^ ks[i];
    }
  }

  /** Moves the counter on by `blocks`. */
  private advance(blocks: number): void {
    const s = this.input;
    s[12] = (s[12] + blocks) | 0;
    this.blocksLeft -= blocks;
  }

  /** The next `length` (≤ 64) keystream bytes into out[0..length). */
  keystream(out: Uint8Array, length: number): void {
    const wasm = wasmFor(64);
    if (wasm !== undefined) {
      if (this.blocksLeft <= 0) {
        this.blocksLeft--;
        throw counterExhausted();
      }
      wasm.block(this.input, out, length);
      this.advance(1);
      return;
    }
    const ks = this.nextBlock();
    for (let i = 0; i < length; i++) out[i] = ks[i];
  }

  /** Overwrites the key, counter state and keystream buffer with zeros. */
  wipe(): void {
    this.input.fill(0);
    this.block.fill(0);
    this.bytes.fill(0);
  }
}

redactKeyMaterial(ChaCha20);

/**
 * HChaCha20 (draft-irtf-cfrg-xchacha-03 section 2.2): a 32-byte subkey from a key and the first 16
 * bytes of an extended nonce: the ChaCha20 rounds without the final addition, words 0-3 and 12-15.
 */
export function hchacha20(key: Bytes, nonce16: Bytes): Bytes {
  assertBytes(key, "key");
  assertBytes(nonce16, "nonce");
  if (key.length !== 32)
    throw new KeyedError("KEY_LENGTH", `HChaCha20 takes a 32-byte key; got ${key.length}.`);
  if (nonce16.length !== 16)
    throw new KeyedError("BAD_INPUT", `HChaCha20 takes a 16-byte nonce; got ${nonce16.length}.`);
  const out = new Uint8Array(32);
  hchacha20Into(key, nonce16, out);
  return out;
}

/** HChaCha20's input state and rounds output, shared: used within one call, zeroed after. */
const H_STATE = new Int32Array(16);
const H_ROUNDS = new Int32Array(16);

/**
 * @internal HChaCha20 of a 32-byte key and nonce[0..16) into out[0..32): checked arguments, no
 * allocation (XChaCha20's per-message subkey).
 */
export function hchacha20Into(key: Uint8Array, nonce: Uint8Array, out: Uint8Array): void {
  const s = H_STATE;
  s[0] = SIGMA0;
  s[1] = SIGMA1;
  s[2] = SIGMA2;
  s[3] = SIGMA3;
  for (let i = 0; i < 8; i++) s[4 + i] = le32(key, 4 * i);
  for (let i = 0; i < 4; i++) s[12 + i] = le32(nonce, 4 * i);
  const wasm = wasmFor(64);
  if (wasm !== undefined) {
    wasm.hchacha(s, out);
    s.fill(0);
    return;
  }
  const x = H_ROUNDS;
  rounds(s, x, false);
  for (let i = 0; i < 8; i++) {
    const word = x[i < 4 ? i : i + 8];
    out[4 * i] = word;
    out[4 * i + 1] = word >>> 8;
    out[4 * i + 2] = word >>> 16;
    out[4 * i + 3] = word >>> 24;
  }
  s.fill(0);
  x.fill(0);
}

/**
 * The XChaCha20 key and 96-bit nonce for a 24-byte nonce (draft-irtf-cfrg-xchacha-03 2.3): the
 * HChaCha20 subkey of the nonce's first 16 bytes, and 4 zero bytes ‖ its last 8. The caller
 * wipes `subkey`.
 */
export function xchachaKey(
  key: Uint8Array,
  nonce24: Uint8Array,
): { subkey: Uint8Array; nonce12: Uint8Array } {
  const subkey = new Uint8Array(32);
  const nonce12 = new Uint8Array(12);
  xchachaKeyInto(key, nonce24, subkey, nonce12);
  return { subkey, nonce12 };
}

/** `xchachaKey` into the caller's buffers: `subkey` 32 bytes, `nonce12` 12 bytes. */
export function xchachaKeyInto(
  key: Uint8Array,
  nonce24: Uint8Array,
  subkey: Uint8Array,
  nonce12: Uint8Array,
): void {
  hchacha20Into(key, nonce24, subkey);
  for (let i = 0; i < 4; i++) nonce12[i] = 0;
  for (let i = 0; i < 8; i++) nonce12[4 + i] = nonce24[16 + i];
}

/** ChaCha20 encryption or decryption (RFC 8439 2.4) of `data` from block `counter`. */
export function chacha20(key: Bytes, nonce: Bytes, data: Bytes, counter = 0): Bytes {
  assertBytes(key, "key");
  assertBytes(nonce, "nonce");
  assertBytes(data, "data");
  assertInteger(counter, "counter", 0, 0xffffffff);
  if (key.length !== 32)
    throw new KeyedError("KEY_LENGTH", `ChaCha20 takes a 32-byte key; got ${key.length}.`);
  if (nonce.length !== 12)
    throw new KeyedError("BAD_INPUT", `ChaCha20 takes a 12-byte nonce; got ${nonce.length}.`);
  if (counter + Math.ceil(data.length / 64) > 0x100000000) {
    throw new KeyedError("LENGTH", "data runs past ChaCha20's 2^32-block counter.");
  }
  const c = new ChaCha20(key, nonce, counter | 0);
  const out = new Uint8Array(data.length);
  c.xor(data, out);
  c.wipe();
  return out;
}
