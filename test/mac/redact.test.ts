/**
 * Secrets in logs: every object a Mac reaches (kernels, cores, key slots' owners, hash states,
 * cipher states) prints and serializes without a trace of the key, on every backend a key reaches
 * (a short message, a 2 KB one, then short ones again for the WebAssembly key slots).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { inspect } from "node:util";
import { AesKey } from "../../src/cipher/aes.js";
import { ChaCha20 } from "../../src/cipher/chacha20.js";
import { Blake3, KEYED_HASH, keyWords } from "../../src/hash/blake3.js";
import {
  chacha20poly1305,
  chacha20poly1305Key,
  hchacha20,
  xchacha20poly1305,
  xchacha20poly1305Key,
} from "../../src/hazmat.js";
import { generateKey, type MacName, mac, macNames } from "../../src/index.js";
import { Ghash } from "../../src/mac/ghash.js";
import { toHex } from "../helpers.js";

/** A key no object would hold by chance: every 4-byte window is distinctive. */
function recognizableKey(length: number): Uint8Array {
  return new Uint8Array(length).map((_, i) => (0x93 + 29 * i) & 0xff);
}

/** Texts that would betray `key`: hex (plain or spaced), decimal byte lists, 32-bit words. */
function traces(key: Uint8Array): string[] {
  const found: string[] = [];
  for (let i = 0; i + 4 <= key.length; i++) {
    const w = key.subarray(i, i + 4);
    found.push(toHex(w), [...w].map((b) => b.toString(16).padStart(2, "0")).join(" "));
    found.push([...w].join(","));
    const view = new DataView(w.buffer, w.byteOffset, 4);
    for (const little of [true, false]) {
      found.push(`${view.getInt32(0, little)}`, `${view.getUint32(0, little)}`);
    }
  }
  return found;
}

function leaks(text: string, key: Uint8Array): string | undefined {
  // Line breaks and column padding removed; JSON's typed arrays ({"0":147,"1":176}) as lists.
  const flat = text
    .replace(/\s+/g, (s) => (s.includes("\n") ? "" : s))
    .replace(/,\s+/g, ",")
    .replace(/"\d+":/g, "");
  for (const t of traces(key)) {
    if (/^-?\d+$/.test(t)) {
      if (new RegExp(`(^|[^0-9])${t}([^0-9]|$)`).test(flat)) return t;
    } else if (flat.includes(t)) return t;
  }
  return undefined;
}

/** Every object reachable through own properties, typed arrays and wasm memory excepted. */
function reachable(root: object): object[] {
  const seen = new Set<object>();
  const todo: unknown[] = [root];
  while (todo.length > 0) {
    const value = todo.pop();
    if (typeof value !== "object" || value === null || seen.has(value)) continue;
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) continue;
    if (value instanceof WebAssembly.Memory) continue;
    seen.add(value);
    for (const k of Reflect.ownKeys(value)) {
      const d = Object.getOwnPropertyDescriptor(value, k);
      if (d && "value" in d) todo.push(d.value);
    }
  }
  return [...seen];
}

/** Plain containers print only when their holder does, and every holder is checked. */
const CONTAINERS = new Set<unknown>([
  Object.prototype,
  Array.prototype,
  Set.prototype,
  Map.prototype,
  WeakRef.prototype,
  null,
]);

function assertRedacted(root: object, key: Uint8Array, label: string): void {
  for (const o of reachable(root)) {
    if (CONTAINERS.has(Object.getPrototypeOf(o))) continue;
    const name = `${label}: ${o.constructor?.name ?? "null-prototype object"}`;
    const shown = inspect(o, { depth: Number.POSITIVE_INFINITY, showHidden: true });
    assert.equal(leaks(shown, key), undefined, `${name} prints the key:\n${shown.slice(0, 400)}`);
    let json: string | undefined;
    try {
      json = JSON.stringify(o);
    } catch {
      json = undefined; // circular plain objects do not serialize at all
    }
    if (json !== undefined)
      assert.equal(
        leaks(json, key),
        undefined,
        `${name} serializes the key: ${json.slice(0, 400)}`,
      );
  }
}

describe("redacted printing of key material", () => {
  it("the detector finds a key in an unredacted object (the test can fail)", () => {
    const key = recognizableKey(32);
    assert.notEqual(leaks(inspect({ key }), key), undefined);
    assert.notEqual(leaks(JSON.stringify({ key }), key), undefined);
    assert.notEqual(leaks(inspect({ words: new Int32Array(key.buffer) }), key), undefined);
  });

  for (const name of macNames() as MacName[]) {
    it(`${name}: the Mac and everything it reaches, after short and 2 KB messages`, () => {
      const key = recognizableKey(generateKey(name).length);
      const messages = [
        new Uint8Array(5),
        new Uint8Array(2048),
        new Uint8Array(7),
        new Uint8Array(9),
      ];
      if (name === "poly1305") {
        // One-time keys: one message per Mac.
        for (const message of messages) {
          const m = mac(name, key);
          m.tag(message);
          assertRedacted(m, key, name);
        }
        return;
      }
      const m = mac(name, key);
      // Before any message too: HMAC holds a raw copy until its pads and KeyObject exist.
      assertRedacted(m, key, `${name} unused`);
      for (const message of messages) m.tag(message);
      const s = m.stream().update(new Uint8Array(3000));
      assertRedacted(s, key, `${name} stream`);
      assertRedacted(m, key, name);
    });
  }

  it("hazmat objects holding keys: AesKey, ChaCha20, keyed Blake3, Ghash, the AEADs", () => {
    const key = recognizableKey(32);
    const aes = new AesKey(key);
    aes.encryptBlock(new Uint8Array(16), 0, new Uint8Array(16), 0);
    assertRedacted(aes, key, "AesKey");
    const chacha = new ChaCha20(key, new Uint8Array(12));
    chacha.keystream(new Uint8Array(64), 64);
    assertRedacted(chacha, key, "ChaCha20");
    const b3 = new Blake3(keyWords(key), KEYED_HASH);
    b3.update(new Uint8Array(100));
    assertRedacted(b3, key, "Blake3");
    const h = key.subarray(0, 16);
    assertRedacted(new Ghash(h), h, "Ghash");
    // Below and past the AEAD's node:crypto crossover; an AEAD holds its key from the start.
    for (const [label, aead] of [
      ["ChaCha20-Poly1305", chacha20poly1305(key, new Uint8Array(12))],
      ["XChaCha20-Poly1305", xchacha20poly1305(key, new Uint8Array(24))],
    ] as const) {
      assertRedacted(aead, key, `${label} unused`);
      for (const length of [5, 20_000]) aead.open(aead.seal(new Uint8Array(length)));
      assertRedacted(aead, key, label);
    }
    for (const [label, prepared, nonceLength] of [
      ["chacha20poly1305Key", chacha20poly1305Key(key), 12],
      ["xchacha20poly1305Key", xchacha20poly1305Key(key), 24],
    ] as const) {
      assertRedacted(prepared, key, `${label} unused`);
      // Three calls: the second makes node:crypto's KeyObject.
      for (const length of [5, 20_000, 20_000])
        prepared.seal(new Uint8Array(nonceLength), new Uint8Array(length));
      assertRedacted(prepared, key, label);
    }
    // The XChaCha20 subkey is key material too: the AEAD must not print it either.
    const nonce24 = new Uint8Array(24);
    const subkey = hchacha20(key, nonce24.subarray(0, 16));
    assertRedacted(xchacha20poly1305(key, nonce24), subkey, "XChaCha20-Poly1305 subkey");
  });
});
