/**
 * The native backend: node:crypto, reached with `process.getBuiltinModule` (Node ≥ 20.16) so that
 * no `import "node:crypto"` exists for a browser bundler to trip on. Elsewhere it is absent and
 * keyed's own kernels serve. Only the few calls keyed needs are typed here.
 */

import { type Bytes, copyBytes, setBytes } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import { redactKeyMaterial } from "../core/redact.js";

/** The parts of node:crypto keyed uses. */
export interface NativeCrypto {
  createSecretKey(key: Uint8Array): NativeKey;
  /** One-shot hash (Node ≥ 20.12): no Hash object, the cheapest call into OpenSSL. */
  hash?(algorithm: string, data: Uint8Array, outputEncoding: "buffer"): Uint8Array;
  createHmac(algorithm: string, key: NativeKey | Uint8Array): NativeHash;
  createCipheriv(
    algorithm: string,
    key: NativeKey | Uint8Array,
    iv: Uint8Array | null,
    options?: { authTagLength: number },
  ): NativeCipher;
  createDecipheriv(
    algorithm: string,
    key: NativeKey | Uint8Array,
    iv: Uint8Array | null,
    options?: { authTagLength: number },
  ): NativeCipher;
}
/** An opaque node:crypto KeyObject. */
export type NativeKey = object;
export interface NativeHash {
  update(data: Uint8Array): NativeHash;
  digest(): Uint8Array;
}
export interface NativeCipher {
  update(data: Uint8Array): Uint8Array;
  final(): Uint8Array;
  setAAD(data: Uint8Array, options?: { plaintextLength: number }): NativeCipher;
  setAutoPadding(on: boolean): NativeCipher;
  getAuthTag(): Uint8Array;
  setAuthTag(tag: Uint8Array): NativeCipher;
}

interface ProcessLike {
  getBuiltinModule?: (name: string) => unknown;
  env?: Record<string, string | undefined>;
}

const proc = (globalThis as { process?: ProcessLike }).process;

export type Backend = "js" | "wasm" | "native";

/** KEYED_BACKEND=js|wasm|native forces a backend (tests run every suite once per backend). */
export const FORCED_BACKEND: Backend | undefined = (() => {
  let value: string | undefined;
  try {
    value = proc?.env?.KEYED_BACKEND;
  } catch {
    // Deno without --allow-env throws on reading process.env: no variable, no forced backend.
  }
  return value === "js" || value === "wasm" || value === "native" ? value : undefined;
})();

/** node:crypto, or undefined in browsers, on old Node, or when another backend is forced. */
export const nativeCrypto: NativeCrypto | undefined =
  FORCED_BACKEND === "js" || FORCED_BACKEND === "wasm"
    ? undefined
    : (proc?.getBuiltinModule?.("node:crypto") as NativeCrypto | undefined);

const allocUnsafeSlow = (
  proc?.getBuiltinModule?.("node:buffer") as
    | { Buffer?: { allocUnsafeSlow?(length: number): Uint8Array } }
    | undefined
)?.Buffer?.allocUnsafeSlow;

/**
 * %TypedArray%.prototype's `buffer` and `byteOffset` getters, held. On a Buffer (its prototype is
 * Buffer.prototype, not Uint8Array.prototype) `own.buffer` compiled to two generic property
 * lookups (LoadIC) in the AEAD's seal, ~200 instructions each (valgrind, Node 20); the getters
 * called directly cost ~25.
 */
const TYPED_ARRAY_PROTOTYPE = Object.getPrototypeOf(Uint8Array.prototype) as object;
const bufferOf = getter<ArrayBufferLike>("buffer");
const byteOffsetOf = getter<number>("byteOffset");

function getter<T>(name: string): (this: Uint8Array) => T {
  return Object.getOwnPropertyDescriptor(TYPED_ARRAY_PROTOTYPE, name)?.get as (
    this: Uint8Array,
  ) => T;
}

/**
 * A Uint8Array of `length` bytes for an output the caller overwrites in full: not zero-filled
 * first (a megabyte of zeroes costs tens of microseconds) and not from Buffer's shared pool (so
 * its `.buffer` holds nothing else), returned as a plain Uint8Array like every keyed output.
 */
export function uninitializedBytes(length: number): Uint8Array {
  if (allocUnsafeSlow === undefined) return new Uint8Array(length);
  const own = allocUnsafeSlow(length);
  return new Uint8Array(bufferOf.call(own), byteOffsetOf.call(own), length);
}

/**
 * Bytes lent to node:crypto for one call go through these off-heap views. node:crypto reads a key,
 * IV or data through its view's ArrayBuffer, and a Uint8Array of up to 64 bytes made by
 * `new Uint8Array(…)` keeps its bytes on V8's heap with no ArrayBuffer until one is asked for:
 * making it costs ~250 ns a view (Node 20, 2026-12-05), against ~70 ns to copy into one of these
 * and zero it after. That is paid per message wherever such a copy is made per message: an AEAD
 * object's key and nonce, a one-shot key's raw bytes (LazyNativeKey's first use).
 */
const LEND_REGION = 64;
// Its own ArrayBuffer, made once (the point: node:crypto finds one there).
const LENT = /* @__PURE__ */ new Uint8Array(/* @__PURE__ */ new ArrayBuffer(3 * LEND_REGION));

/** Where lend() puts bytes: a region each, so that one call can lend three. */
export const LEND_KEY = 0;
export const LEND_NONCE = 1;
export const LEND_DATA = 2;
type LendRegion = typeof LEND_KEY | typeof LEND_NONCE | typeof LEND_DATA;

/**
 * `bytes` as node:crypto should take them for one call: past 64 bytes as they are (such an array
 * has its ArrayBuffer), else a copy in region `region` of an off-heap scratch. The caller zeroes
 * the scratch with `wipeLent()` once node:crypto has copied what it needs (in a `finally`).
 */
export function lend(bytes: Uint8Array, region: LendRegion): Uint8Array {
  const length = bytes.length;
  if (length > LEND_REGION) return bytes;
  // setBytes, not a byte loop: V8 compiled the loop to ~28 instructions a byte here (valgrind,
  // Node 20), the copy builtin costs ~150 a call.
  setBytes(LENT, bytes, region * LEND_REGION);
  return lentView(region, length);
}

/**
 * The views of the scratch that lend() returns, one per region and length, made on first use:
 * `subarray` costs ~100 ns a call, and an AEAD's seal lends two (its key and nonce).
 */
const LENT_VIEWS: Uint8Array[][] = [[], [], []];

function lentView(region: LendRegion, length: number): Uint8Array {
  const views = LENT_VIEWS[region];
  let view = views[length];
  if (view === undefined) {
    view = new Uint8Array(LENT.buffer, region * LEND_REGION, length);
    views[length] = view;
  }
  return view;
}

/**
 * Zeroes what lend() copied, by one copy of zeros. A store loop over the scratch compiled to ~30
 * instructions a word in the AEAD's seal (V8 reloads and rechecks a typed array's length and base
 * in every pass), ~1,300 a call; `fill` is a call into C++.
 */
export function wipeLent(): void {
  setBytes(LENT, zeros(LENT.length));
}

/** Zero arrays by length, made on first use: the sources of wipeLent's and takeNativeOutput's copies. */
const ZEROS: Uint8Array[] = [];

function zeros(length: number): Uint8Array {
  let z = ZEROS[length];
  if (z === undefined) {
    z = new Uint8Array(length);
    ZEROS[length] = z;
  }
  return z;
}

/**
 * Checks that node:crypto gave `result` at least `length` bytes. Read past its end a Uint8Array
 * gives undefined, which a byte store turns into 0: a short answer would become a tag of zeros,
 * which every verify under the same path would accept. workerd's chacha20-poly1305 gave an empty
 * `getAuthTag()` after `setAAD` and `final` with no `update` (2026-12-05). So a short answer is a
 * fault, refused (fail closed), never a tag.
 */
export function checkNativeOutput(result: Uint8Array, length: number, what: string): void {
  if (result.length < length) {
    throw new KeyedError(
      "UNAVAILABLE",
      `node:crypto here gave ${result.length} bytes for ${what} where ${length} were due; keyed refuses to make a tag from it.`,
    );
  }
}

/** The longest output zeroed by a copy of zeros: SHA-512's digest. */
const MAX_ZEROS = 64;

/**
 * Moves result[from .. from + length) (a digest, a tag, CMAC's last block) to out[at ..), zeroing
 * it in `result`, once checkNativeOutput has found it all there. All of `result`, the usual case,
 * by two copies (out's, then zeros over it): a byte loop compiled to ~40 instructions a byte
 * (valgrind, Node 20: V8 reloads and rechecks both arrays in every pass), ~650 for a 16-byte tag
 * and ~1,300 for a SHA-256 digest, against ~150 a copy. Part of it, byte by byte.
 */
export function takeNativeOutput(
  result: Uint8Array,
  out: Bytes,
  length: number,
  what: string,
  from = 0,
  at = 0,
): void {
  checkNativeOutput(result, from + length, what);
  if (from === 0 && result.length === length && length <= MAX_ZEROS && at + length <= out.length) {
    setBytes(out, result, at);
    setBytes(result, zeros(length));
    return;
  }
  for (let i = 0; i < length; i++) {
    out[at + i] = result[from + i];
    result[from + i] = 0;
  }
}

/**
 * The most bytes one `update` of `updateDiscarding` hands to node:crypto. Its output is a new
 * buffer as long as its input, and a megabyte of it is fresh pages when malloc hands large blocks
 * out by mmap, faulted in on every call: in such a process an AES-256-CBC pass over 1 MiB took
 * 4.3 ms in 64 KiB slices against 7.7 ms in one `update`, and within noise of it where malloc
 * keeps large blocks on its heap (scratch/big-native.ts, 2026-12-05). Just under 128 KiB, not 64:
 * in a process whose heap held other libraries' garbage (the bench's CMAC case, @noble/ciphers
 * and @stablelib beside it), 64 KiB slices made an AES-128-CBC pass over 1 MiB 7% slower than one
 * `update`, and slices of 128-256 KiB were within 1% of it; without malloc's thresholds fixed,
 * these kept 0.85-0.89 of one `update`'s time, as 64 KiB did (scratch/cmac1m.ts, 2026-12-05).
 * 64 bytes under, so that an output with node:crypto's block of slack stays below malloc's
 * first mmap threshold (128 KiB).
 */
export const UPDATE_SLICE = 128 * 1024 - 64;

/**
 * Runs `data` through `cipher` for its effect on the cipher's state only (CMAC's chaining
 * blocks), in slices of at most UPDATE_SLICE bytes (a multiple of every block size), throwing
 * each output away.
 */
export function updateDiscarding(cipher: NativeCipher, data: Uint8Array): void {
  const length = data.length;
  for (let at = 0; at < length; at += UPDATE_SLICE) {
    cipher.update(data.subarray(at, Math.min(length, at + UPDATE_SLICE)));
  }
}

/**
 * What this runtime's node:crypto was found to have, by probe: a table per kind, keyed by the
 * name node:crypto takes. HMAC asks when a key is made, so the lookup builds no string. GMAC and
 * ChaCha20-Poly1305 ask on every message past their crossover, so each table also keeps its last
 * answer: a compare instead of a Map lookup (~10 ns in the AEAD seal's profile).
 */
class Probes {
  private readonly found = new Map<string, boolean>();
  private lastName: string | undefined = undefined;
  private lastAnswer = false;

  /** Whether `probe` runs on this node:crypto without throwing, asked once per `name`. */
  answer(name: string, probe: (crypto: NativeCrypto) => unknown): boolean {
    if (name === this.lastName) return this.lastAnswer;
    let supported = this.found.get(name);
    if (supported === undefined) {
      try {
        supported = nativeCrypto !== undefined && probe(nativeCrypto) !== undefined;
      } catch {
        supported = false;
      }
      this.found.set(name, supported);
    }
    this.lastName = name;
    this.lastAnswer = supported;
    return supported;
  }
}

const HASHES = new Probes();
const CIPHERS = new Probes();
const AAD_ALONE = new Probes();

/**
 * Whether node:crypto here computes HMAC over `hash` (an OpenSSL name), probed once per name: not
 * every node:crypto has every hash (workerd's lacks SHA-512/224 and SHA-3, and throws "Digest
 * method not supported"), and where one is missing keyed's own kernels serve.
 */
export function nativeHasHash(hash: string): boolean {
  return HASHES.answer(hash, (crypto) => crypto.createHmac(hash, new Uint8Array(1)).digest());
}

/**
 * Whether node:crypto here has the cipher `name` for keys of `keyLength` bytes and IVs of
 * `ivLength`, probed once per name: Deno's lacks some AES-CBC key sizes, Bun's ChaCha20-Poly1305
 * ("Unknown cipher").
 */
export function nativeHasCipher(name: string, keyLength: number, ivLength = 16): boolean {
  return CIPHERS.answer(name, (crypto) =>
    crypto.createCipheriv(name, new Uint8Array(keyLength), new Uint8Array(ivLength)),
  );
}

/**
 * Whether `name` (an AEAD: AES-GCM, ChaCha20-Poly1305) gives its 16-byte tag over associated data
 * alone, `setAAD` then `final` with no `update`: the MAC forms' one call less. Probed once per
 * name: workerd's ChaCha20-Poly1305 answers with an empty tag (its AES-GCM does not), and keyed's
 * own kernels serve there.
 */
export function nativeTagsAadAlone(name: string, keyLength: number, ivLength: number): boolean {
  return AAD_ALONE.answer(name, (crypto) => {
    const cipher = crypto.createCipheriv(
      name,
      new Uint8Array(keyLength),
      new Uint8Array(ivLength),
      {
        authTagLength: 16,
      },
    );
    cipher.setAAD(new Uint8Array(1), { plaintextLength: 0 });
    cipher.final();
    return cipher.getAuthTag().length === 16 ? true : undefined;
  });
}

const AES_NAMES = {
  cbc: ["aes-128-cbc", "aes-192-cbc", "aes-256-cbc"],
  gcm: ["aes-128-gcm", "aes-192-gcm", "aes-256-gcm"],
} as const;

/**
 * node:crypto's name of AES in `mode` for a key of `keyLength` bytes (16, 24 or 32): a constant,
 * so that neither a key nor a probe's lookup builds one.
 */
export function aesName(mode: keyof typeof AES_NAMES, keyLength: number): string {
  return AES_NAMES[mode][(keyLength - 16) >> 3];
}

/**
 * node:crypto's KeyObject for the raw key bytes `raw`, handed over lent (the scratch wiped after,
 * even if node:crypto throws). Creating one costs ~1.3 µs; callers make it once per key.
 */
export function secretKeyObject(raw: Uint8Array): NativeKey {
  try {
    return (nativeCrypto as NativeCrypto).createSecretKey(lend(raw, LEND_KEY));
  } finally {
    wipeLent();
  }
}

/**
 * A node:crypto KeyObject made on first need: creating one costs microseconds, which one-shot
 * use of a short message should not pay. Until then keyed holds a copy of the raw key (no more
 * sensitive than the key-derived state beside it), wiped once the KeyObject exists or on wipe().
 */
export class LazyNativeKey {
  private raw: Uint8Array | undefined;
  private key: NativeKey | undefined;

  /** `hash`: the key is for HMAC over it, and node:crypto is used only if it has that hash. */
  constructor(key: Uint8Array, hash?: string) {
    // node:crypto refuses empty keys; keyed's own kernels handle them.
    if (nativeCrypto === undefined || key.length === 0) return;
    if (hash === undefined || nativeHasHash(hash)) this.raw = copyBytes(key);
  }

  /** True when node:crypto is available for this key. */
  get available(): boolean {
    return this.raw !== undefined || this.key !== undefined;
  }

  private uses = 0;

  /**
   * Calls `call` with the key as node:crypto should take it, and returns what it returns: on the
   * first use the raw bytes (a one-shot `mac(…).tag(…)` should not pay ~1.3 µs for a KeyObject it
   * uses once), lent for the call and wiped after it, even if it throws; from the second use on a
   * KeyObject, made from the raw bytes lent the same way.
   */
  use<T>(call: (key: NativeKey | Uint8Array) => T): T {
    if (this.key !== undefined) return call(this.key);
    const raw = this.raw as Uint8Array;
    if (this.uses++ === 0) {
      try {
        return call(lend(raw, LEND_KEY));
      } finally {
        wipeLent();
      }
    }
    this.key = secretKeyObject(raw);
    raw.fill(0);
    this.raw = undefined;
    return call(this.key);
  }

  /** Wipes the raw copy; a KeyObject's memory is node:crypto's to free, so it is dropped. */
  wipe(): void {
    this.raw?.fill(0);
    this.raw = undefined;
    this.key = undefined;
  }
}

redactKeyMaterial(LazyNativeKey);
