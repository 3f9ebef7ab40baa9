/**
 * ChaCha20-Poly1305 (RFC 8439 section 2.8) and XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha-03).
 * The MACs built on them, and the AEAD's tag construction both share, are in
 * mac/chacha20poly1305.ts.
 */

import { ChaCha20, xchachaKey } from "../cipher/chacha20.js";
import { assertBytes, type Bytes, copyBytes, EMPTY_BYTES } from "../core/bytes.js";
import { equalPrefix } from "../core/equal.js";
import { KeyedError } from "../core/errors.js";
import { redactKeyMaterial } from "../core/redact.js";
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

function tagMismatch(): KeyedError {
  return new KeyedError(
    "TAG_INVALID",
    "the tag does not match: the data or its associated data was changed, or the key or nonce is wrong.",
  );
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
    const { key, nonce12, aad } = this;
    // node:crypto from the measured crossover on (engine/native-chacha20poly1305.ts), where present.
    const native = nativeFamily("chacha20-poly1305");
    if (native?.servesAead(plaintext.length + aad.length))
      return native.seal(key, nonce12, aad, plaintext);
    const { stream, polyKey } = keystreamAndPolyKey(key, nonce12);
    const out = new Uint8Array(plaintext.length + TAG_LENGTH);
    stream.xor(plaintext, out);
    aeadTag(polyKey, aad, out, plaintext.length, out, plaintext.length);
    stream.wipe();
    polyKey.fill(0);
    return out;
  }

  open(sealed: Bytes): Bytes {
    assertBytes(sealed, "sealed");
    if (sealed.length < TAG_LENGTH) {
      throw new KeyedError(
        "TAG_INVALID",
        `sealed data is ${sealed.length} bytes: shorter than the 16-byte tag.`,
      );
    }
    const { key, nonce12, aad } = this;
    const ctLength = sealed.length - TAG_LENGTH;
    const native = nativeFamily("chacha20-poly1305");
    if (native?.servesAead(sealed.length + aad.length)) {
      const plaintext = native.open(key, nonce12, aad, sealed, ctLength);
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
}

redactKeyMaterial(ChaCha20Poly1305Aead);

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
