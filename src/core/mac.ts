/**
 * The Mac contract shared by every algorithm, and the one place where key-length policy,
 * tag-length policy, truncation, verification and destruction live (cf. RustCrypto's `Mac` trait).
 *
 * An algorithm supplies a `MacKernel`: a prepared key that writes its full output into a buffer.
 * `PreparedMac` (core/prepared-mac.ts) wraps any kernel into the public `Mac`, so no algorithm
 * re-implements verify or truncation, and no algorithm can get them wrong. This module holds the
 * contract's types and its rules as data; prepared-mac.ts the one implementation.
 */
import { assertInteger, type Bytes } from "./bytes.js";
import { KeyedError } from "./errors.js";
import type { Field } from "./fields.js";
import { checkOptions } from "./options.js";

export type { Field } from "./fields.js";

/** Every MAC name in keyed's design; `macNames()` lists the ones this build offers. */
export type MacName =
  | "hmac-sha1"
  | "hmac-sha224"
  | "hmac-sha256"
  | "hmac-sha384"
  | "hmac-sha512"
  | "hmac-sha512-224"
  | "hmac-sha512-256"
  | "hmac-sha3-224"
  | "hmac-sha3-256"
  | "hmac-sha3-384"
  | "hmac-sha3-512"
  | "cmac-aes128"
  | "cmac-aes192"
  | "cmac-aes256"
  | "gmac-aes128"
  | "gmac-aes192"
  | "gmac-aes256"
  | "poly1305"
  | "chacha20-poly1305"
  | "xchacha20-poly1305"
  | "kmac128"
  | "kmac256"
  | "blake3"
  | "siphash-2-4"
  | "siphash-1-3"
  | "siphash-2-4-128"
  | "siphash-1-3-128";

/** Options of `mac()` and the per-algorithm constructors; unknown names are BAD_INPUT. */
export interface MacOptions {
  /** Tag length in bytes; truncates to the leftmost bytes. Default: the algorithm's full tag. */
  tagLength?: number;
  /** KMAC's customization string S (SP 800-185). Refused by algorithms that have none. */
  customization?: Bytes | string;
  /** Accept keys under 16 bytes. For test vectors and legacy protocols only. */
  allowShortKeys?: boolean;
  /** Accept tags under the algorithm's safe minimum (never under 4 bytes). */
  allowShortTags?: boolean;
}

/** A prepared key: key-derived state is computed once, in the constructor. */
export interface Mac {
  /** The algorithm this key was prepared for. */
  readonly algorithm: MacName;
  /** Bytes returned by `tag()`. */
  readonly tagLength: number;
  /**
   * The tag of `message`. With `out` (exactly `tagLength` bytes) the tag is written there, `out`
   * is returned, and nothing is allocated.
   */
  tag(message: Bytes, out?: Bytes): Bytes;
  /**
   * Constant-time check of `tag` against `message`. A wrong tag, or one of the wrong length, is
   * `false`; it never throws for that. (Arguments that are not bytes at all are BAD_INPUT.)
   */
  verify(message: Bytes, tag: Bytes): boolean;
  /** Incremental input. */
  stream(): MacStream;
  /**
   * Incremental input checked against a tag known before the message (a sum file, a header).
   * Every algorithm then streams in constant memory, the nonce MACs too (their key setup needs the
   * nonce at the front of the tag). Throws TAG_LENGTH as `verify` does for unverifiable lengths.
   */
  verifyingStream(tag: Bytes): MacVerifyingStream;
  /** Overwrites the key-derived state with zeros; any later call throws DESTROYED. */
  destroy(): void;
  /**
   * The tag of a message made of fields, canonically encoded with a purpose label (docs/fields.md),
   * so that ("ab", "c") and ("a", "bc") never share a tag and tags for one purpose are no use for
   * another. Strings are encoded as UTF-8.
   */
  tagFields(purpose: string, fields: readonly Field[], out?: Bytes): Bytes;
  /** `verify` for `tagFields`. */
  verifyFields(purpose: string, fields: readonly Field[], tag: Bytes): boolean;
  /**
   * The tags of many messages, in order, in one buffer of `messages.length × tagLength` bytes:
   * message i's tag at i × tagLength. With `out` (exactly that many bytes) the tags are written
   * there, `out` is returned, and nothing is allocated. The same tags as `tag()` one by one
   * (nonce MACs draw a fresh nonce per message); kernels that can, tag several messages at once.
   * A one-time key (Poly1305) takes a batch of one message at most: more throws KEY_REUSED.
   */
  tagMany(messages: readonly Bytes[], out?: Bytes): Bytes;
  /**
   * `verify` for each message against `tags[i]`: one boolean per message, each tag compared in
   * constant time. A wrong tag, or one of the wrong length, is `false` for its message only.
   * `tags` has one entry per message (BAD_INPUT otherwise).
   */
  verifyMany(messages: readonly Bytes[], tags: readonly Bytes[]): boolean[];
}

/** A stream from `Mac.verifyingStream(tag)`: `verify()` checks the tag given at the start. */
export interface MacVerifyingStream {
  /** Absorbs the next chunk of the message; chainable. */
  update(chunk: Bytes): this;
  /** Constant-time check against the tag given to `verifyingStream`; the stream is then finished. */
  verify(): boolean;
}

/** A stream from `Mac.stream()`: the message in chunks, then `digest()` or `verify(tag)`. */
export interface MacStream {
  /** Absorbs the next chunk of the message; chainable. */
  update(chunk: Bytes): this;
  /** The tag of everything passed to `update`; the stream is then finished. */
  digest(out?: Bytes): Bytes;
  /** Constant-time check, as `Mac.verify`; the stream is then finished. */
  verify(tag: Bytes): boolean;
}

// --- what an algorithm supplies -----------------------------------------------------------------

/** An incremental computation under a prepared key. */
export interface MacKernelState {
  update(chunk: Bytes): void;
  /**
   * Writes the kernel's `outputLength` bytes to `out[0..)`. Called once. `nonce` is given to
   * algorithms that declare a `nonceLength`.
   */
  finish(out: Bytes, nonce?: Bytes): void;
  /** Overwrites the state with zeros. */
  wipe(): void;
}

/** One prepared key of one algorithm. Its methods take checked arguments and never allocate. */
export interface MacKernel {
  /** Bytes `compute` and `finish` write: the full tag (or KMAC's configured L). */
  readonly outputLength: number;
  compute(message: Bytes, out: Bytes, nonce?: Bytes): void;
  /**
   * A new incremental computation. Algorithms with a `nonceLength` get the nonce the stream will
   * most likely finish with (drawn for a tagging stream, read from the tag for `verifyingStream`):
   * a kernel whose key setup needs it (ChaCha20-Poly1305's one-time key) can then stream in
   * constant memory.
   */
  start(nonce?: Bytes): MacKernelState;
  /**
   * Optional, for kernels that tag several messages at once (multi-buffer SIMD): `compute` for
   * every message, message i's `outputLength` bytes at out[i × outputLength ..). Never called for
   * algorithms with a `nonceLength` or `oneTime` keys; the others get a per-message loop without it.
   */
  computeMany?(messages: readonly Bytes[], out: Bytes): void;
  wipe(): void;
}

/**
 * Position p of a batch's index list (the messages a backend takes of a batch); undefined stands
 * for the whole batch in order, 0, 1, …, so the common batch builds no list.
 */
export function batchIndex(indices: readonly number[] | undefined, p: number): number {
  return indices === undefined ? p : indices[p];
}

/** How many messages a batch's index list names: all of `messages` when it is undefined. */
export function batchLength(
  messages: readonly unknown[],
  indices: readonly number[] | undefined,
): number {
  return indices === undefined ? messages.length : indices.length;
}

/** Key sizes: any length from a minimum, or exactly one of a few sizes. */
export type KeyRule =
  | { readonly kind: "variable"; readonly minimum?: number }
  | { readonly kind: "fixed"; readonly length: number };

/** Tag sizes for one algorithm (all in bytes). */
export interface TagRule {
  /** The default tag length. */
  readonly full: number;
  /** Shortest tag without `allowShortTags`. */
  readonly safeMinimum: number;
  /**
   * Longest tag. Equal to `full` for MACs that truncate; larger for MACs whose output length is an
   * input (KMAC), where `tagLength` becomes the kernel's output length, not a prefix.
   */
  readonly maximum: number;
  /** True when `tagLength` is fed to the kernel as its output length instead of truncating. */
  readonly variableOutput?: boolean;
  /** When only some lengths in range are allowed (GCM's 16, 15, 14, 13, 12, 8, 4), those. */
  readonly allowed?: readonly number[];
  /** Why tags under `safeMinimum` are refused: the standard the rule comes from. */
  readonly basis: string;
}

/** Everything `mac()` needs to know about one algorithm. */
export interface MacAlgorithm {
  readonly name: MacName;
  readonly key: KeyRule;
  readonly tag: TagRule;
  /**
   * For MACs that need a fresh nonce per message (GMAC, the ChaCha20-Poly1305 MAC): its length.
   * `tag()` draws a random nonce and returns nonce ‖ tag; `verify()` reads the nonce back from the
   * front; `tagLength` counts both, while the `tagLength` option sizes the tag part alone.
   */
  readonly nonceLength?: number;
  /**
   * For random nonces: how many tags one prepared key may make, and the standard that says so.
   * Past it `tag()` and stream digests throw NONCE_LIMIT (counted per Mac object).
   */
  readonly nonceLimit?: { readonly invocations: number; readonly basis: string };
  /**
   * One-time keys (Poly1305): the Mac tags, verifies or streams exactly one message; any second
   * use throws KEY_REUSED.
   */
  readonly oneTime?: boolean;
  /** "tuple": tagFields uses SP 800-185's TupleHash encoding (KMAC) instead of keyed's own. */
  readonly fieldEncoding?: "tuple";
  /** Option names the algorithm accepts beyond the common ones (e.g. "customization"). */
  readonly extraOptions?: readonly (keyof MacOptions)[];
  /**
   * True when `createKernel` copies or derives everything it keeps from `key` during the call and
   * keeps no reference to it: it is then given the caller's bytes, not a copy of keyed's own (one
   * allocation, copy and wipe less per key, which one-time keys pay per message).
   */
  readonly copiesKey?: boolean;
  /** Builds the prepared key. `key` is keyed's own copy (unless `copiesKey`), wiped after this returns. */
  createKernel(key: Bytes, outputLength: number, options: MacOptions): MacKernel;
}

// --- policy --------------------------------------------------------------------------------------

/** Keys shorter than this are refused unless `allowShortKeys` (128-bit security, SP 800-107r1). */
export const MIN_KEY_LENGTH = 16;
/** Tags are never shorter than this, whatever the options (SP 800-107r1 section 5.3.3: 32 bits). */
export const ABSOLUTE_MIN_TAG_LENGTH = 4;
/** The default shortest tag without `allowShortTags`: 80 bits (RFC 2104 section 5). */
export const DEFAULT_SAFE_MIN_TAG_LENGTH = 10;

const COMMON_OPTIONS: readonly string[] = ["tagLength", "allowShortKeys", "allowShortTags"];

const NO_OPTIONS: MacOptions = Object.freeze({});

/** Checks `mac()`'s options against the common names and the algorithm's own (BAD_INPUT). */
export function checkMacOptions(algorithm: MacAlgorithm, options: unknown): MacOptions {
  if (options === undefined) return NO_OPTIONS;
  const allowed = [...COMMON_OPTIONS, ...(algorithm.extraOptions ?? [])];
  const o = checkOptions<MacOptions>(options, allowed, `${algorithm.name} options`);
  for (const flag of ["allowShortKeys", "allowShortTags"] as const) {
    if (o[flag] !== undefined && typeof o[flag] !== "boolean") {
      throw new KeyedError("BAD_INPUT", `options.${flag} must be true or false.`);
    }
  }
  return o;
}

/** Applies the key rule; throws KEY_LENGTH or KEY_TOO_SHORT. */
export function checkKey(algorithm: MacAlgorithm, key: Bytes, options: MacOptions): void {
  const rule = algorithm.key;
  const allowed =
    rule.kind === "fixed"
      ? key.length === rule.length
      : key.length >= (rule.minimum ?? MIN_KEY_LENGTH) || options.allowShortKeys === true;
  // Refused elsewhere, so that this check stays small enough for V8 to inline (a key per message).
  if (!allowed) throw keyLengthError(algorithm, key.length);
}

/** checkKey's refusal for a key of `length` bytes. */
function keyLengthError(algorithm: MacAlgorithm, length: number): KeyedError {
  const rule = algorithm.key;
  if (rule.kind === "fixed") {
    return new KeyedError(
      "KEY_LENGTH",
      `${algorithm.name} takes a key of exactly ${rule.length} bytes; got ${length}.`,
    );
  }
  const minimum = rule.minimum ?? MIN_KEY_LENGTH;
  return new KeyedError(
    "KEY_TOO_SHORT",
    `${algorithm.name} keys must be at least ${minimum} bytes (${minimum * 8} bits); got ${length}. ` +
      "Use randomBytes(32) for a new key, or set allowShortKeys for test vectors and legacy protocols.",
  );
}

/** Applies the tag rule to `options.tagLength`; returns the tag length to use. */
export function resolveTagLength(algorithm: MacAlgorithm, options: MacOptions): number {
  const rule = algorithm.tag;
  if (options.tagLength === undefined) return rule.full;
  const length = assertInteger(options.tagLength, "options.tagLength", 0, Number.MAX_SAFE_INTEGER);
  if (length > rule.maximum) {
    throw new KeyedError(
      "TAG_LENGTH",
      `${algorithm.name} tags are at most ${rule.maximum} bytes; tagLength was ${length}.`,
    );
  }
  if (length < ABSOLUTE_MIN_TAG_LENGTH) {
    throw new KeyedError(
      "TAG_LENGTH",
      `tags shorter than ${ABSOLUTE_MIN_TAG_LENGTH} bytes are never accepted (SP 800-107r1 5.3.3); ` +
        `tagLength was ${length}.`,
    );
  }
  if (rule.allowed && !rule.allowed.includes(length)) {
    throw new KeyedError(
      "TAG_LENGTH",
      `${algorithm.name} tags may be ${rule.allowed.join(", ")} bytes (${rule.basis}); tagLength was ${length}.`,
    );
  }
  if (length < rule.safeMinimum && !options.allowShortTags) {
    throw new KeyedError(
      "TAG_LENGTH",
      `${algorithm.name} tags shorter than ${rule.safeMinimum} bytes need allowShortTags ` +
        `(${rule.basis}); tagLength was ${length}. A short tag can be guessed: each try succeeds ` +
        `with probability 2^-${8 * length}.`,
    );
  }
  return length;
}
