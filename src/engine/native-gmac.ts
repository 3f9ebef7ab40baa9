/**
 * GMAC on node:crypto (engine/native.ts) for long messages (engine/select.ts): GCM with the message
 * as associated data and no plaintext (SP 800-38D section 3). Reached through
 * engine/native-families.ts, so a browser bundle, where node:crypto never exists, carries none of
 * it.
 */
import type { Bytes } from "../core/bytes.js";
import { redactKeyMaterial } from "../core/redact.js";
import {
  aesName,
  LazyNativeKey,
  type NativeCrypto,
  type NativeKey,
  nativeCrypto,
  nativeTagsAadAlone,
  takeNativeOutput,
} from "./native.js";
import { useNative } from "./select.js";

/** node:crypto refuses GCM IVs over 128 bytes (ERR_CRYPTO_INVALID_IV); keyed's kernels take any. */
const NATIVE_MAX_NONCE = 128;

/**
 * True when node:crypto should compute this tag: past the crossover, a nonce it accepts, and AES-GCM
 * for this key size that tags associated data alone (probed once, here rather than when a key is
 * made: only long messages ask).
 */
function fits(keyLength: number, nonce: Bytes, length: number): boolean {
  return (
    nonce.length <= NATIVE_MAX_NONCE &&
    useNative("gmac", length) &&
    nativeTagsAadAlone(aesName("gcm", keyLength), keyLength, 12)
  );
}

function tag(
  cipherName: string,
  key: NativeKey | Uint8Array,
  nonce: Bytes,
  message: Bytes,
  out: Bytes,
): void {
  const cipher = (nativeCrypto as NativeCrypto).createCipheriv(cipherName, key, nonce);
  cipher.setAAD(message);
  cipher.final();
  takeNativeOutput(cipher.getAuthTag(), out, 16, "GMAC's tag");
}

export class NativeGmac {
  private readonly nativeKey: LazyNativeKey;
  private readonly keyLength: number;

  private constructor(key: Bytes) {
    this.keyLength = key.length;
    this.nativeKey = new LazyNativeKey(key);
  }

  /** The native backend for this AES key, or undefined where node:crypto is absent. */
  static for(key: Bytes): NativeGmac | undefined {
    const native = new NativeGmac(key);
    return native.nativeKey.available ? native : undefined;
  }

  /**
   * The tag of one message under a key used once (hazmat `gmac()`), into `out`, when node:crypto
   * should compute it; false, and nothing done, otherwise. node:crypto takes the key's bytes: a
   * KeyObject would cost ~1.5 µs more.
   */
  static tagOnce(key: Bytes, nonce: Bytes, message: Bytes, out: Bytes): boolean {
    if (nativeCrypto === undefined || !fits(key.length, nonce, message.length)) return false;
    tag(aesName("gcm", key.length), key, nonce, message, out);
    return true;
  }

  /** True when node:crypto should tag `length` bytes under `nonce`. */
  serves(nonce: Bytes, length: number): boolean {
    return fits(this.keyLength, nonce, length);
  }

  compute(message: Bytes, out: Bytes, nonce: Bytes): void {
    const cipherName = aesName("gcm", this.keyLength);
    this.nativeKey.use((key) => tag(cipherName, key, nonce, message, out));
  }

  wipe(): void {
    this.nativeKey.wipe();
  }
}

redactKeyMaterial(NativeGmac);
