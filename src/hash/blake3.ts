/**
 * BLAKE3 (the BLAKE3 specification, O'Connor, Aumasson, Neves, Wilcox-O'Hearn, 2020): the full
 * tree — 1024-byte chunks of 64-byte blocks, parent nodes merged on a stack of chaining values as
 * chunks complete (section 5.1.2), and extendable output from the root (2.6). Three modes: hash,
 * keyed_hash (32-byte key) and derive_key (context string, then key material).
 * Additions, XORs and fixed rotations only: constant time by construction.
 *
 * `Blake3` is keyed's TypeScript kernel and the reference for the other backends; `blake3()` and
 * derive_key run on the WebAssembly kernel (src/engine/wasm-blake3.ts) wherever it loads.
 */

import { assertBytes, assertInteger, type Bytes, readWordsLE } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import { checkOptions } from "../core/options.js";
import { redactKeyMaterial } from "../core/redact.js";
import { wasmFamily } from "../engine/wasm-families.js";

const IV = Int32Array.from([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);
/** Section 2.1 message word permutation, applied between rounds. */
const PERMUTATION = [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8];
/** The message word used by each G call in each of the seven rounds, precomputed (2.2). */
const SCHEDULE = new Uint8Array(7 * 16);
{
  let order = Array.from({ length: 16 }, (_, i) => i);
  for (let r = 0; r < 7; r++) {
    SCHEDULE.set(order, 16 * r);
    order = PERMUTATION.map((p) => order[p]);
  }
}

export const CHUNK_START = 1;
export const CHUNK_END = 2;
export const PARENT = 4;
export const ROOT = 8;
export const KEYED_HASH = 16;
export const DERIVE_KEY_CONTEXT = 32;
export const DERIVE_KEY_MATERIAL = 64;

const BLOCK = 64;
const CHUNK = 1024;
const TWO_32 = 0x100000000;

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

/**
 * The compression function (section 2.2): 16 output words into `out` from chaining value
 * cv[cvOffset..+8), message words m, the 64-bit counter, the block length and the flags.
 */
function compress(
  cv: Int32Array,
  cvOffset: number,
  m: Int32Array,
  counter: number,
  blockLength: number,
  flags: number,
  out: Int32Array,
): void {
  let v0 = cv[cvOffset];
  let v1 = cv[cvOffset + 1];
  let v2 = cv[cvOffset + 2];
  let v3 = cv[cvOffset + 3];
  let v4 = cv[cvOffset + 4];
  let v5 = cv[cvOffset + 5];
  let v6 = cv[cvOffset + 6];
  let v7 = cv[cvOffset + 7];
  let v8 = IV[0];
  let v9 = IV[1];
  let v10 = IV[2];
  let v11 = IV[3];
  let v12 = counter | 0;
  let v13 = Math.floor(counter / TWO_32) | 0;
  let v14 = blockLength;
  let v15 = flags;
  const s = SCHEDULE;
  for (let i = 0; i < 112; i += 16) {
    // Columns.
    v0 = (v0 + v4 + m[s[i]]) | 0;
    v12 = rotr(v12 ^ v0, 16);
    v8 = (v8 + v12) | 0;
    v4 = rotr(v4 ^ v8, 12);
    v0 = (v0 + v4 + m[s[i + 1]]) | 0;
    v12 = rotr(v12 ^ v0, 8);
    v8 = (v8 + v12) | 0;
    v4 = rotr(v4 ^ v8, 7);
    v1 = (v1 + v5 + m[s[i + 2]]) | 0;
    v13 = rotr(v13 ^ v1, 16);
    v9 = (v9 + v13) | 0;
    v5 = rotr(v5 ^ v9, 12);
    v1 = (v1 + v5 + m[s[i + 3]]) | 0;
    v13 = rotr(v13 ^ v1, 8);
    v9 = (v9 + v13) | 0;
    v5 = rotr(v5 ^ v9, 7);
    v2 = (v2 + v6 + m[s[i + 4]]) | 0;
    v14 = rotr(v14 ^ v2, 16);
    v10 = (v10 + v14) | 0;
    v6 = rotr(v6 ^ v10, 12);
    v2 = (v2 + v6 + m[s[i + 5]]) | 0;
    v14 = rotr(v14 ^ v2, 8);
    v10 = (v10 + v14) | 0;
    v6 = rotr(v6 ^ v10, 7);
    v3 = (v3 + v7 + m[s[i + 6]]) | 0;
    v15 = rotr(v15 ^ v3, 16);
    v11 = (v11 + v15) | 0;
    v7 = rotr(v7 ^ v11, 12);
    v3 = (v3 + v7 + m[s[i + 7]]) | 0;
    v15 = rotr(v15 ^ v3, 8);
    v11 = (v11 + v15) | 0;
    v7 = rotr(v7 ^ v11, 7);
    // Diagonals.
    v0 = (v0 + v5 + m[s[i + 8]]) | 0;
    v15 = rotr(v15 ^ v0, 16);
    v10 = (v10 + v15) | 0;
    v5 = rotr(v5 ^ v10, 12);
    v0 = (v0 + v5 + m[s[i + 9]]) | 0;
    v15 = rotr(v15 ^ v0, 8);
    v10 = (v10 + v15) | 0;
    v5 = rotr(v5 ^ v10, 7);
    v1 = (v1 + v6 + m[s[i + 10]]) | 0;
    v12 = rotr(v12 ^ v1, 16);
    v11 = (v11 + v12) | 0;
    v6 = rotr(v6 ^ v11, 12);
    v1 = (v1 + v6 + m[s[i + 11]]) | 0;
    v12 = rotr(v12 ^ v1, 8);
    v11 = (v11 + v12) | 0;
    v6 = rotr(v6 ^ v11, 7);
    v2 = (v2 + v7 + m[s[i + 12]]) | 0;
    v13 = rotr(v13 ^ v2, 16);
    v8 = (v8 + v13) | 0;
    v7 = rotr(v7 ^ v8, 12);
    v2 = (v2 + v7 + m[s[i + 13]]) | 0;
    v13 = rotr(v13 ^ v2, 8);
    v8 = (v8 + v13) | 0;
    v7 = rotr(v7 ^ v8, 7);
    v3 = (v3 + v4 + m[s[i + 14]]) | 0;
    v14 = rotr(v14 ^ v3, 16);
    v9 = (v9 + v14) | 0;
    v4 = rotr(v4 ^ v9, 12);
    v3 = (v3 + v4 + m[s[i + 15]]) | 0;
    v14 = rotr(v14 ^ v3, 8);
    v9 = (v9 + v14) | 0;
    v4 = rotr(v4 ^ v9, 7);
  }
  out[0] = v0 ^ v8;
  out[1] = v1 ^ v9;
  out[2] = v2 ^ v10;
  out[3] = v3 ^ v11;
  out[4] = v4 ^ v12;
  out[5] = v5 ^ v13;
  out[6] = v6 ^ v14;
  out[7] = v7 ^ v15;
  out[8] = v8 ^ cv[cvOffset];
  out[9] = v9 ^ cv[cvOffset + 1];
  out[10] = v10 ^ cv[cvOffset + 2];
  out[11] = v11 ^ cv[cvOffset + 3];
  out[12] = v12 ^ cv[cvOffset + 4];
  out[13] = v13 ^ cv[cvOffset + 5];
  out[14] = v14 ^ cv[cvOffset + 6];
  out[15] = v15 ^ cv[cvOffset + 7];
}

/** Little-endian words of data[offset .. offset + 64) into m, zero-padded past `end`. */
function loadBlock(data: Uint8Array, offset: number, end: number, m: Int32Array): void {
  if (end - offset >= BLOCK) {
    for (let i = 0; i < 16; i++, offset += 4) {
      m[i] =
        data[offset] |
        (data[offset + 1] << 8) |
        (data[offset + 2] << 16) |
        (data[offset + 3] << 24);
    }
    return;
  }
  m.fill(0);
  for (let i = 0; offset + i < end; i++) m[i >> 2] |= data[offset + i] << ((i & 3) << 3);
}

/** The largest number of chunks a tree can hold here: 2^53 bytes / 1024. */
const MAX_STACK = 54;

/** An incremental BLAKE3 computation in one mode. */
export class Blake3 {
  /** The key words: IV for hash, the key for keyed_hash, the context key for derive_key. */
  private readonly key = new Int32Array(8);
  private readonly flags: number;
  // Chunk state (section 5.1.1).
  private readonly cv = new Int32Array(8);
  private chunkCounter = 0;
  private readonly block = new Uint8Array(BLOCK);
  private blockLength = 0;
  private blocksCompressed = 0;
  // Stack of chaining values of completed subtrees (section 5.1.2).
  private readonly stack = new Int32Array(8 * MAX_STACK);
  private stackSize = 0;
  // Scratch.
  private readonly m = new Int32Array(16);
  private readonly out16 = new Int32Array(16);
  private finished = false;

  /** `keyWords`: 8 words (undefined for plain hashing); `flags`: the mode's flag. */
  constructor(keyWords: Int32Array | undefined, flags: number) {
    this.key.set(keyWords ?? IV);
    this.flags = flags;
    this.cv.set(this.key);
  }

  /** Absorbs `data`; chainable. FINISHED after the output was read. */
  update(data: Bytes): this {
    assertBytes(data, "data");
    if (this.finished)
      throw new KeyedError("FINISHED", "this BLAKE3 state already produced its output.");
    this.absorb(data, 0, data.length);
    return this;
  }

  /** Absorbs `data[offset .. end)` without checks (callers pass checked bounds). */
  absorb(data: Uint8Array, offset: number, end: number): void {
    while (offset < end) {
      // A full chunk with more input to come: finish it and push its chaining value.
      if (this.blocksCompressed * BLOCK + this.blockLength === CHUNK) {
        this.compressPendingBlock(CHUNK_END);
        this.pushChunk();
      }
      if (this.blockLength === BLOCK) this.compressPendingBlock(0);
      // Whole blocks straight from the input when the buffer is empty and more follows.
      if (this.blockLength === 0) {
        while (end - offset > BLOCK && this.blocksCompressed < CHUNK / BLOCK - 1) {
          loadBlock(data, offset, end, this.m);
          this.compressBlockWords(0);
          offset += BLOCK;
        }
      }
      const take = Math.min(BLOCK - this.blockLength, end - offset);
      for (let i = 0; i < take; i++) this.block[this.blockLength + i] = data[offset + i];
      this.blockLength += take;
      offset += take;
    }
  }

  private startFlag(): number {
    return this.blocksCompressed === 0 ? CHUNK_START : 0;
  }

  /** Compresses the buffered (full) block into the chunk's chaining value. */
  private compressPendingBlock(extraFlags: number): void {
    loadBlock(this.block, 0, BLOCK, this.m);
    this.compressBlockWords(extraFlags);
    this.blockLength = 0;
  }

  private compressBlockWords(extraFlags: number): void {
    compress(
      this.cv,
      0,
      this.m,
      this.chunkCounter,
      BLOCK,
      this.flags | this.startFlag() | extraFlags,
      this.out16,
    );
    for (let i = 0; i < 8; i++) this.cv[i] = this.out16[i];
    this.blocksCompressed++;
  }

  /** Pushes the finished chunk's chaining value, merging completed subtrees (5.1.2). */
  private pushChunk(): void {
    const stack = this.stack;
    let top = 8 * this.stackSize;
    for (let i = 0; i < 8; i++) stack[top + i] = this.cv[i];
    this.stackSize++;
    this.chunkCounter++;
    // A subtree is complete for every trailing zero bit of the chunk count.
    for (let total = this.chunkCounter; (total & 1) === 0; total = Math.floor(total / 2)) {
      top = 8 * (this.stackSize - 2);
      this.parentInto(stack, top, stack, top + 8, 0);
      for (let i = 0; i < 8; i++) stack[top + i] = this.out16[i];
      this.stackSize--;
    }
    this.cv.set(this.key);
    this.blocksCompressed = 0;
    this.blockLength = 0;
  }

  /** Compresses the parent node of two chaining values into out16. */
  private parentInto(
    left: Int32Array,
    l: number,
    right: Int32Array,
    r: number,
    extraFlags: number,
  ): void {
    const m = this.m;
    for (let i = 0; i < 8; i++) {
      m[i] = left[l + i];
      m[8 + i] = right[r + i];
    }
    compress(this.key, 0, m, 0, BLOCK, this.flags | PARENT | extraFlags, this.out16);
  }

  /**
   * Writes `length` bytes of output at out[offset] (section 2.6): the root node is compressed
   * again with counters 0, 1, 2, … for each 64 bytes. The state is then finished.
   */
  finishInto(out: Uint8Array, offset: number, length: number): void {
    if (this.finished)
      throw new KeyedError("FINISHED", "this BLAKE3 state already produced its output.");
    this.finished = true;
    // The root's inputs: the last chunk's final block, or a parent if chunks are on the stack.
    const rootCv = this.rootCv;
    const rootBlock = this.rootBlock;
    let rootLength: number;
    let rootFlags: number;
    let rootCounter = this.chunkCounter;
    loadBlock(this.block, 0, this.blockLength, rootBlock);
    rootCv.set(this.cv);
    rootLength = this.blockLength;
    rootFlags = this.flags | this.startFlag() | CHUNK_END;
    for (let i = this.stackSize - 1; i >= 0; i--) {
      // The current root becomes the right child of the next stack entry.
      compress(rootCv, 0, rootBlock, rootCounter, rootLength, rootFlags, this.out16);
      for (let j = 0; j < 8; j++) {
        rootBlock[j] = this.stack[8 * i + j];
        rootBlock[8 + j] = this.out16[j];
      }
      rootCv.set(this.key);
      rootLength = BLOCK;
      rootFlags = this.flags | PARENT;
      rootCounter = 0;
    }
    const words = this.out16;
    for (let block = 0, done = 0; done < length; block++) {
      compress(rootCv, 0, rootBlock, block, rootLength, rootFlags | ROOT, words);
      for (let i = 0; i < 64 && done < length; i++, done++)
        out[offset + done] = words[i >> 2] >>> ((i & 3) << 3);
    }
    rootCv.fill(0);
    rootBlock.fill(0);
    words.fill(0);
    this.m.fill(0);
    // Clear the message-dependent state but keep the key: reset() makes the object reusable.
    this.reset();
    this.finished = true;
  }
  private readonly rootCv = new Int32Array(8);
  private readonly rootBlock = new Int32Array(16);

  /** A copy of this computation, for a prepared key's per-message state. */
  clone(): Blake3 {
    const copy = new Blake3(this.key, this.flags);
    copy.cv.set(this.cv);
    copy.chunkCounter = this.chunkCounter;
    copy.block.set(this.block);
    copy.blockLength = this.blockLength;
    copy.blocksCompressed = this.blocksCompressed;
    copy.stack.set(this.stack.subarray(0, 8 * this.stackSize));
    copy.stackSize = this.stackSize;
    return copy;
  }

  /** Back to the start, keeping the key and mode. */
  reset(): this {
    this.cv.set(this.key);
    this.chunkCounter = 0;
    this.block.fill(0);
    this.blockLength = 0;
    this.blocksCompressed = 0;
    this.stack.fill(0);
    this.stackSize = 0;
    this.finished = false;
    return this;
  }

  /** Overwrites the key, chaining values and buffers with zeros; the state is then finished. */
  wipe(): void {
    this.reset();
    this.key.fill(0);
    this.cv.fill(0);
    this.m.fill(0);
    this.out16.fill(0);
    this.finished = true;
  }
}

redactKeyMaterial(Blake3);

/** The 8 little-endian words of a 32-byte key. */
export function keyWords(key: Uint8Array): Int32Array {
  const words = new Int32Array(8);
  readWordsLE(key, 0, words, 0, 8);
  return words;
}

/** BLAKE3's modes (spec section 2.3): plain hash, keyed_hash with `key`, derive_key with `context`. */
export interface Blake3Options {
  /** 32-byte key: keyed_hash mode. */
  key?: Bytes;
  /** Context string: derive_key mode, with the message as key material. */
  context?: string;
  /** Output bytes (default 32); any length (extendable output). */
  length?: number;
}

/**
 * `length` bytes of BLAKE3 output for `message` under 8 key words (undefined: plain hashing) in
 * the mode `flags`, into `out`: on the WebAssembly kernel where it loads, else on `Blake3`.
 */
export function blake3Into(
  key: Int32Array | undefined,
  flags: number,
  message: Bytes,
  out: Bytes,
  length: number,
): void {
  const wasm = wasmFamily("blake3")?.wasmBlake3();
  if (wasm !== undefined) {
    wasm.oneShotInto(key, flags, message, out, length);
    return;
  }
  const h = new Blake3(key, flags);
  h.absorb(message, 0, message.length);
  h.finishInto(out, 0, length);
  h.wipe();
}

/** The context key of derive_key (section 2.3): hash(context) with DERIVE_KEY_CONTEXT. */
export function contextKeyWords(context: string): Int32Array {
  const bytes = new TextEncoder().encode(context);
  const out = new Uint8Array(32);
  blake3Into(undefined, DERIVE_KEY_CONTEXT, bytes, out, 32);
  const words = keyWords(out);
  out.fill(0);
  return words;
}

/** A mode of BLAKE3 from `Blake3Options`: its key words (undefined: the IV), flag and output length. */
export interface Blake3Mode {
  key: Int32Array | undefined;
  flags: number;
  length: number;
}

/**
 * Checks `options` as `blake3()` takes them and returns the mode: keyed_hash's key words, derive_key's
 * context key, or plain hashing. The caller zeroes `key` when done.
 */
export function blake3Mode(options: Blake3Options): Blake3Mode {
  if (options === null || typeof options !== "object") {
    throw new KeyedError("BAD_INPUT", "options must be an object { key?, context?, length? }.");
  }
  const length = assertInteger(options.length ?? 32, "options.length", 0, 2 ** 31 - 1);
  if (options.key !== undefined && options.context !== undefined) {
    throw new KeyedError("BAD_INPUT", "give key (keyed_hash) or context (derive_key), not both.");
  }
  if (options.key !== undefined) {
    assertBytes(options.key, "options.key");
    if (options.key.length !== 32) {
      throw new KeyedError(
        "KEY_LENGTH",
        `BLAKE3 keyed_hash takes a 32-byte key; got ${options.key.length}.`,
      );
    }
    return { key: keyWords(options.key), flags: KEYED_HASH, length };
  }
  if (options.context !== undefined) {
    if (typeof options.context !== "string") {
      throw new KeyedError(
        "BAD_INPUT",
        "options.context must be a string (a hard-coded, globally unique context).",
      );
    }
    return { key: contextKeyWords(options.context), flags: DERIVE_KEY_MATERIAL, length };
  }
  return { key: undefined, flags: 0, length };
}

/** BLAKE3 of `message`: hash, keyed_hash (`key`) or derive_key (`context`), `length` bytes. */
export function blake3(message: Bytes, options: Blake3Options = {}): Bytes {
  checkOptions(options, ["key", "context", "length"], "blake3 options");
  assertBytes(message, "message");
  const mode = blake3Mode(options);
  const out = new Uint8Array(mode.length);
  blake3Into(mode.key, mode.flags, message, out, mode.length);
  mode.key?.fill(0);
  return out;
}
