/**
 * Keysets: several keys, each with a 32-bit id, one of them primary, so that a key can be
 * replaced without a flag day (add the new key, promote it, retire the old one). The design and
 * the tag format are Google Tink's (developers.google.com/tink, "Keysets" and "Wire format"):
 *
 *     tink     0x01 ‖ key id (4 bytes, big-endian) ‖ MAC(message)
 *     crunchy  0x00 ‖ key id ‖ MAC(message)
 *     legacy   0x00 ‖ key id ‖ MAC(message ‖ 0x00)
 *     raw      MAC(message)
 *
 * `tag` uses the primary key. `verify` follows Tink's rules (tink-java mac/internal/
 * WrappedMac.java, tink-go mac/mac_factory.go, tink-py mac/_mac_wrapper.py): a tag of 5 bytes or
 * fewer is false; otherwise the enabled key whose prefix equals the tag's first 5 bytes is tried,
 * then every enabled raw key on the whole tag (a raw tag may happen to start like a prefix). The
 * prefix and the key id are public; each MAC comparison is constant time (Mac.verify).
 *
 * Every key passes the policy of `mac()` (key and tag lengths); Poly1305's one-time keys and the
 * MACs that draw a nonce per tag are refused. Each key's Mac is prepared once, when the key enters
 * the keyset. docs/keysets.md has the formats, the rules and a rotation walk-through.
 */
import { assertBytes, assertInteger, type Bytes, copyBytes } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import { encodeFields, encodeFieldsTuple, type Field } from "../core/fields.js";
import type {
  Mac,
  MacKernel,
  MacName,
  MacStream,
  MacVerifyingStream,
  PreparedMac,
} from "../core/mac.js";
import { checkOptions, describeType, didYouMean } from "../core/options.js";
import { randomBytes } from "../core/random.js";
import { redactKeyMaterial } from "../core/redact.js";
import { mac, macAlgorithm, macInfo } from "../mac/registry.js";
import { type JwkSet, parseJwks, writeJwks } from "./jwk.js";
import { generateKey } from "./keys.js";
import { parseKeyedJson, writeKeyedJson } from "./keyset-json.js";
import {
  checkKeyCount,
  formatError,
  type KeyRecord,
  type KeyStatus,
  type KeysetRecord,
  MAX_KEYS,
  OUTPUT_PREFIXES,
  type OutputPrefix,
  wipeRecord,
} from "./keyset-record.js";
import { parseTinkBinary, parseTinkJson, writeTinkBinary, writeTinkJson } from "./tink.js";

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

/** Settings of `Keyset.generate`. */
export interface GenerateKeysetOptions {
  /** The first key's output prefix (default "tink"). */
  prefix?: OutputPrefix;
  /** Its tag length (default: the MAC's full tag), under `mac()`'s policy. */
  tagLength?: number;
}

/** Settings of `Keyset.fromJwks`. */
export interface JwksOptions {
  /** The `kid` of the key to make primary; default the set's first key. */
  primary?: string;
}

/** A stream that tags with the primary key: `digest()` gives prefix ‖ MAC. */
export interface KeysetStream {
  /** Adds `chunk` to the message. */
  update(chunk: Bytes): this;
  /** The primary's tag of everything added (prefix included); the stream is then finished. */
  digest(out?: Bytes): Bytes;
}

/** One key inside a keyset. */
class Entry {
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

function prefixBytes(prefix: OutputPrefix, id: number): Uint8Array {
  if (prefix === "raw") return new Uint8Array(0);
  return Uint8Array.of(prefix === "tink" ? 1 : 0, id >>> 24, id >>> 16, id >>> 8, id);
}

/** The Map key of a prefix: its first byte (0 or 1) and the key id, as one number. */
function prefixKey(first: number, id: number): number {
  return first * 0x100000000 + id;
}

/** The algorithm record, or KEY_UNSUPPORTED for MACs a keyset cannot hold. */
function keysetAlgorithm(name: MacName) {
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

function checkPrefix(prefix: unknown): OutputPrefix {
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

function checkKid(kid: unknown): string {
  if (typeof kid !== "string" || kid === "" || kid.length > 256) {
    throw new KeyedError(
      "BAD_INPUT",
      `kid must be a non-empty string of at most 256 characters; got ${describeType(kid)}.`,
    );
  }
  return kid;
}

function checkOut(out: Bytes, length: number): void {
  assertBytes(out, "out");
  if (out.length !== length) {
    throw new KeyedError(
      "BAD_INPUT",
      `out must be exactly the keyset's tagLength (${length} bytes); got ${out.length}.`,
    );
  }
}

function notFound(id: unknown): KeyedError {
  const shown = typeof id === "number" || typeof id === "string" ? String(id) : describeType(id);
  return new KeyedError("KEY_NOT_FOUND", `no key with id ${shown} in this keyset.`);
}

/** Set by the class's static block: the entries, for this module's internal accessors. */
let entriesOf: (keyset: Keyset) => ReadonlyMap<number, Entry>;
let kidsOf: (keyset: Keyset) => ReadonlyMap<string, Entry>;
let fromRecord: (record: KeysetRecord, what: string) => Keyset;

/** Several keys, one of them primary, with Tink's key ids, prefixes and key states: tags are made with the primary, and verify under any enabled key (docs/keysets.md). */
export class Keyset {
  /** Every key by id, in the order they were added (or read). */
  readonly #byId = new Map<number, Entry>();
  readonly #byKid = new Map<string, Entry>();
  /** Enabled keys with a prefix, by prefixKey: at most one per prefix, since ids are unique. */
  #prefixed = new Map<number, Entry>();
  /** Enabled raw keys, in keyset order. */
  #raw: Entry[] = [];
  #primary!: Entry;

  static {
    entriesOf = (keyset) => keyset.#byId;
    kidsOf = (keyset) => keyset.#byKid;
    fromRecord = (record, what) => Keyset.#fromRecord(record, what);
  }

  private constructor() {}

  /** A keyset with one fresh primary key of MAC `name` (prefix "tink" unless given). */
  static generate(name: MacName, options?: GenerateKeysetOptions): Keyset {
    const o = checkOptions<GenerateKeysetOptions>(
      options,
      ["prefix", "tagLength"],
      "Keyset.generate options",
    );
    const keyset = new Keyset();
    keyset.#primary = keyset.#insert(name, o);
    keyset.#reindex();
    return keyset;
  }

  /** A keyset whose one key, the primary, is `key` for MAC `name` (a test vector, a known key). */
  static fromKey(name: MacName, key: Bytes, options?: Omit<KeysetKeyOptions, "key">): Keyset {
    assertBytes(key, "key");
    const o = checkOptions<KeysetKeyOptions>(
      options,
      ["prefix", "tagLength", "id", "kid"],
      "Keyset.fromKey options",
    );
    const keyset = new Keyset();
    keyset.#primary = keyset.#insert(name, { ...o, key });
    keyset.#reindex();
    return keyset;
  }

  /** A Tink keyset in Tink's JSON format (cleartext), HmacKey and AesCmacKey keys. */
  static fromTinkJson(text: string): Keyset {
    return Keyset.#fromRecord(parseTinkJson(text), "the Tink keyset");
  }

  /** A Tink keyset in Tink's binary (protobuf) format. */
  static fromTinkBinary(bytes: Bytes): Keyset {
    return Keyset.#fromRecord(parseTinkBinary(bytes), "the Tink keyset");
  }

  /**
   * A JWK Set (RFC 7517 section 5) of `kty: "oct"` keys with `alg` HS256, HS384 or HS512, as an
   * object or as JSON text. Keys are raw-prefix HMAC keys with full tags; a numeric `kid` becomes
   * the key id, any other a random id (the `kid` is kept). The primary is `options.primary` or the
   * set's first key.
   */
  static fromJwks(jwks: JwkSet | string, options?: JwksOptions): Keyset {
    const o = checkOptions<JwksOptions>(options, ["primary"], "Keyset.fromJwks options");
    return Keyset.#fromRecord(parseJwks(jwks, o.primary), "the JWK Set");
  }

  /** A keyset in keyed's own JSON format (`toKeyedJson`), which holds every keyset MAC. */
  static fromKeyedJson(text: string): Keyset {
    return Keyset.#fromRecord(parseKeyedJson(text), "the keyset");
  }

  static #fromRecord(record: KeysetRecord, what: string): Keyset {
    try {
      if (record.keys.length === 0) throw formatError(`${what} holds no keys.`);
      checkKeyCount(record.keys.length, what);
      const ids = new Set<number>();
      const kids = new Set<string>();
      for (const key of record.keys) {
        if (ids.has(key.id)) throw formatError(`${what} holds key id ${key.id} twice.`);
        ids.add(key.id);
        const kid = key.kid ?? String(key.id);
        if (kids.has(kid)) throw formatError(`${what} holds kid ${JSON.stringify(kid)} twice.`);
        kids.add(kid);
      }
      const primary = record.keys.find((key) => key.id === record.primaryId);
      if (record.primaryId === undefined) {
        throw new KeyedError("KEYSET_PRIMARY", `${what} names no primary key.`);
      }
      if (primary === undefined) {
        throw new KeyedError(
          "KEYSET_PRIMARY",
          record.primaryId === 0
            ? `${what} names no primary key (its primary key id is absent or 0).`
            : `${what} names primary key ${record.primaryId}, which it does not hold.`,
        );
      }
      if (primary.status !== "enabled") {
        throw new KeyedError(
          "KEYSET_PRIMARY",
          `${what}'s primary key ${primary.id} is ${primary.status}; the primary must be enabled.`,
        );
      }
      const keyset = new Keyset();
      try {
        for (const key of record.keys) keyset.#put(new Entry(key, key.kid ?? String(key.id)));
      } catch (error) {
        for (const entry of keyset.#byId.values()) entry.wipe();
        throw error;
      }
      keyset.#primary = keyset.#byId.get(primary.id)!;
      keyset.#reindex();
      return keyset;
    } finally {
      wipeRecord(record);
    }
  }

  #put(entry: Entry): void {
    this.#byId.set(entry.id, entry);
    this.#byKid.set(entry.kid, entry);
  }

  /** Checks and adds one new enabled key; returns its entry. */
  #insert(name: MacName, options: KeysetKeyOptions): Entry {
    if (this.#byId.size >= MAX_KEYS) {
      throw new KeyedError("BAD_INPUT", `a keyset holds at most ${MAX_KEYS} keys.`);
    }
    const prefix = checkPrefix(options.prefix ?? "tink");
    if (options.key !== undefined) assertBytes(options.key, "options.key");
    let id: number;
    if (options.id !== undefined) {
      id = assertInteger(options.id, "options.id", 0, 0xffffffff);
      if (this.#byId.has(id)) {
        throw new KeyedError("BAD_INPUT", `key id ${id} is already in this keyset.`);
      }
    } else {
      id = this.#freshId();
    }
    const kid = options.kid === undefined ? String(id) : checkKid(options.kid);
    if (this.#byKid.has(kid)) {
      throw new KeyedError("BAD_INPUT", `kid ${JSON.stringify(kid)} is already in this keyset.`);
    }
    const entry = new Entry(
      {
        id,
        algorithm: name,
        tagLength: options.tagLength,
        prefix,
        status: "enabled",
        key: options.key,
      },
      kid,
    );
    this.#put(entry);
    return entry;
  }

  /** A random non-zero 32-bit id that no key of this keyset has (nor uses as its kid). */
  #freshId(): number {
    for (;;) {
      const draw = randomBytes(4);
      const id = ((draw[0] << 24) | (draw[1] << 16) | (draw[2] << 8) | draw[3]) >>> 0;
      if (id !== 0 && !this.#byId.has(id) && !this.#byKid.has(String(id))) return id;
    }
  }

  /** Rebuilds the verification indexes after a change of keys or states. */
  #reindex(): void {
    const prefixed = new Map<number, Entry>();
    const raw: Entry[] = [];
    for (const entry of this.#byId.values()) {
      if (entry.status !== "enabled") continue;
      if (entry.header.length === 0) raw.push(entry);
      else prefixed.set(prefixKey(entry.header[0], entry.id), entry);
    }
    this.#prefixed = prefixed;
    this.#raw = raw;
  }

  #entry(id: number): Entry {
    const entry = typeof id === "number" ? this.#byId.get(id) : undefined;
    if (entry === undefined) throw notFound(id);
    return entry;
  }

  // --- managing keys -----------------------------------------------------------------------------

  /** Adds a key (enabled, not primary) of MAC `name`; returns its id. */
  add(name: MacName, options?: KeysetKeyOptions): number {
    const o = checkOptions<KeysetKeyOptions>(
      options,
      ["prefix", "key", "tagLength", "id", "kid"],
      "Keyset.add options",
    );
    const entry = this.#insert(name, o);
    this.#reindex();
    return entry.id;
  }

  /** Makes key `id` the one `tag` uses; it must be enabled. */
  setPrimary(id: number): void {
    const entry = this.#entry(id);
    if (entry.status !== "enabled") {
      throw new KeyedError(
        "KEYSET_PRIMARY",
        `key ${id} is ${entry.status}; only an enabled key can be primary${entry.status === "disabled" ? " (enable it first)" : ""}.`,
      );
    }
    this.#primary = entry;
  }

  /** Stops key `id` from verifying (it keeps its bytes and can be enabled again). */
  disable(id: number): void {
    const entry = this.#entry(id);
    if (entry === this.#primary) {
      throw new KeyedError(
        "KEYSET_PRIMARY",
        `key ${id} is the primary; promote another key before disabling it.`,
      );
    }
    if (entry.status === "destroyed") {
      throw new KeyedError("DESTROYED", `key ${id} was destroyed; it cannot be disabled.`);
    }
    entry.status = "disabled";
    this.#reindex();
  }

  /** Lets a disabled key `id` verify again. */
  enable(id: number): void {
    const entry = this.#entry(id);
    if (entry.status === "destroyed") {
      throw new KeyedError(
        "DESTROYED",
        `key ${id} was destroyed: its bytes are gone and it cannot be enabled again.`,
      );
    }
    entry.status = "enabled";
    this.#reindex();
  }

  /**
   * Wipes key `id`'s bytes and prepared state for good; the id stays listed as destroyed (so it
   * is never reused, and a tag with it is refused). The primary cannot be destroyed.
   */
  destroy(id: number): void {
    const entry = this.#entry(id);
    if (entry === this.#primary) {
      throw new KeyedError(
        "KEYSET_PRIMARY",
        `key ${id} is the primary; promote another key before destroying it.`,
      );
    }
    entry.wipe();
    entry.status = "destroyed";
    this.#reindex();
  }

  /** The id of the key `tag` uses. */
  get primaryId(): number {
    return this.#primary.id;
  }

  /** Bytes of a tag from `tag`: the primary's prefix and MAC. */
  get tagLength(): number {
    return this.#primary.outputLength;
  }

  /** Every key, in keyset order: ids, algorithms, prefixes and states, never the key bytes. */
  keys(): KeyInfo[] {
    return [...this.#byId.values()].map((entry) => entry.info(entry === this.#primary));
  }

  /** The key with this id (a number) or JOSE `kid` (a string), or undefined. */
  get(idOrKid: number | string): KeyInfo | undefined {
    const entry =
      typeof idOrKid === "number" ? this.#byId.get(idOrKid) : this.#byKid.get(String(idOrKid));
    return entry?.info(entry === this.#primary);
  }

  // --- formats -----------------------------------------------------------------------------------

  /** Tink's JSON keyset format; HmacKey and AesCmacKey only (KEY_UNSUPPORTED otherwise). */
  toTinkJson(): string {
    return withRecord(this, writeTinkJson);
  }

  /** Tink's binary keyset format (the same keys as toTinkJson). */
  toTinkBinary(): Uint8Array {
    return withRecord(this, writeTinkBinary);
  }

  /** A JWK Set of the enabled keys (HMAC-SHA-256/384/512 with full tags only), primary first. */
  toJwks(): JwkSet {
    return withRecord(this, writeJwks);
  }

  /** keyed's own JSON format: every keyset MAC, with states and kids. */
  toKeyedJson(): string {
    return withRecord(this, writeKeyedJson);
  }

  // --- tags --------------------------------------------------------------------------------------

  /** The tag of `message` with the primary key: prefix ‖ MAC (`out`: exactly `tagLength` bytes). */
  tag(message: Bytes, out?: Bytes): Bytes {
    assertBytes(message, "message");
    const primary = this.#primary;
    if (out !== undefined) checkOut(out, primary.outputLength);
    return primary.tag(message, out);
  }

  /**
   * True when an enabled key made `tag` for `message` (Tink's selection rules; see the module
   * comment). Any tag bytes give a boolean, never an exception.
   */
  verify(message: Bytes, tag: Bytes): boolean {
    assertBytes(message, "message");
    assertBytes(tag, "tag");
    if (tag.length <= PREFIX_LENGTH) return false;
    const first = tag[0];
    if (first <= 1) {
      const id = ((tag[1] << 24) | (tag[2] << 16) | (tag[3] << 8) | tag[4]) >>> 0;
      const entry = this.#prefixed.get(prefixKey(first, id));
      if (entry?.verifyTag(message, tag)) return true;
    }
    for (const entry of this.#raw) if (entry.verifyTag(message, tag)) return true;
    return false;
  }

  /** The tag of a message made of fields (docs/fields.md), with the primary key. */
  tagFields(purpose: string, fields: readonly Field[], out?: Bytes): Bytes {
    return this.tag(this.#primary.encode(purpose, fields), out);
  }

  /** `verify` for `tagFields`: each candidate key encodes the fields as its MAC does. */
  verifyFields(purpose: string, fields: readonly Field[], tag: Bytes): boolean {
    assertBytes(tag, "tag");
    const plain = encodeFields(purpose, fields);
    let tuple: Uint8Array | undefined;
    const message = (entry: Entry) =>
      entry.encode === encodeFieldsTuple ? (tuple ??= encodeFieldsTuple(purpose, fields)) : plain;
    for (const entry of this.#candidates(tag)) {
      if (entry.verifyTag(message(entry), tag)) return true;
    }
    return false;
  }

  /** The keys `verify` tries for `tag`, in order. */
  #candidates(tag: Bytes): Entry[] {
    if (tag.length <= PREFIX_LENGTH) return [];
    const found: Entry[] = [];
    if (tag[0] <= 1) {
      const id = ((tag[1] << 24) | (tag[2] << 16) | (tag[3] << 8) | tag[4]) >>> 0;
      const entry = this.#prefixed.get(prefixKey(tag[0], id));
      if (entry !== undefined) found.push(entry);
    }
    found.push(...this.#raw);
    return found;
  }

  /** Incremental input, tagged with the primary key. */
  stream(): KeysetStream {
    return new KeysetTagStream(this.#primary);
  }

  /**
   * Incremental input checked against a tag known before the message (a sum file): the candidate
   * keys are chosen from the tag at once, and every one of them reads the stream.
   */
  verifyingStream(tag: Bytes): MacVerifyingStream {
    assertBytes(tag, "tag");
    return new KeysetVerifyingStream(this.#candidates(tag), tag);
  }
}

redactKeyMaterial(Keyset, (keyset) => ({ primaryId: keyset.primaryId, keys: keyset.keys() }));

class KeysetTagStream implements KeysetStream {
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

class KeysetVerifyingStream implements MacVerifyingStream {
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

// --- for keyed's own protocol code (not exported from the package) --------------------------------

function lookup(keyset: Keyset, idOrKid: number | string): Entry | undefined {
  if (typeof idOrKid === "number") return entriesOf(keyset).get(idOrKid);
  return kidsOf(keyset).get(idOrKid);
}

/**
 * @internal The prepared Mac of the enabled key with this id or `kid`, or undefined (unknown,
 * disabled or destroyed): for protocols whose tag names its key elsewhere (a JWS `kid` header) and
 * so carries no prefix. The Mac belongs to the keyset: do not destroy it.
 */
export function keysetMac(keyset: Keyset, idOrKid: number | string): Mac | undefined {
  const entry = lookup(keyset, idOrKid);
  return entry?.status === "enabled" ? entry.mac : undefined;
}

/** @internal The primary key's id, kid and prepared Mac, for signing (JWS, webhooks). */
export function keysetPrimary(keyset: Keyset): { info: KeyInfo; mac: Mac } {
  const entry = lookup(keyset, keyset.primaryId)!;
  return { info: entry.info(true), mac: entry.mac! };
}

/**
 * @internal A copy of the raw bytes of the enabled key with this id or `kid` (undefined when it
 * is unknown, disabled or destroyed), for protocol code that needs the key itself (a webhook
 * secret, an HS256 key handed to another API). The caller wipes the copy when done.
 */
export function keysetKeyBytes(keyset: Keyset, idOrKid: number | string): Bytes | undefined {
  const entry = lookup(keyset, idOrKid);
  return entry?.status === "enabled" && entry.key !== undefined ? copyBytes(entry.key) : undefined;
}

/** @internal The keyset as a record with copies of the key bytes, for the writers. */
export function keysetRecord(keyset: Keyset): KeysetRecord {
  const keys: KeyRecord[] = [];
  for (const entry of entriesOf(keyset).values()) {
    keys.push({
      id: entry.id,
      kid: entry.kid === String(entry.id) ? undefined : entry.kid,
      algorithm: entry.algorithm,
      tagLength: entry.tagLength,
      prefix: entry.prefix,
      status: entry.status,
      key: entry.key === undefined ? undefined : copyBytes(entry.key),
    });
  }
  return { primaryId: keyset.primaryId, keys };
}

/**
 * @internal A keyset from a record (the keyed CLI sends keysets to its worker threads as records);
 * the record's key bytes are wiped.
 */
export function keysetFromRecord(record: KeysetRecord, what = "the keyset"): Keyset {
  return fromRecord(record, what);
}

/** @internal Wipes every key of `keyset` (primary included): it can't tag or verify after. */
export function wipeKeyset(keyset: Keyset): void {
  for (const entry of entriesOf(keyset).values()) entry.wipe();
}

/** @internal For tests: keyed's own copy of key `id`'s bytes (to check that destroy wipes it). */
export function keysetKeyBuffer(keyset: Keyset, id: number): Uint8Array | undefined {
  return entriesOf(keyset).get(id)?.key;
}

function withRecord<T>(keyset: Keyset, write: (record: KeysetRecord) => T): T {
  const record = keysetRecord(keyset);
  try {
    return write(record);
  } finally {
    wipeRecord(record);
  }
}
