import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  HASH_FUNCTIONS,
  type HashName,
  Sha1,
  Sha256,
  Sha512,
  sha1,
  sha256,
  sha512,
} from "../../src/hazmat.js";
import { ascii, atOffset, notBytes, throwsKeyed, toHex } from "../helpers.js";

/**
 * FIPS 180-4 example values (NIST CSRC "Examples with Intermediate Values"): "abc", the two-block
 * messages of 448 and 896 bits, and one million "a".
 */
const TWO_BLOCK = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
const TWO_BLOCK_512 =
  "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
type Sha12 = Exclude<HashName, `sha3-${string}`>;
const KNOWN: Record<Sha12, { abc: string; two: string; million: string }> = {
  sha1: {
    abc: "a9993e364706816aba3e25717850c26c9cd0d89d",
    two: "84983e441c3bd26ebaae4aa1f95129e5e54670f1",
    million: "34aa973cd4c4daa4f61eeb2bdbad27316534016f",
  },
  sha224: {
    abc: "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7",
    two: "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525",
    million: "20794655980c91d8bbb4c1ea97618a4bf03f42581948b2ee4ee7ad67",
  },
  sha256: {
    abc: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    two: "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    million: "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
  },
  sha384: {
    abc: "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
    two: "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039",
    million:
      "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b07b8b3dc38ecc4ebae97ddd87f3d8985",
  },
  sha512: {
    abc: "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
    two: "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909",
    million:
      "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b",
  },
  "sha512-224": {
    abc: "4634270f707b6a54daae7530460842e20e37ed265ceee9a43e8924aa",
    two: "23fec5bb94d60b23308192640b0c453335d664734fe40e7268674af9",
    million: "37ab331d76f0d36de422bd0edeb22a28accd487b7a8453ae965dd287",
  },
  "sha512-256": {
    abc: "53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23",
    two: "3928e184fb8690f840da3988121d31be65cb9d3ef83ee6146feac861e19b563a",
    million: "9a59a052930187a97038cae692f30708aa6491923ef5194394dc68d56c74fb21",
  },
};

const names = Object.keys(KNOWN) as Sha12[];
const digest = (name: HashName, ...chunks: Uint8Array[]) => {
  const state = HASH_FUNCTIONS[name].create();
  for (const c of chunks) state.update(c);
  return toHex(state.digest());
};

describe("SHA-1 and SHA-2 known answers (FIPS 180-4 examples)", () => {
  for (const name of names) {
    it(name, () => {
      const fn = HASH_FUNCTIONS[name];
      const twoBlock = fn.blockLength === 64 ? TWO_BLOCK : TWO_BLOCK_512;
      assert.equal(digest(name, ascii("abc")), KNOWN[name].abc);
      assert.equal(digest(name, ascii(twoBlock)), KNOWN[name].two);
      // One million "a", fed in uneven chunks to cross block boundaries at every offset.
      const state = fn.create();
      const a = new Uint8Array(1000).fill(0x61);
      let left = 1_000_000;
      for (let i = 0; left > 0; i++) {
        const n = Math.min(left, (i * 37) % 1000);
        state.update(a.subarray(0, n));
        left -= n;
      }
      assert.equal(toHex(state.digest()), KNOWN[name].million);
    });
  }
  it("one-shot helpers match", () => {
    assert.equal(toHex(sha1(ascii("abc"))), KNOWN.sha1.abc);
    assert.equal(toHex(sha256(ascii("abc"))), KNOWN.sha256.abc);
    assert.equal(toHex(sha512(atOffset(ascii("abc")))), KNOWN.sha512.abc);
  });
});

describe("SHA-1 and SHA-2 against node:crypto", () => {
  for (const name of names) {
    it(`${name}: random messages and split points (1,000 cases)`, () => {
      fc.assert(
        fc.property(
          fc.uint8Array({ maxLength: 5000 }),
          fc.array(fc.nat(), { maxLength: 6 }),
          (message, cuts) => {
            const points = cuts.map((c) => c % (message.length + 1)).sort((x, y) => x - y);
            const chunks: Uint8Array[] = [];
            let last = 0;
            for (const p of points) {
              chunks.push(message.subarray(last, p));
              last = p;
            }
            chunks.push(message.subarray(last));
            const expected = createHash(name).update(message).digest("hex");
            assert.equal(digest(name, ...chunks), expected);
          },
        ),
        { numRuns: 1000 },
      );
    });
  }
  it("every length around the padding boundaries", () => {
    const data = Uint8Array.from({ length: 300 }, (_, i) => (i * 31) & 255);
    for (const name of names) {
      for (let n = 0; n <= 300; n++) {
        assert.equal(
          digest(name, data.subarray(0, n)),
          createHash(name).update(data.subarray(0, n)).digest("hex"),
        );
      }
    }
  });
});

describe("hash states", () => {
  it("reset() starts over and copyTo() clones mid-stream", () => {
    const a = HASH_FUNCTIONS.sha256.create().update(ascii("ab"));
    const b = a.copyTo(HASH_FUNCTIONS.sha256.create());
    a.update(ascii("c"));
    b.update(ascii("c"));
    assert.equal(toHex(a.digest()), KNOWN.sha256.abc);
    assert.equal(toHex(b.digest()), KNOWN.sha256.abc);
    throwsKeyed(() => a.update(ascii("x")), "FINISHED");
    throwsKeyed(() => a.digest(), "FINISHED");
    assert.equal(toHex(a.reset().update(ascii("abc")).digest()), KNOWN.sha256.abc);
  });
  it("digestInto checks its target", () => {
    const s = HASH_FUNCTIONS.sha1.create();
    throwsKeyed(() => s.digestInto(new Uint8Array(19)), "BAD_INPUT", /20 bytes/);
    throwsKeyed(() => s.digestInto(new Uint8Array(20), 1), "BAD_INPUT");
    const out = new Uint8Array(25);
    s.digestInto(out, 5);
    assert.equal(toHex(out.subarray(5)), toHex(sha1(new Uint8Array(0))));
  });
  it("refuse non-bytes input", () => {
    for (const [, value] of notBytes()) {
      throwsKeyed(() => sha256(value as Uint8Array), "BAD_INPUT", /^message /);
      throwsKeyed(() => HASH_FUNCTIONS.sha512.create().update(value as Uint8Array), "BAD_INPUT");
    }
  });
});

describe("SHA-1/SHA-2 shared message schedules", () => {
  it("are cleared after every update and digest that compressed secret input", () => {
    for (const make of [() => new Sha1(), () => new Sha256(), () => new Sha512()]) {
      const secret = new Uint8Array(300).map((_, i) => 1 + (i % 255));
      const h = make();
      const scratch = h.sharedScratch();
      h.update(secret.subarray(0, 10)); // only buffered: nothing compressed
      h.update(secret.subarray(10)); // compresses blocks of the secret
      assert.ok(
        scratch.every((w) => w === 0),
        `${h.constructor.name}: after update`,
      );
      h.digest();
      assert.ok(
        scratch.every((w) => w === 0),
        `${h.constructor.name}: after digest`,
      );
    }
  });
});
