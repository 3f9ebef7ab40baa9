/**
 * ChaCha20-Poly1305 (RFC 8439 section 2.8) and XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha-03),
 * in two shapes: an object for one key and nonce (`chacha20poly1305(key, nonce, aad?)`), and a
 * prepared key that takes the nonce per call (`chacha20poly1305Key(key)`), for many messages
 * under one key without a copy of it per message. The MACs built on them, and the AEAD's tag
 * construction both share, are in mac/chacha20poly1305.ts.
 */

import { ChaCha20, xchachaKey } from "../cipher/chacha20.js";
import { assertBytes, type Bytes, copyBytes, EMPTY_BYTES } from "../core/bytes.js";
import { equalPrefix } from "../core/equal.js";
import { KeyedError } from "../core/errors.js";
import { redactKeyMaterial } from "../core/redact.js";
import type { NativeKey } from "../engine/native.js";
import { nativeFamily } from "../engine/native-families.js";
import { aeadTag } from "../mac/chacha20poly1305.js";

const TAG_LENGTH = 16;

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
 * A prepared AEAD key: each call brings its nonce (12 bytes for ChaCha20-Poly1305, 24 for
 * XChaCha20-Poly1305) and, optionally, its associated data. Never seal two messages under one
 * nonce: that reveals their XOR and lets anyone forge tags under it. XChaCha20's 24-byte nonces may
 * be drawn at random; ChaCha20's 12-byte ones should be a counter.
 */
export interface AeadKey {
  /** ciphertext ‖ 16-byte tag. */
  seal(nonce: Bytes, plaintext: Bytes, aad?: Bytes): Bytes;
  /** The plaintext; TAG_INVALID (and no plaintext) when the tag is wrong. */
  open(nonce: Bytes, sealed: Bytes, aad?: Bytes): Bytes;
  /** Wipes the key; every later call throws DESTROYED. */
  destroy(): void;
}

function tagMismatch(): KeyedError {
  return new KeyedError(
    "TAG_INVALID",
    "the tag does not match: the data or its associated data was changed, or the key or nonce is wrong.",
  );
}

/**
 * ciphertext ‖ tag of `plaintext` under key and nonce12, with `aad`. `nativeKey`: the key as
 * node:crypto should take it past its crossover (a prepared key's KeyObject), else the bytes.
 */
function sealUnder(
  key: Uint8Array,
  nonce12: Uint8Array,
  aad: Uint8Array,
  plaintext: Bytes,
  nativeKey?: NativeKey,
): Bytes {
  // node:crypto from the measured crossover on (engine/native-chacha20poly1305.ts), where present.
  const native = nativeFamily("chacha20-poly1305");
  if (native?.servesAead(plaintext.length + aad.length))
    return native.seal(nativeKey ?? key, nonce12, aad, plaintext);
  const { stream, polyKey } = keystreamAndPolyKey(key, nonce12);
  const out = new Uint8Array(plaintext.length + TAG_LENGTH);
  stream.xor(plaintext, out);
  aeadTag(polyKey, aad, out, plaintext.length, out, plaintext.length);
  stream.wipe();
  polyKey.fill(0);
  return out;
}

/** The plaintext of `sealed` under key and nonce12, with `aad`; TAG_INVALID when the tag is wrong. */
function openUnder(
  key: Uint8Array,
  nonce12: Uint8Array,
  aad: Uint8Array,
  sealed: Bytes,
  nativeKey?: NativeKey,
): Bytes {
  if (sealed.length < TAG_LENGTH) {
    throw new KeyedError(
      "TAG_INVALID",
      `sealed data is ${sealed.length} bytes: shorter than the 16-byte tag.`,
    );
  }
  const ctLength = sealed.length - TAG_LENGTH;
  const native = nativeFamily("chacha20-poly1305");
  if (native?.servesAead(sealed.length + aad.length)) {
    const plaintext = native.open(nativeKey ?? key, nonce12, aad, sealed, ctLength);
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
}

/**
 * One key and nonce's AEAD. A class, its methods on the prototype: made once per message (a nonce
 * serves one), and two closures per object showed in the seal's profile. Its fields are set in the
 * constructor only, so every instance has one shape.
 */
class ChaCha20Poly1305Aead implements Aead {
  declare private readonly key: Uint8Array;
  declare private readonly nonce12: Uint8Array;
  declare private readonly aad: Uint8Array;

  constructor(key: Uint8Array, nonce12: Uint8Array, aad: Uint8Array) {
    this.key = key;
    this.nonce12 = nonce12;
    this.aad = aad;
  }

  seal(plaintext: Bytes): Bytes {
    assertBytes(plaintext, "plaintext");
    return sealUnder(this.key, this.nonce12, this.aad, plaintext);
  }

  open(sealed: Bytes): Bytes {
    assertBytes(sealed, "sealed");
    return openUnder(this.key, this.nonce12, this.aad, sealed);
  }
}

redactKeyMaterial(ChaCha20Poly1305Aead);

/**
 * A prepared key (AeadKey). Its copy of the key serves every call; the nonce and associated data
 * are the caller's, used within the call and not kept. From the second call on, where node:crypto
 * is present, it also holds a KeyObject, so that node:crypto's seals past the crossover take no
 * copy of the key each. XChaCha20's subkey depends on the nonce, so it is derived per call.
 */
class PreparedAeadKey implements AeadKey {
  declare private key: Uint8Array | undefined;
  declare private nativeKey: NativeKey | undefined;
  declare private uses: number;
  declare private readonly extended: boolean;

  constructor(key: Uint8Array, extended: boolean) {
    this.key = key;
    this.nativeKey = undefined;
    this.uses = 0;
    this.extended = extended;
  }

  seal(nonce: Bytes, plaintext: Bytes, aad?: Bytes): Bytes {
    return this.run(sealUnder, nonce, plaintext, "plaintext", aad);
  }

  open(nonce: Bytes, sealed: Bytes, aad?: Bytes): Bytes {
    return this.run(openUnder, nonce, sealed, "sealed", aad);
  }

  /** `under` (sealUnder or openUnder) on `input` with this key and the call's nonce and aad. */
  private run(
    under: typeof sealUnder,
    nonce: Bytes,
    input: Bytes,
    what: string,
    aad: Bytes | undefined,
  ): Bytes {
    const key = this.begin(nonce, aad);
    assertBytes(input, what);
    const data = aad ?? EMPTY_BYTES;
    if (!this.extended) return under(key, nonce, data, input, this.nativeKey);
    const { subkey, nonce12 } = xchachaKey(key, nonce);
    try {
      return under(subkey, nonce12, data, input);
    } finally {
      subkey.fill(0);
    }
  }

  destroy(): void {
    this.key?.fill(0);
    this.key = undefined;
    // A KeyObject's memory is node:crypto's to free; dropped.
    this.nativeKey = undefined;
  }

  /** The key, once the call's nonce and associated data are checked; makes the KeyObject. */
  private begin(nonce: Bytes, aad: Bytes | undefined): Uint8Array {
    const key = this.key;
    const name = aeadName(this.extended);
    if (key === undefined)
      throw new KeyedError("DESTROYED", `this ${name} key was destroyed; prepare a new one.`);
    assertBytes(nonce, "nonce");
    checkNonceLength(nonce, this.extended ? 24 : 12, name);
    if (aad !== undefined) assertBytes(aad, "aad");
    // Not on the first call: a key used once should not pay ~1.3 µs for a KeyObject.
    if (this.uses++ === 1 && !this.extended)
      this.nativeKey = nativeFamily("chacha20-poly1305")?.keyObject(key);
    return key;
  }
}

redactKeyMaterial(PreparedAeadKey);

function aeadName(extended: boolean): string {
  return extended ? "XChaCha20-Poly1305" : "ChaCha20-Poly1305";
}

/** Refuses a nonce (already checked to be bytes) of any length but `nonceLength`. */
function checkNonceLength(nonce: Bytes, nonceLength: number, name: string): void {
  if (nonce.length !== nonceLength) {
    throw new KeyedError(
      "BAD_INPUT",
      `${name} takes a ${nonceLength}-byte nonce; got ${nonce.length}.`,
    );
  }
}

/** Refuses a key (already checked to be bytes) of any length but 32. */
function checkKeyLength(key: Bytes, name: string): void {
  if (key.length !== 32)
    throw new KeyedError("KEY_LENGTH", `${name} takes a 32-byte key; got ${key.length}.`);
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
  checkKeyLength(key, name);
  checkNonceLength(nonce, nonceLength, name);
}

/** The AEAD's own copy of the associated data; none shares one empty array (it never leaves keyed). */
function ownAad(aad: Bytes | undefined): Bytes {
  return aad === undefined || aad.length === 0 ? EMPTY_BYTES : copyBytes(aad);
}

/** AEAD_CHACHA20_POLY1305 (RFC 8439 2.8) under `key` (32 bytes) and `nonce` (12 bytes). */
export function chacha20poly1305(key: Bytes, nonce: Bytes, aad?: Bytes): Aead {
  checkAeadArgs(key, nonce, aad, 12, "ChaCha20-Poly1305");
  return new ChaCha20Poly1305Aead(copyBytes(key), copyBytes(nonce), ownAad(aad));
}

/** XChaCha20-Poly1305 under `key` (32 bytes) and `nonce` (24 bytes, safe to draw at random). */
export function xchacha20poly1305(key: Bytes, nonce: Bytes, aad?: Bytes): Aead {
  checkAeadArgs(key, nonce, aad, 24, "XChaCha20-Poly1305");
  const { subkey, nonce12 } = xchachaKey(key, nonce);
  return new ChaCha20Poly1305Aead(subkey, nonce12, ownAad(aad));
}

/** A prepared ChaCha20-Poly1305 key (RFC 8439 2.8; 32 bytes): the nonce (12 bytes) per call. */
export function chacha20poly1305Key(key: Bytes): AeadKey {
  return prepareKey(key, false);
}

/** A prepared XChaCha20-Poly1305 key (32 bytes): the nonce (24 bytes, safe to draw at random) per call. */
export function xchacha20poly1305Key(key: Bytes): AeadKey {
  return prepareKey(key, true);
}

function prepareKey(key: Bytes, extended: boolean): AeadKey {
  assertBytes(key, "key");
  checkKeyLength(key, aeadName(extended));
  return new PreparedAeadKey(copyBytes(key), extended);
}
