/**
 * The one bounded cache of prepared keys. A receiver checks many messages under few keys, and
 * preparing a key (HMAC's two padded blocks, SigV4's four chained HMACs) costs more than tagging a
 * short message, so protocol code keeps recently used prepared keys here. The least recently used
 * entry is wiped when the cache is full, and the cache prints redacted.
 *
 * Entries are found in one of two ways:
 * - `get(id, make)`: by an id the caller already has (a secret given as text, say);
 * - `getFor(material, kind, make)`: by the bytes the entry was prepared from (a key, or an
 *   encoding of a key and its scope). A 52-bit fingerprint of them, seeded per process, finds the
 *   entry, and a constant-time comparison with a copy of the bytes kept in the entry confirms it,
 *   so an entry is served only for exactly its bytes. A fingerprint costs ~0.1 µs for a 32-byte
 *   key, where the SHA-256 id it replaces cost 1–2 µs in TypeScript on every lookup. Two byte
 *   strings with one fingerprint (by chance, ~2^-40 for 64 entries; by design, only for someone
 *   who knows the process's seed) take turns in one entry: slower, never wrong.
 */
import { type Bytes, copyBytes } from "./bytes.js";
import { equal } from "./equal.js";
import { fillRandom } from "./random.js";
import { redactKeyMaterial } from "./redact.js";

/** What a cache holds: anything with key-derived state to wipe when it is evicted or cleared. */
export interface Wipeable {
  wipe(): void;
}

interface Entry<V> {
  readonly value: V;
  /** For `getFor` entries: the kind and a copy of the bytes the value was prepared from. */
  readonly kind: number;
  readonly material: Uint8Array | undefined;
}

export class PreparedKeyCache<V extends Wipeable> {
  readonly #entries = new Map<string | number, Entry<V>>();
  /** How many prepared keys are kept. */
  readonly limit: number;
  readonly #fingerprint: (material: Bytes, kind: number) => number;

  /** `fingerprintOf` is for tests (a constant one makes every `getFor` a collision). */
  constructor(
    limit: number,
    fingerprintOf: (material: Bytes, kind: number) => number = fingerprint,
  ) {
    this.limit = limit;
    this.#fingerprint = fingerprintOf;
  }

  /** How many prepared keys are held now. */
  get size(): number {
    return this.#entries.size;
  }

  /** The entry for `id`, made by `make` on first use; the least recently used is wiped past the limit. */
  get(id: string, make: () => V): V {
    const cached = this.#touch(id);
    if (cached !== undefined) return cached.value;
    return this.#insert(id, { value: make(), kind: 0, material: undefined });
  }

  /**
   * The entry prepared from exactly `material` for `kind` (a small integer the caller assigns: an
   * algorithm, say), made by `make` on first use. `material` is copied into the entry (and wiped
   * with it); the caller keeps its own array.
   */
  getFor(material: Bytes, kind: number, make: () => V): V {
    const id = this.#fingerprint(material, kind);
    const cached = this.#touch(id);
    if (cached !== undefined) {
      const kept = cached.material;
      if (kept !== undefined && cached.kind === kind && equal(kept, material)) return cached.value;
      // Same fingerprint, other bytes: the newer bytes take the entry.
      this.#entries.delete(id);
      wipeEntry(cached);
    }
    const value = make();
    return this.#insert(id, { value, kind, material: copyBytes(material) });
  }

  /** Wipes and forgets every prepared key (after a secret was retired, say). */
  clear(): void {
    for (const entry of this.#entries.values()) wipeEntry(entry);
    this.#entries.clear();
  }

  /** The entry under `id`, moved to the most recently used end. */
  #touch(id: string | number): Entry<V> | undefined {
    const entries = this.#entries;
    const cached = entries.get(id);
    if (cached !== undefined) {
      // Re-inserting moves it to the end: Map iterates in insertion order, oldest first.
      entries.delete(id);
      entries.set(id, cached);
    }
    return cached;
  }

  #insert(id: string | number, entry: Entry<V>): V {
    const entries = this.#entries;
    entries.set(id, entry);
    if (entries.size > this.limit) {
      const [oldest, evicted] = entries.entries().next().value as [string | number, Entry<V>];
      wipeEntry(evicted);
      entries.delete(oldest);
    }
    return entry.value;
  }
}

redactKeyMaterial(PreparedKeyCache, (self) => ({ size: self.size, limit: self.limit }));

function wipeEntry(entry: Entry<Wipeable>): void {
  entry.value.wipe();
  entry.material?.fill(0);
}

/** The process's fingerprint seed, drawn on first use. */
let seed: Int32Array | undefined;

/**
 * A 52-bit fingerprint of (kind, material): two 32-bit multiply-rotate lanes over the bytes
 * (finished with murmur3's fmix32), seeded per process. A table index, not a MAC: the entry's
 * copy of the bytes is what decides.
 */
export function fingerprint(material: Bytes, kind: number): number {
  if (seed === undefined) seed = new Int32Array(fillRandom(new Uint8Array(8)).buffer);
  let a = seed[0] ^ kind;
  let b = seed[1] ^ material.length;
  for (let i = 0; i < material.length; i++) {
    const x = material[i];
    a = Math.imul((a ^ x) | 0, 0x9e3779b1);
    a = (a << 13) | (a >>> 19);
    b = Math.imul((b + x) | 0, 0x85ebca77);
    b = (b << 17) | (b >>> 15);
  }
  a = fmix32(a ^ b);
  b = fmix32(b + a);
  return (a >>> 0) * 2 ** 20 + (b >>> 12);
}

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
