/**
 * Bytes lent to node:crypto (engine/native.ts `lend`): a copy in an off-heap scratch for one call,
 * zeroed after it. One block per rule: the copy, what is not copied, the wipe, and every caller
 * leaving the scratch zeroed, on the paths that lend (a one-shot key's first use, the AEAD).
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import {
  LEND_DATA,
  LEND_KEY,
  LEND_NONCE,
  lend,
  nativeCrypto,
  wipeLent,
} from "../../src/engine/native.js";
import { NATIVE_CROSSOVER } from "../../src/engine/select.js";
import { chacha20poly1305, gmac } from "../../src/hazmat.js";
import { mac } from "../../src/index.js";

const noNative =
  nativeCrypto === undefined ? "node:crypto is absent or another backend is forced" : false;

/** The whole scratch (every region), read through a view lend() returns. */
function scratch(): Uint8Array {
  const view = lend(new Uint8Array(1), LEND_KEY);
  return new Uint8Array(view.buffer);
}

function assertWiped(what: string): void {
  assert.ok(
    scratch().every((b) => b === 0),
    `${what} left bytes in the lending scratch`,
  );
}

describe("lend: bytes for one call into node:crypto", () => {
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
    wipeLent();
  });

  it("hands longer arrays over as they are (they have an ArrayBuffer already)", () => {
    const long = new Uint8Array(65);
    assert.equal(lend(long, LEND_DATA), long);
  });

  it("wipeLent zeroes every region", () => {
    lend(new Uint8Array(32).fill(1), LEND_KEY);
    lend(new Uint8Array(12).fill(2), LEND_NONCE);
    lend(new Uint8Array(64).fill(3), LEND_DATA);
    wipeLent();
    assertWiped("wipeLent");
  });

  it("every path that lends leaves the scratch zeroed", { skip: noNative }, () => {
    const key32 = new Uint8Array(randomBytes(32));
    const long = (family: keyof typeof NATIVE_CROSSOVER) =>
      new Uint8Array(randomBytes(NATIVE_CROSSOVER[family] + 100));
    // A one-shot key's first use lends its raw bytes: HMAC's createHmac, CMAC's AES-CBC, GMAC.
    mac("hmac-sha256", key32).tag(long("hmac-sha256"));
    assertWiped("hmac-sha256 one-shot");
    mac("cmac-aes256", key32).tag(long("cmac-aes256"));
    assertWiped("cmac-aes256 one-shot");
    mac("gmac-aes256", key32).tag(long("gmac"));
    assertWiped("gmac-aes256 one-shot");
    assert.equal(gmac(key32, new Uint8Array(12), long("gmac")).length, 16);
    assertWiped("hazmat gmac");
    // The AEAD lends key, nonce and short associated data, sealing and opening.
    const plaintext = long("chacha20-poly1305-aead");
    for (const aad of [undefined, new Uint8Array(randomBytes(40)), new Uint8Array(100)]) {
      const aead = chacha20poly1305(key32, new Uint8Array(randomBytes(12)), aad);
      const sealed = aead.seal(plaintext);
      assertWiped("the AEAD's seal");
      assert.deepEqual(aead.open(sealed), plaintext);
      assertWiped("the AEAD's open");
      sealed[0] ^= 1;
      assert.throws(() => aead.open(sealed));
      assertWiped("the AEAD's refused open");
    }
  });
});
