/**
 * One key of a keyset (its prefix, its prepared Mac, its state), the helpers that check what a
 * key is given, and the keyset's streams. The Keyset class (keyset.ts) holds the entries.
 */
import { assertBytes, type Bytes, copyBytes } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import { encodeFields, encodeFieldsTuple, type Field } from "../core/fields.js";
import type { Mac, MacKernel, MacName, MacStream, MacVerifyingStream } from "../core/mac.js";
import { describeType, didYouMean } from "../core/options.js";
import type { PreparedMac } from "../core/prepared-mac.js";
import { redactKeyMaterial } from "../core/redact.js";
import { mac, macAlgorithm, macInfo } from "../mac/registry.js";
import { generateKey } from "./keys.js";
import {
  formatError,
  type KeyRecord,
  type KeyStatus,
  OUTPUT_PREFIXES,
  type OutputPrefix,
} from "./keyset-record.js";

export type { KeyStatus, OutputPrefix } from "./keyset-record.js";

/** Bytes of a non-raw prefix: one version byte and the 4-byte key id. */
export const PREFIX_LENGTH = 5;
/** What a legacy key appends to the message before taking its MAC. */
const LEGACY_SUFFIX = Uint8Array.of(0);

/** One key of a keyset as `keys()` lists it: never the key bytes. */
export interface KeyInfo {
  /** The key id, a 32-bit unsigned integer (in the prefix of tink, legacy and crunchy tags). */
  readonly id: number;
  /** The id as JOSE names it (`kid`): the decimal key id unless the key came with its own. */
  readonly kid: string;
  /** The MAC; undefined only for a destroyed key read from a file without its key data. */
  readonly algorithm: MacName | undefined;
  /** Bytes of MAC in each tag (the prefix not counted); undefined as `algorithm` is. */
  readonly tagLength: number | undefined;
  /** Where the key id goes in a tag: tink, legacy, crunchy or raw (none). */
  readonly prefix: OutputPrefix;
  /** enabled (tags if primary, verifies), disabled (neither; reversible) or destroyed. */
  readonly status: KeyStatus;
  /** True for the key `tag` uses. */
  readonly primary: boolean;
}

/** Settings of a key added to a keyset (`add`, `fromKey`). */
export interface KeysetKeyOptions {
  /** "tink" (default), "legacy", "crunchy" or "raw". */
  prefix?: OutputPrefix;
  /** The key bytes (keyed keeps its own copy); default: a fresh `generateKey(name)`. */
  key?: Bytes;
  /** Bytes of MAC per tag; default the algorithm's full tag. Policy as in `mac()`. */
  tagLength?: number;
  /** The key id (0 to 2^32 - 1); default a random non-zero id not yet in the keyset. */
  id?: number;
  /** The JOSE `kid`; default the decimal id. */
  kid?: string;
}

/** A stream that tags with the primary key: `digest()` gives prefix ‖ MAC. */
export interface KeysetStream {
  /** Adds `chunk` to the message. */
  update(chunk: Bytes): this;
  /** The primary's tag of everything added (prefix included); the stream is then finished. */
  digest(out?: Bytes): Bytes;
}

/** One key inside a keyset. */
export class Entry {
  readonly id: number;
  readonly kid: string;
  readonly algorithm: MacName | undefined;
  readonly tagLength: number | undefined;
  readonly prefix: OutputPrefix;
  status: KeyStatus;
  /** keyed's copy of the key, for the writers; wiped and dropped on destroy. */
  key: Uint8Array | undefined;
  /** Prepared once; destroyed (and dropped) on destroy. */
  mac: Mac | undefined;
  /** The Mac's kernel, for the tagging fast path; dropped with the Mac. */
  kernel: MacKernel | undefined;
  /** The 5-byte prefix, or empty for raw keys. */
  readonly header: Uint8Array;
  /** prefix + MAC bytes of one tag. */
  readonly outputLength: number;
  /** The prefix, then room for the kernel's full output: tags are made here, then copied. */
  readonly staged: Uint8Array;
  /** The kernel's part of `staged` (its full output; a truncated tag is the leftmost bytes). */
  readonly stagedBody: Uint8Array;
  /** The tag's part of `staged` after the prefix (streams digest exactly tagLength bytes). */
  readonly stagedTag: Uint8Array;
  readonly encode: (purpose: string, fields: readonly Field[]) => Uint8Array;
  readonly legacy: boolean;

  constructor(record: KeyRecord, kid: string) {
    this.id = record.id;
    this.kid = kid;
    this.prefix = record.prefix;
    this.status = record.status;
    this.legacy = record.prefix === "legacy";
    this.header = prefixBytes(record.prefix, record.id);
    if (record.status === "destroyed") {
      this.algorithm = record.algorithm;
      this.tagLength = record.tagLength;
      this.key = undefined;
      this.mac = undefined;
      this.kernel = undefined;
      this.encode = encodeFields;
    } else {
      const name = record.algorithm;
      if (name === undefined) throw formatError(`key ${record.id} has no algorithm.`);
      const algorithm = keysetAlgorithm(name);
      const key = record.key ?? generateKey(name);
      const options = record.tagLength === undefined ? undefined : { tagLength: record.tagLength };
      try {
        this.mac = mac(name, key, options);
        this.key = copyBytes(key);
      } finally {
        if (record.key === undefined) key.fill(0);
      }
      const info = macInfo(name);
      if (this.mac.tagLength < info.minTagLength) {
        this.mac.destroy();
        this.key.fill(0);
        throw new KeyedError(
          "TAG_LENGTH",
          `${name} tags are ${this.mac.tagLength} bytes, under the ${info.minTagLength}-byte minimum ` +
            "keyed verifies (RFC 2104 section 5), and a keyset verifies every tag it is given; " +
            `use ${name}-128 or an HMAC.`,
        );
      }
      this.algorithm = name;
      this.tagLength = this.mac.tagLength;
      this.kernel = (this.mac as PreparedMac).kernel;
      this.encode = algorithm.fieldEncoding === "tuple" ? encodeFieldsTuple : encodeFields;
    }
    this.outputLength = this.header.length + (this.tagLength ?? 0);
    const n = this.header.length;
    this.staged = new Uint8Array(n + (this.kernel?.outputLength ?? 0));
    this.staged.set(this.header);
    this.stagedBody = this.staged.subarray(n);
    this.stagedTag = this.staged.subarray(n, n + (this.tagLength ?? 0));
  }

  /**
   * prefix ‖ MAC of `message` (already checked), into `out` (exactly outputLength bytes) or a new
   * array. A prefixed tag goes straight to the prepared kernel, which writes behind the prefix in
   * `staged` (keysets hold no nonce or one-time MACs, and a destroyed key has no kernel); the
   * tag is then one copy of `staged`, so the keyset costs little more than the Mac itself.
   */
  tag(message: Bytes, out: Bytes | undefined): Bytes {
    const kernel = this.kernel;
    if (kernel === undefined) {
      throw new KeyedError("DESTROYED", "this keyset was wiped; load it again to go on.");
    }
    if (this.header.length === 0) return this.mac!.tag(message, out);
    if (this.legacy) {
      this.mac!.stream().update(message).update(LEGACY_SUFFIX).digest(this.stagedTag);
    } else {
      kernel.compute(message, this.stagedBody);
    }
    const staged = this.staged;
    if (out === undefined) return staged.slice(0, this.outputLength);
    if (staged.length === out.length) out.set(staged);
    else for (let i = 0; i < out.length; i++) out[i] = staged[i];
    return out;
  }

  /** Checks a whole tag (prefix included, already matched) against `message`. */
  verifyTag(message: Bytes, tag: Bytes): boolean {
    const m = this.mac;
    if (m === undefined) return false; // a wiped keyset (wipeKeyset)
    if (this.header.length === 0) return m.verify(message, tag);
    const part = tag.subarray(PREFIX_LENGTH);
    if (!this.legacy) return m.verify(message, part);
    return m.verifyingStream(part).update(message).update(LEGACY_SUFFIX).verify();
  }

  info(primary: boolean): KeyInfo {
    return {
      id: this.id,
      kid: this.kid,
      algorithm: this.algorithm,
      tagLength: this.tagLength,
      prefix: this.prefix,
      status: this.status,
      primary,
    };
  }

  wipe(): void {
    this.mac?.destroy();
    this.key?.fill(0);
    this.staged.fill(0);
    this.mac = undefined;
    this.kernel = undefined;
    this.key = undefined;
  }
}

export function prefixBytes(prefix: OutputPrefix, id: number): Uint8Array {
  if (prefix === "raw") return new Uint8Array(0);
  return Uint8Array.of(prefix === "tink" ? 1 : 0, id >>> 24, id >>> 16, id >>> 8, id);
}

/** The Map key of a prefix: its first byte (0 or 1) and the key id, as one number. */
export function prefixKey(first: number, id: number): number {
  return first * 0x100000000 + id;
}

/** The algorithm record, or KEY_UNSUPPORTED for MACs a keyset cannot hold. */
export function keysetAlgorithm(name: MacName) {
  const algorithm = macAlgorithm(name);
  if (algorithm.oneTime) {
    throw new KeyedError(
      "KEY_UNSUPPORTED",
      `${name} keys are one-time (one message per key), and a keyset's keys tag many messages; ` +
        "use hmac-sha256, blake3 or kmac256 in a keyset.",
    );
  }
  if (algorithm.nonceLength !== undefined) {
    throw new KeyedError(
      "KEY_UNSUPPORTED",
      `${name} draws a random nonce for every tag and allows a limited number of tags per key; a ` +
        "keyset holds deterministic MACs only (HMAC, CMAC, KMAC, BLAKE3, SipHash-128).",
    );
  }
  return algorithm;
}

export function checkPrefix(prefix: unknown): OutputPrefix {
  if (typeof prefix === "string" && (OUTPUT_PREFIXES as readonly string[]).includes(prefix)) {
    return prefix as OutputPrefix;
  }
  const shown = typeof prefix === "string" ? JSON.stringify(prefix) : describeType(prefix);
  const hint = typeof prefix === "string" ? didYouMean(prefix, OUTPUT_PREFIXES) : "";
  throw new KeyedError(
    "BAD_INPUT",
    `prefix must be one of ${OUTPUT_PREFIXES.join(", ")}; got ${shown}${hint}.`,
  );
}

export function checkKid(kid: unknown): string {
  if (typeof kid !== "string" || kid === "" || kid.length > 256) {
    throw new KeyedError(
      "BAD_INPUT",
      `kid must be a non-empty string of at most 256 characters; got ${describeType(kid)}.`,
    );
  }
  return kid;
}

export function checkOut(out: Bytes, length: number): void {
  assertBytes(out, "out");
  if (out.length !== length) {
    throw new KeyedError(
      "BAD_INPUT",
      `out must be exactly the keyset's tagLength (${length} bytes); got ${out.length}.`,
    );
  }
}

export class KeysetTagStream implements KeysetStream {
  readonly #entry: Entry;
  readonly #inner: MacStream;

  constructor(entry: Entry) {
    this.#entry = entry;
    this.#inner = entry.mac!.stream();
  }

  update(chunk: Bytes): this {
    this.#inner.update(chunk);
    return this;
  }

  digest(out?: Bytes): Bytes {
    const entry = this.#entry;
    if (out === undefined) out = new Uint8Array(entry.outputLength);
    else checkOut(out, entry.outputLength);
    if (entry.legacy) this.#inner.update(LEGACY_SUFFIX);
    if (entry.header.length === 0) return this.#inner.digest(out);
    this.#inner.digest(entry.stagedTag);
    out.set(entry.staged.subarray(0, entry.outputLength));
    return out;
  }
}

redactKeyMaterial(KeysetTagStream);

export class KeysetVerifyingStream implements MacVerifyingStream {
  readonly #streams: { stream: MacVerifyingStream; legacy: boolean }[];

  constructor(candidates: readonly Entry[], tag: Bytes) {
    this.#streams = candidates.map((entry) => ({
      stream: entry.mac!.verifyingStream(
        entry.header.length === 0 ? tag : tag.subarray(PREFIX_LENGTH),
      ),
      legacy: entry.legacy,
    }));
  }

  update(chunk: Bytes): this {
    for (const { stream } of this.#streams) stream.update(chunk);
    return this;
  }

  /** True when any candidate key verifies; every candidate finishes either way. */
  verify(): boolean {
    let ok = false;
    for (const { stream, legacy } of this.#streams) {
      if (legacy) stream.update(LEGACY_SUFFIX);
      if (stream.verify()) ok = true;
    }
    return ok;
  }
}

redactKeyMaterial(KeysetVerifyingStream);
