import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { describe, it } from "node:test";
import fc from "fast-check";
import { HASH_FUNCTIONS } from "../../src/hash/index.js";
import { Sha1 } from "../../src/hash/sha1.js";
import { Sha256 } from "../../src/hash/sha256.js";
import { Sha512 } from "../../src/hash/sha512.js";
import { type MacName, mac, macNames } from "../../src/index.js";
import { HMAC_HASHES, HmacKernel } from "../../src/mac/hmac.js";
import { ascii, atOffset, hex, toHex } from "../helpers.js";
import {
  type MacTestGroup,
  readVectorJson,
  skipUnless,
  WYCHEPROOF_HMAC_FILES,
  type WycheproofFile,
} from "../vectors.js";

// Known-answer tests need short keys (RFC 2202 uses "Jefe") and 96-bit tags: both need the flags.
const kat = { allowShortKeys: true, allowShortTags: true };
const repeat = (byte: number, n: number) => new Uint8Array(n).fill(byte);

describe("HMAC-SHA-1 (RFC 2202 section 3)", () => {
  const cases: [Uint8Array, Uint8Array, string][] = [
    [repeat(0x0b, 20), ascii("Hi There"), "b617318655057264e28bc0b6fb378c8ef146be00"],
    [
      ascii("Jefe"),
      ascii("what do ya want for nothing?"),
      "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79",
    ],
    [repeat(0xaa, 20), repeat(0xdd, 50), "125d7342b9ac11cd91a39af48aa17b4f63f175d3"],
    [
      hex("0102030405060708090a0b0c0d0e0f10111213141516171819"),
      repeat(0xcd, 50),
      "4c9007f4026250c6bc8414f9bf50c86c2d7235da",
    ],
    [repeat(0x0c, 20), ascii("Test With Truncation"), "4c1a03424b55e07fe7f27be1d58bb9324a9a5a04"],
    [
      repeat(0xaa, 80),
      ascii("Test Using Larger Than Block-Size Key - Hash Key First"),
      "aa4ae5e15272d00e95705637ce8a3b55ed402112",
    ],
    [
      repeat(0xaa, 80),
      ascii("Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data"),
      "e8e99d0f45237d786d6bbaa7965c7808bbff1a91",
    ],
  ];
  cases.forEach(([key, data, digest], i) => {
    it(`test case ${i + 1}`, () => {
      const m = mac("hmac-sha1", key, kat);
      assert.equal(toHex(m.tag(data)), digest);
      assert.equal(m.verify(data, hex(digest)), true);
    });
  });
  it("test case 5, digest-96", () => {
    const m = mac("hmac-sha1", repeat(0x0c, 20), { ...kat, tagLength: 12 });
    assert.equal(toHex(m.tag(ascii("Test With Truncation"))), "4c1a03424b55e07fe7f27be1");
  });
});

describe("HMAC-SHA-224/256/384/512 (RFC 4231 section 4)", () => {
  const large = repeat(0xaa, 131);
  const cases: {
    key: Uint8Array;
    data: Uint8Array;
    tags: [string, string, string, string];
    truncate?: number;
  }[] = [
    {
      key: repeat(0x0b, 20),
      data: ascii("Hi There"),
      tags: [
        "896fb1128abbdf196832107cd49df33f47b4b1169912ba4f53684b22",
        "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
        "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa9cb6",
        "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cdedaa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854",
      ],
    },
    {
      key: ascii("Jefe"),
      data: ascii("what do ya want for nothing?"),
      tags: [
        "a30e01098bc6dbbf45690f3a7e9e6d0f8bbea2a39e6148008fd05e44",
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
        "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649",
        "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737",
      ],
    },
    {
      key: repeat(0xaa, 20),
      data: repeat(0xdd, 50),
      tags: [
        "7fb3cb3588c6c1f6ffa9694d7d6ad2649365b0c1f65d69d1ec8333ea",
        "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe",
        "88062608d3e6ad8a0aa2ace014c8a86f0aa635d947ac9febe83ef4e55966144b2a5ab39dc13814b94e3ab6e101a34f27",
        "fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39bf3e848279a722c806b485a47e67c807b946a337bee8942674278859e13292fb",
      ],
    },
    {
      key: hex("0102030405060708090a0b0c0d0e0f10111213141516171819"),
      data: repeat(0xcd, 50),
      tags: [
        "6c11506874013cac6a2abc1bb382627cec6a90d86efc012de7afec5a",
        "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
        "3e8a69b7783c25851933ab6290af6ca77a9981480850009cc5577c6e1f573b4e6801dd23c4a7d679ccf8a386c674cffb",
        "b0ba465637458c6990e5a8c5f61d4af7e576d97ff94b872de76f8050361ee3dba91ca5c11aa25eb4d679275cc5788063a5f19741120c4f2de2adebeb10a298dd",
      ],
    },
    {
      key: repeat(0x0c, 20),
      data: ascii("Test With Truncation"),
      truncate: 16,
      tags: [
        "0e2aea68a90c8d37c988bcdb9fca6fa8",
        "a3b6167473100ee06e0c796c2955552b",
        "3abf34c3503b2a23a46efc619baef897",
        "415fad6271580a531d4179bc891d87a6",
      ],
    },
    {
      key: large,
      data: ascii("Test Using Larger Than Block-Size Key - Hash Key First"),
      tags: [
        "95e9a0db962095adaebe9b2d6f0dbce2d499f112f2d2b7273fa6870e",
        "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
        "4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c60c2ef6ab4030fe8296248df163f44952",
        "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f3526b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598",
      ],
    },
    {
      key: large,
      data: ascii(
        "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.",
      ),
      tags: [
        "3a854166ac5d9f023f54d517d0b39dbd946770db9c2b95c9f6f565d1",
        "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
        "6617178e941f020d351e2f254e8fd32c602420feb0b8fb9adccebb82461e99c5a678cc31e799176d3860e6110c46523e",
        "e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944b6022cac3c4982b10d5eeb55c3e4de15134676fb6de0446065c97440fa8c6a58",
      ],
    },
  ];
  const names: MacName[] = ["hmac-sha224", "hmac-sha256", "hmac-sha384", "hmac-sha512"];
  cases.forEach(({ key, data, tags, truncate }, i) => {
    it(`test case ${i + 1}`, () => {
      names.forEach((name, j) => {
        const m = mac(name, key, { ...kat, tagLength: truncate });
        assert.equal(toHex(m.tag(data)), tags[j], name);
        assert.equal(m.verify(data, hex(tags[j])), true, name);
      });
    });
  });
});

describe("Wycheproof HMAC", () => {
  for (const [file, name] of WYCHEPROOF_HMAC_FILES) {
    const path = `wycheproof/${file}`;
    it(`${file}: every case`, { skip: skipUnless(path) }, () => {
      const data = readVectorJson<WycheproofFile<MacTestGroup>>(path);
      let count = 0;
      for (const group of data.testGroups) {
        for (const t of group.tests) {
          const id = `${file} tcId ${t.tcId} (${t.comment})`;
          const m = mac(name, hex(t.key), {
            tagLength: group.tagSize / 8,
            allowShortKeys: true,
            allowShortTags: true,
          });
          const message = hex(t.msg);
          const tag = hex(t.tag);
          if (t.result === "valid") {
            assert.equal(toHex(m.tag(message)), t.tag, id);
            assert.equal(m.verify(message, tag), true, id);
            assert.equal(m.stream().update(message).verify(tag), true, id);
          } else {
            assert.equal(t.result, "invalid", id);
            assert.equal(m.verify(message, tag), false, id);
            assert.equal(m.stream().update(message).verify(tag), false, id);
          }
          count++;
        }
      }
      assert.equal(count, data.numberOfTests);
    });
  }
});

describe("HMAC against node:crypto (property tests)", () => {
  for (const name of macNames().filter((n) => n.startsWith("hmac-"))) {
    const hash = name.slice("hmac-".length);
    it(`${name}: random keys, messages, tag lengths and split points (1,000 cases)`, () => {
      const full = createHmac(hash, "k").digest().length;
      fc.assert(
        fc.property(
          fc.uint8Array({ maxLength: 300 }),
          fc.uint8Array({ maxLength: 5000 }),
          fc.integer({ min: 4, max: full }),
          fc.array(fc.nat(), { maxLength: 4 }),
          (key, message, tagLength, cuts) => {
            const m = mac(name, atOffset(key), {
              tagLength,
              allowShortKeys: true,
              allowShortTags: true,
            });
            const expected = new Uint8Array(
              createHmac(hash, key).update(message).digest(),
            ).subarray(0, tagLength);
            assert.deepEqual(m.tag(message), expected);
            const stream = m.stream();
            let last = 0;
            for (const p of cuts.map((c) => c % (message.length + 1)).sort((x, y) => x - y)) {
              stream.update(message.subarray(last, p));
              last = p;
            }
            stream.update(message.subarray(last));
            assert.deepEqual(stream.digest(), expected);
            assert.equal(m.verify(message, expected), true);
            const wrong = expected.slice();
            wrong[message.length % tagLength] ^= 1;
            assert.equal(m.verify(message, wrong), false);
          },
        ),
        { numRuns: 1000 },
      );
    });
  }
});

describe("HMAC past the crossover: node:crypto's one-shot inner hash, the outer on keyed's kernel", () => {
  for (const name of Object.keys(HMAC_HASHES) as (keyof typeof HMAC_HASHES)[]) {
    const hash = HMAC_HASHES[name];
    it(`${name}: later messages from the crossover to past the one-shot limit equal node:crypto`, () => {
      // Keys shorter than, equal to and longer than a block (hashed first), and lengths on both
      // sides of every family's crossover and of the one-shot hash's 64 KiB limit.
      for (const keyLength of [20, 64, 136, 200]) {
        const key = new Uint8Array(keyLength).map((_, i) => (i * 29 + keyLength) & 0xff);
        const m = mac(name, key);
        for (const length of [700, 768, 1536, 2048, 4096, 65535, 65536, 65537]) {
          const message = new Uint8Array(length).map((_, i) => (i * 13) & 0xff);
          const want = new Uint8Array(createHmac(hash, key).update(message).digest());
          // The first message takes createHmac; the second and third the one-shot inner hash.
          for (let use = 0; use < 3; use++)
            assert.deepEqual(
              m.tag(message),
              want,
              `${keyLength}-byte key, ${length} B, use ${use}`,
            );
        }
        m.destroy();
      }
    });
  }
});

describe("HmacKernel.computeParts (a message in parts, as the webhooks sign it)", () => {
  for (const name of ["hmac-sha1", "hmac-sha256", "hmac-sha512", "hmac-sha3-256"] as const) {
    const hash = name.slice("hmac-".length);
    it(`${name}: equals node:crypto over the joined parts, first message and later, around the crossover`, () => {
      fc.assert(
        fc.property(
          fc.uint8Array({ minLength: 1, maxLength: 100 }),
          // Lengths around the blocks, the node:crypto crossovers and the one-shot hash limit.
          fc.array(
            fc
              .constantFrom(0, 1, 63, 64, 65, 300, 700, 800, 1600, 2100, 5000, 40000)
              .chain((n) => fc.uint8Array({ minLength: n, maxLength: n })),
            { minLength: 1, maxLength: 4 },
          ),
          fc.integer({ min: 1, max: 3 }),
          (key, parts, uses) => {
            const kernel = new HmacKernel(HASH_FUNCTIONS[hash as keyof typeof HASH_FUNCTIONS], key);
            const expected = createHmac(hash, key);
            for (const part of parts) expected.update(part);
            const want = new Uint8Array(expected.digest());
            // The first message takes node:crypto's own HMAC; later ones its one-shot hashes or
            // keyed's kernels, by length.
            for (let use = 0; use < uses; use++) {
              const out = new Uint8Array(kernel.outputLength);
              kernel.computeParts(parts, out);
              assert.deepEqual(out, want);
            }
            kernel.wipe();
          },
        ),
        { numRuns: 100 },
      );
    });
  }
});

describe("HMAC key material", () => {
  it("destroy() wipes the key copy, the pad blocks and the inner digest buffer", () => {
    const key = new Uint8Array(200).map((_, i) => i + 1);
    for (const uses of [0, 1, 3]) {
      const m = mac("hmac-sha256", key);
      for (let i = 0; i < uses; i++) m.tag(new Uint8Array(40));
      // The key-derived values every backend shares (mac/hmac.ts's HmacKey).
      const kernel = (m as unknown as { kernel: { material: Record<string, unknown> } }).kernel
        .material;
      const copy = kernel.key as Uint8Array | undefined;
      const padded = kernel.padded as Record<string, Uint8Array> | undefined;
      m.destroy();
      if (copy !== undefined)
        assert.ok(
          copy.every((b) => b === 0),
          `${uses}: key copy`,
        );
      for (const [name, bytes] of Object.entries(padded ?? {}))
        assert.ok(
          bytes.every((b) => b === 0),
          `${uses}: ${name}`,
        );
      assert.equal(kernel.key, undefined, `${uses}: key reference dropped`);
    }
  });
});

describe("HMAC and the hash layer's shared message schedules", () => {
  const schedules = { sha1: new Sha1(), sha256: new Sha256(), sha512: new Sha512() };
  const blockOf = { sha1: 64, sha256: 64, sha512: 128 } as const;

  it("hold no key bytes after a long key, a short and a 1,000-byte message, and destroy()", () => {
    for (const hash of ["sha1", "sha256", "sha512"] as const) {
      // Longer than a block: the key is hashed first, and its tail is the last block compressed.
      const key = new Uint8Array(blockOf[hash] + 36).map((_, i) => 0xa0 ^ i);
      const m = mac(`hmac-${hash}`, key);
      m.tag(ascii("short"));
      m.tag(new Uint8Array(1000).fill(7));
      m.destroy();
      const scratch = schedules[hash].sharedScratch();
      assert.ok(
        scratch.every((w) => w === 0),
        `${hash}: the schedule still holds ${scratch.filter((w) => w !== 0).length} words`,
      );
    }
  });
});
