/**
 * CMAC on node:crypto (engine/native.ts) for long messages (engine/select.ts): SP 800-38B 6.2 on
 * AES-CBC with a zero IV, all blocks but the last as they are, the last ⊕ K1 (complete) or padded
 * ⊕ K2 (partial); the tag is the final ciphertext block. One-shot tags share one CBC context per
 * key (see `compute`). Reached through
 * engine/native-families.ts, so a browser bundle, where node:crypto never exists, carries none of
 * it. The subkeys come from keyed's own kernel (mac/cmac.ts), asked once, on first need.
 */
import { type Bytes, setBytes } from "../core/bytes.js";
import type { MacKernelState } from "../core/mac.js";
import { redactKeyMaterial } from "../core/redact.js";
import { hybridState, type NativeSink } from "./hybrid.js";
import {
  aesName,
  LazyNativeKey,
  type NativeCipher,
  type NativeCrypto,
  nativeCrypto,
  nativeHasCipher,
  takeNativeOutput,
  updateDiscarding,
} from "./native.js";
import { cmacFamily, type NativeFamily, useNative } from "./select.js";

const ZERO_IV = new Uint8Array(16);
/**
 * Messages up to this many bytes go to node:crypto in one call, joined with their masked last
 * block in `joinScratch`; longer ones in three calls (first block, middle, last), where a copy
 * would cost more than two calls into node:crypto (about a microsecond each).
 */
const JOIN_LIMIT = 32 * 1024;
/** The joined message of `compute`, shared by every key (grown on demand, wiped after use). */
let joinScratch = new Uint8Array(0);

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
  /**
   * The key's AES-CBC context for one-shot tags, kept between messages, and the last ciphertext
   * block it produced (the previous tag; zero for a fresh context). CBC chains a call's first
   * block with that block, so XORing it into a message's first block gives E(M1 ⊕ 0): the CBC
   * with a zero IV of SP 800-38B 6.2, in one call into node:crypto instead of createCipheriv,
   * update, update and final. Undefined while a call uses it, so a call that throws leaves none.
   */
  private chained: NativeCipher | undefined;
  private readonly chain = new Uint8Array(16);

  private constructor(key: Bytes, source: CmacSubkeySource) {
    this.cipherName = aesName("cbc", key.length);
    this.family = cmacFamily(key.length);
    this.nativeKey = new LazyNativeKey(key);
    this.source = source;
  }

  /** The native backend for this AES key, or undefined where node:crypto is absent. */
  static for(key: Bytes, source: CmacSubkeySource): NativeCmac | undefined {
    const native = new NativeCmac(key, source);
    return native.nativeKey.available && nativeHasCipher(native.cipherName, key.length)
      ? native
      : undefined;
  }

  /** True when node:crypto should tag a message of `length` bytes (the measured crossover). */
  serves(length: number): boolean {
    return useNative(this.family, length);
  }

  private cipher(): NativeCipher {
    const cipher = this.nativeKey.use((key) =>
      (nativeCrypto as NativeCrypto).createCipheriv(this.cipherName, key, ZERO_IV),
    );
    return cipher.setAutoPadding(false);
  }

  /** K1 ‖ K2, asked of keyed's own kernel on first need. */
  private subkeyPair(): Uint8Array {
    if (this.subkeys === undefined) {
      this.subkeys = new Uint8Array(32);
      this.source.subkeys(this.subkeys);
    }
    return this.subkeys;
  }

  /**
   * to[at .. at + 16) = the last block, data[offset .. offset + count), padded (10*, when
   * partial) and ⊕ K1 (complete) or K2 (partial): SP 800-38B 6.2 steps 3-4.
   */
  private maskLast(data: Uint8Array, offset: number, count: number, to: Uint8Array, at: number) {
    const subkeys = this.subkeyPair();
    const subkey = count === 16 ? 0 : 16;
    for (let i = 0; i < 16; i++) {
      const m = i < count ? data[offset + i] : i === count ? 0x80 : 0;
      to[at + i] = m ^ subkeys[subkey + i];
    }
  }

  /** Encrypts the last block, data[offset .. offset + count), padded and masked; the tag to `out`. */
  private finish(
    cipher: NativeCipher,
    data: Uint8Array,
    offset: number,
    count: number,
    out: Bytes,
  ): void {
    const last = this.last;
    this.maskLast(data, offset, count, last, 0);
    const final = cipher.update(last);
    cipher.final();
    takeTag(final, out);
    last.fill(0);
  }

  compute(message: Bytes, out: Bytes): void {
    const length = message.length;
    const lastStart = length === 0 ? 0 : (Math.ceil(length / 16) - 1) * 16;
    const count = length - lastStart;
    const total = lastStart + 16;
    const chain = this.chain;
    let cipher = this.chained;
    this.chained = undefined;
    if (cipher === undefined) {
      cipher = this.cipher();
      chain.fill(0);
    }
    let final: Uint8Array;
    if (total <= JOIN_LIMIT) {
      if (joinScratch.length < total) joinScratch = new Uint8Array(Math.max(total, 1024));
      const joined = joinScratch;
      setBytes(joined, message); // the last block is overwritten next, masked
      this.maskLast(message, lastStart, count, joined, lastStart);
      for (let i = 0; i < 16; i++) joined[i] ^= chain[i];
      try {
        final = cipher.update(joined.subarray(0, total));
      } finally {
        // All of it: the masked last block holds K1 or K2 ⊕ known bytes, the first the chain.
        joined.fill(0, 0, total);
      }
    } else {
      const block = this.last;
      try {
        for (let i = 0; i < 16; i++) block[i] = message[i] ^ chain[i];
        cipher.update(block);
        updateDiscarding(cipher, message.subarray(16, lastStart));
        this.maskLast(message, lastStart, count, block, 0);
        final = cipher.update(block);
      } finally {
        block.fill(0);
      }
    }
    // The tag is the last ciphertext block: the chain for the next message.
    const end = final.length - 16;
    for (let i = 0; i < 16; i++) chain[i] = final[end + i];
    takeTag(final, out);
    this.chained = cipher;
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
            updateDiscarding(cipher, chunk.subarray(pos, end));
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
    this.chained = undefined;
    this.chain.fill(0);
  }
}

/** The tag, the last 16 bytes of `final`, to out[0 .. 16), zeroed in `final`. */
function takeTag(final: Uint8Array, out: Bytes): void {
  takeNativeOutput(final, out, 16, "CMAC's last block", Math.max(0, final.length - 16));
}

redactKeyMaterial(NativeCmac);
