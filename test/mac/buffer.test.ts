/**
 * Node Buffers as keys, messages and stream chunks. `Buffer#slice` returns a view, not a copy, so a
 * kernel that "copied" a key with slice() and then had the original wiped tagged under a zero key
 * (a forgeable tag). Every algorithm, on whichever backend this run uses, must give the same tag
 * for a Buffer as for a plain Uint8Array, and leave the caller's Buffers untouched.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { mac, macInfo, macNames } from "../../src/index.js";
import { toHex } from "../helpers.js";

/** Lengths around every engine crossover and past the wasm buffers. */
const LENGTHS = [0, 15, 64, 200, 1500, 70000];

describe("Buffer inputs", () => {
  for (const name of macNames()) {
    it(`${name}: a Buffer key, message and stream chunks give the plain Uint8Array's tag`, () => {
      const info = macInfo(name);
      const plainKey = new Uint8Array(info.recommendedKeyLength).map((_, i) => i * 13 + 1);
      for (const length of LENGTHS) {
        const plain = new Uint8Array(length).map((_, i) => (i * 7) & 255);
        const fresh = () => mac(name, Buffer.from(plainKey));
        const expected = mac(name, plainKey).tag(plain);
        const bufferMessage = Buffer.from(plain);
        const tagged = fresh().tag(bufferMessage);
        // Tags that carry a random nonce differ; each must verify under the plain key.
        if (info.nonceLength > 0) {
          assert.ok(info.oneTime || mac(name, plainKey).verify(plain, tagged), `${name} ${length}`);
        } else {
          assert.equal(toHex(tagged), toHex(expected), `${name} ${length}: one call`);
        }
        const stream = fresh().stream();
        const chunks = [0, 7, 100, 4000].map((at, i, all) =>
          bufferMessage.subarray(Math.min(at, length), Math.min(all[i + 1] ?? length, length)),
        );
        for (const chunk of chunks) stream.update(chunk);
        const streamed = stream.digest();
        if (info.nonceLength === 0)
          assert.equal(toHex(streamed), toHex(expected), `${name} ${length}: stream`);
        assert.deepEqual(
          new Uint8Array(bufferMessage),
          plain,
          `${name} ${length}: message untouched`,
        );
      }
    });
  }
});
