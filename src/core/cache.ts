/**
 * The one bounded cache of prepared keys. A receiver checks many messages under few keys, and
 * preparing a key (HMAC's two padded blocks, SigV4's four chained HMACs) costs more than tagging a
 * short message, so protocol code keeps recently used prepared keys here. Entries are looked up by
 * an id the caller derives from the key (a hash, never the key itself), the least recently used
 * one is wiped when the cache is full, and the cache prints redacted.
 */
import { redactKeyMaterial } from "./redact.js";

/** What a cache holds: anything with key-derived state to wipe when it is evicted or cleared. */
export interface Wipeable {
  wipe(): void;
}

export class PreparedKeyCache<V extends Wipeable> {
  readonly #entries = new Map<string, V>();
  /** How many prepared keys are kept. */
  readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  /** How many prepared keys are held now. */
  get size(): number {
    return this.#entries.size;
  }

  /** The entry for `id`, made by `make` on first use; the least recently used is wiped past the limit. */
  get(id: string, make: () => V): V {
    const entries = this.#entries;
    const cached = entries.get(id);
    if (cached !== undefined) {
      // Re-inserting moves it to the end: Map iterates in insertion order, oldest first.
      entries.delete(id);
      entries.set(id, cached);
      return cached;
    }
    const made = make();
    entries.set(id, made);
    if (entries.size > this.limit) {
      const [oldest, evicted] = entries.entries().next().value as [string, V];
      evicted.wipe();
      entries.delete(oldest);
    }
    return made;
  }

  /** Wipes and forgets every prepared key (after a secret was retired, say). */
  clear(): void {
    for (const entry of this.#entries.values()) entry.wipe();
    this.#entries.clear();
  }
}

redactKeyMaterial(PreparedKeyCache, (self) => ({ size: self.size, limit: self.limit }));
