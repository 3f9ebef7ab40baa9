/**
 * HMAC on node:crypto (engine/native.ts), for long inputs (engine/select.ts) and for a key's first
 * message whatever its length: for a one-shot `mac(…).tag(…)` that is cheaper than absorbing the
 * pad blocks in keyed's own kernels first. Reached through engine/native-families.ts, so a browser
 * bundle, where node:crypto never exists, carries none of it.
 */
import { type Bytes, setBytes } from "../core/bytes.js";
import type { MacKernelState } from "../core/mac.js";
import { redactKeyMaterial } from "../core/redact.js";
import { hybridState, type NativeSink } from "./hybrid.js";
import {
  checkNativeOutput,
  LazyNativeKey,
  type NativeCrypto,
  type NativeHash,
  nativeCrypto,
  takeNativeOutput,
} from "./native.js";
import { hmacFamily, type NativeFamily, useNative } from "./select.js";

/** What NativeHmac needs of the key's shared material (mac/hmac.ts's HmacKey). */
export interface NativeHmacSource {
  readonly hash: {
    readonly name: string;
    readonly blockLength: number;
    readonly outputLength: number;
  };
  /** K⊕ipad (RFC 2104 section 2). */
  pads(): { readonly inner: Uint8Array };
  wipe(): void;
}

/** Up to this length, HMAC's inner hash is node:crypto's one-shot hash (see NativeHmac.startScratch). */
const ONE_SHOT_HASH_LIMIT = 65536;
/** What a short digest from createHmac is called in the refusal (native.ts checkNativeOutput). */
const DIGEST = "createHmac's digest";
/** The pad block and message for the one-shot hash; grown on demand, wiped after every use. */
let scratch = new Uint8Array(0);

/**
 * Where the outer hash of HMAC alone, H(K⊕opad ‖ innerDigest), runs: keyed's own kernel of the
 * key (mac/hmac.ts's HmacCore), from its prepared outer state — one compression, where
 * node:crypto's one-shot hash would cost a call.
 */
export interface HmacOuter {
  outer(innerDigest: Bytes, out: Bytes): void;
}

export class NativeHmac {
  private readonly key: NativeHmacSource;
  private readonly outer: HmacOuter;
  private readonly name: string;
  private readonly outputLength: number;
  private readonly family: NativeFamily;
  private readonly nativeKey: LazyNativeKey;

  private constructor(key: NativeHmacSource, raw: Bytes, outer: HmacOuter) {
    this.key = key;
    this.outer = outer;
    this.name = key.hash.name;
    this.outputLength = key.hash.outputLength;
    this.family = hmacFamily(key.hash.name);
    // Only where node:crypto has this hash (workerd's lacks SHA-512/224 and SHA-3).
    this.nativeKey = new LazyNativeKey(raw, key.hash.name);
  }

  /** The native backend for this key, or undefined (no node:crypto, or an empty key it refuses). */
  static for(key: NativeHmacSource, raw: Bytes, outer: HmacOuter): NativeHmac | undefined {
    const native = new NativeHmac(key, raw, outer);
    return native.nativeKey.available ? native : undefined;
  }

  /** True when node:crypto should tag a message of `length` bytes (the measured crossover). */
  serves(length: number): boolean {
    return useNative(this.family, length);
  }

  compute(message: Bytes, out: Bytes, first: boolean): void {
    if (this.hashesOnce(first, message.length)) {
      const at = this.startScratch(message.length);
      setBytes(scratch, message, at);
      this.hashScratch(at + message.length, out);
    } else {
      takeNativeOutput(this.hmac().update(message).digest(), out, this.outputLength, DIGEST);
    }
  }

  /** HMAC over `parts` in order (`total` bytes in all), as if concatenated, without joining them. */
  computeParts(parts: readonly Bytes[], total: number, out: Bytes, first: boolean): void {
    if (this.hashesOnce(first, total)) {
      let at = this.startScratch(total);
      for (const part of parts) {
        setBytes(scratch, part, at);
        at += part.length;
      }
      this.hashScratch(at, out);
    } else {
      const h = this.hmac();
      for (const part of parts) h.update(part);
      takeNativeOutput(h.digest(), out, this.outputLength, DIGEST);
    }
  }

  /**
   * Whether a message of `length` bytes takes the one-shot inner hash: not for the key's first
   * (its pad blocks do not exist yet, and one createHmac costs less than making them), nor past
   * ONE_SHOT_HASH_LIMIT, nor where node:crypto has no one-shot hash (Node < 20.12).
   */
  private hashesOnce(first: boolean, length: number): boolean {
    return !first && nativeCrypto?.hash !== undefined && length <= ONE_SHOT_HASH_LIMIT;
  }

  /** node:crypto's Hmac object under this key (the raw key on first use, then a KeyObject). */
  private hmac(): NativeHash {
    return this.nativeKey.use((key) => (nativeCrypto as NativeCrypto).createHmac(this.name, key));
  }

  /**
   * Up to ONE_SHOT_HASH_LIMIT, the inner hash of HMAC is one call of node:crypto's one-shot hash
   * over K⊕ipad ‖ m (RFC 2104 section 2 read literally: no Hmac object, no KeyObject lookup), and
   * the outer hash, one compression from the key's prepared outer state, runs on keyed's own
   * kernel (`outer`): a call into node:crypto costs about as much as three SHA-256 compressions in
   * WebAssembly, so createHmac's three calls (create, update, digest), or a second one-shot hash,
   * cost more than this. This writes K⊕ipad to the shared scratch, with room for `length` message
   * bytes after it, and returns where the message goes; hashScratch hashes and wipes.
   */
  private startScratch(length: number): number {
    const blockLength = this.key.hash.blockLength;
    const used = blockLength + length;
    if (scratch.length < used) scratch = new Uint8Array(Math.max(used, 2 * scratch.length));
    setBytes(scratch, this.key.pads().inner);
    return blockLength;
  }

  /** The inner hash over scratch[0..used) on node:crypto, the outer on keyed's kernel; wipes both. */
  private hashScratch(used: number, out: Bytes): void {
    const hashOnce = (nativeCrypto as Required<NativeCrypto>).hash;
    const inner = hashOnce(this.name, scratch.subarray(0, used), "buffer");
    scratch.fill(0, 0, used);
    checkNativeOutput(inner, this.outputLength, "HMAC's inner hash");
    this.outer.outer(inner, out);
    inner.fill(0);
  }

  /** messages[i] for each i in `indices`, tag i to out[i × outputLength ..). */
  computeMany(messages: readonly Bytes[], indices: readonly number[], out: Bytes): void {
    const length = this.outputLength;
    const tag = new Uint8Array(length);
    for (const i of indices) {
      this.compute(messages[i], tag, false);
      for (let j = 0; j < length; j++) out[i * length + j] = tag[j];
    }
    tag.fill(0);
  }

  /** A stream that moves to node:crypto's Hmac object once its input reaches the crossover. */
  start(startOwn: () => MacKernelState): MacKernelState {
    return hybridState(this.family, () => this.sink(), startOwn);
  }

  private sink(): NativeSink {
    const h = this.hmac();
    return {
      update: (chunk: Bytes) => {
        h.update(chunk);
      },
      finish: (out: Bytes) => takeNativeOutput(h.digest(), out, this.outputLength, DIGEST),
    };
  }

  wipe(): void {
    this.nativeKey.wipe();
    this.key.wipe();
  }
}

redactKeyMaterial(NativeHmac);
