/**
 * Bytes lent to node:crypto (engine/native.ts `lend`): a copy in an off-heap scratch for one call,
 * zeroed after it. One block per rule: the copy, what is not copied, the wipe, every path that
 * lends leaving the scratch zeroed, and the wipe when node:crypto throws.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { afterEach, describe, it, mock } from "node:test";
import {
  LazyNativeKey,
  LEND_DATA,
  LEND_KEY,
  LEND_NONCE,
  lend,
  type NativeCrypto,
  nativeCrypto,
  wipeLent,
} from "../../src/engine/native.js";
import { NATIVE_CROSSOVER } from "../../src/engine/select.js";
import {
  chacha20poly1305,
  chacha20poly1305Key,
  xchacha20poly1305,
  xchacha20poly1305Key,
} from "../../src/hazmat.js";
import { mac } from "../../src/index.js";

const noNative =
  nativeCrypto === undefined ? "node:crypto is absent or another backend is forced" : false;

/** The whole scratch, every region, through a view of nothing (lending it copies no byte). */
function scratch(): Uint8Array {
  return new Uint8Array(lend(new Uint8Array(0), LEND_KEY).buffer);
}

function assertWiped(what: string): void {
  assert.ok(
    scratch().every((b) => b === 0),
    `${what} left bytes in the lending scratch`,
  );
}

/** A message past `family`'s crossover, so that node:crypto computes it. */
function long(family: keyof typeof NATIVE_CROSSOVER): Uint8Array {
  return new Uint8Array(randomBytes(NATIVE_CROSSOVER[family] + 100));
}

describe("lend: bytes for one call into node:crypto", () => {
  afterEach(() => {
    wipeLent();
    mock.restoreAll();
  });

  it("copies up to 64 bytes into its region, as a view of exactly their length", () => {
    const key = new Uint8Array(randomBytes(32));
    const nonce = new Uint8Array(randomBytes(12));
    const data = new Uint8Array(randomBytes(64));
    const views = [lend(key, LEND_KEY), lend(nonce, LEND_NONCE), lend(data, LEND_DATA)];
    assert.deepEqual(views[0], key);
    assert.deepEqual(views[1], nonce);
    assert.deepEqual(views[2], data);
    // Three regions of one buffer that holds nothing else: lending the nonce kept the key.
    assert.equal(new Set(views.map((v) => v.buffer)).size, 1);
    assert.deepEqual(
      views.map((v) => v.byteOffset),
      [0, 64, 128],
    );
    assert.notEqual(views[0].buffer, key.buffer);
  });

  it("hands longer arrays over as they are (they have an ArrayBuffer already)", () => {
    const longer = new Uint8Array(65);
    assert.equal(lend(longer, LEND_DATA), longer);
  });

  it("wipeLent zeroes every region", () => {
    lend(new Uint8Array(32).fill(1), LEND_KEY);
    lend(new Uint8Array(12).fill(2), LEND_NONCE);
    lend(new Uint8Array(64).fill(3), LEND_DATA);
    assert.ok(scratch().some((b) => b !== 0));
    wipeLent();
    assertWiped("wipeLent");
  });

  it("LazyNativeKey lends its raw bytes for the call, then a KeyObject", { skip: noNative }, () => {
    const raw = new Uint8Array(randomBytes(32));
    const key = new LazyNativeKey(raw);
    const seen: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      key.use((k) => {
        seen.push(k instanceof Uint8Array ? Uint8Array.from(k) : k);
        if (i === 0) assert.deepEqual(scratch().subarray(0, 32), raw);
      });
      assertWiped(`use ${i + 1}`);
    }
    assert.deepEqual(seen[0], raw);
    assert.ok(!(seen[1] instanceof Uint8Array) && seen[1] === seen[2], "a KeyObject, kept");
  });

  it("every path that lends leaves the scratch zeroed", { skip: noNative }, () => {
    const key32 = new Uint8Array(randomBytes(32));
    // A one-shot key's first use lends its raw bytes: HMAC's createHmac, CMAC's AES-CBC, GMAC;
    // one-shot and streamed, and a second use (the KeyObject made from the raw bytes).
    for (const name of ["hmac-sha256", "cmac-aes256", "gmac-aes256"] as const) {
      const family =
        name === "hmac-sha256" ? "hmac-sha256" : name === "cmac-aes256" ? "cmac-aes256" : "gmac";
      const prepared = mac(name, key32);
      prepared.tag(long(family));
      assertWiped(`${name} one-shot`);
      prepared.tag(long(family));
      assertWiped(`${name} second message`);
      const stream = mac(name, key32).stream();
      stream.update(long(family));
      stream.digest();
      assertWiped(`${name} stream`);
    }
    // The AEADs lend key, nonce and short associated data, sealing and opening.
    const plaintext = long("chacha20-poly1305-aead");
    for (const aad of [undefined, new Uint8Array(randomBytes(40)), new Uint8Array(100)]) {
      for (const aead of [
        chacha20poly1305(key32, new Uint8Array(randomBytes(12)), aad),
        xchacha20poly1305(key32, new Uint8Array(randomBytes(24)), aad),
      ]) {
        const sealed = aead.seal(plaintext);
        assertWiped("a seal");
        assert.deepEqual(aead.open(sealed), plaintext);
        assertWiped("an open");
        sealed[0] ^= 1;
        assert.throws(() => aead.open(sealed));
        assertWiped("a refused open");
      }
      // Prepared keys: the first call lends the key's bytes, the second makes a KeyObject from
      // them (lent too), the later ones lend only the nonce and short associated data.
      for (const [prepared, nonceLength] of [
        [chacha20poly1305Key(key32), 12],
        [xchacha20poly1305Key(key32), 24],
      ] as const) {
        for (let call = 1; call <= 3; call++) {
          const nonce = new Uint8Array(randomBytes(nonceLength));
          const sealed = prepared.seal(nonce, plaintext, aad);
          assertWiped(`a prepared key's seal, call ${call}`);
          assert.deepEqual(prepared.open(nonce, sealed, aad), plaintext);
          assertWiped(`a prepared key's open, call ${call}`);
        }
      }
    }
  });

  it("the scratch is zeroed when node:crypto throws", { skip: noNative }, () => {
    const crypto = nativeCrypto as NativeCrypto;
    const failure = new Error("node:crypto failed");
    mock.method(crypto, "createCipheriv", () => {
      throw failure;
    });
    mock.method(crypto, "createHmac", () => {
      throw failure;
    });
    const key32 = new Uint8Array(randomBytes(32));
    const aead = chacha20poly1305(key32, new Uint8Array(12), new Uint8Array(20));
    assert.throws(() => aead.seal(long("chacha20-poly1305-aead")), failure);
    assertWiped("a seal that threw");
    assert.throws(() => mac("hmac-sha256", key32).tag(long("hmac-sha256")), failure);
    assertWiped("an HMAC that threw");
    assert.throws(() => mac("cmac-aes256", key32).tag(long("cmac-aes256")), failure);
    assertWiped("a CMAC that threw");
  });
});
