/**
 * WebCrypto HMAC keys (W3C Web Cryptography API, section 29 "HMAC") to and from keyed. WebCrypto
 * keeps a key's bytes inside the engine; keyed computes its MACs itself, so it needs them: only an
 * extractable key can become a keyed Mac (`exportKey("raw")`). The other way, `toCryptoKey`
 * imports keyed-checked key bytes for `crypto.subtle.sign`/`verify`, non-extractable unless asked.
 *
 * WebCrypto's HMAC hashes are SHA-1, SHA-256, SHA-384 and SHA-512 (no SHA-224), so those four
 * HMACs are the ones that cross.
 */
import { assertBytes, type Bytes } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import type { Mac, MacName, MacOptions } from "../core/mac.js";
import { checkOptions, describeType } from "../core/options.js";
import { mac } from "../mac/registry.js";

const HASH_OF: Record<string, string> = {
  "hmac-sha1": "SHA-1",
  "hmac-sha256": "SHA-256",
  "hmac-sha384": "SHA-384",
  "hmac-sha512": "SHA-512",
};
const NAME_OF: Record<string, MacName> = {
  "SHA-1": "hmac-sha1",
  "SHA-256": "hmac-sha256",
  "SHA-384": "hmac-sha384",
  "SHA-512": "hmac-sha512",
};
const USAGES = ["sign", "verify"];

function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  if (s === undefined) {
    throw new KeyedError(
      "BAD_INPUT",
      "no WebCrypto here: globalThis.crypto.subtle is missing (browsers offer it only in secure contexts).",
    );
  }
  return s;
}

/** The CryptoKey's HMAC hash, or KEY_UNSUPPORTED for anything but an HMAC secret key. */
function hmacName(key: CryptoKey): MacName {
  const algorithm = key.algorithm as Partial<HmacKeyAlgorithm>;
  if (key.type !== "secret" || algorithm?.name !== "HMAC") {
    throw new KeyedError(
      "KEY_UNSUPPORTED",
      `macFromCryptoKey takes an HMAC key; this CryptoKey is a ${key.type} ${String(algorithm?.name)} key.`,
    );
  }
  const hash = algorithm.hash?.name ?? "";
  const name = NAME_OF[hash];
  if (name === undefined) {
    throw new KeyedError("KEY_UNSUPPORTED", `HMAC with ${hash} is not one of keyed's MACs.`);
  }
  return name;
}

/**
 * A keyed Mac for an extractable WebCrypto HMAC key (the same tags as `crypto.subtle.sign`).
 * `options` are `mac()`'s (tagLength, …); its key policy applies. KEY_UNSUPPORTED for a key that
 * is not extractable or not HMAC.
 */
export async function macFromCryptoKey(cryptoKey: CryptoKey, options?: MacOptions): Promise<Mac> {
  const isKey =
    cryptoKey !== null &&
    typeof cryptoKey === "object" &&
    typeof (cryptoKey as { type?: unknown }).type === "string" &&
    typeof (cryptoKey as { extractable?: unknown }).extractable === "boolean";
  if (!isKey) {
    throw new KeyedError(
      "BAD_INPUT",
      `macFromCryptoKey takes a CryptoKey; got ${describeType(cryptoKey)}.`,
    );
  }
  const name = hmacName(cryptoKey);
  if (!cryptoKey.extractable) {
    throw new KeyedError(
      "KEY_UNSUPPORTED",
      "this CryptoKey is not extractable: WebCrypto will not hand its bytes to keyed, which " +
        "computes MACs itself. Import or generate the key with extractable: true, or keep using " +
        "crypto.subtle.sign/verify with it.",
    );
  }
  const length = (cryptoKey.algorithm as HmacKeyAlgorithm).length;
  if (length % 8 !== 0) {
    throw new KeyedError(
      "KEY_UNSUPPORTED",
      `this HMAC key is ${length} bits long; keyed takes keys of whole bytes.`,
    );
  }
  const raw = new Uint8Array(await subtle().exportKey("raw", cryptoKey));
  try {
    return mac(name, raw, options);
  } finally {
    raw.fill(0);
  }
}

/** Settings of `toCryptoKey`. */
export interface ToCryptoKeyOptions {
  /** Whether WebCrypto may export the key again (default false). */
  extractable?: boolean;
}

/**
 * An HMAC CryptoKey for `key` (hmac-sha1, -sha256, -sha384 or -sha512), checked against keyed's
 * key policy first, with `usages` from "sign" and "verify".
 */
export async function toCryptoKey(
  name: MacName,
  key: Bytes,
  usages: readonly ("sign" | "verify")[],
  options?: ToCryptoKeyOptions,
): Promise<CryptoKey> {
  assertBytes(key, "key");
  const o = checkOptions<ToCryptoKeyOptions>(options, ["extractable"], "toCryptoKey options");
  const hash = HASH_OF[name];
  if (hash === undefined) {
    throw new KeyedError(
      "KEY_UNSUPPORTED",
      `WebCrypto's HMAC takes SHA-1, SHA-256, SHA-384 or SHA-512 (hmac-sha1, hmac-sha256, hmac-sha384, hmac-sha512); got ${JSON.stringify(String(name).slice(0, 32))}.`,
    );
  }
  if (
    !Array.isArray(usages) ||
    usages.length === 0 ||
    !usages.every((usage) => USAGES.includes(usage))
  ) {
    throw new KeyedError(
      "BAD_INPUT",
      'usages must be a non-empty array of "sign" and "verify" (HMAC keys do nothing else).',
    );
  }
  if (o.extractable !== undefined && typeof o.extractable !== "boolean") {
    throw new KeyedError("BAD_INPUT", "options.extractable must be true or false.");
  }
  mac(name, key).destroy(); // keyed's key policy (at least 16 bytes), as mac() applies it
  const copy = new Uint8Array(key);
  try {
    return await subtle().importKey(
      "raw",
      copy,
      { name: "HMAC", hash, length: key.length * 8 },
      o.extractable === true,
      [...usages],
    );
  } finally {
    copy.fill(0);
  }
}
