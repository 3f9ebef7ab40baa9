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
import type { Mac, MacKernel, MacName, MacVerifyingStream } from "../core/mac.js";
import { checkOptions, describeType } from "../core/options.js";
import { randomBytes } from "../core/random.js";
import { redactKeyMaterial } from "../core/redact.js";
import { type JwkSet, parseJwks, writeJwks } from "./jwk.js";
import { parseKeyedJson, writeKeyedJson } from "./keyset-json.js";
import {
  checkKeyCount,
  formatError,
  type KeyRecord,
  type KeysetRecord,
  MAX_KEYS,
  type OutputPrefix,
  wipeRecord,
} from "./keyset-record.js";
import { parseTinkBinary, parseTinkJson, writeTinkBinary, writeTinkJson } from "./tink.js";

export type { KeyInfo, KeysetKeyOptions, KeysetStream } from "./keyset-entry.js";
export { PREFIX_LENGTH } from "./keyset-entry.js";
export type { KeyStatus, OutputPrefix } from "./keyset-record.js";

import { KEYSET_ACCESS, type KeysetView } from "./keyset-access.js";
import {
  checkKid,
  checkOut,
  checkPrefix,
  Entry,
  type KeyInfo,
  type KeysetKeyOptions,
  type KeysetStream,
  KeysetTagStream,
  KeysetVerifyingStream,
  PREFIX_LENGTH,
  prefixKey,
} from "./keyset-entry.js";

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

  /** The view protocol code uses (safe/keyset-access.ts), made on first use. */
  #view: KeysetView | undefined;

  /** @internal The keyset as protocol code sees it (seal/open, JWT, webhooks). */
  [KEYSET_ACCESS](): KeysetView {
    if (this.#view === undefined) {
      const keyset = this;
      this.#view = {
        get primaryId() {
          return keyset.primaryId;
        },
        keys: () => keyset.keys(),
        get: (idOrKid) => keyset.get(idOrKid),
        kernel: (idOrKid) => keysetKernel(keyset, idOrKid),
        keyBytes: (idOrKid) => keysetKeyBytes(keyset, idOrKid),
      };
    }
    return this.#view;
  }

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
    if (this.#prefixedEntry(tag)?.verifyTag(message, tag)) return true;
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
    const entry = this.#prefixedEntry(tag);
    if (entry !== undefined) found.push(entry);
    found.push(...this.#raw);
    return found;
  }

  /** The key a tag's 5-byte prefix names (version byte 0 or 1, then the key id), if any. */
  #prefixedEntry(tag: Bytes): Entry | undefined {
    if (tag[0] > 1) return undefined;
    const id = ((tag[1] << 24) | (tag[2] << 16) | (tag[3] << 8) | tag[4]) >>> 0;
    return this.#prefixed.get(prefixKey(tag[0], id));
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

/** @internal The kernel of the enabled key with this id or `kid` (its full output), or undefined; owned by the keyset. */
export function keysetKernel(keyset: Keyset, idOrKid: number | string): MacKernel | undefined {
  const entry = lookup(keyset, idOrKid);
  return entry?.status === "enabled" ? entry.kernel : undefined;
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
