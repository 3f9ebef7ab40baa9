/**
 * The HMAC WebAssembly kernels (src/engine/wasm/assembly/hmac.ts): HMAC-SHA-1, -SHA-256/224 and
 * -SHA-512/384/512-t in one call from a key's prepared inner and outer chaining values, and how a
 * key gets into them.
 *
 * A key's chaining values go into the module's scratch slot for its first message (so a one-shot
 * tag costs no slot of its own, nor a FinalizationRegistry entry), and into a slot of its own
 * from its second message on; when every slot is taken (MAX_LIVE_SLOTS) the scratch slot serves
 * each call. The scratch slot is zeroed after every use.
 */
import { batchIndex, batchLength } from "../core/mac.js";
import { redactKeyMaterial } from "../core/redact.js";
import { WASM_BASE64 as HMAC_WASM } from "./wasm/generated/hmac.js";
import {
  copyIn,
  copyOutOf,
  type KernelExports,
  kernelLoader,
  moveWordsOut,
  type WasmKernels,
  wrappedLoader,
  zeroIn,
} from "./wasm.js";

export interface HmacExports extends KernelExports {
  QUEUE: WebAssembly.Global;
  QUEUE_LENGTH: WebAssembly.Global;
  hmac_key(slot: number, kind: number): void;
  hmac_outer(slot: number, kind: number, digestLength: number): void;
  hmac_queue(
    kind: number,
    slot: number,
    first: number,
    count: number,
    digestLength: number,
    tags: number,
  ): void;
  hmac_sha1_x4(slot: number, first: number, size: number, blocks: number, tags: number): void;
  hmac_sha256_x4(
    slot: number,
    first: number,
    size: number,
    blocks: number,
    digestLength: number,
    tags: number,
  ): void;
  hmac_sha1(slot: number, length: number): void;
  hmac_sha256(slot: number, length: number, digestLength: number): void;
  hmac_sha512(slot: number, length: number, digestLength: number): void;
  /** The SHA-256 lanes' kept W + K of a padding-only last block (64 u32; public), for the tests. */
  PAD_WK: WebAssembly.Global;
}

/** Bytes per HMAC key slot: the inner and outer chaining values of SHA-512 (2 × 64). */
export const HMAC_SLOT_SIZE = 128;

export type WasmHmacKernels = WasmKernels<HmacExports>;

/** The HMAC module, or undefined where WebAssembly is unavailable or another backend is forced. */
export const wasmHmac = kernelLoader<HmacExports>(HMAC_WASM, HMAC_SLOT_SIZE);

/** The compression function a hash runs on in the module. */
export type HmacCompression = "sha1" | "sha256" | "sha512";

const COMPRESSION: Record<string, HmacCompression> = {
  sha1: "sha1",
  sha224: "sha256",
  sha256: "sha256",
  sha384: "sha512",
  sha512: "sha512",
  "sha512-224": "sha512",
  "sha512-256": "sha512",
};

/** The module's compression function for a hash name, or undefined (SHA-3 has none here). */
export function hmacCompression(hash: string): HmacCompression | undefined {
  return COMPRESSION[hash];
}

/** The loaded module and its scratch slot. */
export class WasmHmac {
  readonly kernels: WasmHmacKernels;
  readonly exports: HmacExports;
  readonly msgCapacity: number;
  /** The slot first messages and slotless keys borrow; zero between calls. */
  readonly scratch: number;
  /** The batch kernels' queue: per message, its offset in MSG and its length (u32 each). */
  readonly queue: number;
  /** Entries in the queue. */
  readonly queueLength: number;

  constructor(kernels: WasmHmacKernels) {
    this.kernels = kernels;
    this.exports = kernels.exports;
    this.msgCapacity = kernels.msgCapacity;
    this.scratch = kernels.allocate(this);
    this.queue = kernels.exports.QUEUE.value;
    this.queueLength = kernels.exports.QUEUE_LENGTH.value;
  }
}

redactKeyMaterial(WasmHmac);

/** The HMAC module with its scratch slot, loaded on first use; undefined where it cannot serve. */
export const loadWasmHmac = wrappedLoader(wasmHmac, (kernels) => new WasmHmac(kernels));

/**
 * Where a key's padded blocks come from: K⊕ipad ‖ K⊕opad, the two blocks contiguous at the start
 * of `pads()` (made on first need).
 */
export interface HmacPadSource {
  pads(): { readonly both: Uint8Array };
}

/** The module's kind number for each compression function (hmac_key's argument). */
const KIND: Record<HmacCompression, number> = { sha1: 1, sha256: 2, sha512: 5 };

/** Messages per call of the SIMD lanes (one per i32x4 lane). */
const LANES = 4;

/**
 * The batch kernels' shape per compression function: block and length-field sizes (FIPS 180-4
 * 5.1), and whether the module has SIMD lanes for it (four messages per call). SHA-512 has none:
 * its one-message kernel took 0.75-0.98x the time per message of the two i64x2 lanes it replaced,
 * even for one-block messages (assembly/hmac.ts says why), so its batches go through hmac_queue.
 */
const BATCH: Record<HmacCompression, { lanes: boolean; block: number; lengthField: number }> = {
  sha1: { lanes: true, block: 64, lengthField: 8 },
  sha256: { lanes: true, block: 64, lengthField: 8 },
  sha512: { lanes: false, block: 128, lengthField: 16 },
};

/** Blocks of a padded message of `length` bytes (the prefix block excluded). */
function paddedBlocks(length: number, block: number, lengthField: number): number {
  return Math.floor((length + lengthField) / block) + 1;
}

/** One HMAC key in the module. */
export class WasmHmacKey {
  private readonly wasm: WasmHmac;
  private readonly compression: HmacCompression;
  private readonly digestLength: number;
  /** Gives the key's padded blocks when a slot needs them. */
  private readonly source: HmacPadSource;
  /**
   * The hash's initial value as keyed's TypeScript hashes hold it: 32-bit words for SHA-1 (five)
   * and SHA-256, (high, low) pairs for SHA-512.
   */
  private readonly iv: Int32Array;
  /** The key's own slot, from its second message on (0: none). */
  private slot = 0;

  constructor(
    wasm: WasmHmac,
    compression: HmacCompression,
    digestLength: number,
    iv: Int32Array,
    source: HmacPadSource,
  ) {
    this.wasm = wasm;
    this.compression = compression;
    this.digestLength = digestLength;
    this.iv = iv;
    this.source = source;
  }

  /** Messages up to this length go through MSG in one call. */
  get msgCapacity(): number {
    return this.wasm.msgCapacity;
  }

  /**
   * Sets `slot` up for the key: the initial value into both halves (64-bit little-endian lanes
   * for SHA-512, from keyed's high, low pairs; WebAssembly memory is little-endian, as are the
   * platforms Node and browsers run on), the padded blocks into MSG, and hmac_key absorbs them.
   */
  private load(slot: number): void {
    const kernels = this.wasm.kernels;
    const words = kernels.words();
    const at = slot >> 2;
    const iv = this.iv;
    const half = this.compression === "sha512" ? 16 : 8;
    if (this.compression === "sha512") {
      for (let i = 0; i < 16; i += 2) {
        words[at + i] = iv[i + 1];
        words[at + i + 1] = iv[i];
      }
    } else {
      for (let i = 0; i < iv.length; i++) words[at + i] = iv[i];
    }
    for (let i = 0; i < half; i++) words[at + half + i] = words[at + i];
    const pads = this.source.pads().both;
    copyIn(kernels.bytes(), kernels.msg, pads, 0, pads.length);
    this.wasm.exports.hmac_key(slot, KIND[this.compression]);
  }

  /**
   * The slot for this call: the key's own, or the scratch slot (loaded now) for a key's first
   * message (`first`) and when no slot is free.
   */
  private acquire(first: boolean): number {
    if (this.slot !== 0) return this.slot;
    const wasm = this.wasm;
    if (!first) {
      const slot = wasm.kernels.allocate(this);
      if (slot !== 0) {
        this.load(slot);
        this.slot = slot;
        return slot;
      }
    }
    this.load(wasm.scratch);
    return wasm.scratch;
  }

  /**
   * HMAC of `message` (at most msgCapacity bytes) into out[0..digestLength). `first`: the key's
   * first message, which may be its only one and so takes no slot of its own.
   */
  compute(message: Uint8Array, out: Uint8Array, first: boolean): void {
    const slot = this.acquire(first);
    this.computeAt(slot, message, out, 0);
    if (slot === this.wasm.scratch) this.clearScratch();
  }

  /**
   * The outer hash alone over an inner digest computed elsewhere (node:crypto's one-shot hash of
   * K⊕ipad ‖ m, engine/native-hmac.ts), from the key's prepared outer state: one compression,
   * into out[0..digestLength). Never a key's first message, so the key takes its own slot.
   */
  outer(innerDigest: Uint8Array, out: Uint8Array): void {
    const slot = this.acquire(false);
    const kernels = this.wasm.kernels;
    const length = this.digestLength;
    copyIn(kernels.bytes(), kernels.msg, innerDigest, 0, length);
    this.wasm.exports.hmac_outer(slot, KIND[this.compression], length);
    moveWordsOut(kernels.words(), kernels.out, out, 0, length);
    if (slot === this.wasm.scratch) this.clearScratch();
  }

  /** Zeroes the scratch slot after a message that used it. */
  private clearScratch(): void {
    const slot = this.wasm.scratch;
    this.wasm.kernels.words().fill(0, slot >> 2, (slot + HMAC_SLOT_SIZE) >> 2);
  }

  /**
   * HMAC of messages[i] for every i in `indices` (undefined: every message) into
   * out[i × digestLength ..), as many messages per call as MSG holds: each is copied to its own
   * padded region of MSG and listed in the module's queue, and the tags come back together from
   * behind the messages. For SHA-1 and SHA-256, messages with the same number of padded blocks
   * (sorted together when the batch mixes counts) go through the SIMD lanes, a set of lanes per
   * call (a short set repeats its last message in the spare lanes); the rest, and a group's last
   * message when it is alone, go through the one-message kernel, the whole run in one call, as does
   * every SHA-512 batch. A message too long to share MSG with its tag goes by itself.
   */
  computeMany(
    messages: readonly Uint8Array[],
    indices: readonly number[] | undefined,
    out: Uint8Array,
  ): void {
    const { block, lengthField, lanes } = BATCH[this.compression];
    const count = batchLength(messages, indices);
    // Each message's padded block count; sorted by it only for the lanes, when the batch mixes
    // counts, as keys blocks · span + position, span a power of two past the count (a
    // Float64Array sorts natively, and the keys stay exact: blocks < 2^11, positions < 2^32).
    const counts = new Int32Array(count);
    let mixed = false;
    for (let p = 0; p < count; p++) {
      counts[p] = paddedBlocks(messages[batchIndex(indices, p)].length, block, lengthField);
      if (counts[p] !== counts[0]) mixed = true;
    }
    let order = indices;
    if (mixed && lanes) {
      const span = 2 ** Math.ceil(Math.log2(count + 1));
      const keys = new Float64Array(count);
      for (let p = 0; p < count; p++) keys[p] = counts[p] * span + p;
      keys.sort();
      const sorted = new Array<number>(count);
      for (let p = 0; p < count; p++) {
        const at = keys[p] % span;
        sorted[p] = batchIndex(indices, at);
        keys[p] = counts[at];
      }
      order = sorted;
      for (let p = 0; p < count; p++) counts[p] = keys[p];
    }
    const slot = this.acquire(false);
    const wasm = this.wasm;
    const kernels = wasm.kernels;
    const memory = kernels.bytes();
    const words = kernels.words();
    const queue = wasm.queue >> 2;
    const end = kernels.msg + wasm.msgCapacity;
    const digestLength = this.digestLength;
    for (let p = 0; p < count; ) {
      // Fill MSG and the queue from position p on.
      const start = p;
      const head = batchIndex(order, p);
      let at = kernels.msg;
      let q = 0;
      let contiguous = true;
      while (p < count && q < wasm.queueLength) {
        const i = batchIndex(order, p);
        const message = messages[i];
        const length = message.length;
        const region = counts[p] * block;
        if (at + region + (q + 1) * digestLength > end) break;
        copyIn(memory, at, message, 0, length);
        words[queue + 2 * q] = at;
        words[queue + 2 * q + 1] = length;
        if (i !== head + q) contiguous = false;
        at += region;
        q++;
        p++;
      }
      if (q === 0) {
        this.computeAt(slot, messages[head], out, head);
        p++;
        continue;
      }
      try {
        this.runQueue(slot, counts, start, q, at);
        if (contiguous) {
          copyOutOf(memory, at, out, head * digestLength, q * digestLength);
        } else {
          for (let e = 0; e < q; e++) {
            const to = batchIndex(order, start + e) * digestLength;
            copyOutOf(memory, at + e * digestLength, out, to, digestLength);
          }
        }
      } finally {
        // The tags behind the messages (the kernels zeroed the messages themselves).
        zeroIn(memory, at, q * digestLength);
      }
    }
    if (slot === this.wasm.scratch) this.clearScratch();
  }

  /**
   * One message (at most msgCapacity bytes) through the one-message kernel under `slot`, its tag
   * to out[index × digestLength ..); MSG is zeroed behind it.
   */
  private computeAt(slot: number, message: Uint8Array, out: Uint8Array, index: number): void {
    const kernels = this.wasm.kernels;
    const memory = kernels.bytes();
    const msg = kernels.msg;
    const length = message.length;
    copyIn(memory, msg, message, 0, length);
    const exports = this.wasm.exports;
    if (this.compression === "sha256") exports.hmac_sha256(slot, length, this.digestLength);
    else if (this.compression === "sha512") exports.hmac_sha512(slot, length, this.digestLength);
    else exports.hmac_sha1(slot, length);
    moveWordsOut(kernels.words(), kernels.out, out, index * this.digestLength, this.digestLength);
    zeroIn(memory, msg, length);
  }

  /**
   * The module's queue entries [0, q) (counts[start ..) their padded blocks) under `slot`, tags
   * to `tags`: with lanes, each run of equal counts through them, four messages per call (a last
   * short set of two or three repeats its last message in the spare lanes); the rest, and a run's
   * single last message, through the one-message kernel, a run per call.
   */
  private runQueue(slot: number, counts: Int32Array, start: number, q: number, tags: number): void {
    const exports = this.wasm.exports;
    const kind = KIND[this.compression];
    const digestLength = this.digestLength;
    let serial = 0; // entries [serial, g) wait for the one-message kernel
    if (BATCH[this.compression].lanes) {
      for (let g = 0; g < q; ) {
        const blocks = counts[start + g];
        let e = g + 1;
        while (e < q && counts[start + e] === blocks) e++;
        const lanesEnd = (e - g) % LANES === 1 ? e - 1 : e;
        if (lanesEnd > g) {
          if (g > serial) exports.hmac_queue(kind, slot, serial, g - serial, digestLength, tags);
          for (let f = g; f < lanesEnd; f += LANES) {
            const size = Math.min(LANES, lanesEnd - f);
            if (this.compression === "sha256")
              exports.hmac_sha256_x4(slot, f, size, blocks, digestLength, tags);
            else exports.hmac_sha1_x4(slot, f, size, blocks, tags);
          }
          serial = lanesEnd;
        }
        g = e;
      }
    }
    if (q > serial) exports.hmac_queue(kind, slot, serial, q - serial, digestLength, tags);
  }

  /** @internal The key's own slot (0 before its second message), for the memory-scan tests. */
  get ownSlot(): number {
    return this.slot;
  }

  /** Zeroes the key's slot and gives it back. */
  wipe(): void {
    if (this.slot !== 0) this.wasm.kernels.release(this.slot, this);
    this.slot = 0;
  }
}

redactKeyMaterial(WasmHmacKey);

/** What WasmHmacCore needs of the key's shared material (mac/hmac.ts's HmacKey). */
export interface WasmHmacSource extends HmacPadSource {
  readonly hash: { readonly name: string; readonly outputLength: number };
  /** The tag on the TypeScript hash, for messages past the module's input area. */
  tagJs(message: Uint8Array, out: Uint8Array): void;
  /** The outer hash on the TypeScript hash over an inner digest (see WasmHmacKey.outer). */
  outerJs(innerDigest: Uint8Array, out: Uint8Array): void;
  /** tagJs, the tag written to out[index × outputLength ..). */
  tagJsAt(message: Uint8Array, out: Uint8Array, index: number): void;
  /** The hash's initial value as keyed's TypeScript hash holds it (see WasmHmacKey). */
  initialValue(): Int32Array;
  wipe(): void;
}

/**
 * A key's HMAC on this module: the prepared chaining values in a key slot, the whole tag in one
 * call. Messages past the module's input area go to the TypeScript hash, as do all messages while
 * the module still compiles in the background (Chrome's main thread refuses synchronous compiles
 * of modules over 4 KiB; see engine/wasm.ts).
 */
export class WasmHmacCore {
  private slot: WasmHmacKey | undefined;
  private readonly key: WasmHmacSource;
  private readonly compression: HmacCompression;

  private constructor(
    wasm: WasmHmac | undefined,
    key: WasmHmacSource,
    compression: HmacCompression,
  ) {
    this.key = key;
    this.compression = compression;
    if (wasm !== undefined) this.slot = this.keyIn(wasm);
  }

  /**
   * The module's HMAC for this key, or undefined where it cannot serve: a hash it has no
   * compression for (SHA-3), or a module that failed to load (the caller takes TypeScript).
   */
  static for(key: WasmHmacSource): WasmHmacCore | undefined {
    const compression = hmacCompression(key.hash.name);
    if (compression === undefined) return undefined;
    const wasm = loadWasmHmac();
    if (wasm === undefined && !loadWasmHmac.pending) return undefined;
    return new WasmHmacCore(wasm, key, compression);
  }

  private keyIn(wasm: WasmHmac): WasmHmacKey {
    const { compression, key } = this;
    return new WasmHmacKey(wasm, compression, key.hash.outputLength, key.initialValue(), key);
  }

  /** The module, once loaded (asked again only while it compiles in the background). */
  private ready(): WasmHmacKey | undefined {
    if (this.slot === undefined) {
      const wasm = loadWasmHmac();
      if (wasm !== undefined) this.slot = this.keyIn(wasm);
    }
    return this.slot;
  }

  compute(message: Uint8Array, out: Uint8Array, first: boolean): void {
    const slot = this.slot ?? this.ready();
    if (slot !== undefined && message.length <= slot.msgCapacity) slot.compute(message, out, first);
    else this.key.tagJs(message, out);
  }

  /** The outer hash over an inner digest computed elsewhere (see WasmHmacKey.outer). */
  outer(innerDigest: Uint8Array, out: Uint8Array): void {
    const slot = this.slot ?? this.ready();
    if (slot !== undefined) slot.outer(innerDigest, out);
    else this.key.outerJs(innerDigest, out);
  }

  /** messages[i] for each i in `indices` (undefined: every message), tag i to out[i × digestLength ..). */
  computeMany(
    messages: readonly Uint8Array[],
    indices: readonly number[] | undefined,
    out: Uint8Array,
  ): void {
    const count = batchLength(messages, indices);
    const slot = this.slot ?? this.ready();
    // What the module takes: messages up to MSG's size; none while it is not loaded yet.
    const capacity = slot === undefined ? -1 : slot.msgCapacity;
    let fits = true;
    for (let p = 0; p < count && fits; p++)
      fits = messages[batchIndex(indices, p)].length <= capacity;
    if (fits && slot !== undefined) {
      slot.computeMany(messages, indices, out);
      return;
    }
    // The others on the TypeScript hash.
    const own: number[] = [];
    for (let p = 0; p < count; p++) {
      const i = batchIndex(indices, p);
      if (messages[i].length <= capacity) own.push(i);
      else this.key.tagJsAt(messages[i], out, i);
    }
    if (slot !== undefined && own.length > 0) slot.computeMany(messages, own, out);
  }

  /** @internal The key's own slot (0 before its second message), for the memory-scan tests. */
  get ownSlot(): number {
    return this.slot?.ownSlot ?? 0;
  }

  wipe(): void {
    this.slot?.wipe();
    this.key.wipe();
  }
}

redactKeyMaterial(WasmHmacCore);
