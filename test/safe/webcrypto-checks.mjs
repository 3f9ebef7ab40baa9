/**
 * WebCrypto interop checks for keyed's macFromCryptoKey and toCryptoKey, written as a plain ES
 * module with no Node API, so that the same checks run in a browser:
 *
 *     import * as keyed from "/dist/index.js";
 *     import { webcryptoChecks } from "/test/safe/webcrypto-checks.mjs";
 *     const results = await webcryptoChecks(keyed, crypto.subtle);
 *     // every result has { name, ok, detail }; all must be ok
 *
 * On Node, test/safe/webcrypto.test.ts runs them against globalThis.crypto.subtle.
 */

const HMACS = [
  ["hmac-sha1", "SHA-1", 20],
  ["hmac-sha256", "SHA-256", 32],
  ["hmac-sha384", "SHA-384", 48],
  ["hmac-sha512", "SHA-512", 64],
];

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Runs `body`; an exception other than the expected one is a failed check. */
async function check(results, name, body) {
  try {
    const detail = await body();
    results.push({ name, ok: detail === true, detail: detail === true ? "" : String(detail) });
  } catch (error) {
    results.push({
      name,
      ok: false,
      detail: `threw ${error?.code ?? ""} ${error?.message ?? error}`,
    });
  }
}

/** True when `promise` rejects with a KeyedError of `code`; a description otherwise. */
async function rejectsWith(promise, code) {
  try {
    await promise;
    return `no error (expected ${code})`;
  } catch (error) {
    return error?.name === "KeyedError" && error.code === code
      ? true
      : `expected ${code}, got ${error?.code ?? error}`;
  }
}

/**
 * Every check, against `keyed` (the package's exports) and `subtle` (a SubtleCrypto). Returns the
 * results; it never throws.
 */
export async function webcryptoChecks(keyed, subtle) {
  const results = [];
  const message = new TextEncoder().encode("The quick brown fox jumps over the lazy dog");

  for (const [name, hash, length] of HMACS) {
    await check(
      results,
      `${name}: a generated extractable CryptoKey tags as subtle.sign does`,
      async () => {
        const cryptoKey = await subtle.generateKey({ name: "HMAC", hash }, true, [
          "sign",
          "verify",
        ]);
        const m = await keyed.macFromCryptoKey(cryptoKey);
        const expected = new Uint8Array(await subtle.sign("HMAC", cryptoKey, message));
        if (m.algorithm !== name) return `algorithm ${m.algorithm}`;
        if (m.tagLength !== length) return `tag length ${m.tagLength}`;
        return hex(m.tag(message)) === hex(expected) || "tags differ";
      },
    );

    await check(
      results,
      `${name}: toCryptoKey's key signs what keyed tags, verify agrees`,
      async () => {
        const key = keyed.generateKey(name);
        const cryptoKey = await keyed.toCryptoKey(name, key, ["sign", "verify"]);
        if (cryptoKey.extractable !== false) return "extractable by default";
        const signature = new Uint8Array(await subtle.sign("HMAC", cryptoKey, message));
        const tag = keyed.mac(name, key).tag(message);
        if (hex(signature) !== hex(tag)) return "tags differ";
        const ok = await subtle.verify("HMAC", cryptoKey, tag, message);
        const flipped = tag.slice();
        flipped[0] ^= 1;
        const bad = await subtle.verify("HMAC", cryptoKey, flipped, message);
        return (ok && !bad) || `verify said ${ok}, ${bad}`;
      },
    );

    await check(results, `${name}: extractable round trip keeps the key`, async () => {
      const key = keyed.randomBytes(length + 7);
      const cryptoKey = await keyed.toCryptoKey(name, key, ["sign"], { extractable: true });
      const m = await keyed.macFromCryptoKey(cryptoKey, { tagLength: 16 });
      return (
        hex(m.tag(message)) === hex(keyed.mac(name, key, { tagLength: 16 }).tag(message)) ||
        "tags differ"
      );
    });
  }

  await check(results, "a non-extractable key is refused with KEY_UNSUPPORTED", async () => {
    const cryptoKey = await subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    try {
      await keyed.macFromCryptoKey(cryptoKey);
      return "no error";
    } catch (error) {
      if (error?.code !== "KEY_UNSUPPORTED") return `code ${error?.code}`;
      return /not extractable/.test(error.message) || error.message;
    }
  });

  await check(results, "an AES key is refused with KEY_UNSUPPORTED", async () => {
    const aes = await subtle.generateKey({ name: "AES-GCM", length: 256 }, true, ["encrypt"]);
    return rejectsWith(keyed.macFromCryptoKey(aes), "KEY_UNSUPPORTED");
  });

  await check(results, "an HMAC key of 100 bits (not whole bytes) is refused", async () => {
    let odd;
    try {
      odd = await subtle.generateKey({ name: "HMAC", hash: "SHA-256", length: 100 }, true, [
        "sign",
      ]);
    } catch {
      return true; // this engine refuses such keys itself (Node does)
    }
    return rejectsWith(keyed.macFromCryptoKey(odd), "KEY_UNSUPPORTED");
  });

  await check(results, "a short WebCrypto key meets mac()'s policy: KEY_TOO_SHORT", async () => {
    const short = await subtle.importKey(
      "raw",
      new Uint8Array(8),
      { name: "HMAC", hash: "SHA-256" },
      true,
      ["sign"],
    );
    return rejectsWith(keyed.macFromCryptoKey(short), "KEY_TOO_SHORT");
  });

  await check(results, "toCryptoKey refuses short keys, other MACs and bad usages", async () => {
    const answers = [
      await rejectsWith(
        keyed.toCryptoKey("hmac-sha256", new Uint8Array(15), ["sign"]),
        "KEY_TOO_SHORT",
      ),
      await rejectsWith(
        keyed.toCryptoKey("hmac-sha224", new Uint8Array(32), ["sign"]),
        "KEY_UNSUPPORTED",
      ),
      await rejectsWith(
        keyed.toCryptoKey("blake3", new Uint8Array(32), ["sign"]),
        "KEY_UNSUPPORTED",
      ),
      await rejectsWith(keyed.toCryptoKey("hmac-sha256", new Uint8Array(32), []), "BAD_INPUT"),
      await rejectsWith(
        keyed.toCryptoKey("hmac-sha256", new Uint8Array(32), ["encrypt"]),
        "BAD_INPUT",
      ),
      await rejectsWith(keyed.macFromCryptoKey({}), "BAD_INPUT"),
    ];
    return answers.every((a) => a === true) || answers.filter((a) => a !== true).join("; ");
  });

  await check(results, "a keyset's HMAC key crosses to WebCrypto and back", async () => {
    const ks = keyed.Keyset.generate("hmac-sha256", { prefix: "raw" });
    const jwk = ks.toJwks().keys[0];
    const cryptoKey = await subtle.importKey("jwk", jwk, { name: "HMAC", hash: "SHA-256" }, true, [
      "sign",
    ]);
    const signature = new Uint8Array(await subtle.sign("HMAC", cryptoKey, message));
    return ks.verify(message, signature) || "the keyset did not verify WebCrypto's signature";
  });

  return results;
}
