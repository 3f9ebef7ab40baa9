// asc: --enable simd
// AssemblyScript: BLAKE3 (the BLAKE3 specification, O'Connor, Aumasson, Neves, Wilcox-O'Hearn,
// 2020) in its three modes: hash, keyed_hash and derive_key, whose key words and mode flag the
// JavaScript side writes into a state. A state holds everything of one computation: the key, the
// chunk being absorbed, the stack of subtree chaining values and, once finished, the root node,
// so that a message can arrive in any number of `absorb` calls.
//
// Two compression paths. One block at a time (up to two chunks, the last chunk, parents, output):
// scalar, the state in sixteen locals. Runs of three whole chunks or more: four at once, one chunk
// per i32x4 lane, message words transposed (section 5.3), and for aligned 16-chunk subtrees their
// two lowest levels of parents four at a time too. The tree (sections 2.4-2.6) is built on a stack of chaining values
// merged lazily, so the root is never compressed as an inner node.
//
// Constant time: additions, XORs and fixed rotations only, no table lookups; branches and loop
// counts depend on lengths alone. Scratch that held message words or chaining values (MT, CVS, TMP,
// MSG after `hash`) is zeroed before an export returns; a state keeps its own until `clear`.

import { copyBytes, zeroBytes } from "./lib/memory";

// Memory map (bytes). No static data.
const MT: usize = 4096; // the transposed message block of the SIMD path, 16 × v128
const CVS: usize = 4352; // the chaining values of a 16-chunk subtree, 16 × 32
const TMP: usize = 4864; // one 64-byte compression output
export const OUT: usize = 5120; // the output, up to OUT_CAPACITY bytes per call
export const OUT_CAPACITY: usize = 1024;
export const MSG: usize = 8192; // the message, up to MSG_CAPACITY bytes per call
export const MSG_CAPACITY: usize = 65536;
export const SLOTS: usize = 73728;

// A state (one per key slot, JS-managed): the key and mode first, then the computation.
const S_KEY: usize = 0; // 8 key words: IV (hash), the key (keyed_hash), the context key
const S_FLAGS: usize = 32; // the mode flag: 0, KEYED_HASH or DERIVE_KEY_*
const S_BLOCK_LEN: usize = 36; // bytes in the buffered block
const S_BLOCKS: usize = 40; // blocks of the current chunk compressed
const S_STACK_SIZE: usize = 44; // chaining values on the stack
const S_COUNTER: usize = 48; // u64: chunks completed
const S_ROOT_LEN: usize = 56; // once finished: the root node's block length
const S_ROOT_FLAGS: usize = 60; // and flags; its chaining value and block replace CV and BLOCK
const S_CV: usize = 64; // the current chunk's chaining value (8 words)
const S_BLOCK: usize = 96; // its buffered block (64 bytes; zero past the buffered length)
const S_STACK: usize = 160; // subtree chaining values (section 5.1.2), 54 × 32 bytes
const S_BASE: usize = 1888; // u64: the counter of chunk 0, when the state hashes a subtree (startAt)
// 1888 + 8 = 1896 bytes, in slots of 1920 (BLAKE3_STATE_SIZE in src/engine/wasm-blake3.ts).

// Flags (section 2.1).
const CHUNK_START: u32 = 1;
const CHUNK_END: u32 = 2;
const PARENT: u32 = 4;
const ROOT: u32 = 8;

const IV0: u32 = 0x6a09e667;
const IV1: u32 = 0xbb67ae85;
const IV2: u32 = 0x3c6ef372;
const IV3: u32 = 0xa54ff53a;

// --- small copies ---------------------------------------------------------------------------------

// Fixed and short copies by v128 loads and stores: memory.copy and memory.fill leave the module
// for a C call, which costs more than the copy itself at these sizes (any length: lib/memory).
@inline function copy32(to: usize, from: usize): void {
  v128.store(to, v128.load(from));
  v128.store(to, v128.load(from, 16), 16);
}
@inline function zero64(at: usize): void {
  const zero = i64x2.splat(0);
  v128.store(at, zero);
  v128.store(at, zero, 16);
  v128.store(at, zero, 32);
  v128.store(at, zero, 48);
}

// --- the compression function (section 2.2), one block --------------------------------------------

/**
 * Compresses the 64-byte block at `block` under the chaining value at `cv` and writes 8 words
 * (a chaining value) or, `wide`, 16 (an output block) to `out`. Everything is read before anything
 * is written, so `out` may overlap `cv` or `block`.
 *
 * Scalar code: the sixteen state words in locals, each message word read from the block where a
 * G step uses it, the seven rounds written out with the message permutation (section 2.1) applied
 * to the word indexes, G on the columns and then the diagonals (section 2.2), rotations by
 * i32.rotr. The state's rows as i32x4 vectors (the BLAKE3 team's SSE4.1 layout) ran ~1.5× slower
 * here: V8 spends most of that form's time in lane shuffles (the diagonals and the message
 * permutation). G's two halves one per line; the lines were generated from the permutation. Each
 * a + b + m is written (a + m) + b, so the b just computed waits for one addition, not two: 0.91-0.96x
 * the time at 64 B-1 KiB, module against module.
 */
function compress(
  cv: usize,
  block: usize,
  counter: u64,
  blockLen: u32,
  flags: u32,
  out: usize,
  wide: bool,
): void {
  let v0 = load<u32>(cv), v1 = load<u32>(cv, 4), v2 = load<u32>(cv, 8), v3 = load<u32>(cv, 12);
  let v4 = load<u32>(cv, 16), v5 = load<u32>(cv, 20), v6 = load<u32>(cv, 24), v7 = load<u32>(cv, 28);
  let v8 = IV0, v9 = IV1, v10 = IV2, v11 = IV3;
  let v12 = <u32>counter, v13 = <u32>(counter >> 32), v14 = blockLen, v15 = flags;
  // Round 1: columns, then diagonals.
  v0 = v0 + load<u32>(block) + v4; v12 = rotr(v12 ^ v0, 16); v8 += v12; v4 = rotr(v4 ^ v8, 12);
  v0 = v0 + load<u32>(block, 4) + v4; v12 = rotr(v12 ^ v0, 8); v8 += v12; v4 = rotr(v4 ^ v8, 7);
  v1 = v1 + load<u32>(block, 8) + v5; v13 = rotr(v13 ^ v1, 16); v9 += v13; v5 = rotr(v5 ^ v9, 12);
  v1 = v1 + load<u32>(block, 12) + v5; v13 = rotr(v13 ^ v1, 8); v9 += v13; v5 = rotr(v5 ^ v9, 7);
  v2 = v2 + load<u32>(block, 16) + v6; v14 = rotr(v14 ^ v2, 16); v10 += v14; v6 = rotr(v6 ^ v10, 12);
  v2 = v2 + load<u32>(block, 20) + v6; v14 = rotr(v14 ^ v2, 8); v10 += v14; v6 = rotr(v6 ^ v10, 7);
  v3 = v3 + load<u32>(block, 24) + v7; v15 = rotr(v15 ^ v3, 16); v11 += v15; v7 = rotr(v7 ^ v11, 12);
  v3 = v3 + load<u32>(block, 28) + v7; v15 = rotr(v15 ^ v3, 8); v11 += v15; v7 = rotr(v7 ^ v11, 7);
  v0 = v0 + load<u32>(block, 32) + v5; v15 = rotr(v15 ^ v0, 16); v10 += v15; v5 = rotr(v5 ^ v10, 12);
  v0 = v0 + load<u32>(block, 36) + v5; v15 = rotr(v15 ^ v0, 8); v10 += v15; v5 = rotr(v5 ^ v10, 7);
  v1 = v1 + load<u32>(block, 40) + v6; v12 = rotr(v12 ^ v1, 16); v11 += v12; v6 = rotr(v6 ^ v11, 12);
  v1 = v1 + load<u32>(block, 44) + v6; v12 = rotr(v12 ^ v1, 8); v11 += v12; v6 = rotr(v6 ^ v11, 7);
  v2 = v2 + load<u32>(block, 48) + v7; v13 = rotr(v13 ^ v2, 16); v8 += v13; v7 = rotr(v7 ^ v8, 12);
  v2 = v2 + load<u32>(block, 52) + v7; v13 = rotr(v13 ^ v2, 8); v8 += v13; v7 = rotr(v7 ^ v8, 7);
  v3 = v3 + load<u32>(block, 56) + v4; v14 = rotr(v14 ^ v3, 16); v9 += v14; v4 = rotr(v4 ^ v9, 12);
  v3 = v3 + load<u32>(block, 60) + v4; v14 = rotr(v14 ^ v3, 8); v9 += v14; v4 = rotr(v4 ^ v9, 7);
  // Round 2: columns, then diagonals.
  v0 = v0 + load<u32>(block, 8) + v4; v12 = rotr(v12 ^ v0, 16); v8 += v12; v4 = rotr(v4 ^ v8, 12);
  v0 = v0 + load<u32>(block, 24) + v4; v12 = rotr(v12 ^ v0, 8); v8 += v12; v4 = rotr(v4 ^ v8, 7);
  v1 = v1 + load<u32>(block, 12) + v5; v13 = rotr(v13 ^ v1, 16); v9 += v13; v5 = rotr(v5 ^ v9, 12);
  v1 = v1 + load<u32>(block, 40) + v5; v13 = rotr(v13 ^ v1, 8); v9 += v13; v5 = rotr(v5 ^ v9, 7);
  v2 = v2 + load<u32>(block, 28) + v6; v14 = rotr(v14 ^ v2, 16); v10 += v14; v6 = rotr(v6 ^ v10, 12);
  v2 = v2 + load<u32>(block) + v6; v14 = rotr(v14 ^ v2, 8); v10 += v14; v6 = rotr(v6 ^ v10, 7);
  v3 = v3 + load<u32>(block, 16) + v7; v15 = rotr(v15 ^ v3, 16); v11 += v15; v7 = rotr(v7 ^ v11, 12);
  v3 = v3 + load<u32>(block, 52) + v7; v15 = rotr(v15 ^ v3, 8); v11 += v15; v7 = rotr(v7 ^ v11, 7);
  v0 = v0 + load<u32>(block, 4) + v5; v15 = rotr(v15 ^ v0, 16); v10 += v15; v5 = rotr(v5 ^ v10, 12);
  v0 = v0 + load<u32>(block, 44) + v5; v15 = rotr(v15 ^ v0, 8); v10 += v15; v5 = rotr(v5 ^ v10, 7);
  v1 = v1 + load<u32>(block, 48) + v6; v12 = rotr(v12 ^ v1, 16); v11 += v12; v6 = rotr(v6 ^ v11, 12);
  v1 = v1 + load<u32>(block, 20) + v6; v12 = rotr(v12 ^ v1, 8); v11 += v12; v6 = rotr(v6 ^ v11, 7);
  v2 = v2 + load<u32>(block, 36) + v7; v13 = rotr(v13 ^ v2, 16); v8 += v13; v7 = rotr(v7 ^ v8, 12);
  v2 = v2 + load<u32>(block, 56) + v7; v13 = rotr(v13 ^ v2, 8); v8 += v13; v7 = rotr(v7 ^ v8, 7);
  v3 = v3 + load<u32>(block, 60) + v4; v14 = rotr(v14 ^ v3, 16); v9 += v14; v4 = rotr(v4 ^ v9, 12);
  v3 = v3 + load<u32>(block, 32) + v4; v14 = rotr(v14 ^ v3, 8); v9 += v14; v4 = rotr(v4 ^ v9, 7);
  // Round 3: columns, then diagonals.
  v0 = v0 + load<u32>(block, 12) + v4; v12 = rotr(v12 ^ v0, 16); v8 += v12; v4 = rotr(v4 ^ v8, 12);
  v0 = v0 + load<u32>(block, 16) + v4; v12 = rotr(v12 ^ v0, 8); v8 += v12; v4 = rotr(v4 ^ v8, 7);
  v1 = v1 + load<u32>(block, 40) + v5; v13 = rotr(v13 ^ v1, 16); v9 += v13; v5 = rotr(v5 ^ v9, 12);
  v1 = v1 + load<u32>(block, 48) + v5; v13 = rotr(v13 ^ v1, 8); v9 += v13; v5 = rotr(v5 ^ v9, 7);
  v2 = v2 + load<u32>(block, 52) + v6; v14 = rotr(v14 ^ v2, 16); v10 += v14; v6 = rotr(v6 ^ v10, 12);
  v2 = v2 + load<u32>(block, 8) + v6; v14 = rotr(v14 ^ v2, 8); v10 += v14; v6 = rotr(v6 ^ v10, 7);
  v3 = v3 + load<u32>(block, 28) + v7; v15 = rotr(v15 ^ v3, 16); v11 += v15; v7 = rotr(v7 ^ v11, 12);
  v3 = v3 + load<u32>(block, 56) + v7; v15 = rotr(v15 ^ v3, 8); v11 += v15; v7 = rotr(v7 ^ v11, 7);
  v0 = v0 + load<u32>(block, 24) + v5; v15 = rotr(v15 ^ v0, 16); v10 += v15; v5 = rotr(v5 ^ v10, 12);
  v0 = v0 + load<u32>(block, 20) + v5; v15 = rotr(v15 ^ v0, 8); v10 += v15; v5 = rotr(v5 ^ v10, 7);
  v1 = v1 + load<u32>(block, 36) + v6; v12 = rotr(v12 ^ v1, 16); v11 += v12; v6 = rotr(v6 ^ v11, 12);
  v1 = v1 + load<u32>(block) + v6; v12 = rotr(v12 ^ v1, 8); v11 += v12; v6 = rotr(v6 ^ v11, 7);
  v2 = v2 + load<u32>(block, 44) + v7; v13 = rotr(v13 ^ v2, 16); v8 += v13; v7 = rotr(v7 ^ v8, 12);
  v2 = v2 + load<u32>(block, 60) + v7; v13 = rotr(v13 ^ v2, 8); v8 += v13; v7 = rotr(v7 ^ v8, 7);
  v3 = v3 + load<u32>(block, 32) + v4; v14 = rotr(v14 ^ v3, 16); v9 += v14; v4 = rotr(v4 ^ v9, 12);
  v3 = v3 + load<u32>(block, 4) + v4; v14 = rotr(v14 ^ v3, 8); v9 += v14; v4 = rotr(v4 ^ v9, 7);
  // Round 4: columns, then diagonals.
  v0 = v0 + load<u32>(block, 40) + v4; v12 = rotr(v12 ^ v0, 16); v8 += v12; v4 = rotr(v4 ^ v8, 12);
  v0 = v0 + load<u32>(block, 28) + v4; v12 = rotr(v12 ^ v0, 8); v8 += v12; v4 = rotr(v4 ^ v8, 7);
  v1 = v1 + load<u32>(block, 48) + v5; v13 = rotr(v13 ^ v1, 16); v9 += v13; v5 = rotr(v5 ^ v9, 12);
  v1 = v1 + load<u32>(block, 36) + v5; v13 = rotr(v13 ^ v1, 8); v9 += v13; v5 = rotr(v5 ^ v9, 7);
  v2 = v2 + load<u32>(block, 56) + v6; v14 = rotr(v14 ^ v2, 16); v10 += v14; v6 = rotr(v6 ^ v10, 12);
  v2 = v2 + load<u32>(block, 12) + v6; v14 = rotr(v14 ^ v2, 8); v10 += v14; v6 = rotr(v6 ^ v10, 7);
  v3 = v3 + load<u32>(block, 52) + v7; v15 = rotr(v15 ^ v3, 16); v11 += v15; v7 = rotr(v7 ^ v11, 12);
  v3 = v3 + load<u32>(block, 60) + v7; v15 = rotr(v15 ^ v3, 8); v11 += v15; v7 = rotr(v7 ^ v11, 7);
  v0 = v0 + load<u32>(block, 16) + v5; v15 = rotr(v15 ^ v0, 16); v10 += v15; v5 = rotr(v5 ^ v10, 12);
  v0 = v0 + load<u32>(block) + v5; v15 = rotr(v15 ^ v0, 8); v10 += v15; v5 = rotr(v5 ^ v10, 7);
  v1 = v1 + load<u32>(block, 44) + v6; v12 = rotr(v12 ^ v1, 16); v11 += v12; v6 = rotr(v6 ^ v11, 12);
  v1 = v1 + load<u32>(block, 8) + v6; v12 = rotr(v12 ^ v1, 8); v11 += v12; v6 = rotr(v6 ^ v11, 7);
  v2 = v2 + load<u32>(block, 20) + v7; v13 = rotr(v13 ^ v2, 16); v8 += v13; v7 = rotr(v7 ^ v8, 12);
  v2 = v2 + load<u32>(block, 32) + v7; v13 = rotr(v13 ^ v2, 8); v8 += v13; v7 = rotr(v7 ^ v8, 7);
  v3 = v3 + load<u32>(block, 4) + v4; v14 = rotr(v14 ^ v3, 16); v9 += v14; v4 = rotr(v4 ^ v9, 12);
  v3 = v3 + load<u32>(block, 24) + v4; v14 = rotr(v14 ^ v3, 8); v9 += v14; v4 = rotr(v4 ^ v9, 7);
  // Round 5: columns, then diagonals.
  v0 = v0 + load<u32>(block, 48) + v4; v12 = rotr(v12 ^ v0, 16); v8 += v12; v4 = rotr(v4 ^ v8, 12);
  v0 = v0 + load<u32>(block, 52) + v4; v12 = rotr(v12 ^ v0, 8); v8 += v12; v4 = rotr(v4 ^ v8, 7);
  v1 = v1 + load<u32>(block, 36) + v5; v13 = rotr(v13 ^ v1, 16); v9 += v13; v5 = rotr(v5 ^ v9, 12);
  v1 = v1 + load<u32>(block, 44) + v5; v13 = rotr(v13 ^ v1, 8); v9 += v13; v5 = rotr(v5 ^ v9, 7);
  v2 = v2 + load<u32>(block, 60) + v6; v14 = rotr(v14 ^ v2, 16); v10 += v14; v6 = rotr(v6 ^ v10, 12);
  v2 = v2 + load<u32>(block, 40) + v6; v14 = rotr(v14 ^ v2, 8); v10 += v14; v6 = rotr(v6 ^ v10, 7);
  v3 = v3 + load<u32>(block, 56) + v7; v15 = rotr(v15 ^ v3, 16); v11 += v15; v7 = rotr(v7 ^ v11, 12);
  v3 = v3 + load<u32>(block, 32) + v7; v15 = rotr(v15 ^ v3, 8); v11 += v15; v7 = rotr(v7 ^ v11, 7);
  v0 = v0 + load<u32>(block, 28) + v5; v15 = rotr(v15 ^ v0, 16); v10 += v15; v5 = rotr(v5 ^ v10, 12);
  v0 = v0 + load<u32>(block, 8) + v5; v15 = rotr(v15 ^ v0, 8); v10 += v15; v5 = rotr(v5 ^ v10, 7);
  v1 = v1 + load<u32>(block, 20) + v6; v12 = rotr(v12 ^ v1, 16); v11 += v12; v6 = rotr(v6 ^ v11, 12);
  v1 = v1 + load<u32>(block, 12) + v6; v12 = rotr(v12 ^ v1, 8); v11 += v12; v6 = rotr(v6 ^ v11, 7);
  v2 = v2 + load<u32>(block) + v7; v13 = rotr(v13 ^ v2, 16); v8 += v13; v7 = rotr(v7 ^ v8, 12);
  v2 = v2 + load<u32>(block, 4) + v7; v13 = rotr(v13 ^ v2, 8); v8 += v13; v7 = rotr(v7 ^ v8, 7);
  v3 = v3 + load<u32>(block, 24) + v4; v14 = rotr(v14 ^ v3, 16); v9 += v14; v4 = rotr(v4 ^ v9, 12);
  v3 = v3 + load<u32>(block, 16) + v4; v14 = rotr(v14 ^ v3, 8); v9 += v14; v4 = rotr(v4 ^ v9, 7);
  // Round 6: columns, then diagonals.
  v0 = v0 + load<u32>(block, 36) + v4; v12 = rotr(v12 ^ v0, 16); v8 += v12; v4 = rotr(v4 ^ v8, 12);
  v0 = v0 + load<u32>(block, 56) + v4; v12 = rotr(v12 ^ v0, 8); v8 += v12; v4 = rotr(v4 ^ v8, 7);
  v1 = v1 + load<u32>(block, 44) + v5; v13 = rotr(v13 ^ v1, 16); v9 += v13; v5 = rotr(v5 ^ v9, 12);
  v1 = v1 + load<u32>(block, 20) + v5; v13 = rotr(v13 ^ v1, 8); v9 += v13; v5 = rotr(v5 ^ v9, 7);
  v2 = v2 + load<u32>(block, 32) + v6; v14 = rotr(v14 ^ v2, 16); v10 += v14; v6 = rotr(v6 ^ v10, 12);
  v2 = v2 + load<u32>(block, 48) + v6; v14 = rotr(v14 ^ v2, 8); v10 += v14; v6 = rotr(v6 ^ v10, 7);
  v3 = v3 + load<u32>(block, 60) + v7; v15 = rotr(v15 ^ v3, 16); v11 += v15; v7 = rotr(v7 ^ v11, 12);
  v3 = v3 + load<u32>(block, 4) + v7; v15 = rotr(v15 ^ v3, 8); v11 += v15; v7 = rotr(v7 ^ v11, 7);
  v0 = v0 + load<u32>(block, 52) + v5; v15 = rotr(v15 ^ v0, 16); v10 += v15; v5 = rotr(v5 ^ v10, 12);
  v0 = v0 + load<u32>(block, 12) + v5; v15 = rotr(v15 ^ v0, 8); v10 += v15; v5 = rotr(v5 ^ v10, 7);
  v1 = v1 + load<u32>(block) + v6; v12 = rotr(v12 ^ v1, 16); v11 += v12; v6 = rotr(v6 ^ v11, 12);
  v1 = v1 + load<u32>(block, 40) + v6; v12 = rotr(v12 ^ v1, 8); v11 += v12; v6 = rotr(v6 ^ v11, 7);
  v2 = v2 + load<u32>(block, 8) + v7; v13 = rotr(v13 ^ v2, 16); v8 += v13; v7 = rotr(v7 ^ v8, 12);
  v2 = v2 + load<u32>(block, 24) + v7; v13 = rotr(v13 ^ v2, 8); v8 += v13; v7 = rotr(v7 ^ v8, 7);
  v3 = v3 + load<u32>(block, 16) + v4; v14 = rotr(v14 ^ v3, 16); v9 += v14; v4 = rotr(v4 ^ v9, 12);
  v3 = v3 + load<u32>(block, 28) + v4; v14 = rotr(v14 ^ v3, 8); v9 += v14; v4 = rotr(v4 ^ v9, 7);
  // Round 7: columns, then diagonals.
  v0 = v0 + load<u32>(block, 44) + v4; v12 = rotr(v12 ^ v0, 16); v8 += v12; v4 = rotr(v4 ^ v8, 12);
  v0 = v0 + load<u32>(block, 60) + v4; v12 = rotr(v12 ^ v0, 8); v8 += v12; v4 = rotr(v4 ^ v8, 7);
  v1 = v1 + load<u32>(block, 20) + v5; v13 = rotr(v13 ^ v1, 16); v9 += v13; v5 = rotr(v5 ^ v9, 12);
  v1 = v1 + load<u32>(block) + v5; v13 = rotr(v13 ^ v1, 8); v9 += v13; v5 = rotr(v5 ^ v9, 7);
  v2 = v2 + load<u32>(block, 4) + v6; v14 = rotr(v14 ^ v2, 16); v10 += v14; v6 = rotr(v6 ^ v10, 12);
  v2 = v2 + load<u32>(block, 36) + v6; v14 = rotr(v14 ^ v2, 8); v10 += v14; v6 = rotr(v6 ^ v10, 7);
  v3 = v3 + load<u32>(block, 32) + v7; v15 = rotr(v15 ^ v3, 16); v11 += v15; v7 = rotr(v7 ^ v11, 12);
  v3 = v3 + load<u32>(block, 24) + v7; v15 = rotr(v15 ^ v3, 8); v11 += v15; v7 = rotr(v7 ^ v11, 7);
  v0 = v0 + load<u32>(block, 56) + v5; v15 = rotr(v15 ^ v0, 16); v10 += v15; v5 = rotr(v5 ^ v10, 12);
  v0 = v0 + load<u32>(block, 40) + v5; v15 = rotr(v15 ^ v0, 8); v10 += v15; v5 = rotr(v5 ^ v10, 7);
  v1 = v1 + load<u32>(block, 8) + v6; v12 = rotr(v12 ^ v1, 16); v11 += v12; v6 = rotr(v6 ^ v11, 12);
  v1 = v1 + load<u32>(block, 48) + v6; v12 = rotr(v12 ^ v1, 8); v11 += v12; v6 = rotr(v6 ^ v11, 7);
  v2 = v2 + load<u32>(block, 12) + v7; v13 = rotr(v13 ^ v2, 16); v8 += v13; v7 = rotr(v7 ^ v8, 12);
  v2 = v2 + load<u32>(block, 16) + v7; v13 = rotr(v13 ^ v2, 8); v8 += v13; v7 = rotr(v7 ^ v8, 7);
  v3 = v3 + load<u32>(block, 28) + v4; v14 = rotr(v14 ^ v3, 16); v9 += v14; v4 = rotr(v4 ^ v9, 12);
  v3 = v3 + load<u32>(block, 52) + v4; v14 = rotr(v14 ^ v3, 8); v9 += v14; v4 = rotr(v4 ^ v9, 7);
  if (wide) {
    const c0 = load<u32>(cv), c1 = load<u32>(cv, 4), c2 = load<u32>(cv, 8), c3 = load<u32>(cv, 12);
    const c4 = load<u32>(cv, 16), c5 = load<u32>(cv, 20), c6 = load<u32>(cv, 24), c7 = load<u32>(cv, 28);
    store<u32>(out, v8 ^ c0, 32); store<u32>(out, v9 ^ c1, 36); store<u32>(out, v10 ^ c2, 40); store<u32>(out, v11 ^ c3, 44);
    store<u32>(out, v12 ^ c4, 48); store<u32>(out, v13 ^ c5, 52); store<u32>(out, v14 ^ c6, 56); store<u32>(out, v15 ^ c7, 60);
  }
  store<u32>(out, v0 ^ v8); store<u32>(out, v1 ^ v9, 4); store<u32>(out, v2 ^ v10, 8); store<u32>(out, v3 ^ v11, 12);
  store<u32>(out, v4 ^ v12, 16); store<u32>(out, v5 ^ v13, 20); store<u32>(out, v6 ^ v14, 24); store<u32>(out, v7 ^ v15, 28);
}

// --- four chunks at once, one per i32x4 lane ---------------------------------------------------

// Rotations right: by 16 and 8 a byte permutation, by 12 and 7 two shifts and an OR. V8 (x64)
// makes i8x16.shuffle a pshufb whose mask it rebuilds from immediates every time (or, for rot16,
// a pshuflw/pshufhw pair), but a swizzle by a constant one pshufb: measured in the four-lane code
// on Zen 5 (Node 20), swizzles for both rotations are 2-3% faster than a shuffle for rot16.
@inline function rot16(x: v128): v128 {
  return i8x16.swizzle(x, i8x16(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13));
}
@inline function rot8(x: v128): v128 {
  return i8x16.swizzle(x, i8x16(1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12));
}
@inline function rot12(x: v128): v128 {
  return v128.or(i32x4.shr_u(x, 12), i32x4.shl(x, 20));
}
@inline function rot7(x: v128): v128 {
  return v128.or(i32x4.shr_u(x, 7), i32x4.shl(x, 25));
}

/** Stores the 4 × 4 transpose of rows a, b, c, d as four vectors `stride` bytes apart. */
@inline function transposeStore(a: v128, b: v128, c: v128, d: v128, to: usize, stride: usize): void {
  const ab01 = i32x4.shuffle(a, b, 0, 4, 1, 5);
  const ab23 = i32x4.shuffle(a, b, 2, 6, 3, 7);
  const cd01 = i32x4.shuffle(c, d, 0, 4, 1, 5);
  const cd23 = i32x4.shuffle(c, d, 2, 6, 3, 7);
  v128.store(to, i64x2.shuffle(ab01, cd01, 0, 2));
  v128.store(to + stride, i64x2.shuffle(ab01, cd01, 1, 3));
  v128.store(to + 2 * stride, i64x2.shuffle(ab23, cd23, 0, 2));
  v128.store(to + 3 * stride, i64x2.shuffle(ab23, cd23, 1, 3));
}

/** Message word i of the current block, in all four lanes. */
@inline function w(i: usize): v128 {
  return v128.load(MT + (i << 4));
}
/**
 * G's a + b + m (section 2.2) as (a + m) + b: b is the last value the step before computed and a
 * + m does not wait for it, so b's path is one addition, not two (vector additions take two cycles
 * on Zen 5): 0.90x the four-lane kernel's time at 64 KiB, module against module.
 */
@inline function add3(a: v128, b: v128, m: v128): v128 {
  return i32x4.add(i32x4.add(a, m), b);
}

/**
 * Four inputs at once, one per i32x4 lane: each `blocks` 64-byte blocks long, lane i's at
 * p + i·stride, compressed in sequence from the key words at `key`; the four chaining values go to
 * `out`, 32 bytes apart (which may overlap the input: it is read first). Chunks: stride 1024,
 * 16 blocks, counters from `counter` by `step` 1, the flags `first` and `last` on their first and
 * last block. Parents: stride 64, one block, counter 0, step 0. Lanes from `lanes` on repeat
 * lane 0's input, and their output is ignored.
 */
function hash4(
  key: usize,
  p: usize,
  stride: usize,
  blocks: usize,
  counter: u64,
  step: u64,
  flags: u32,
  first: u32,
  last: u32,
  lanes: usize,
  out: usize,
): void {
  const p1 = p + stride;
  const p2 = lanes > 2 ? p + 2 * stride : p;
  const p3 = lanes > 3 ? p + 3 * stride : p;
  let h0 = v128.load32_splat(key);
  let h1 = v128.load32_splat(key, 4);
  let h2 = v128.load32_splat(key, 8);
  let h3 = v128.load32_splat(key, 12);
  let h4 = v128.load32_splat(key, 16);
  let h5 = v128.load32_splat(key, 20);
  let h6 = v128.load32_splat(key, 24);
  let h7 = v128.load32_splat(key, 28);
  const c1 = counter + step;
  const c2 = c1 + step;
  const c3 = c2 + step;
  let lo = i32x4.splat(<i32>counter);
  lo = i32x4.replace_lane(lo, 1, <i32>c1);
  lo = i32x4.replace_lane(lo, 2, <i32>c2);
  lo = i32x4.replace_lane(lo, 3, <i32>c3);
  let hi = i32x4.splat(<i32>(counter >>> 32));
  hi = i32x4.replace_lane(hi, 1, <i32>(c1 >>> 32));
  hi = i32x4.replace_lane(hi, 2, <i32>(c2 >>> 32));
  hi = i32x4.replace_lane(hi, 3, <i32>(c3 >>> 32));
  const end = blocks << 6;
  const blockLen = i32x4.splat(64);
  for (let b: usize = 0; b < end; b += 64) {
    for (let k: usize = 0; k < 64; k += 16) {
      const o = b + k;
      transposeStore(v128.load(p + o), v128.load(p1 + o), v128.load(p2 + o), v128.load(p3 + o), MT + (k << 2), 16);
    }
    let f = flags;
    if (b == 0) f |= first;
    if (b == end - 64) f |= last;
    let v0 = h0;
    let v1 = h1;
    let v2 = h2;
    let v3 = h3;
    let v4 = h4;
    let v5 = h5;
    let v6 = h6;
    let v7 = h7;
    let v8 = i32x4.splat(<i32>IV0);
    let v9 = i32x4.splat(<i32>IV1);
    let v10 = i32x4.splat(<i32>IV2);
    let v11 = i32x4.splat(<i32>IV3);
    let v12 = lo;
    let v13 = hi;
    let v14 = blockLen;
    let v15 = i32x4.splat(<i32>f);
    // Round 1.
    v0 = add3(v0, v4, w(0)); v1 = add3(v1, v5, w(2)); v2 = add3(v2, v6, w(4)); v3 = add3(v3, v7, w(6));
    v12 = rot16(v128.xor(v12, v0)); v13 = rot16(v128.xor(v13, v1)); v14 = rot16(v128.xor(v14, v2)); v15 = rot16(v128.xor(v15, v3));
    v8 = i32x4.add(v8, v12); v9 = i32x4.add(v9, v13); v10 = i32x4.add(v10, v14); v11 = i32x4.add(v11, v15);
    v4 = rot12(v128.xor(v4, v8)); v5 = rot12(v128.xor(v5, v9)); v6 = rot12(v128.xor(v6, v10)); v7 = rot12(v128.xor(v7, v11));
    v0 = add3(v0, v4, w(1)); v1 = add3(v1, v5, w(3)); v2 = add3(v2, v6, w(5)); v3 = add3(v3, v7, w(7));
    v12 = rot8(v128.xor(v12, v0)); v13 = rot8(v128.xor(v13, v1)); v14 = rot8(v128.xor(v14, v2)); v15 = rot8(v128.xor(v15, v3));
    v8 = i32x4.add(v8, v12); v9 = i32x4.add(v9, v13); v10 = i32x4.add(v10, v14); v11 = i32x4.add(v11, v15);
    v4 = rot7(v128.xor(v4, v8)); v5 = rot7(v128.xor(v5, v9)); v6 = rot7(v128.xor(v6, v10)); v7 = rot7(v128.xor(v7, v11));
    v0 = add3(v0, v5, w(8)); v1 = add3(v1, v6, w(10)); v2 = add3(v2, v7, w(12)); v3 = add3(v3, v4, w(14));
    v15 = rot16(v128.xor(v15, v0)); v12 = rot16(v128.xor(v12, v1)); v13 = rot16(v128.xor(v13, v2)); v14 = rot16(v128.xor(v14, v3));
    v10 = i32x4.add(v10, v15); v11 = i32x4.add(v11, v12); v8 = i32x4.add(v8, v13); v9 = i32x4.add(v9, v14);
    v5 = rot12(v128.xor(v5, v10)); v6 = rot12(v128.xor(v6, v11)); v7 = rot12(v128.xor(v7, v8)); v4 = rot12(v128.xor(v4, v9));
    v0 = add3(v0, v5, w(9)); v1 = add3(v1, v6, w(11)); v2 = add3(v2, v7, w(13)); v3 = add3(v3, v4, w(15));
    v15 = rot8(v128.xor(v15, v0)); v12 = rot8(v128.xor(v12, v1)); v13 = rot8(v128.xor(v13, v2)); v14 = rot8(v128.xor(v14, v3));
    v10 = i32x4.add(v10, v15); v11 = i32x4.add(v11, v12); v8 = i32x4.add(v8, v13); v9 = i32x4.add(v9, v14);
    v5 = rot7(v128.xor(v5, v10)); v6 = rot7(v128.xor(v6, v11)); v7 = rot7(v128.xor(v7, v8)); v4 = rot7(v128.xor(v4, v9));
    // Round 2.
    v0 = add3(v0, v4, w(2)); v1 = add3(v1, v5, w(3)); v2 = add3(v2, v6, w(7)); v3 = add3(v3, v7, w(4));
    v12 = rot16(v128.xor(v12, v0)); v13 = rot16(v128.xor(v13, v1)); v14 = rot16(v128.xor(v14, v2)); v15 = rot16(v128.xor(v15, v3));
    v8 = i32x4.add(v8, v12); v9 = i32x4.add(v9, v13); v10 = i32x4.add(v10, v14); v11 = i32x4.add(v11, v15);
    v4 = rot12(v128.xor(v4, v8)); v5 = rot12(v128.xor(v5, v9)); v6 = rot12(v128.xor(v6, v10)); v7 = rot12(v128.xor(v7, v11));
    v0 = add3(v0, v4, w(6)); v1 = add3(v1, v5, w(10)); v2 = add3(v2, v6, w(0)); v3 = add3(v3, v7, w(13));
    v12 = rot8(v128.xor(v12, v0)); v13 = rot8(v128.xor(v13, v1)); v14 = rot8(v128.xor(v14, v2)); v15 = rot8(v128.xor(v15, v3));
    v8 = i32x4.add(v8, v12); v9 = i32x4.add(v9, v13); v10 = i32x4.add(v10, v14); v11 = i32x4.add(v11, v15);
    v4 = rot7(v128.xor(v4, v8)); v5 = rot7(v128.xor(v5, v9)); v6 = rot7(v128.xor(v6, v10)); v7 = rot7(v128.xor(v7, v11));
    v0 = add3(v0, v5, w(1)); v1 = add3(v1, v6, w(12)); v2 = add3(v2, v7, w(9)); v3 = add3(v3, v4, w(15));
    v15 = rot16(v128.xor(v15, v0)); v12 = rot16(v128.xor(v12, v1)); v13 = rot16(v128.xor(v13, v2)); v14 = rot16(v128.xor(v14, v3));
    v10 = i32x4.add(v10, v15); v11 = i32x4.add(v11, v12); v8 = i32x4.add(v8, v13); v9 = i32x4.add(v9, v14);
    v5 = rot12(v128.xor(v5, v10)); v6 = rot12(v128.xor(v6, v11)); v7 = rot12(v128.xor(v7, v8)); v4 = rot12(v128.xor(v4, v9));
    v0 = add3(v0, v5, w(11)); v1 = add3(v1, v6, w(5)); v2 = add3(v2, v7, w(14)); v3 = add3(v3, v4, w(8));
    v15 = rot8(v128.xor(v15, v0)); v12 = rot8(v128.xor(v12, v1)); v13 = rot8(v128.xor(v13, v2)); v14 = rot8(v128.xor(v14, v3));
    v10 = i32x4.add(v10, v15); v11 = i32x4.add(v11, v12); v8 = i32x4.add(v8, v13); v9 = i32x4.add(v9, v14);
    v5 = rot7(v128.xor(v5, v10)); v6 = rot7(v128.xor(v6, v11)); v7 = rot7(v128.xor(v7, v8)); v4 = rot7(v128.xor(v4, v9));
    // Round 3.
    v0 = add3(v0, v4, w(3)); v1 = add3(v1, v5, w(10)); v2 = add3(v2, v6, w(13)); v3 = add3(v3, v7, w(7));
    v12 = rot16(v128.xor(v12, v0)); v13 = rot16(v128.xor(v13, v1)); v14 = rot16(v128.xor(v14, v2)); v15 = rot16(v128.xor(v15, v3));
    v8 = i32x4.add(v8, v12); v9 = i32x4.add(v9, v13); v10 = i32x4.add(v10, v14); v11 = i32x4.add(v11, v15);
    v4 = rot12(v128.xor(v4, v8)); v5 = rot12(v128.xor(v5, v9)); v6 = rot12(v128.xor(v6, v10)); v7 = rot12(v128.xor(v7, v11));
    v0 = add3(v0, v4, w(4)); v1 = add3(v1, v5, w(12)); v2 = add3(v2, v6, w(2)); v3 = add3(v3, v7, w(14));
    v12 = rot8(v128.xor(v12, v0)); v13 = rot8(v128.xor(v13, v1)); v14 = rot8(v128.xor(v14, v2)); v15 = rot8(v128.xor(v15, v3));
    v8 = i32x4.add(v8, v12); v9 = i32x4.add(v9, v13); v10 = i32x4.add(v10, v14); v11 = i32x4.add(v11, v15);
    v4 = rot7(v128.xor(v4, v8)); v5 = rot7(v128.xor(v5, v9)); v6 = rot7(v128.xor(v6, v10)); v7 = rot7(v128.xor(v7, v11));
    v0 = add3(v0, v5, w(6)); v1 = add3(v1, v6, w(9)); v2 = add3(v2, v7, w(11)); v3 = add3(v3, v4, w(8));
    v15 = rot16(v128.xor(v15, v0)); v12 = rot16(v128.xor(v12, v1)); v13 = rot16(v128.xor(v13, v2)); v14 = rot16(v128.xor(v14, v3));
    v10 = i32x4.add(v10, v15); v11 = i32x4.add(v11, v12); v8 = i32x4.add(v8, v13); v9 = i32x4.add(v9, v14);
    v5 = rot12(v128.xor(v5, v10)); v6 = rot12(v128.xor(v6, v11)); v7 = rot12(v128.xor(v7, v8)); v4 = rot12(v128.xor(v4, v9));
    v0 = add3(v0, v5, w(5)); v1 = add3(v1, v6, w(0)); v2 = add3(v2, v7, w(15)); v3 = add3(v3, v4, w(1));
    v15 = rot8(v128.xor(v15, v0)); v12 = rot8(v128.xor(v12, v1)); v13 = rot8(v128.xor(v13, v2)); v14 = rot8(v128.xor(v14, v3));
    v10 = i32x4.add(v10, v15); v11 = i32x4.add(v11, v12); v8 = i32x4.add(v8, v13); v9 = i32x4.add(v9, v14);
    v5 = rot7(v128.xor(v5, v10)); v6 = rot7(v128.xor(v6, v11)); v7 = rot7(v128.xor(v7, v8)); v4 = rot7(v128.xor(v4, v9));
    // Round 4.
    v0 = add3(v0, v4, w(10)); v1 = add3(v1, v5, w(12)); v2 = add3(v2, v6, w(14)); v3 = add3(v3, v7, w(13));
    v12 = rot16(v128.xor(v12, v0)); v13 = rot16(v128.xor(v13, v1)); v14 = rot16(v128.xor(v14, v2)); v15 = rot16(v128.xor(v15, v3));
    v8 = i32x4.add(v8, v12); v9 = i32x4.add(v9, v13); v10 = i32x4.add(v10, v14); v11 = i32x4.add(v11, v15);
    v4 = rot12(v128.xor(v4, v8)); v5 = rot12(v128.xor(v5, v9)); v6 = rot12(v128.xor(v6, v10)); v7 = rot12(v128.xor(v7, v11));
    v0 = add3(v0, v4, w(7)); v1 = add3(v1, v5, w(9)); v2 = add3(v2, v6, w(3)); v3 = add3(v3, v7, w(15));
    v12 = rot8(v128.xor(v12, v0)); v13 = rot8(v128.xor(v13, v1)); v14 = rot8(v128.xor(v14, v2)); v15 = rot8(v128.xor(v15, v3));
    v8 = i32x4.add(v8, v12); v9 = i32x4.add(v9, v13); v10 = i32x4.add(v10, v14); v11 = i32x4.add(v11, v15);
    v4 = rot7(v128.xor(v4, v8)); v5 = rot7(v128.xor(v5, v9)); v6 = rot7(v128.xor(v6, v10)); v7 = rot7(v128.xor(v7, v11));
    v0 = add3(v0, v5, w(4)); v1 = add3(v1, v6, w(11)); v2 = add3(v2, v7, w(5)); v3 = add3(v3, v4, w(1));
    v15 = rot16(v128.xor(v15, v0)); v12 = rot16(v128.xor(v12, v1)); v13 = rot16(v128.xor(v13, v2)); v14 = rot16(v128.xor(v14, v3));
    v10 = i32x4.add(v10, v15); v11 = i32x4.add(v11, v12); v8 = i32x4.add(v8, v13); v9 = i32x4.add(v9, v14);
    v5 = rot12(v128.xor(v5, v10)); v6 = rot12(v128.xor(v6, v11)); v7 = rot12(v128.xor(v7, v8)); v4 = rot12(v128.xor(v4, v9));
    v0 = add3(v0, v5, w(0)); v1 = add3(v1, v6, w(2)); v2 = add3(v2, v7, w(8)); v3 = add3(v3, v4, w(6));
    v15 = rot8(v128.xor(v15, v0)); v12 = rot8(v128.xor(v12, v1)); v13 = rot8(v128.xor(v13, v2)); v14 = rot8(v128.xor(v14, v3));
    v10 = i32x4.add(v10, v15); v11 = i32x4.add(v11, v12); v8 = i32x4.add(v8, v13); v9 = i32x4.add(v9, v14);
    v5 = rot7(v128.xor(v5, v10)); v6 = rot7(v128.xor(v6, v11)); v7 = rot7(v128.xor(v7, v8)); v4 = rot7(v128.xor(v4, v9));
    // Round 5.
    v0 = add3(v0, v4, w(12)); v1 = add3(v1, v5, w(9)); v2 = add3(v2, v6, w(15)); v3 = add3(v3, v7, w(14));
    v12 = rot16(v128.xor(v12, v0)); v13 = rot16(v128.xor(v13, v1)); v14 = rot16(v128.xor(v14, v2)); v15 = rot16(v128.xor(v15, v3));
    v8 = i32x4.add(v8, v12); v9 = i32x4.add(v9, v13); v10 = i32x4.add(v10, v14); v11 = i32x4.add(v11, v15);
    v4 = rot12(v128.xor(v4, v8)); v5 = rot12(v128.xor(v5, v9)); v6 = rot12(v128.xor(v6, v10)); v7 = rot12(v128.xor(v7, v11));
    v0 = add3(v0, v4, w(13)); v1 = add3(v1, v5, w(11)); v2 = add3(v2, v6, w(10)); v3 = add3(v3, v7, w(8));
    v12 = rot8(v128.xor(v12, v0)); v13 = rot8(v128.xor(v13, v1)); v14 = rot8(v128.xor(v14, v2)); v15 = rot8(v128.xor(v15, v3));
    v8 = i32x4.add(v8, v12); v9 = i32x4.add(v9, v13); v10 = i32x4.add(v10, v14); v11 = i32x4.add(v11, v15);
    v4 = rot7(v128.xor(v4, v8)); v5 = rot7(v128.xor(v5, v9)); v6 = rot7(v128.xor(v6, v10)); v7 = rot7(v128.xor(v7, v11));
    v0 = add3(v0, v5, w(7)); v1 = add3(v1, v6, w(5)); v2 = add3(v2, v7, w(0)); v3 = add3(v3, v4, w(6));
    v15 = rot16(v128.xor(v15, v0)); v12 = rot16(v128.xor(v12, v1)); v13 = rot16(v128.xor(v13, v2)); v14 = rot16(v128.xor(v14, v3));
    v10 = i32x4.add(v10, v15); v11 = i32x4.add(v11, v12); v8 = i32x4.add(v8, v13); v9 = i32x4.add(v9, v14);
    v5 = rot12(v128.xor(v5, v10)); v6 = rot12(v128.xor(v6, v11)); v7 = rot12(v128.xor(v7, v8)); v4 = rot12(v128.xor(v4, v9));
    v0 = add3(v0, v5, w(2)); v1 = add3(v1, v6, w(3)); v2 = add3(v2, v7, w(1)); v3 = add3(v3, v4, w(4));
    v15 = rot8(v128.xor(v15, v0)); v12 = rot8(v128.xor(v12, v1)); v13 = rot8(v128.xor(v13, v2)); v14 = rot8(v128.xor(v14, v3));
    v10 = i32x4.add(v10, v15); v11 = i32x4.add(v11, v12); v8 = i32x4.add(v8, v13); v9 = i32x4.add(v9, v14);
    v5 = rot7(v128.xor(v5, v10)); v6 = rot7(v128.xor(v6, v11)); v7 = rot7(v128.xor(v7, v8)); v4 = rot7(v128.xor(v4, v9));
    // Round 6.
    v0 = add3(v0, v4, w(9)); v1 = add3(v1, v5, w(11)); v2 = add3(v2, v6, w(8)); v3 = add3(v3, v7, w(15));
    v12 = rot16(v128.xor(v12, v0)); v13 = rot16(v128.xor(v13, v1)); v14 = rot16(v128.xor(v14, v2)); v15 = rot16(v128.xor(v15, v3));
    v8 = i32x4.add(v8, v12); v9 = i32x4.add(v9, v13); v10 = i32x4.add(v10, v14); v11 = i32x4.add(v11, v15);
    v4 = rot12(v128.xor(v4, v8)); v5 = rot12(v128.xor(v5, v9)); v6 = rot12(v128.xor(v6, v10)); v7 = rot12(v128.xor(v7, v11));
    v0 = add3(v0, v4, w(14)); v1 = add3(v1, v5, w(5)); v2 = add3(v2, v6, w(12)); v3 = add3(v3, v7, w(1));
    v12 = rot8(v128.xor(v12, v0)); v13 = rot8(v128.xor(v13, v1)); v14 = rot8(v128.xor(v14, v2)); v15 = rot8(v128.xor(v15, v3));
    v8 = i32x4.add(v8, v12); v9 = i32x4.add(v9, v13); v10 = i32x4.add(v10, v14); v11 = i32x4.add(v11, v15);
    v4 = rot7(v128.xor(v4, v8)); v5 = rot7(v128.xor(v5, v9)); v6 = rot7(v128.xor(v6, v10)); v7 = rot7(v128.xor(v7, v11));
    v0 = add3(v0, v5, w(13)); v1 = add3(v1, v6, w(0)); v2 = add3(v2, v7, w(2)); v3 = add3(v3, v4, w(4));
    v15 = rot16(v128.xor(v15, v0)); v12 = rot16(v128.xor(v12, v1)); v13 = rot16(v128.xor(v13, v2)); v14 = rot16(v128.xor(v14, v3));
    v10 = i32x4.add(v10, v15); v11 = i32x4.add(v11, v12); v8 = i32x4.add(v8, v13); v9 = i32x4.add(v9, v14);
    v5 = rot12(v128.xor(v5, v10)); v6 = rot12(v128.xor(v6, v11)); v7 = rot12(v128.xor(v7, v8)); v4 = rot12(v128.xor(v4, v9));
    v0 = add3(v0, v5, w(3)); v1 = add3(v1, v6, w(10)); v2 = add3(v2, v7, w(6)); v3 = add3(v3, v4, w(7));
    v15 = rot8(v128.xor(v15, v0)); v12 = rot8(v128.xor(v12, v1)); v13 = rot8(v128.xor(v13, v2)); v14 = rot8(v128.xor(v14, v3));
    v10 = i32x4.add(v10, v15); v11 = i32x4.add(v11, v12); v8 = i32x4.add(v8, v13); v9 = i32x4.add(v9, v14);
    v5 = rot7(v128.xor(v5, v10)); v6 = rot7(v128.xor(v6, v11)); v7 = rot7(v128.xor(v7, v8)); v4 = rot7(v128.xor(v4, v9));
    // Round 7.
    v0 = add3(v0, v4, w(11)); v1 = add3(v1, v5, w(5)); v2 = add3(v2, v6, w(1)); v3 = add3(v3, v7, w(8));
    v12 = rot16(v128.xor(v12, v0)); v13 = rot16(v128.xor(v13, v1)); v14 = rot16(v128.xor(v14, v2)); v15 = rot16(v128.xor(v15, v3));
    v8 = i32x4.add(v8, v12); v9 = i32x4.add(v9, v13); v10 = i32x4.add(v10, v14); v11 = i32x4.add(v11, v15);
    v4 = rot12(v128.xor(v4, v8)); v5 = rot12(v128.xor(v5, v9)); v6 = rot12(v128.xor(v6, v10)); v7 = rot12(v128.xor(v7, v11));
    v0 = add3(v0, v4, w(15)); v1 = add3(v1, v5, w(0)); v2 = add3(v2, v6, w(9)); v3 = add3(v3, v7, w(6));
    v12 = rot8(v128.xor(v12, v0)); v13 = rot8(v128.xor(v13, v1)); v14 = rot8(v128.xor(v14, v2)); v15 = rot8(v128.xor(v15, v3));
    v8 = i32x4.add(v8, v12); v9 = i32x4.add(v9, v13); v10 = i32x4.add(v10, v14); v11 = i32x4.add(v11, v15);
    v4 = rot7(v128.xor(v4, v8)); v5 = rot7(v128.xor(v5, v9)); v6 = rot7(v128.xor(v6, v10)); v7 = rot7(v128.xor(v7, v11));
    v0 = add3(v0, v5, w(14)); v1 = add3(v1, v6, w(2)); v2 = add3(v2, v7, w(3)); v3 = add3(v3, v4, w(7));
    v15 = rot16(v128.xor(v15, v0)); v12 = rot16(v128.xor(v12, v1)); v13 = rot16(v128.xor(v13, v2)); v14 = rot16(v128.xor(v14, v3));
    v10 = i32x4.add(v10, v15); v11 = i32x4.add(v11, v12); v8 = i32x4.add(v8, v13); v9 = i32x4.add(v9, v14);
    v5 = rot12(v128.xor(v5, v10)); v6 = rot12(v128.xor(v6, v11)); v7 = rot12(v128.xor(v7, v8)); v4 = rot12(v128.xor(v4, v9));
    v0 = add3(v0, v5, w(10)); v1 = add3(v1, v6, w(12)); v2 = add3(v2, v7, w(4)); v3 = add3(v3, v4, w(13));
    v15 = rot8(v128.xor(v15, v0)); v12 = rot8(v128.xor(v12, v1)); v13 = rot8(v128.xor(v13, v2)); v14 = rot8(v128.xor(v14, v3));
    v10 = i32x4.add(v10, v15); v11 = i32x4.add(v11, v12); v8 = i32x4.add(v8, v13); v9 = i32x4.add(v9, v14);
    v5 = rot7(v128.xor(v5, v10)); v6 = rot7(v128.xor(v6, v11)); v7 = rot7(v128.xor(v7, v8)); v4 = rot7(v128.xor(v4, v9));
    h0 = v128.xor(v0, v8);
    h1 = v128.xor(v1, v9);
    h2 = v128.xor(v2, v10);
    h3 = v128.xor(v3, v11);
    h4 = v128.xor(v4, v12);
    h5 = v128.xor(v5, v13);
    h6 = v128.xor(v6, v14);
    h7 = v128.xor(v7, v15);
  }
  transposeStore(h0, h1, h2, h3, out, 32);
  transposeStore(h4, h5, h6, h7, out + 16, 32);
}

// --- the tree (sections 2.4-2.6, 5.1.2) ---------------------------------------------------------

/** Merges the top two stack entries (left, right: one 64-byte block) into their parent, in place. */
function mergeTop(st: usize, size: usize): void {
  const at = st + S_STACK + ((size - 2) << 5);
  compress(st + S_KEY, at, 0, 64, load<u32>(st + S_FLAGS) | PARENT, at, false);
}

/**
 * Merges subtrees until the stack holds one entry per set bit of `chunks` (the completed subtrees
 * of that many chunks). Merging is lazy: a pair is merged only once a later chunk exists, so the
 * last pair can still become the root.
 */
function mergeStack(st: usize, chunks: u64): void {
  let size = <usize>load<u32>(st + S_STACK_SIZE);
  const keep = <usize>popcnt<u64>(chunks);
  for (; size > keep; size--) mergeTop(st, size);
  store<u32>(st + S_STACK_SIZE, <u32>size);
}

/** Pushes the chaining value at `cv` of a complete subtree that follows `chunks` chunks. */
function pushCv(st: usize, cv: usize, chunks: u64): void {
  mergeStack(st, chunks);
  const size = load<u32>(st + S_STACK_SIZE);
  copy32(st + S_STACK + (<usize>size << 5), cv);
  store<u32>(st + S_STACK_SIZE, size + 1);
}

/** Pushes the chaining value at `cv` of the next chunk. */
function pushChunk(st: usize, cv: usize): void {
  const counter = load<u64>(st + S_COUNTER);
  pushCv(st, cv, counter);
  store<u64>(st + S_COUNTER, counter + 1);
}

/** The chunk's start flag: set on its first block. */
@inline function startFlag(blocks: u32): u32 {
  return blocks == 0 ? CHUNK_START : 0;
}

/** Zeroes the counters and lengths of state st. */
@inline function clearFields(st: usize): void {
  store<u32>(st, 0, S_BLOCK_LEN);
  store<u64>(st, 0, S_BLOCKS);
  store<u64>(st, 0, S_COUNTER);
  store<u64>(st, 0, S_ROOT_LEN);
  store<u64>(st, 0, S_BASE);
}

/** Back to an empty message under the state's key and mode. */
export function reset(st: usize): void {
  clearFields(st);
  copy32(st + S_CV, st + S_KEY);
  zero64(st + S_BLOCK);
}

/** Absorbs `len` bytes at p into state st (section 5.1.1: chunk state; 5.1.2: the stack). */
function absorbAt(st: usize, p: usize, len: usize): void {
  const flags = load<u32>(st + S_FLAGS);
  // Chunk counters are base + the state's count; its stack merges by the count alone (startAt).
  const base = load<u64>(st + S_BASE);
  const cv = st + S_CV;
  const buffer = st + S_BLOCK;
  let blockLen = load<u32>(st + S_BLOCK_LEN);
  let blocks = load<u32>(st + S_BLOCKS);
  let simd = false;
  while (len > 0) {
    if (blockLen == 64) {
      // A buffered full block with more input to come: compress it, and finish a full chunk.
      const end = blocks == 15 ? CHUNK_END : 0;
      compress(cv, buffer, base + load<u64>(st + S_COUNTER), 64, flags | startFlag(blocks) | end, cv, false);
      zero64(buffer);
      blocks++;
      blockLen = 0;
      if (blocks == 16) {
        pushChunk(st, cv);
        copy32(cv, st + S_KEY);
        blocks = 0;
      }
    }
    if (blockLen == 0 && blocks == 0 && len > 1024) {
      // Whole chunks straight from the input, none of them the root: more input follows, or the
      // batch holds two chunks or more.
      const counter = load<u64>(st + S_COUNTER);
      const toAligned = <usize>(16 - (counter & 15));
      const lanes = min<usize>(min<usize>(4, len >> 10), toAligned);
      // Three chunks or more fill enough lanes to beat the scalar compression; two do not.
      const wide = lanes >= 3;
      simd = simd || wide;
      if (len >= 16384 && toAligned == 16) {
        // A 16-chunk subtree: its chunks four at a time, then its two lowest levels of parents
        // four at a time (merging CVS in place), leaving four 4-chunk subtrees to push.
        for (let i: usize = 0; i < 4; i++) {
          hash4(st, p + (i << 12), 1024, 16, base + counter + (i << 2), 1, flags, CHUNK_START, CHUNK_END, 4, CVS + (i << 7));
        }
        const parent = flags | PARENT;
        hash4(st, CVS, 64, 1, 0, 0, parent, 0, 0, 4, CVS);
        hash4(st, CVS + 256, 64, 1, 0, 0, parent, 0, 0, 4, CVS + 128);
        hash4(st, CVS, 64, 1, 0, 0, parent, 0, 0, 4, CVS);
        for (let i: usize = 0; i < 4; i++) pushCv(st, CVS + (i << 5), counter + (i << 2));
        store<u64>(st + S_COUNTER, counter + 16);
        p += 16384;
        len -= 16384;
      } else if (wide) {
        hash4(st, p, 1024, 16, base + counter, 1, flags, CHUNK_START, CHUNK_END, lanes, CVS);
        for (let i: usize = 0; i < lanes; i++) pushCv(st, CVS + (i << 5), counter + i);
        store<u64>(st + S_COUNTER, counter + lanes);
        p += lanes << 10;
        len -= lanes << 10;
      } else {
        for (let b: usize = 0; b < 1024; b += 64) {
          const f = flags | (b == 0 ? CHUNK_START : 0) | (b == 960 ? CHUNK_END : 0);
          compress(cv, p + b, base + counter, 64, f, cv, false);
        }
        pushChunk(st, cv);
        copy32(cv, st + S_KEY);
        p += 1024;
        len -= 1024;
      }
      continue;
    }
    if (blockLen == 0) {
      // Whole blocks straight from the input, keeping the chunk's last block buffered.
      const counter = base + load<u64>(st + S_COUNTER);
      for (; len > 64 && blocks < 15; blocks++, p += 64, len -= 64) {
        compress(cv, p, counter, 64, flags | startFlag(blocks), cv, false);
      }
    }
    const take = min<usize>(64 - blockLen, len);
    copyBytes(buffer + blockLen, p, take);
    blockLen += <u32>take;
    p += take;
    len -= take;
  }
  store<u32>(st + S_BLOCK_LEN, blockLen);
  store<u32>(st + S_BLOCKS, blocks);
  if (simd) {
    zeroBytes(MT, 256);
    zeroBytes(CVS, 512);
  }
}

/** Absorbs MSG[0..len) into state st. The caller zeroes MSG once its message is in. */
export function absorb(st: usize, len: usize): void {
  absorbAt(st, MSG, len);
}

/**
 * Finds the root node (section 2.5): the only chunk, or the parent at the top of the tree, merging
 * the stack down from the right. Its chaining value and block replace CV and BLOCK.
 */
function finalize(st: usize): void {
  const flags = load<u32>(st + S_FLAGS);
  const cv = st + S_CV;
  const buffer = st + S_BLOCK;
  const blockLen = load<u32>(st + S_BLOCK_LEN);
  const blocks = load<u32>(st + S_BLOCKS);
  const chunkFlags = flags | startFlag(blocks) | CHUNK_END;
  let size = <usize>load<u32>(st + S_STACK_SIZE);
  if (size == 0) {
    store<u32>(st + S_ROOT_LEN, blockLen);
    store<u32>(st + S_ROOT_FLAGS, chunkFlags);
    return;
  }
  if (blockLen != 0 || blocks != 0) {
    // The last chunk is the rightmost leaf: pending merges to its left are complete subtrees.
    const counter = load<u64>(st + S_COUNTER);
    mergeStack(st, counter);
    size = <usize>load<u32>(st + S_STACK_SIZE);
    compress(cv, buffer, load<u64>(st + S_BASE) + counter, blockLen, chunkFlags, buffer + 32, false);
    copy32(buffer, st + S_STACK + ((size - 1) << 5));
    size--;
  } else {
    // No partial chunk: the top two entries are the root's children or below it.
    copy32(buffer, st + S_STACK + ((size - 2) << 5));
    copy32(buffer + 32, st + S_STACK + ((size - 1) << 5));
    size -= 2;
  }
  copy32(cv, st + S_KEY);
  const parent = flags | PARENT;
  for (; size > 0; size--) {
    compress(cv, buffer, 0, 64, parent, buffer + 32, false);
    copy32(buffer, st + S_STACK + ((size - 1) << 5));
  }
  store<u32>(st + S_ROOT_LEN, 64);
  store<u32>(st + S_ROOT_FLAGS, parent);
}

/**
 * Writes `len` (at most OUT_CAPACITY) bytes of output to OUT, from output block `first` on
 * (section 2.6: the root compressed with counter 0, 1, 2, … and the ROOT flag).
 */
export function squeeze(st: usize, first: u32, len: usize): void {
  const rootLen = load<u32>(st + S_ROOT_LEN);
  const rootFlags = load<u32>(st + S_ROOT_FLAGS) | ROOT;
  let counter = <u64>first;
  for (let o: usize = 0; o < len; o += 64, counter++) {
    if (len - o >= 64) {
      compress(st + S_CV, st + S_BLOCK, counter, rootLen, rootFlags, OUT + o, true);
    } else {
      compress(st + S_CV, st + S_BLOCK, counter, rootLen, rootFlags, TMP, true);
      copyBytes(OUT + o, TMP, len - o);
      zero64(TMP);
    }
  }
}

/** Finishes the message: the first `len` bytes of output go to OUT; `squeeze` gives more. */
export function finish(st: usize, len: usize): void {
  finalize(st);
  squeeze(st, 0, len);
}

/** Zeroes everything of state st but its key and mode. */
export function clear(st: usize): void {
  // Stack entries above the top may remain from merges: the deepest the stack got is bounded by
  // the bits of the chunk count, plus the one pushed before a merge.
  const bits = <usize>(64 - clz<u64>(load<u64>(st + S_COUNTER)));
  clearFields(st);
  zeroBytes(st + S_CV, S_STACK - S_CV + (min<usize>(bits + 2, 54) << 5));
}

/** The whole computation over MSG[0..len) in one call: `outLen` bytes of output to OUT. */
export function hash(st: usize, len: usize, outLen: usize): void {
  reset(st);
  absorbAt(st, MSG, len);
  zeroBytes(MSG, len);
  finish(st, outLen);
  clear(st);
}

// --- subtrees hashed apart (src/engine/blake3-parallel.ts) ----------------------------------------
//
// BLAKE3 is a tree (section 2.1, 5.1): a complete subtree of 2^k chunks whose first chunk is a
// multiple of 2^k has a chaining value that depends on its chunks and their counters only, so
// threads can hash subtrees apart (startAt, absorbFrom, subtree) and one state merges their
// chaining values in order (pushSubtree) before absorbing the last chunk and finishing as usual.

/** Back to an empty message whose chunk 0 is chunk `hi·2^32 + lo` of the whole input. */
export function startAt(st: usize, lo: u32, hi: u32): void {
  reset(st);
  store<u64>(st + S_BASE, (<u64>hi << 32) | <u64>lo);
}

/** Absorbs `len` bytes at p, anywhere in memory (a thread's own read buffer). */
export function absorbFrom(st: usize, p: usize, len: usize): void {
  absorbAt(st, p, len);
}

/**
 * After startAt and a whole complete subtree: its chaining value, the top node compressed
 * without ROOT (it is an inner node of the whole tree), to OUT[0..32); then clears the state.
 */
export function subtree(st: usize): void {
  finalize(st);
  const flags = load<u32>(st + S_ROOT_FLAGS);
  // A one-chunk subtree's node is that chunk, with its own counter; a parent's counter is 0.
  const counter = (flags & PARENT) != 0 ? 0 : load<u64>(st + S_BASE);
  compress(st + S_CV, st + S_BLOCK, counter, load<u32>(st + S_ROOT_LEN), flags, OUT, false);
  clear(st);
}

/**
 * Pushes the chaining value at MSG[0..32) of the complete subtree of 2^log2 chunks that starts
 * at the state's next chunk, `hi·2^32 + lo` (the state is at a chunk boundary), and zeroes it.
 */
export function pushSubtree(st: usize, lo: u32, hi: u32, log2: u32): void {
  const counter = (<u64>hi << 32) | <u64>lo;
  pushCv(st, MSG, counter);
  store<u64>(st + S_COUNTER, counter + (<u64>1 << log2));
  zero64(MSG);
}
