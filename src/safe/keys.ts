/**
 * Keys: generation, and key separation — one key per purpose and name, derived from a master key
 * that is itself never used as a MAC key.
 *
 * Why the master key must not double as an HMAC key: HKDF-Expand's first block is
 * HMAC(PRK, info ‖ 0x01). If the same key were used for HKDF and for HMAC tags, anyone who can get
 * a tag on the message info ‖ 0x01 learns a derived key, and anyone who learns a derived key holds
 * a valid tag. One purpose per key rules that out.
 */

import { assertBytes, assertInteger, assertString, type Bytes } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import { encodeFields } from "../core/fields.js";
import type { MacName } from "../core/mac.js";
import { checkOptions, describeType } from "../core/options.js";
import { randomBytes } from "../core/random.js";
import { hkdf } from "../kdf/hkdf.js";
import { deriveKey } from "../mac/blake3.js";
import { macInfo } from "../mac/registry.js";

/** A fresh random key of the size `name` takes (its exact size, else its full tag length). */
export function generateKey(name: MacName): Bytes {
  return randomBytes(macInfo(name).recommendedKeyLength);
}

/** Settings of `deriveKeys`: the purpose and the names of the keys to derive. */
export interface DeriveKeysOptions<N extends string> {
  /** What the keys are for, e.g. "webhooks" or "session tokens v2". */
  purpose: string;
  /** One key per name, e.g. ["client", "server"]. */
  names: readonly N[];
  /** Bytes per key (default 32). */
  length?: number;
  /** "hkdf-sha256" (default; RFC 5869) or "blake3" (BLAKE3 derive_key). */
  method?: "hkdf-sha256" | "blake3";
}

/** The BLAKE3 derive_key context of deriveKeys: fixed, as BLAKE3 asks; purpose and name go in the material. */
const BLAKE3_CONTEXT = "keyed 2026-11-30 deriveKeys v1";
const HKDF_SALT = new TextEncoder().encode("keyed deriveKeys v1");

/**
 * One independent key per name from a master key: HKDF-SHA256 (salt "keyed deriveKeys v1", info
 * the canonical encoding of purpose and name) or BLAKE3 derive_key. Different purposes or names
 * give unrelated keys; the master key is only ever key-derivation input. The result has no
 * prototype, so any string is a name ("__proto__" included); a repeated name is BAD_INPUT.
 */
export function deriveKeys<N extends string>(
  master: Bytes,
  options: DeriveKeysOptions<N>,
): Record<N, Bytes> {
  assertBytes(master, "master");
  if (options === undefined) {
    throw new KeyedError(
      "BAD_INPUT",
      "deriveKeys takes options { purpose, names, length?, method? }.",
    );
  }
  checkOptions(options, ["purpose", "names", "length", "method"], "deriveKeys options");
  const { purpose, names, length = 32, method = "hkdf-sha256" } = options;
  assertString(purpose, "options.purpose");
  assertInteger(length, "options.length", 16, 255 * 32);
  if (method !== "hkdf-sha256" && method !== "blake3") {
    throw new KeyedError(
      "BAD_INPUT",
      `options.method must be "hkdf-sha256" or "blake3"; got ${typeof method === "string" || typeof method === "number" ? JSON.stringify(method) : describeType(method)}.`,
    );
  }
  if (!Array.isArray(names) || names.length === 0) {
    throw new KeyedError(
      "BAD_INPUT",
      "options.names must be a non-empty array of distinct strings.",
    );
  }
  if (master.length < 16) {
    throw new KeyedError(
      "KEY_TOO_SHORT",
      `the master key must be at least 16 bytes; got ${master.length}.`,
    );
  }
  // No prototype, and names set as own data properties: a name such as "__proto__" is a key like
  // any other, never a prototype swap, and a repeat of it is caught like any other repeat.
  const keys = Object.create(null) as Record<N, Bytes>;
  const seen = new Set<string>();
  for (const name of names) {
    assertString(name, "each name");
    if (name === "" || seen.has(name)) {
      throw new KeyedError(
        "BAD_INPUT",
        `names must be distinct, non-empty strings; "${name}" is not.`,
      );
    }
    seen.add(name);
    const label = encodeFields(purpose, [name]);
    const key =
      method === "blake3"
        ? deriveKey(BLAKE3_CONTEXT, encodeFields(purpose, [name, master]), length)
        : hkdf("sha256", master, { salt: HKDF_SALT, info: label, length });
    Object.defineProperty(keys, name, {
      value: key,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return keys;
}
