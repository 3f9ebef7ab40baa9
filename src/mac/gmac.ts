/**
 * GMAC (SP 800-38D section 7, GCM with an empty plaintext): the tag over a message A is
 * E(K, J0) ⊕ GHASH_H(A ‖ 0^v ‖ [len(A)]_64 ‖ [0]_64), with H = E(K, 0^128) computed once per key.
 *
 * GMAC must never see the same nonce twice under one key: a repeat reveals H and lets anyone forge
 * (Joux, "Authentication failures in NIST version of GCM", 2006). The safe API therefore draws a
 * random 96-bit nonce for every tag (`mac("gmac-aes128", key)`); the explicit-nonce form is hazmat.
 *
 * Three backends give the same tags: WebAssembly (vector-permute AES and a constant-time GHASH, the
 * whole tag in one call), node:crypto's AES-GCM for long messages (src/engine/select.ts), and the
 * bitsliced JavaScript AES with the JavaScript GHASH of ./ghash.ts.
 */

import { aesRounds, BitslicedAes } from "../cipher/aes.js";
import { assertBytes, type Bytes } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import type { MacAlgorithm, MacKernel, MacKernelState, MacName, MacOptions } from "../core/mac.js";
import { PreparedMac } from "../core/prepared-mac.js";
import { redactKeyMaterial } from "../core/redact.js";
import { nativeFamily } from "../engine/native-families.js";
import type { NativeGmac } from "../engine/native-gmac.js";
import type { WasmAes, WasmAesKey } from "../engine/wasm-aes.js";
import type { WasmFamilies } from "../engine/wasm-all.js";
import { wasmFamily } from "../engine/wasm-families.js";
import { Ghash } from "./ghash.js";

/** The nonce length the safe API draws: 96 bits, the length GCM is designed around (8.2). */
export const GMAC_NONCE_LENGTH = 12;

const TWO_29 = 0x20000000;

function needNonce(nonce: Bytes | undefined): asserts nonce is Bytes {
  if (nonce === undefined) throw new KeyedError("BAD_INPUT", "GMAC needs a nonce.");
}

/** GMAC under one key on one backend. */
interface GmacCore {
  compute(message: Bytes, out: Bytes, nonce: Bytes): void;
  start(): MacKernelState;
  wipe(): void;
}

/** @internal The JavaScript kernel: the bitsliced AES schedule and H, computed once. */
export class BitslicedGmac implements GmacCore {
  private readonly aes: BitslicedAes;
  private readonly ghash: Ghash;
  private readonly counter = new Uint8Array(16);

  constructor(key: Bytes) {
    this.aes = new BitslicedAes(key);
    const h = new Uint8Array(16);
    this.aes.encryptBlock(h, 0, h, 0);
    this.ghash = new Ghash(h);
    h.fill(0);
  }

  compute(message: Bytes, out: Bytes, nonce: Bytes): void {
    const ghash = this.ghash;
    ghash.reset();
    ghash.updatePadded(message, 0, message.length);
    this.finishInto(ghash, message.length, out, nonce);
  }

  start(): MacKernelState {
    // Each stream has its own accumulator under the kernel's H.
    const ghash = this.ghash.clone();
    return new GmacState({
      absorb: (data, offset, length) => {
        for (let end = offset + length; offset < end; offset += 16) ghash.updateBlock(data, offset);
      },
      finish: (tail, tailLength, messageLength, out, nonce) => {
        ghash.updatePadded(tail, 0, tailLength);
        this.finishInto(ghash, messageLength, out, nonce);
      },
      wipe: () => ghash.wipe(),
    });
  }

  /** Lengths block, then T = E(K, J0) ⊕ S, written to out[0..16). */
  finishInto(ghash: Ghash, messageLength: number, out: Bytes, nonce: Bytes | undefined): void {
    needNonce(nonce);
    // [len(A)]_64 ‖ [len(C)]_64 in bits, with C empty.
    ghash.updateWords(Math.floor(messageLength / TWO_29), (messageLength % TWO_29) * 8, 0, 0);
    ghash.digestInto(out, 0);
    const j0 = this.counter;
    this.preCounterBlock(nonce, j0);
    this.aes.encryptBlock(j0, 0, j0, 0);
    for (let i = 0; i < 16; i++) out[i] ^= j0[i];
    j0.fill(0);
    ghash.reset();
  }

  /** J0 (SP 800-38D 7.1 step 2): IV ‖ 0^31 ‖ 1 for a 96-bit IV, else GHASH of the padded IV. */
  private preCounterBlock(nonce: Bytes, j0: Uint8Array): void {
    if (nonce.length === 12) {
      j0.set(nonce);
      j0[12] = 0;
      j0[13] = 0;
      j0[14] = 0;
      j0[15] = 1;
      return;
    }
    // A separate GHASH pass: the message's accumulator is already digested into `out`.
    const g = this.ghash;
    g.reset();
    g.updatePadded(nonce, 0, nonce.length);
    g.updateWords(0, 0, Math.floor(nonce.length / TWO_29), (nonce.length % TWO_29) * 8);
    g.digestInto(j0, 0);
  }

  wipe(): void {
    this.aes.wipe();
    this.ghash.wipe();
    this.counter.fill(0);
  }
}

redactKeyMaterial(BitslicedGmac);

/** One stream's backend. */
interface GmacStreamCore {
  /** Absorbs data[offset .. offset + length), a whole number of blocks. */
  absorb(data: Uint8Array, offset: number, length: number): void;
  /** Absorbs the tail, zero-padded, and the lengths block; the tag into `out`. */
  finish(
    tail: Uint8Array,
    tailLength: number,
    messageLength: number,
    out: Bytes,
    nonce: Bytes,
  ): void;
  wipe(): void;
}

/** Incremental GMAC: whole blocks go to the backend as they come, the tail is held back. */
class GmacState implements MacKernelState {
  private readonly core: GmacStreamCore;
  private readonly pending = new Uint8Array(16);
  private pendingLength = 0;
  private length = 0;

  constructor(core: GmacStreamCore) {
    this.core = core;
  }

  update(chunk: Bytes): void {
    this.length += chunk.length;
    let pos = 0;
    const pending = this.pending;
    if (this.pendingLength > 0) {
      while (this.pendingLength < 16 && pos < chunk.length)
        pending[this.pendingLength++] = chunk[pos++];
      if (this.pendingLength < 16) return;
      this.core.absorb(pending, 0, 16);
      this.pendingLength = 0;
    }
    const whole = chunk.length - pos - ((chunk.length - pos) % 16);
    if (whole > 0) this.core.absorb(chunk, pos, whole);
    for (pos += whole; pos < chunk.length; ) pending[this.pendingLength++] = chunk[pos++];
  }

  finish(out: Bytes, nonce?: Bytes): void {
    needNonce(nonce);
    this.core.finish(this.pending, this.pendingLength, this.length, out, nonce);
    this.wipe();
  }

  wipe(): void {
    this.core.wipe();
    this.pending.fill(0);
  }
}

redactKeyMaterial(GmacState);

const ZERO_STATE = new Int32Array(4);

/** @internal The WebAssembly kernel: round keys and H's operands in a slot; a whole tag in one call. */
export class WasmGmac implements GmacCore {
  readonly key: WasmAesKey;

  constructor(glue: WasmFamilies["aes"], wasm: WasmAes, key: Bytes) {
    aesRounds(key);
    this.key = new glue.WasmAesKey(wasm, key, "gmac");
  }

  compute(message: Bytes, out: Bytes, nonce: Bytes): void {
    const key = this.key;
    const length = message.length;
    const slot = key.acquire();
    this.preCounterBlock(slot, nonce);
    if (length <= key.wasm.msgCapacity) {
      key.input(message, 0, length);
      key.exports.gmac(slot, length);
      key.takeOut(out, 0);
    } else {
      this.absorb(slot, message, 0, length);
      this.finishTag(slot, length, out);
    }
    key.release(slot);
  }

  /**
   * J0 (SP 800-38D 7.1 step 2) into the module's J0: IV ‖ 0^31 ‖ 1 for a 96-bit IV, else GHASH of
   * the zero-padded IV and its length. Leaves STATE zero.
   */
  preCounterBlock(slot: number, nonce: Bytes): void {
    const key = this.key;
    const j0 = key.j0;
    if (nonce.length === 12) {
      const memory = key.memory();
      for (let i = 0; i < 12; i++) memory[j0 + i] = nonce[i];
      memory[j0 + 12] = 0;
      memory[j0 + 13] = 0;
      memory[j0 + 14] = 0;
      memory[j0 + 15] = 1;
      return;
    }
    key.loadState(ZERO_STATE);
    this.absorb(slot, nonce, 0, nonce.length);
    key.exports.ghash_lengths(slot, 0, nonce.length);
    key.moveStateToJ0();
  }

  /** STATE absorbs data[offset .. offset + length), zero-padded to whole blocks. */
  absorb(slot: number, data: Uint8Array, offset: number, length: number): void {
    this.key.feed(slot, data, offset, length, this.key.exports.ghash_update);
  }

  /** The lengths block for a `length`-byte message, then the tag (J0 in place) into `out`. */
  finishTag(slot: number, length: number, out: Bytes): void {
    const key = this.key;
    key.exports.ghash_lengths(slot, length, 0);
    key.exports.gmac_final(slot);
    key.takeOut(out, 0);
  }

  start(): MacKernelState {
    const key = this.key;
    // The accumulator lives across calls, and so must the key: a slot of its own.
    const accumulator = new Int32Array(4);
    return new GmacState({
      absorb: (data, offset, length) => {
        const slot = key.own();
        key.loadState(accumulator);
        this.absorb(slot, data, offset, length);
        key.saveState(accumulator);
        key.release(slot);
      },
      finish: (tail, tailLength, messageLength, out, nonce) => {
        const slot = key.own();
        // J0 first: for a nonce other than 96 bits it is a GHASH of its own, through STATE.
        this.preCounterBlock(slot, nonce);
        key.loadState(accumulator);
        this.absorb(slot, tail, 0, tailLength);
        this.finishTag(slot, messageLength, out);
        key.release(slot);
      },
      wipe: () => accumulator.fill(0),
    });
  }

  wipe(): void {
    this.key.wipe();
  }
}

redactKeyMaterial(WasmGmac);

/** GMAC under one AES key: WebAssembly where available, node:crypto on long messages. */
export class GmacKernel implements MacKernel {
  readonly outputLength = 16;
  private readonly core: GmacCore;
  /** node:crypto's AES-GCM for long messages (engine/native-gmac.ts), where this build has it. */
  private readonly native: NativeGmac | undefined;

  constructor(key: Bytes) {
    const glue = wasmFamily("aes");
    const wasm = glue?.wasmAes();
    this.core =
      glue === undefined || wasm === undefined
        ? new BitslicedGmac(key)
        : new WasmGmac(glue, wasm, key);
    this.native = nativeFamily("gmac")?.for(key);
  }

  compute(message: Bytes, out: Bytes, nonce?: Bytes): void {
    needNonce(nonce);
    const native = this.native;
    if (native?.serves(nonce, message.length)) native.compute(message, out, nonce);
    else this.core.compute(message, out, nonce);
  }

  start(): MacKernelState {
    return this.core.start();
  }

  wipe(): void {
    this.native?.wipe();
    this.core.wipe();
  }
}

redactKeyMaterial(GmacKernel);

// --- hazmat and registry ------------------------------------------------------------------------

function checkNonce(nonce: Bytes): void {
  assertBytes(nonce, "nonce");
  if (nonce.length === 0) {
    throw new KeyedError(
      "BAD_INPUT",
      "nonce must not be empty (SP 800-38D 5.2.1.1: 1 bit at least); 12 bytes is the standard length.",
    );
  }
}

/**
 * GMAC with an explicit nonce (any non-empty length; 12 bytes is standard): the 16-byte tag.
 * Hazmat: the caller must never reuse a nonce under the same key.
 */
export function gmac(key: Bytes, nonce: Bytes, message: Bytes): Bytes {
  assertBytes(key, "key");
  checkNonce(nonce);
  assertBytes(message, "message");
  aesRounds(key);
  const out = new Uint8Array(16);
  if (nativeFamily("gmac")?.tagOnce(key, nonce, message, out)) return out;
  const kernel = new GmacKernel(key);
  kernel.compute(message, out, nonce);
  kernel.wipe();
  return out;
}

export type GmacName = "gmac-aes128" | "gmac-aes192" | "gmac-aes256";

function gmacAlgorithm(name: GmacName, keyLength: number): MacAlgorithm {
  return {
    name,
    key: { kind: "fixed", length: keyLength },
    nonceLength: GMAC_NONCE_LENGTH,
    nonceLimit: { invocations: 2 ** 32, basis: "SP 800-38D section 8.3 (random 96-bit IVs)" },
    tag: {
      full: 16,
      safeMinimum: 12,
      maximum: 16,
      allowed: [4, 8, 12, 13, 14, 15, 16],
      basis: "SP 800-38D 5.2.1.2: 96 to 128 bits; 64 and 32 only with allowShortTags",
    },
    // The kernel copies or derives what it keeps (see MacAlgorithm.copiesKey).
    copiesKey: true,
    createKernel: (key) => new GmacKernel(key),
  };
}

export const GMAC_ALGORITHMS: Record<GmacName, MacAlgorithm> = {
  "gmac-aes128": gmacAlgorithm("gmac-aes128", 16),
  "gmac-aes192": gmacAlgorithm("gmac-aes192", 24),
  "gmac-aes256": gmacAlgorithm("gmac-aes256", 32),
};

const GMAC_BY_KEY_LENGTH: Record<number, GmacName> = {
  16: "gmac-aes128",
  24: "gmac-aes192",
  32: "gmac-aes256",
};

/**
 * A GMAC prepared key; the AES size follows the key (16, 24 or 32 bytes). `tag()` returns a fresh
 * random 12-byte nonce followed by the tag.
 */
export function gmacKey(key: Bytes, options?: MacOptions): PreparedMac {
  assertBytes(key, "key");
  const name = GMAC_BY_KEY_LENGTH[key.length];
  if (name === undefined) {
    throw new KeyedError(
      "KEY_LENGTH",
      `GMAC takes an AES key of 16, 24 or 32 bytes; got ${key.length}.`,
    );
  }
  return new PreparedMac(GMAC_ALGORITHMS[name], key, options);
}

export const isGmacName = (name: MacName): name is GmacName => name in GMAC_ALGORITHMS;
