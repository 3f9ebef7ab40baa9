/**
 * ChaCha20-Poly1305 (RFC 8439 section 2.8) on node:crypto (engine/native.ts), from the measured
 * crossover on (engine/select.ts): OpenSSL's vectorized code at gigabytes per second. The AEAD's
 * seal and open (aead/chacha20poly1305.ts) and the MAC form, the tag over an empty plaintext
 * (mac/chacha20poly1305.ts). Reached through engine/native-families.ts, so a browser bundle,
 * where node:crypto never exists, carries none of it. Keys go in as bytes: a KeyObject per
 * message costs more than the MAC itself.
 */
import { type Bytes, setBytes } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import {
  checkNativeOutput,
  LEND_DATA,
  LEND_KEY,
  LEND_NONCE,
  lend,
  type NativeCipher,
  type NativeCrypto,
  type NativeKey,
  nativeCrypto,
  nativeHasCipher,
  nativeTagsAadAlone,
  secretKeyObject,
  takeNativeOutput,
  uninitializedBytes,
  wipeLent,
} from "./native.js";
import { useNative } from "./select.js";

const TAG_LENGTH = 16;
const TAG_WHAT = "the ChaCha20-Poly1305 tag";
/** createCipheriv's options for every call here (node:crypto only reads them). */
const OPTIONS = Object.freeze({ authTagLength: TAG_LENGTH });
/** setAAD's options for the MAC form, whose plaintext is empty. */
const NO_PLAINTEXT = Object.freeze({ plaintextLength: 0 });

/** Whether this node:crypto has ChaCha20-Poly1305 at all (Bun's has not: "Unknown cipher"). */
const hasCipher = (): boolean => nativeHasCipher("chacha20-poly1305", 32, 12);

/**
 * True when node:crypto is here and should compute the MAC form over `length` bytes: past the
 * crossover, and where it tags associated data alone (workerd's gives an empty tag).
 */
function serves(length: number): boolean {
  return useNative("chacha20-poly1305", length) && nativeTagsAadAlone("chacha20-poly1305", 32, 12);
}

/** True when node:crypto should seal or open `length` bytes (plaintext or ciphertext, and AAD). */
function servesAead(length: number): boolean {
  return useNative("chacha20-poly1305-aead", length) && hasCipher();
}

/**
 * A cipher or decipher for `key` (bytes, or a prepared key's KeyObject) and nonce12, with `aad`
 * (if any) for a body of `bodyLength` bytes.
 */
function context(
  decrypt: boolean,
  key: Uint8Array | NativeKey,
  nonce12: Uint8Array,
  aad: Uint8Array,
  bodyLength: number,
): NativeCipher {
  const crypto = nativeCrypto as NativeCrypto;
  // Lent (engine/native.ts): an AEAD object copies its key and nonce when it is made, and serves
  // one nonce, so each message brings fresh copies; a prepared key's nonce is the caller's.
  try {
    const lentKey = key instanceof Uint8Array ? lend(key, LEND_KEY) : key;
    const lentNonce = lend(nonce12, LEND_NONCE);
    const cipher = decrypt
      ? crypto.createDecipheriv("chacha20-poly1305", lentKey, lentNonce, OPTIONS)
      : crypto.createCipheriv("chacha20-poly1305", lentKey, lentNonce, OPTIONS);
    // No associated data, no call: each call into node:crypto costs a few hundred nanoseconds.
    if (aad.length > 0) cipher.setAAD(lend(aad, LEND_DATA), { plaintextLength: bodyLength });
    return cipher;
  } finally {
    wipeLent();
  }
}

/**
 * A KeyObject for a prepared key's 32 bytes (lent, wiped after), or undefined where node:crypto
 * is absent or cannot make one: made once, it spares each seal and open node:crypto's own copy of
 * the key.
 */
function keyObject(key: Uint8Array): NativeKey | undefined {
  if (nativeCrypto === undefined) return undefined;
  try {
    return secretKeyObject(key);
  } catch {
    return undefined; // the key's bytes serve as before
  }
}

/** ciphertext ‖ 16-byte tag. The ciphertext is public: nothing here needs wiping. */
function seal(
  key: Uint8Array | NativeKey,
  nonce12: Uint8Array,
  aad: Uint8Array,
  plaintext: Bytes,
): Bytes {
  const cipher = context(false, key, nonce12, aad, plaintext.length);
  // One update, not slices as for CMAC (native.ts updateDiscarding): the output is copied to its
  // place anyway, and in 64 KiB slices the seal measured 2-10% slower at 1 MiB.
  const body = cipher.update(plaintext);
  checkNativeOutput(body, plaintext.length, "the ciphertext");
  // final() adds nothing to a stream cipher's output; it computes the tag.
  cipher.final();
  const out = uninitializedBytes(plaintext.length + TAG_LENGTH);
  // Whole, not through subarray (~100 ns): at least as long as due (checked above), and
  // node:crypto gives exactly that.
  setBytes(out, body);
  // The tag is public too, sent with the ciphertext: copied, not wiped in node:crypto's buffer.
  const tag = cipher.getAuthTag();
  checkNativeOutput(tag, TAG_LENGTH, TAG_WHAT);
  setBytes(out, tag.length === TAG_LENGTH ? tag : tag.subarray(0, TAG_LENGTH), plaintext.length);
  return out;
}

/**
 * The plaintext of sealed[0..ctLength), or undefined when the tag (the rest) is wrong. node:crypto
 * decrypts while it authenticates and checks the tag in final(): a wrong tag wipes what it
 * decrypted, so no plaintext is released either way.
 */
function open(
  key: Uint8Array | NativeKey,
  nonce12: Uint8Array,
  aad: Uint8Array,
  sealed: Bytes,
  ctLength: number,
): Bytes | undefined {
  const decipher = context(true, key, nonce12, aad, ctLength);
  decipher.setAuthTag(sealed.subarray(ctLength));
  const body = decipher.update(sealed.subarray(0, ctLength));
  try {
    checkNativeOutput(body, ctLength, "the plaintext");
    decipher.final();
  } catch (error) {
    body.fill(0);
    if (error instanceof KeyedError) throw error; // a short answer: UNAVAILABLE
    return undefined; // final()'s throw: a wrong tag
  }
  const plaintext = uninitializedBytes(ctLength);
  setBytes(plaintext, body);
  body.fill(0);
  return plaintext;
}

/** The MAC form: the tag over an empty plaintext with `message` as associated data, into out. */
function tag(key: Uint8Array, nonce12: Uint8Array, message: Bytes, out: Bytes): void {
  const cipher = (nativeCrypto as NativeCrypto).createCipheriv(
    "chacha20-poly1305",
    key,
    nonce12,
    OPTIONS,
  );
  cipher.setAAD(message, NO_PLAINTEXT);
  cipher.final();
  takeNativeOutput(cipher.getAuthTag(), out, TAG_LENGTH, TAG_WHAT);
}

export const NativeChaCha20Poly1305 = { serves, servesAead, seal, open, tag, keyObject };
