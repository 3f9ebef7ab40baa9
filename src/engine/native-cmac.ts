/**
 * CMAC on node:crypto (engine/native.ts) for long messages (engine/select.ts): SP 800-38B 6.2 on
 * AES-CBC with a zero IV, all blocks but the last as they are, the last ⊕ K1 (complete) or padded
 * ⊕ K2 (partial); the tag is the final ciphertext block. Reached through
 * engine/native-families.ts, so a browser bundle, where node:crypto never exists, carries none of
 * it. The subkeys come from keyed's own kernel (mac/cmac.ts), asked once, on first need.
 */
import type { Bytes } from "../core/bytes.js";
import type { MacKernelState } from "../core/mac.js";
import { redactKeyMaterial } from "../core/redact.js";
import { hybridState, type NativeSink } from "./hybrid.js";
import { LazyNativeKey, type NativeCipher, type NativeCrypto, nativeCrypto } from "./native.js";
import { cmacFamily, type NativeFamily, useNative } from "./select.js";

const ZERO_IV = new Uint8Array(16);

/** Where NativeCmac gets K1 ‖ K2 (32 bytes) from: keyed's own CMAC kernel of the key. */
export interface CmacSubkeySource {
  subkeys(out: Uint8Array): void;
}

export class NativeCmac {
  private readonly nativeKey: LazyNativeKey;
  private readonly cipherName: string;
  /** The crossover's family: the key length sets the rounds, and so keyed's own cost. */
  private readonly family: NativeFamily;
  private readonly source: CmacSubkeySource;
  private subkeys: Uint8Array | undefined;
  /** The last block. */
  private readonly last = new Uint8Array(16);

  private constructor(key: Bytes, source: CmacSubkeySource) {
    this.cipherName = `aes-${key.length * 8}-cbc`;
    this.family = cmacFamily(key.length);
    this.nativeKey = new LazyNativeKey(key);
    this.source = source;
  }

  /** The native backend for this AES key, or undefined where node:crypto is absent. */
  static for(key: Bytes, source: CmacSubkeySource): NativeCmac | undefined {
    const native = new NativeCmac(key, source);
    return native.nativeKey.available ? native : undefined;
  }

  /** True when node:crypto should tag a message of `length` bytes (the measured crossover). */
  serves(length: number): boolean {
    return useNative(this.family, length);
  }

  private cipher(): NativeCipher {
    const cipher = (nativeCrypto as NativeCrypto).createCipheriv(
      this.cipherName,
      this.nativeKey.get(),
      ZERO_IV,
    );
    return cipher.setAutoPadding(false);
  }

  /** Encrypts the last block, data[offset .. offset + count), padded and masked; the tag to `out`. */
  private finish(
    cipher: NativeCipher,
    data: Uint8Array,
    offset: number,
    count: number,
    out: Bytes,
  ): void {
    if (this.subkeys === undefined) {
      this.subkeys = new Uint8Array(32);
      this.source.subkeys(this.subkeys);
    }
    const subkeys = this.subkeys;
    const subkey = count === 16 ? 0 : 16;
    const last = this.last;
    for (let i = 0; i < 16; i++) {
      const m = i < count ? data[offset + i] : i === count ? 0x80 : 0;
      last[i] = m ^ subkeys[subkey + i];
    }
    const final = cipher.update(last);
    cipher.final();
    // A byte loop, not copyOut: Buffer's fill costs a quarter of a microsecond.
    for (let i = 0; i < 16; i++) {
      out[i] = final[final.length - 16 + i];
      final[final.length - 16 + i] = 0;
    }
    last.fill(0);
  }

  compute(message: Bytes, out: Bytes): void {
    // One-shot: no sink and no copy of the tail (each costs about a microsecond on short input).
    const cipher = this.cipher();
    const length = message.length;
    const lastStart = length === 0 ? 0 : (Math.ceil(length / 16) - 1) * 16;
    if (lastStart > 0) cipher.update(message.subarray(0, lastStart));
    this.finish(cipher, message, lastStart, length - lastStart, out);
  }

  /** A stream that moves to node:crypto's AES-CBC once its input reaches the crossover. */
  start(startOwn: () => MacKernelState): MacKernelState {
    return hybridState(this.family, () => this.sink(), startOwn);
  }

  /** Streaming on the native path: up to 16 bytes are held back, the last block being apart. */
  private sink(): NativeSink {
    const cipher = this.cipher();
    const tail = new Uint8Array(16);
    let tailLength = 0;
    return {
      update: (chunk) => {
        let pos = 0;
        while (pos < chunk.length) {
          if (tailLength === 16) {
            cipher.update(tail);
            tailLength = 0;
          }
          if (tailLength === 0 && chunk.length - pos > 16) {
            // Whole blocks straight through, keeping back the chunk's last (partial or full) block.
            const keep = (chunk.length - pos) % 16 || 16;
            const end = chunk.length - keep;
            cipher.update(chunk.subarray(pos, end));
            pos = end;
          }
          while (tailLength < 16 && pos < chunk.length) tail[tailLength++] = chunk[pos++];
        }
      },
      finish: (out) => {
        this.finish(cipher, tail, 0, tailLength, out);
        tail.fill(0);
      },
    };
  }

  wipe(): void {
    this.nativeKey.wipe();
    this.subkeys?.fill(0);
  }
}

redactKeyMaterial(NativeCmac);
