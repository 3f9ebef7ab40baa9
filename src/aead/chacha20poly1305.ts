/**
 * ChaCha20-Poly1305 (RFC 8439 section 2.8) and XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha-03),
 * and the MACs built on them: the AEAD's tag over an empty plaintext with the message as
 * associated data, so any ChaCha20-Poly1305 implementation can check a keyed tag.
 */

import { ChaCha20, hchacha20 } from "../cipher/chacha20.js";
import { assertBytes, type Bytes } from "../core/bytes.js";
import { equalPrefix } from "../core/equal.js";
import { KeyedError } from "../core/errors.js";
import type { MacAlgorithm, MacKernel, MacKernelState, MacName } from "../core/mac.js";
import { redactKeyMaterial } from "../core/redact.js";
import { copyOut } from "../engine/hybrid.js";
import { type NativeCrypto, nativeCrypto } from "../engine/native.js";
import { useNative } from "../engine/select.js";
import { Poly1305State, poly1305Padded } from "../mac/poly1305.js";

const TAG_LENGTH = 16;
const ZERO12 = new Uint8Array(12);
const ZERO32 = new Uint8Array(32);
const EMPTY = new Uint8Array(0);

/** Poly1305 over aad ‖ pad16 ‖ ciphertext ‖ pad16 ‖ le64(|aad|) ‖ le64(|ciphertext|) (2.8). */
/** le64(|aad|) ‖ le64(|ciphertext|): public, so one buffer serves every call. */
const LENGTHS = new Uint8Array(16);

function aeadTag(
  polyKey: Uint8Array,
  aad: Uint8Array,
  ciphertext: Uint8Array,
  ctEnd: number,
  out: Uint8Array,
  outOffset: number,
): void {
  const lengths = LENGTHS;
  writeLe64(lengths, 0, aad.length);
  writeLe64(lengths, 8, ctEnd);
  poly1305Padded(polyKey, [aad, ciphertext.subarray(0, ctEnd), lengths], out, outOffset);
}

function writeLe64(out: Uint8Array, offset: number, value: number): void {
  const low = value % 0x100000000;
  const high = Math.floor(value / 0x100000000);
  for (let i = 0; i < 4; i++) {
    out[offset + i] = low >>> (8 * i);
    out[offset + 4 + i] = high >>> (8 * i);
  }
}

/** The keystream (counter from 0) and the Poly1305 one-time key, its first 32 bytes (2.6). */
function keystreamAndPolyKey(
  key: Uint8Array,
  nonce12: Uint8Array,
): { stream: ChaCha20; polyKey: Uint8Array } {
  const stream = new ChaCha20(key, nonce12, 0);
  const polyKey = new Uint8Array(32);
  stream.keystream(polyKey, 32);
  return { stream, polyKey };
}

export interface Aead {
  /** ciphertext ‖ 16-byte tag. */
  seal(plaintext: Bytes): Bytes;
  /** The plaintext; TAG_INVALID (and no plaintext) when the tag is wrong. */
  open(sealed: Bytes): Bytes;
}

/**
 * node:crypto's ChaCha20-Poly1305 (RFC 8439 2.8 too), from the measured crossover on: it runs
 * OpenSSL's vectorized code at gigabytes per second.
 */
function nativeSeal(
  key: Uint8Array,
  nonce12: Uint8Array,
  aad: Uint8Array,
  plaintext: Bytes,
): Bytes {
  const cipher = (nativeCrypto as NativeCrypto).createCipheriv("chacha20-poly1305", key, nonce12, {
    authTagLength: TAG_LENGTH,
  });
  cipher.setAAD(aad, { plaintextLength: plaintext.length });
  const body = cipher.update(plaintext);
  const tail = cipher.final();
  const out = new Uint8Array(plaintext.length + TAG_LENGTH);
  out.set(body);
  out.set(tail, body.length);
  out.set(cipher.getAuthTag(), plaintext.length);
  body.fill(0);
  return out;
}

/**
 * node:crypto decrypts while it authenticates and checks the tag in final(): a wrong tag wipes
 * what it decrypted before TAG_INVALID is thrown, so no plaintext is released either way.
 */
function nativeOpen(
  key: Uint8Array,
  nonce12: Uint8Array,
  aad: Uint8Array,
  sealed: Bytes,
  ctLength: number,
): Bytes | undefined {
  const decipher = (nativeCrypto as NativeCrypto).createDecipheriv(
    "chacha20-poly1305",
    key,
    nonce12,
    { authTagLength: TAG_LENGTH },
  );
  decipher.setAuthTag(sealed.subarray(ctLength));
  decipher.setAAD(aad, { plaintextLength: ctLength });
  const body = decipher.update(sealed.subarray(0, ctLength));
  try {
    decipher.final();
  } catch {
    body.fill(0);
    return undefined;
  }
  const plaintext = new Uint8Array(ctLength);
  plaintext.set(body);
  body.fill(0);
  return plaintext;
}

function tagMismatch(): KeyedError {
  return new KeyedError(
    "TAG_INVALID",
    "the tag does not match: the data or its associated data was changed, or the key or nonce is wrong.",
  );
}

function makeAead(key: Uint8Array, nonce12: Uint8Array, aad: Uint8Array): Aead {
  return {
    seal(plaintext: Bytes): Bytes {
      assertBytes(plaintext, "plaintext");
      if (useNative("chacha20-poly1305", plaintext.length + aad.length))
        return nativeSeal(key, nonce12, aad, plaintext);
      const { stream, polyKey } = keystreamAndPolyKey(key, nonce12);
      const out = new Uint8Array(plaintext.length + TAG_LENGTH);
      stream.xor(plaintext, out);
      aeadTag(polyKey, aad, out, plaintext.length, out, plaintext.length);
      stream.wipe();
      polyKey.fill(0);
      return out;
    },
    open(sealed: Bytes): Bytes {
      assertBytes(sealed, "sealed");
      if (sealed.length < TAG_LENGTH) {
        throw new KeyedError(
          "TAG_INVALID",
          `sealed data is ${sealed.length} bytes: shorter than the 16-byte tag.`,
        );
      }
      const ctLength = sealed.length - TAG_LENGTH;
      if (useNative("chacha20-poly1305", sealed.length + aad.length)) {
        const plaintext = nativeOpen(key, nonce12, aad, sealed, ctLength);
        if (plaintext === undefined) throw tagMismatch();
        return plaintext;
      }
      const { stream, polyKey } = keystreamAndPolyKey(key, nonce12);
      const expected = new Uint8Array(TAG_LENGTH);
      aeadTag(polyKey, aad, sealed, ctLength, expected, 0);
      polyKey.fill(0);
      // The tag is checked in constant time before a single byte is decrypted.
      const ok = equalPrefix(expected, TAG_LENGTH, sealed, ctLength) && true;
      expected.fill(0);
      if (!ok) {
        stream.wipe();
        throw tagMismatch();
      }
      const plaintext = new Uint8Array(ctLength);
      stream.xor(sealed.subarray(0, ctLength), plaintext);
      stream.wipe();
      return plaintext;
    },
  };
}

function checkAeadArgs(
  key: Bytes,
  nonce: Bytes,
  aad: Bytes | undefined,
  nonceLength: number,
  name: string,
): void {
  assertBytes(key, "key");
  assertBytes(nonce, "nonce");
  if (aad !== undefined) assertBytes(aad, "aad");
  if (key.length !== 32)
    throw new KeyedError("KEY_LENGTH", `${name} takes a 32-byte key; got ${key.length}.`);
  if (nonce.length !== nonceLength) {
    throw new KeyedError(
      "BAD_INPUT",
      `${name} takes a ${nonceLength}-byte nonce; got ${nonce.length}.`,
    );
  }
}

/** AEAD_CHACHA20_POLY1305 (RFC 8439 2.8) under `key` (32 bytes) and `nonce` (12 bytes). */
export function chacha20poly1305(key: Bytes, nonce: Bytes, aad?: Bytes): Aead {
  checkAeadArgs(key, nonce, aad, 12, "ChaCha20-Poly1305");
  return makeAead(
    new Uint8Array(key),
    new Uint8Array(nonce),
    aad === undefined ? new Uint8Array(0) : new Uint8Array(aad),
  );
}

/** The XChaCha20 subkey and 12-byte nonce for a 24-byte nonce (draft-irtf-cfrg-xchacha 2.3). */
function xchachaSubkey(
  key: Uint8Array,
  nonce24: Uint8Array,
): { subkey: Uint8Array; nonce12: Uint8Array } {
  const subkey = hchacha20(key, nonce24.subarray(0, 16));
  const nonce12 = new Uint8Array(12);
  nonce12.set(nonce24.subarray(16, 24), 4);
  return { subkey, nonce12 };
}

/** XChaCha20-Poly1305 under `key` (32 bytes) and `nonce` (24 bytes, safe to draw at random). */
export function xchacha20poly1305(key: Bytes, nonce: Bytes, aad?: Bytes): Aead {
  checkAeadArgs(key, nonce, aad, 24, "XChaCha20-Poly1305");
  const { subkey, nonce12 } = xchachaSubkey(key, nonce);
  return makeAead(subkey, nonce12, aad === undefined ? new Uint8Array(0) : new Uint8Array(aad));
}

// --- the MACs: the AEAD tag with the message as associated data -----------------------------------

/**
 * `stream().verify(tag)` learns the nonce only from the tag, after the message, and the one-time
 * Poly1305 key depends on it: such a stream keeps up to this many bytes to compute the tag then.
 * Past it the message is dropped, and only the stream's own nonce (its digest) can be served.
 * `verifyingStream(tag)` knows the nonce from the start and keeps nothing.
 */
export const VERIFY_BUFFER_LIMIT = 16 * 1024 * 1024;

/** The core always passes the nonce (MacAlgorithm.nonceLength); a kernel called without one is a bug. */
function needNonce(nonce: Bytes | undefined): asserts nonce is Bytes {
  if (nonce === undefined)
    throw new KeyedError("BAD_INPUT", "the ChaCha20-Poly1305 MAC needs a nonce.");
}

/**
 * Kernel of chacha20-poly1305 and xchacha20-poly1305 as MACs. A stream gets its nonce when it
 * starts, so the one-time key is known and the message goes straight into Poly1305 (constant
 * memory for any length); verifying streams also keep up to VERIFY_BUFFER_LIMIT bytes.
 */
class ChaChaMacKernel implements MacKernel {
  readonly outputLength = TAG_LENGTH;
  private readonly key: Uint8Array;
  private readonly extended: boolean;
  private readonly stream = new ChaCha20(ZERO32, ZERO12);
  private readonly polyKey = new Uint8Array(32);

  constructor(key: Bytes, extended: boolean) {
    // Copies are new Uint8Arrays here: Buffer#slice gives a view, and this key is wiped.
    this.key = new Uint8Array(key);
    this.extended = extended;
  }

  /**
   * The ChaCha20 key and 96-bit nonce for `nonce`: the kernel's own, or for XChaCha20 the HChaCha20
   * subkey and the nonce's last 8 bytes (draft-irtf-cfrg-xchacha 2.3). The caller wipes `subkey`.
   */
  private chachaKey(nonce: Bytes): { key: Bytes; nonce12: Bytes; subkey?: Uint8Array } {
    if (!this.extended) return { key: this.key, nonce12: nonce };
    const { subkey, nonce12 } = xchachaSubkey(this.key, nonce);
    return { key: subkey, nonce12, subkey };
  }

  /** Fills this.polyKey with the one-time key for `nonce` (RFC 8439 2.6; XChaCha: its subkey). */
  private derivePolyKey(nonce: Bytes): Uint8Array {
    const { key, nonce12, subkey } = this.chachaKey(nonce);
    this.stream.reset(key, nonce12, 0).keystream(this.polyKey, 32);
    this.stream.wipe();
    subkey?.fill(0);
    return this.polyKey;
  }

  compute(message: Bytes, out: Bytes, nonce?: Bytes): void {
    needNonce(nonce);
    if (nativeCrypto !== undefined && useNative("chacha20-poly1305", message.length)) {
      const { key, nonce12, subkey } = this.chachaKey(nonce);
      // RFC 8439 2.8 with an empty plaintext, on node:crypto.
      // The raw key, not a KeyObject: creating one per message costs more than the MAC itself.
      const cipher = nativeCrypto.createCipheriv("chacha20-poly1305", key, nonce12, {
        authTagLength: TAG_LENGTH,
      });
      cipher.setAAD(message, { plaintextLength: 0 });
      cipher.final();
      copyOut(cipher.getAuthTag(), out, TAG_LENGTH);
      subkey?.fill(0);
      return;
    }
    // One ChaCha20 and one Poly1305 key buffer per kernel, re-keyed per message: no allocation.
    const polyKey = this.derivePolyKey(nonce);
    aeadTag(polyKey, message, EMPTY, 0, out, 0);
    polyKey.fill(0);
  }

  start(nonce?: Bytes): MacKernelState {
    needNonce(nonce);
    return new ChaChaMacStream(this, nonce);
  }

  /** @internal A Poly1305 state keyed for `nonce`, for ChaChaMacStream. */
  poly1305For(nonce: Bytes): Poly1305State {
    const polyKey = this.derivePolyKey(nonce);
    const state = new Poly1305State(polyKey);
    polyKey.fill(0);
    return state;
  }

  wipe(): void {
    this.key.fill(0);
  }
}

redactKeyMaterial(ChaChaMacKernel);

/**
 * One stream: Poly1305 over AD ‖ pad16 ‖ le64(|AD|) ‖ le64(0) (RFC 8439 2.8, empty ciphertext)
 * under the nonce the stream started with (drawn for a tag, or read from the tag of a
 * verifyingStream).
 */
class ChaChaMacStream implements MacKernelState {
  readonly nonce: Uint8Array;
  private readonly kernel: ChaChaMacKernel;
  private readonly poly: Poly1305State;
  private length = 0;
  /** The message so far, for a verify under another nonce; undefined past the limit. */
  private chunks: Uint8Array[] | undefined = [];

  constructor(kernel: ChaChaMacKernel, nonce: Bytes) {
    this.kernel = kernel;
    this.nonce = new Uint8Array(nonce);
    this.poly = kernel.poly1305For(this.nonce);
  }

  update(chunk: Bytes): void {
    this.poly.update(chunk);
    this.length += chunk.length;
    if (this.chunks === undefined) return;
    if (this.length > VERIFY_BUFFER_LIMIT) this.dropChunks();
    else this.chunks.push(new Uint8Array(chunk));
  }

  finish(out: Bytes, nonce?: Bytes): void {
    if (nonce === undefined || equalBytes(nonce, this.nonce)) {
      const lengths = LENGTHS;
      writeLe64(lengths, 0, this.length);
      writeLe64(lengths, 8, 0);
      this.poly.padToBlock().update(lengths);
      this.poly.finish(out);
      return;
    }
    // Verifying a tag made under another nonce: its one-time key applies to the whole message.
    this.poly.wipe();
    const chunks = this.chunks;
    if (chunks === undefined) {
      throw new KeyedError(
        "LENGTH",
        `a ${this.nonce.length === 24 ? "xchacha20" : "chacha20"}-poly1305 stream keeps at most ` +
          `${VERIFY_BUFFER_LIMIT} bytes to verify: the one-time key depends on the nonce at the ` +
          "front of the tag, known only at the end. Give the tag first, with " +
          "mac.verifyingStream(tag), which streams any length in constant memory.",
      );
    }
    const message = new Uint8Array(this.length);
    let offset = 0;
    for (const c of chunks) {
      message.set(c, offset);
      offset += c.length;
    }
    this.dropChunks();
    this.kernel.compute(message, out, nonce);
    message.fill(0);
  }

  wipe(): void {
    this.poly.wipe();
    this.dropChunks();
    this.nonce.fill(0);
  }

  private dropChunks(): void {
    for (const c of this.chunks ?? []) c.fill(0);
    this.chunks = undefined;
  }
}

redactKeyMaterial(ChaChaMacStream);

/** True when a and b hold the same bytes (public nonces: no constant time needed). */
function equalBytes(a: Bytes, b: Bytes): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function chachaMacAlgorithm(name: MacName, extended: boolean): MacAlgorithm {
  return {
    name,
    key: { kind: "fixed", length: 32 },
    nonceLength: extended ? 24 : 12,
    // Random 96-bit nonces: SP 800-38D 8.3's bound for random IVs applies alike. 192-bit ones
    // (XChaCha20) can be drawn at random without a practical limit.
    nonceLimit: extended
      ? undefined
      : { invocations: 2 ** 32, basis: "SP 800-38D section 8.3's bound for random 96-bit nonces" },
    tag: { full: 16, safeMinimum: 16, maximum: 16, basis: "RFC 8439: the AEAD tag is 16 bytes" },
    createKernel: (key) => new ChaChaMacKernel(key, extended),
  };
}

export const CHACHA_MAC_ALGORITHMS = {
  "chacha20-poly1305": chachaMacAlgorithm("chacha20-poly1305", false),
  "xchacha20-poly1305": chachaMacAlgorithm("xchacha20-poly1305", true),
} as const;
