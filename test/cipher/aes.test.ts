import assert from "node:assert/strict";
import { createCipheriv } from "node:crypto";
import { describe, it } from "node:test";
import fc from "fast-check";
import { AesKey, aesEncryptBlock } from "../../src/hazmat.js";
import { atOffset, hex, notBytes, throwsKeyed, toHex } from "../helpers.js";
import { readVectorJson, skipUnless } from "../vectors.js";

const ecb = (key: Uint8Array, block: Uint8Array) =>
  new Uint8Array(
    createCipheriv(`aes-${key.length * 8}-ecb`, key, null)
      .setAutoPadding(false)
      .update(block),
  );

describe("AES block encryption", () => {
  // FIPS 197 appendix C.1-C.3.
  const plaintext = hex("00112233445566778899aabbccddeeff");
  const cases: [string, string][] = [
    ["000102030405060708090a0b0c0d0e0f", "69c4e0d86a7b0430d8cdb78070b4c55a"],
    ["000102030405060708090a0b0c0d0e0f1011121314151617", "dda97ca4864cdfe06eaf70a0ec0d7191"],
    [
      "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
      "8ea2b7ca516745bfeafc49904b496089",
    ],
  ];
  for (const [key, ciphertext] of cases) {
    it(`FIPS 197 appendix C, AES-${key.length * 4}`, () => {
      assert.equal(toHex(aesEncryptBlock(hex(key), plaintext)), ciphertext);
    });
  }
  const file = "rfc/nist_fips197_appendix_c.json";
  it("FIPS 197 appendix C, from the shared vector file", { skip: skipUnless(file) }, () => {
    const data = readVectorJson<{
      tests: { key: string; plaintext: string; ciphertext: string }[];
    }>(file);
    assert.equal(data.tests.length, 3);
    for (const t of data.tests)
      assert.equal(toHex(aesEncryptBlock(hex(t.key), hex(t.plaintext))), t.ciphertext);
  });
  it("matches node:crypto AES-ECB on random keys and blocks (1,000 cases per key size)", () => {
    for (const size of [16, 24, 32]) {
      fc.assert(
        fc.property(
          fc.uint8Array({ minLength: size, maxLength: size }),
          fc.uint8Array({ minLength: 16, maxLength: 16 }),
          (key, block) => {
            assert.deepEqual(aesEncryptBlock(key, block), ecb(key, block));
          },
        ),
        { numRuns: 1000 },
      );
    }
  });
  it("an AesKey encrypts in place and at offsets", () => {
    const key = new AesKey(hex(cases[0][0]));
    const buffer = new Uint8Array(40);
    buffer.set(plaintext, 7);
    key.encryptBlock(buffer, 7, buffer, 7);
    assert.equal(toHex(buffer.subarray(7, 23)), cases[0][1]);
    assert.equal(key.rounds, 10);
    assert.equal(new AesKey(new Uint8Array(24)).rounds, 12);
    assert.equal(new AesKey(new Uint8Array(32)).rounds, 14);
  });
  it("refuses bad keys and blocks", () => {
    for (const n of [0, 8, 15, 17, 20, 31, 33, 64]) {
      throwsKeyed(
        () => aesEncryptBlock(new Uint8Array(n), plaintext),
        "KEY_LENGTH",
        /16, 24 or 32/,
      );
    }
    throwsKeyed(
      () => aesEncryptBlock(new Uint8Array(16), new Uint8Array(15)),
      "BAD_INPUT",
      /16 bytes/,
    );
    for (const [, value] of notBytes()) {
      throwsKeyed(() => aesEncryptBlock(value as Uint8Array, plaintext), "BAD_INPUT", /^key /);
      throwsKeyed(
        () => aesEncryptBlock(new Uint8Array(16), value as Uint8Array),
        "BAD_INPUT",
        /^block /,
      );
    }
    assert.deepEqual(
      aesEncryptBlock(atOffset(hex(cases[0][0])), atOffset(plaintext)),
      hex(cases[0][1]),
    );
  });
});
