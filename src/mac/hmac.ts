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
  batchIndex,
  batchLength,
  DEFAULT_SAFE_MIN_TAG_LENGTH,
  type Mac,
  type MacAlgorithm,
  type MacKernel,
  type MacKernelState,
  type MacName,
  type MacOptions,
} from "../core/mac.js";
import { PreparedMac } from "../core/prepared-mac.js";
import { redactKeyMaterial } from "../core/redact.js";
import { nativeFamily } from "../engine/native-families.js";
import type { NativeHmac, NativeHmacSource } from "../engine/native-hmac.js";
import { wasmFamily } from "../engine/wasm-families.js";
import type { HmacPadSource, WasmHmacSource } from "../engine/wasm-hmac.js";
import type { HashFunction, HashState } from "../hash/hash.js";
import { HASH_FUNCTIONS, type HashName } from "../hash/index.js";
import { SHA3_224, SHA3_256, SHA3_384, SHA3_512 } from "../hash/keccak.js";
import type { MerkleDamgard } from "../hash/md.js";
import { SHA1 } from "../hash/sha1.js";
import { SHA224, SHA256 } from "../hash/sha256.js";
import { SHA384, SHA512, SHA512_224, SHA512_256 } from "../hash/sha512.js";

const IPAD = 0x36;
const OPAD = 0x5c;

/**
 * What every backend derives its state from, made on first need: the key until the pad blocks
 * exist, K⊕ipad and K⊕opad (node:crypto's one-shot inner hash starts from K⊕ipad), and the
 * hash states after them (the TypeScript kernel's, and the chaining values the WebAssembly slots
 * hold). A one-shot tag on node:crypto makes none of it.
 */
class HmacKey implements HmacPadSource, NativeHmacSource, WasmHmacSource {
  readonly hash: HashFunction;
  /** The key until the pad blocks are made from it. */
  private key: Uint8Array | undefined;
  /** The padded-key blocks and the inner digest's buffer (see `pads`). */
  private padded: PaddedKey | undefined;
  /** The hash states after the pad blocks (see `states`). */
  private prepared: PreparedStates | undefined;
  /** One tag's room for tagJsAt, made on first need and wiped after each use. */
  private tag: Uint8Array | undefined;

  constructor(hash: HashFunction, key: Bytes) {
    this.hash = hash;
    this.key = copyBytes(key);
  }

  /**
   * K⊕ipad, K⊕opad and the inner digest's buffer, in one backing store: typed arrays over 64
   * bytes live off the V8 heap, and each costs about as much to allocate as a short tag takes to
   * compute. The key copy is wiped once they exist.
   */
  pads(): PaddedKey {
    if (this.padded === undefined) {
      const blockLength = this.hash.blockLength;
      const digestLength = this.hash.outputLength;
      const bytes = new Uint8Array(2 * blockLength + digestLength);
      const both = bytes.subarray(0, 2 * blockLength);
      const inner = bytes.subarray(0, blockLength);
      const outer = bytes.subarray(blockLength, 2 * blockLength);
      const innerDigest = bytes.subarray(2 * blockLength);
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
      this.padded = { both, inner, outer, innerDigest };
    }
    return this.padded;
  }

  /** The inner and outer hash states after K⊕ipad and K⊕opad (RFC 2104 section 2). */
  states(): PreparedStates {
    if (this.prepared === undefined) {
      const { hash } = this;
      const padBlocks = this.pads();
      const inner = hash.create().update(padBlocks.inner);
      const outer = hash.create().update(padBlocks.outer);
      const work = hash.create();
      // The shared message schedule last held the padded key: clear it.
      work.wipe();
      this.prepared = { inner, outer, work };
    }
    return this.prepared;
  }

  /** HMAC on the TypeScript hash: copy the inner state, absorb, run the outer hash. */
  tagJs(message: Bytes, out: Bytes): void {
    const states = this.states();
    const work = states.inner.copyTo(states.work);
    work.update(message);
    this.finishInto(work, out);
  }

  /** tagJs, the tag written to out[index × outputLength ..). */
  tagJsAt(message: Bytes, out: Bytes, index: number): void {
    const tag = (this.tag ??= new Uint8Array(this.hash.outputLength));
    this.tagJs(message, tag);
    const length = this.hash.outputLength;
    for (let j = 0; j < length; j++) out[index * length + j] = tag[j];
    tag.fill(0);
  }

  /**
   * The outer hash, H(K⊕opad ‖ innerDigest), from the prepared outer state (in the shared work
   * state): for finishInto, and for an inner digest node:crypto computed (NativeHmac).
   */
  outerJs(innerDigest: Bytes, out: Bytes): void {
    const states = this.states();
    states.outer.copyTo(states.work).update(innerDigest).digestInto(out);
  }

  /** Completes the inner hash held in `work` and runs the outer one into `out`. */
  finishInto(work: HashState, out: Bytes): void {
    const innerDigest = this.pads().innerDigest;
    work.digestInto(innerDigest);
    this.outerJs(innerDigest, out);
    innerDigest.fill(0);
  }

  /** A stream on the TypeScript hash, from a copy of the inner state. */
  startStream(): MacKernelState {
    const state = this.states().inner.copyTo(this.hash.create());
    return {
      update: (chunk) => {
        state.update(chunk);
      },
      finish: (out) => this.finishInto(state, out),
      wipe: () => state.wipe(),
    };
  }

  /** The hash's initial value, for a WebAssembly key slot's set-up. */
  initialValue(): Int32Array {
    return hashInitialValue(this.hash);
  }

  wipe(): void {
    this.key?.fill(0);
    this.key = undefined;
    this.padded?.inner.fill(0);
    this.padded?.outer.fill(0);
    this.padded?.innerDigest.fill(0);
    this.prepared?.inner.wipe();
    this.prepared?.outer.wipe();
    this.prepared?.work.wipe();
    this.tag?.fill(0);
  }
}

redactKeyMaterial(HmacKey);

interface PaddedKey {
  /** K⊕ipad (the start of NativeHmac's one-shot inner hash) and K⊕opad. */
  inner: Uint8Array;
  outer: Uint8Array;
  /** K⊕ipad ‖ K⊕opad, for a WebAssembly key slot's set-up. */
  both: Uint8Array;
  innerDigest: Uint8Array;
}

interface PreparedStates {
  inner: HashState;
  outer: HashState;
  work: HashState;
}

/** HMAC under one key on one backend. */
interface HmacCore {
  /** `first`: the key's first message (which may be its only one). */
  compute(message: Bytes, out: Bytes, first: boolean): void;
  /**
   * messages[i] for each i in `indices` (undefined: every message), tag i to
   * out[i × outputLength ..) (never a first message).
   */
  computeMany(messages: readonly Bytes[], indices: readonly number[] | undefined, out: Bytes): void;
  /** The outer hash alone over an inner digest node:crypto computed (never a first message). */
  outer(innerDigest: Bytes, out: Bytes): void;
  wipe(): void;
}

/** The TypeScript kernel: a tag copies the inner state, absorbs, and runs the outer hash. */
class JsHmac implements HmacCore {
  private readonly key: HmacKey;

  constructor(key: HmacKey) {
    this.key = key;
  }

  compute(message: Bytes, out: Bytes): void {
    this.key.tagJs(message, out);
  }

  computeMany(
    messages: readonly Bytes[],
    indices: readonly number[] | undefined,
    out: Bytes,
  ): void {
    const count = batchLength(messages, indices);
    for (let p = 0; p < count; p++) {
      const i = batchIndex(indices, p);
      this.key.tagJsAt(messages[i], out, i);
    }
  }

  outer(innerDigest: Bytes, out: Bytes): void {
    this.key.outerJs(innerDigest, out);
  }

  wipe(): void {
    this.key.wipe();
  }
}

redactKeyMaterial(JsHmac);

/** Each hash's initial value (FIPS 180-4 5.3), as its TypeScript state holds it, read once. */
const INITIAL_VALUES = new Map<string, Int32Array>();
function hashInitialValue(hash: HashFunction): Int32Array {
  let iv = INITIAL_VALUES.get(hash.name);
  if (iv === undefined) {
    iv = (hash.create() as unknown as MerkleDamgard).chainingValue().slice();
    INITIAL_VALUES.set(hash.name, iv);
  }
  return iv;
}

/** computeParts' room for the parts of a short message, joined; grown on demand, wiped after use. */
let joinScratch = new Uint8Array(0);

/**
 * HMAC under one prepared key, without policy (HKDF and the protocol KDFs build on it). The
 * backends are chosen once, here: WebAssembly for the SHA-1 and SHA-2 family where it loads, else
 * TypeScript; and beside it node:crypto, where present, for a key's first message and for
 * messages from the crossover on (engine/select.ts).
 */
export class HmacKernel implements MacKernel {
  readonly outputLength: number;
  /** The key-derived values the backends share (the memory tests read them). */
  private readonly material: HmacKey;
  private readonly core: HmacCore;
  private readonly native: NativeHmac | undefined;
  /** Messages tagged so far (the first one takes the cheapest path to a single tag). */
  private messages = 0;

  constructor(hash: HashFunction, key: Bytes) {
    this.outputLength = hash.outputLength;
    // Nothing is derived yet: a one-shot `mac(…).tag(…)` on node:crypto never needs it.
    this.material = new HmacKey(hash, key);
    this.core = wasmFamily("hmac")?.WasmHmacCore.for(this.material) ?? new JsHmac(this.material);
    this.native = nativeFamily("hmac")?.for(this.material, key, this.core);
  }

  compute(message: Bytes, out: Bytes): void {
    const first = this.messages++ === 0;
    const native = this.nativeFor(message.length, first);
    if (native !== undefined) native.compute(message, out, first);
    else this.core.compute(message, out, first);
  }

  /** node:crypto when it should take this message: the key's first, or one past the crossover. */
  private nativeFor(length: number, first: boolean): NativeHmac | undefined {
    const native = this.native;
    return native !== undefined && (first || native.serves(length)) ? native : undefined;
  }

  /**
   * HMAC over `parts` in order, as if they were one message (a webhook's `id.timestamp.body`):
   * node:crypto takes them one by one or into its one copy; keyed's own kernels take them joined.
   */
  computeParts(parts: readonly Bytes[], out: Bytes): void {
    if (parts.length === 1) {
      this.compute(parts[0], out);
      return;
    }
    let total = 0;
    for (const part of parts) total += part.length;
    const first = this.messages++ === 0;
    const native = this.nativeFor(total, first);
    if (native !== undefined) {
      native.computeParts(parts, total, out, first);
      return;
    }
    // Short messages: joined in a shared buffer (no allocation per call), wiped after.
    if (joinScratch.length < total)
      joinScratch = new Uint8Array(Math.max(total, 2 * joinScratch.length));
    let at = 0;
    for (const part of parts) {
      joinScratch.set(part, at);
      at += part.length;
    }
    this.core.compute(joinScratch.subarray(0, total), out, first);
    joinScratch.fill(0, 0, total);
  }

  /**
   * Many messages under the key: those from the crossover on to node:crypto one by one, the rest
   * through the backend's batch path (WebAssembly: SIMD lanes, several messages per call).
   */
  computeMany(messages: readonly Bytes[], out: Bytes): void {
    const native = this.native;
    let long: number[] | undefined;
    if (native !== undefined) {
      for (let i = 0; i < messages.length; i++)
        if (native.serves(messages[i].length)) (long ??= []).push(i);
    }
    if (native === undefined || long === undefined) {
      // The common batch: every message is the backend's (no index list to build).
      this.core.computeMany(messages, undefined, out);
    } else {
      const own: number[] = [];
      for (let i = 0, next = 0; i < messages.length; i++) {
        if (i === long[next]) next++;
        else own.push(i);
      }
      native.computeMany(messages, long, out);
      if (own.length > 0) this.core.computeMany(messages, own, out);
    }
    this.messages += messages.length;
  }

  /** True when node:crypto takes messages of `length` bytes under this key (the crossover). */
  servesNatively(length: number): boolean {
    return this.native?.serves(length) ?? false;
  }

  start(): MacKernelState {
    const startOwn = () => this.material.startStream();
    return this.native === undefined ? startOwn() : this.native.start(startOwn);
  }

  wipe(): void {
    this.native?.wipe();
    this.core.wipe();
    this.material.wipe();
  }
}

redactKeyMaterial(HmacKernel);

// --- registry entries and per-hash doors -------------------------------------------------------

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

/** One record per HMAC, made on first need and shared by `mac()`, `hmac()` and `hmacSha256()`. */
const RECORDS = /* @__PURE__ */ new Map<string, MacAlgorithm>();

/** The algorithm record of HMAC over `hash`: the rules `PreparedMac` enforces, and its kernel. */
export function hmacAlgorithm(hash: HashFunction): MacAlgorithm {
  let algorithm = RECORDS.get(hash.name);
  if (algorithm === undefined) {
    algorithm = {
      name: `hmac-${hash.name}` as HmacName,
      key: { kind: "variable" },
      tag: {
        full: hash.outputLength,
        safeMinimum: DEFAULT_SAFE_MIN_TAG_LENGTH,
        maximum: hash.outputLength,
        basis: "RFC 2104 section 5: at least 80 bits",
      },
      // The kernel copies or derives what it keeps (see MacAlgorithm.copiesKey).
      copiesKey: true,
      createKernel: (key) => new HmacKernel(hash, key),
    };
    RECORDS.set(hash.name, algorithm);
  }
  return algorithm;
}

/** An HMAC prepared key: `hmac("sha256", key)` is `mac("hmac-sha256", key)`. */
export function hmac(hash: HmacHash, key: Bytes, options?: MacOptions): PreparedMac {
  const fn = Object.hasOwn(HMAC_HASHES, `hmac-${hash}`) ? HASH_FUNCTIONS[hash] : undefined;
  if (fn === undefined) throw unknownHash(hash);
  return new PreparedMac(hmacAlgorithm(fn), key, options);
}

function unknownHash(hash: unknown): KeyedError {
  return new KeyedError(
    "UNKNOWN_ALGORITHM",
    `hmac takes one of ${Object.values(HMAC_HASHES).join(", ")}; got ${String(hash)}.`,
  );
}

/** A prepared key for one HMAC: the same contract and policy as `mac()` (core/mac.ts). */
export type HmacFactory = (key: Bytes, options?: MacOptions) => Mac;

/**
 * The door for one hash: a bundle that imports `hmacSha256` alone carries SHA-256 and none of the
 * other hashes (docs/bundle-size.md).
 */
function hmacOver(hash: HashFunction): HmacFactory {
  return (key, options) => new PreparedMac(hmacAlgorithm(hash), key, options);
}

/** HMAC-SHA1 (RFC 2104 over FIPS 180-4 SHA-1): for legacy protocols only. */
export const hmacSha1: HmacFactory = /* @__PURE__ */ hmacOver(SHA1);
/** HMAC-SHA224 (RFC 2104, RFC 4231). */
export const hmacSha224: HmacFactory = /* @__PURE__ */ hmacOver(SHA224);
/** HMAC-SHA256 (RFC 2104, RFC 4231): `hmacSha256(key).tag(message)`. */
export const hmacSha256: HmacFactory = /* @__PURE__ */ hmacOver(SHA256);
/** HMAC-SHA384 (RFC 2104, RFC 4231). */
export const hmacSha384: HmacFactory = /* @__PURE__ */ hmacOver(SHA384);
/** HMAC-SHA512 (RFC 2104, RFC 4231). */
export const hmacSha512: HmacFactory = /* @__PURE__ */ hmacOver(SHA512);
/** HMAC-SHA512/224 (RFC 2104 over FIPS 180-4 SHA-512/224). */
export const hmacSha512_224: HmacFactory = /* @__PURE__ */ hmacOver(SHA512_224);
/** HMAC-SHA512/256 (RFC 2104 over FIPS 180-4 SHA-512/256). */
export const hmacSha512_256: HmacFactory = /* @__PURE__ */ hmacOver(SHA512_256);
/** HMAC-SHA3-224 (RFC 2104 over FIPS 202; block = the sponge rate). */
export const hmacSha3_224: HmacFactory = /* @__PURE__ */ hmacOver(SHA3_224);
/** HMAC-SHA3-256 (RFC 2104 over FIPS 202; block = the sponge rate). */
export const hmacSha3_256: HmacFactory = /* @__PURE__ */ hmacOver(SHA3_256);
/** HMAC-SHA3-384 (RFC 2104 over FIPS 202; block = the sponge rate). */
export const hmacSha3_384: HmacFactory = /* @__PURE__ */ hmacOver(SHA3_384);
/** HMAC-SHA3-512 (RFC 2104 over FIPS 202; block = the sponge rate). */
export const hmacSha3_512: HmacFactory = /* @__PURE__ */ hmacOver(SHA3_512);
