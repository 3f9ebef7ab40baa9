/**
 * HMAC (RFC 2104, FIPS 198-1) over SHA-1, SHA-2 and SHA-3 (whose HMAC block is the sponge rate,
 * FIPS 202 A.2 note).
 *
 * HMAC(K, m) = H((K0 ^ opad) ‖ H((K0 ^ ipad) ‖ m)), K0 the key hashed if longer than a block and
 * zero-padded to one. The two padded-key blocks depend only on the key, so their compressions are
 * done once here, and each tag starts from copies of those states: a tag on a short message costs
 * the message's compressions plus one, never the two pad compressions again.
 */
import { type Bytes, copyBytes } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import {
  DEFAULT_SAFE_MIN_TAG_LENGTH,
  type MacAlgorithm,
  type MacKernel,
  type MacKernelState,
  type MacName,
  type MacOptions,
  PreparedMac,
} from "../core/mac.js";
import { redactKeyMaterial } from "../core/redact.js";
import { copyOut, hybridState } from "../engine/hybrid.js";
import {
  FORCED_BACKEND,
  LazyNativeKey,
  type NativeCrypto,
  nativeCrypto,
} from "../engine/native.js";
import { hmacFamily, type NativeFamily, useNative } from "../engine/select.js";
import { type WasmHmac, wasmHmac } from "../engine/wasm.js";
import type { HashFunction, HashState } from "../hash/hash.js";
import { HASH_FUNCTIONS, type HashName } from "../hash/index.js";
import type { MerkleDamgard } from "../hash/md.js";

const IPAD = 0x36;

/** Which WebAssembly HMAC kernel serves a hash: 1 SHA-1, 2 SHA-256/224, 5 SHA-512 family. */
const WASM_KIND: Record<string, number> = {
  sha1: 1,
  sha224: 2,
  sha256: 2,
  sha384: 5,
  sha512: 5,
  "sha512-224": 5,
  "sha512-256": 5,
};
const OPAD = 0x5c;

/** HMAC under one prepared key, without policy (HKDF and the protocol KDFs build on it). */
export class HmacKernel implements MacKernel {
  readonly outputLength: number;
  private readonly hash: HashFunction;
  /** node:crypto's copy of the key, for long inputs (see engine/select.ts); absent in browsers. */
  private readonly nativeKey: LazyNativeKey;
  private readonly family: NativeFamily;
  /** The WebAssembly kernels and this key's slot in their memory, for inputs below the crossover. */
  private wasm: WasmHmac | undefined;
  private slot = 0;
  /** Set when the module had no free slot (MAX_LIVE_SLOTS): the TypeScript kernel serves. */
  private slotless = false;
  private readonly wasmKind: number;
  /** The hash states after the pad blocks, made on first need (see `prepared`). */
  private states: PreparedStates | undefined;
  /** The padded-key blocks and the inner digest's buffer, made on first need (see `pads`). */
  private padded: PaddedKey | undefined;
  /** The key until the pad blocks are made from it. */
  private key: Uint8Array | undefined;
  /** Messages tagged so far (the first one takes the cheapest path to a single tag). */
  private uses = 0;

  constructor(hash: HashFunction, key: Bytes) {
    this.hash = hash;
    this.outputLength = hash.outputLength;
    this.family = hmacFamily(hash.name);
    // node:crypto refuses empty keys; HMAC's zero padding makes them equal to a zero block anyway.
    this.nativeKey = new LazyNativeKey(key, hash.name);
    // Nothing is derived yet: a one-shot `mac(…).tag(…)` on node:crypto never needs it.
    this.key = copyBytes(key);
    this.wasmKind = WASM_KIND[hash.name] ?? 0;
  }

  /**
   * The WebAssembly kernels with this key loaded, from the second short message on: a one-shot
   * `mac(…).tag(…)` is cheaper without setting up a key slot (on Node it goes to node:crypto).
   */
  private wasmReady(): WasmHmac | undefined {
    if (this.wasm !== undefined || this.wasmKind === 0 || this.slotless) return this.wasm;
    if (this.uses <= 1 && FORCED_BACKEND !== "wasm") return undefined;
    const wasm = wasmHmac();
    if (wasm === undefined) return undefined;
    const slot = wasm.allocate(this);
    if (slot === 0) {
      this.slotless = true;
      return undefined;
    }
    this.loadSlot(wasm, slot);
    this.wasm = wasm;
    return wasm;
  }

  /**
   * The inner and outer hash states after K⊕ipad and K⊕opad (RFC 2104 section 2), absorbed on
   * first need: a one-shot tag on node:crypto never pays for them.
   */
  /**
   * K⊕ipad, K⊕opad (with room for the inner digest after it) and the inner digest's buffer, in
   * one backing store: typed arrays over 64 bytes live off the V8 heap, and each costs about as
   * much to allocate as a short tag takes to compute. The key copy is wiped once they exist.
   */
  private pads(): PaddedKey {
    if (this.padded === undefined) {
      const blockLength = this.hash.blockLength;
      const digestLength = this.outputLength;
      const bytes = new Uint8Array(2 * blockLength + 2 * digestLength);
      const inner = bytes.subarray(0, blockLength);
      const outer = bytes.subarray(blockLength, 2 * blockLength + digestLength);
      const innerDigest = bytes.subarray(2 * blockLength + digestLength);
      // RFC 2104 section 2: keys longer than the block are hashed first (here into innerDigest,
      // wiped below); shorter ones are padded with zeros.
      const key = this.key as Uint8Array;
      let k = key;
      if (key.length > blockLength) {
        this.hash.create().update(key).digestInto(innerDigest);
        k = innerDigest;
      }
      for (let i = 0; i < blockLength; i++) {
        const byte = i < k.length ? k[i] : 0;
        inner[i] = byte ^ IPAD;
        outer[i] = byte ^ OPAD;
      }
      innerDigest.fill(0);
      key.fill(0);
      this.key = undefined;
      this.padded = { inner, outer, innerDigest };
    }
    return this.padded;
  }

  private prepared(): PreparedStates {
    if (this.states === undefined) {
      const { hash } = this;
      const padBlocks = this.pads();
      const inner = hash.create().update(padBlocks.inner);
      const outer = hash.create().update(padBlocks.outer.subarray(0, hash.blockLength));
      const work = hash.create();
      // The shared message schedule last held the padded key: clear it.
      work.wipe();
      this.states = { inner, outer, work };
    }
    return this.states;
  }

  /**
   * Copies the two prepared chaining values into a key slot: 32-bit words for SHA-1/SHA-256,
   * 64-bit little-endian lanes for SHA-512 (keyed's words are high, low pairs). WebAssembly memory
   * is little-endian, as are the platforms Node and browsers run on.
   */
  private loadSlot(wasm: WasmHmac, slot: number): void {
    this.slot = slot;
    const words = new Int32Array(wasm.bytes().buffer, this.slot, 32);
    const states = this.prepared();
    const inner = (states.inner as MerkleDamgard).chainingValue();
    const outer = (states.outer as MerkleDamgard).chainingValue();
    if (this.wasmKind === 5) {
      for (let i = 0; i < 16; i += 2) {
        words[i] = inner[i + 1];
        words[i + 1] = inner[i];
        words[16 + i] = outer[i + 1];
        words[16 + i + 1] = outer[i];
      }
    } else {
      for (let i = 0; i < inner.length; i++) {
        words[i] = inner[i];
        words[8 + i] = outer[i];
      }
    }
  }

  compute(message: Bytes, out: Bytes): void {
    // A key's first message goes to node:crypto whatever its length: for a one-shot
    // `mac(…).tag(…)` that is cheaper than absorbing the pad blocks here first.
    const first = this.uses++ === 0;
    if (this.nativeKey.available && (first || useNative(this.family, message.length))) {
      if (!first && nativeCrypto?.hash !== undefined && message.length <= ONE_SHOT_HASH_LIMIT) {
        this.nativeTag(this.pads(), message, out);
        return;
      }
      const native = nativeCrypto as NativeCrypto;
      copyOut(
        native.createHmac(this.hash.name, this.nativeKey.get()).update(message).digest(),
        out,
        this.outputLength,
      );
      return;
    }
    const wasm = this.wasmReady();
    if (wasm !== undefined && message.length <= wasm.msgCapacity) {
      const memory = wasm.bytes();
      memory.set(message, wasm.msg);
      const exports = wasm.exports;
      if (this.wasmKind === 1) exports.hmac_sha1(this.slot, message.length);
      else if (this.wasmKind === 2)
        exports.hmac_sha256(this.slot, message.length, this.outputLength);
      else exports.hmac_sha512(this.slot, message.length, this.outputLength);
      wasm.takeOut(out, this.outputLength, message.length);
      return;
    }
    const states = this.prepared();
    const work = states.inner.copyTo(states.work);
    work.update(message);
    this.finishInto(work, out);
  }

  /**
   * HMAC as two calls of node:crypto's one-shot hash over (K⊕ipad ‖ m) and (K⊕opad ‖ inner),
   * RFC 2104 section 2 read literally: no Hmac object and no KeyObject lookup per call (measured
   * 0–25% faster than createHmac up to tens of KiB). The message is copied after the pad block in
   * a shared scratch buffer, and the inner digest after the opad block; both are wiped after.
   */
  private nativeTag(blocks: NativePadBlocks, message: Bytes, out: Bytes): void {
    const hashOnce = (nativeCrypto as Required<NativeCrypto>).hash;
    const blockLength = this.hash.blockLength;
    const used = blockLength + message.length;
    if (scratch.length < used) scratch = new Uint8Array(Math.max(used, 2 * scratch.length));
    scratch.set(blocks.inner);
    scratch.set(message, blockLength);
    const inner = hashOnce(this.hash.name, scratch.subarray(0, used), "buffer");
    scratch.fill(0, 0, used);
    const outer = blocks.outer;
    outer.set(inner, blockLength);
    inner.fill(0);
    const tag = hashOnce(this.hash.name, outer, "buffer");
    outer.fill(0, blockLength);
    copyOut(tag, out, this.outputLength);
  }

  start(): MacKernelState {
    const nativeKey = this.nativeKey;
    const startNative = !nativeKey.available
      ? undefined
      : () => {
          const h = (nativeCrypto as NativeCrypto).createHmac(this.hash.name, nativeKey.get());
          return {
            update: (chunk: Bytes) => {
              h.update(chunk);
            },
            finish: (out: Bytes) => copyOut(h.digest(), out, this.outputLength),
          };
        };
    return hybridState(this.family, startNative, () => this.startJs());
  }

  private startJs(): MacKernelState {
    const state = this.prepared().inner.copyTo(this.hash.create());
    return {
      update: (chunk) => {
        state.update(chunk);
      },
      finish: (out) => this.finishInto(state, out),
      wipe: () => state.wipe(),
    };
  }

  /** Completes the inner hash held in `work` and runs the outer one into `out`. */
  private finishInto(work: HashState, out: Bytes): void {
    const innerDigest = this.pads().innerDigest;
    work.digestInto(innerDigest);
    (this.states as PreparedStates).outer.copyTo(work).update(innerDigest).digestInto(out);
    innerDigest.fill(0);
  }

  wipe(): void {
    this.nativeKey.wipe();
    if (this.wasm !== undefined) this.wasm.release(this.slot, this);
    this.wasm = undefined;
    this.states?.inner.wipe();
    this.states?.outer.wipe();
    this.states?.work.wipe();
    this.key?.fill(0);
    this.key = undefined;
    this.padded?.inner.fill(0);
    this.padded?.outer.fill(0);
    this.padded?.innerDigest.fill(0);
  }
}

redactKeyMaterial(HmacKernel);

interface PaddedKey extends NativePadBlocks {
  innerDigest: Uint8Array;
}

interface PreparedStates {
  inner: HashState;
  outer: HashState;
  work: HashState;
}

/**
 * K⊕ipad, and K⊕opad with room for the inner digest after it: the two inputs of nativeTag's
 * hashes, kept whole so that no subarray is made per call for them.
 */
interface NativePadBlocks {
  inner: Uint8Array;
  outer: Uint8Array;
}

/** Up to this length, node:crypto's HMAC runs as two one-shot hashes (see nativeTag). */
const ONE_SHOT_HASH_LIMIT = 65536;
/** The pad block and message for nativeTag; grown on demand, wiped after every use. */
let scratch = new Uint8Array(0);

// --- registry entries -----------------------------------------------------------------------------

/** Hashes HMAC is offered over, with the names the registry gives them. */
export const HMAC_HASHES = {
  "hmac-sha1": "sha1",
  "hmac-sha224": "sha224",
  "hmac-sha256": "sha256",
  "hmac-sha384": "sha384",
  "hmac-sha512": "sha512",
  "hmac-sha512-224": "sha512-224",
  "hmac-sha512-256": "sha512-256",
  "hmac-sha3-224": "sha3-224",
  "hmac-sha3-256": "sha3-256",
  "hmac-sha3-384": "sha3-384",
  "hmac-sha3-512": "sha3-512",
} as const satisfies Partial<Record<MacName, HashName>>;

export type HmacName = keyof typeof HMAC_HASHES;
/** The hash names `hmac(hash, key)` takes: "sha1", "sha256", "sha3-256", ... (FIPS 180-4, FIPS 202). */
export type HmacHash = (typeof HMAC_HASHES)[HmacName];

function hmacAlgorithm(name: HmacName): MacAlgorithm {
  const hash = HASH_FUNCTIONS[HMAC_HASHES[name]];
  return {
    name,
    key: { kind: "variable" },
    tag: {
      full: hash.outputLength,
      safeMinimum: DEFAULT_SAFE_MIN_TAG_LENGTH,
      maximum: hash.outputLength,
      basis: "RFC 2104 section 5: at least 80 bits",
    },
    createKernel: (key) => new HmacKernel(hash, key),
  };
}

export const HMAC_ALGORITHMS: Record<HmacName, MacAlgorithm> = Object.fromEntries(
  (Object.keys(HMAC_HASHES) as HmacName[]).map((name) => [name, hmacAlgorithm(name)]),
) as Record<HmacName, MacAlgorithm>;

/** An HMAC prepared key: `hmac("sha256", key)` is `mac("hmac-sha256", key)`. */
export function hmac(hash: HmacHash, key: Bytes, options?: MacOptions): PreparedMac {
  const algorithm = HMAC_ALGORITHMS[`hmac-${hash}` as HmacName];
  if (algorithm === undefined) throw unknownHash(hash);
  return new PreparedMac(algorithm, key, options);
}

function unknownHash(hash: unknown): KeyedError {
  return new KeyedError(
    "UNKNOWN_ALGORITHM",
    `hmac takes one of ${Object.values(HMAC_HASHES).join(", ")}; got ${String(hash)}.`,
  );
}
