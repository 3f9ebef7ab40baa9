/**
 * A short answer from node:crypto is a fault, refused (engine/native.ts checkNativeOutput), never
 * a tag: read past its end a Uint8Array gives undefined, which a byte store makes 0, so an empty
 * tag would have become a tag of zeros that verify accepts. workerd's chacha20-poly1305 gave one.
 * One block per path that takes a tag or digest from node:crypto; each first runs the path for
 * real (so that the probes before it are settled), then with node:crypto answering short.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { afterEach, describe, it, mock } from "node:test";
import { type NativeCrypto, nativeCrypto, takeNativeOutput } from "../../src/engine/native.js";
import { NATIVE_CROSSOVER } from "../../src/engine/select.js";
import { chacha20poly1305, chacha20poly1305Key, gmac } from "../../src/hazmat.js";
import { KeyedError, mac } from "../../src/index.js";

const noNative =
  nativeCrypto === undefined ? "node:crypto is absent or another backend is forced" : false;

function long(family: keyof typeof NATIVE_CROSSOVER): Uint8Array {
  return new Uint8Array(randomBytes(NATIVE_CROSSOVER[family] + 100));
}

function refused(f: () => unknown, what: string): void {
  assert.throws(
    f,
    (e: unknown) => e instanceof KeyedError && e.code === "UNAVAILABLE",
    `${what}: a short answer from node:crypto must be refused`,
  );
}

/** createCipheriv's (or createDecipheriv's) cipher, with `getAuthTag` and `update` answering nothing. */
function shortCipher(real: NativeCrypto["createCipheriv"]) {
  return (...args: Parameters<NativeCrypto["createCipheriv"]>) => {
    const cipher = real(...args);
    return Object.assign(Object.create(cipher), {
      update: () => new Uint8Array(0),
      getAuthTag: () => new Uint8Array(0),
    });
  };
}

describe("node:crypto's short answers are refused, never tags", { skip: noNative }, () => {
  const crypto = nativeCrypto as NativeCrypto;
  const key = new Uint8Array(randomBytes(32));
  afterEach(() => mock.restoreAll());

  it("the ChaCha20-Poly1305 MAC form: tag and verify", () => {
    const message = long("chacha20-poly1305");
    const real = mac("chacha20-poly1305", key).tag(message);
    assert.ok(mac("chacha20-poly1305", key).verify(message, real));
    mock.method(crypto, "createCipheriv", shortCipher(crypto.createCipheriv.bind(crypto)));
    refused(() => mac("chacha20-poly1305", key).tag(message), "tag");
    const zeros = real.slice();
    zeros.fill(0, 12);
    refused(() => mac("chacha20-poly1305", key).verify(message, zeros), "verify");
  });

  it("the ChaCha20-Poly1305 AEAD: seal and open past the crossover", () => {
    const nonce = new Uint8Array(12);
    const plaintext = new Uint8Array(randomBytes(200_000));
    const sealed = chacha20poly1305(key, nonce).seal(plaintext);
    mock.method(crypto, "createCipheriv", shortCipher(crypto.createCipheriv.bind(crypto)));
    mock.method(crypto, "createDecipheriv", shortCipher(crypto.createDecipheriv.bind(crypto)));
    refused(() => chacha20poly1305(key, nonce).seal(plaintext), "seal");
    refused(() => chacha20poly1305(key, nonce).open(sealed), "open");
    // A prepared key, on its bytes (first call) and on its KeyObject (the calls after).
    const prepared = chacha20poly1305Key(key);
    for (let call = 1; call <= 3; call++) {
      refused(() => prepared.seal(nonce, plaintext), `prepared seal, call ${call}`);
      refused(() => prepared.open(nonce, sealed), `prepared open, call ${call}`);
    }
  });

  it("GMAC: the safe MAC and hazmat gmac", () => {
    const message = long("gmac");
    mac("gmac-aes256", key).tag(message);
    mock.method(crypto, "createCipheriv", shortCipher(crypto.createCipheriv.bind(crypto)));
    refused(() => mac("gmac-aes256", key).tag(message), "tag");
    refused(() => gmac(key, new Uint8Array(12), message), "hazmat gmac");
  });

  it("CMAC", () => {
    const message = long("cmac-aes256");
    mac("cmac-aes256", key).tag(message);
    mock.method(crypto, "createCipheriv", shortCipher(crypto.createCipheriv.bind(crypto)));
    refused(() => mac("cmac-aes256", key).tag(message), "tag");
  });

  it("HMAC: createHmac's digest and the one-shot inner hash", () => {
    const message = long("hmac-sha256");
    const prepared = mac("hmac-sha256", key);
    prepared.tag(message); // the key's first message: createHmac
    mock.method(crypto, "createHmac", () => ({
      update() {
        return this;
      },
      digest: () => new Uint8Array(0),
    }));
    refused(() => mac("hmac-sha256", key).tag(message), "createHmac");
    if (crypto.hash !== undefined) {
      mock.method(crypto as Required<NativeCrypto>, "hash", () => new Uint8Array(0));
      refused(() => prepared.tag(message), "the one-shot inner hash");
    }
  });
});

describe("takeNativeOutput: node:crypto's answer moved out and wiped where it was", () => {
  const answer = (length: number) => Uint8Array.from({ length }, (_, i) => 0xa0 + i);

  for (const length of [16, 20, 32, 64, 65]) {
    it(`a whole ${length}-byte answer, at an offset of out`, () => {
      const result = answer(length);
      const out = new Uint8Array(length + 10).fill(0xee);
      takeNativeOutput(result, out, length, "a test answer", 0, 7);
      assert.deepEqual(out.subarray(7, 7 + length), answer(length));
      assert.deepEqual([...out.subarray(0, 7), ...out.subarray(7 + length)], Array(10).fill(0xee));
      assert.ok(
        result.every((b) => b === 0),
        "the answer is zeroed where node:crypto left it",
      );
    });
  }

  it("part of an answer (CMAC's last block of a longer output): only that part moves and is wiped", () => {
    const result = answer(48);
    const out = new Uint8Array(16);
    takeNativeOutput(result, out, 16, "a test answer", 32);
    assert.deepEqual(out, answer(48).subarray(32));
    assert.deepEqual(result.subarray(0, 32), answer(48).subarray(0, 32));
    assert.ok(result.subarray(32).every((b) => b === 0));
  });

  it("a short answer is refused and nothing is written", () => {
    const out = new Uint8Array(16);
    refused(() => takeNativeOutput(answer(12), out, 16, "a test answer"), "a 12-byte answer");
    assert.ok(out.every((b) => b === 0));
  });
});
