/**
 * GMAC (SP 800-38D section 7, GCM with an empty plaintext): the tag over a message A is
 * E(K, J0) ⊕ GHASH_H(A ‖ 0^v ‖ [len(A)]_64 ‖ [0]_64), with H = E(K, 0^128) computed once per key.
 *
 * GMAC must never see the same nonce twice under one key: a repeat reveals H and lets anyone forge
 * (Joux, "Authentication failures in NIST version of GCM", 2006). The safe API therefore draws a
 * random 96-bit nonce for every tag (`mac("gmac-aes128", key)`); the explicit-nonce form is hazmat.
 */

import { AesKey } from "../cipher/aes.js";
import { assertBytes, type Bytes } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import type { MacAlgorithm, MacKernel, MacKernelState, MacName, MacOptions } from "../core/mac.js";
import { PreparedMac } from "../core/mac.js";
import { copyOut } from "../engine/hybrid.js";
import { LazyNativeKey, type NativeCrypto, nativeCrypto } from "../engine/native.js";
import { useNative } from "../engine/select.js";
import { Ghash } from "./ghash.js";

/** The nonce length the safe API draws: 96 bits, the length GCM is designed around (8.2). */
export const GMAC_NONCE_LENGTH = 12;

const TWO_29 = 0x20000000;

/** GMAC under one AES key: the AES schedule and H, computed once. */
export class GmacKernel implements MacKernel {
  readonly outputLength = 16;
  private readonly aes: AesKey;
  private readonly ghash: Ghash;
  private readonly counter = new Uint8Array(16);
  /** node:crypto's AES-GCM for long messages (see engine/select.ts). */
  private readonly nativeKey: LazyNativeKey;
  private readonly cipherName: string;

  constructor(key: Bytes) {
    this.aes = new AesKey(key);
    this.cipherName = `aes-${key.length * 8}-gcm`;
    this.nativeKey = new LazyNativeKey(key);
    const h = new Uint8Array(16);
    this.aes.encryptBlock(h, 0, h, 0);
    this.ghash = new Ghash(h);
    h.fill(0);
  }

  compute(message: Bytes, out: Bytes, nonce?: Bytes): void {
    if (this.nativeKey.available && nonce !== undefined && useNative("gmac", message.length)) {
      // GCM with the message as associated data and no plaintext is GMAC (SP 800-38D 3).
      const cipher = (nativeCrypto as NativeCrypto).createCipheriv(
        this.cipherName,
        this.nativeKey.get(),
        nonce,
      );
      cipher.setAAD(message);
      cipher.final();
      copyOut(cipher.getAuthTag(), out, 16);
      return;
    }
    const ghash = this.ghash;
    ghash.reset();
    ghash.updatePadded(message, 0, message.length);
    this.finishInto(ghash, message.length, out, nonce);
  }

  start(): MacKernelState {
    return new GmacState(this);
  }

  /** @internal A fresh GHASH accumulator under this key's H. */
  newGhash(): Ghash {
    return this.ghash.clone();
  }

  /** @internal Lengths block, then T = E(K, J0) ⊕ S, written to out[0..16). */
  finishInto(ghash: Ghash, messageLength: number, out: Bytes, nonce: Bytes | undefined): void {
    if (nonce === undefined) throw new KeyedError("BAD_INPUT", "GMAC needs a nonce.");
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
    this.nativeKey.wipe();
    this.aes.wipe();
    this.ghash.wipe();
    this.counter.fill(0);
  }
}

/** Incremental GMAC: whole blocks go to GHASH as they come, the tail is held back. */
class GmacState implements MacKernelState {
  private readonly kernel: GmacKernel;
  private readonly ghash: Ghash;
  private readonly pending = new Uint8Array(16);
  private pendingLength = 0;
  private length = 0;

  constructor(kernel: GmacKernel) {
    this.kernel = kernel;
    // Each stream has its own accumulator under the kernel's H.
    this.ghash = kernel.newGhash();
  }

  update(chunk: Bytes): void {
    this.length += chunk.length;
    let pos = 0;
    const pending = this.pending;
    if (this.pendingLength > 0) {
      while (this.pendingLength < 16 && pos < chunk.length)
        pending[this.pendingLength++] = chunk[pos++];
      if (this.pendingLength < 16) return;
      this.ghash.updateBlock(pending, 0);
      this.pendingLength = 0;
    }
    for (; chunk.length - pos >= 16; pos += 16) this.ghash.updateBlock(chunk, pos);
    while (pos < chunk.length) pending[this.pendingLength++] = chunk[pos++];
  }

  finish(out: Bytes, nonce?: Bytes): void {
    this.ghash.updatePadded(this.pending, 0, this.pendingLength);
    this.kernel.finishInto(this.ghash, this.length, out, nonce);
  }

  wipe(): void {
    this.ghash.wipe();
    this.pending.fill(0);
  }
}

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
  const kernel = new GmacKernel(key);
  const out = new Uint8Array(16);
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
    tag: {
      full: 16,
      safeMinimum: 12,
      maximum: 16,
      allowed: [4, 8, 12, 13, 14, 15, 16],
      basis: "SP 800-38D 5.2.1.2: 96 to 128 bits; 64 and 32 only with allowShortTags",
    },
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
