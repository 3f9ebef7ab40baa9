import assert from "node:assert/strict";
import { hkdfSync } from "node:crypto";
import { describe, it } from "node:test";
import fc from "fast-check";
import { hkdfExpand, hkdfExtract } from "../../src/hazmat.js";
import { type HkdfHash, hkdf } from "../../src/index.js";
import { hex, notBytes, throwsKeyed, toHex } from "../helpers.js";
import { type HkdfTestGroup, readVectorJson, skipUnless, type WycheproofFile } from "../vectors.js";

const range = (from: number, to: number) =>
  Uint8Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("HKDF (RFC 5869 appendix A)", () => {
  const cases: {
    hash: HkdfHash;
    ikm: Uint8Array;
    salt?: Uint8Array;
    info: Uint8Array;
    L: number;
    prk: string;
    okm: string;
  }[] = [
    {
      hash: "sha256",
      ikm: new Uint8Array(22).fill(0x0b),
      salt: range(0x00, 0x0c),
      info: range(0xf0, 0xf9),
      L: 42,
      prk: "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5",
      okm: "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865",
    },
    {
      hash: "sha256",
      ikm: range(0x00, 0x4f),
      salt: range(0x60, 0xaf),
      info: range(0xb0, 0xff),
      L: 82,
      prk: "06a6b88c5853361a06104c9ceb35b45cef760014904671014a193f40c15fc244",
      okm: "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87",
    },
    {
      hash: "sha256",
      ikm: new Uint8Array(22).fill(0x0b),
      salt: new Uint8Array(0),
      info: new Uint8Array(0),
      L: 42,
      prk: "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04",
      okm: "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8",
    },
    {
      hash: "sha1",
      ikm: new Uint8Array(11).fill(0x0b),
      salt: range(0x00, 0x0c),
      info: range(0xf0, 0xf9),
      L: 42,
      prk: "9b6c18c432a7bf8f0e71c8eb88f4b30baa2ba243",
      okm: "085a01ea1b10f36933068b56efa5ad81a4f14b822f5b091568a9cdd4f155fda2c22e422478d305f3f896",
    },
    {
      hash: "sha1",
      ikm: range(0x00, 0x4f),
      salt: range(0x60, 0xaf),
      info: range(0xb0, 0xff),
      L: 82,
      prk: "8adae09a2a307059478d309b26c4115a224cfaf6",
      okm: "0bd770a74d1160f7c9f12cd5912a06ebff6adcae899d92191fe4305673ba2ffe8fa3f1a4e5ad79f3f334b3b202b2173c486ea37ce3d397ed034c7f9dfeb15c5e927336d0441f4c4300e2cff0d0900b52d3b4",
    },
    {
      hash: "sha1",
      ikm: new Uint8Array(22).fill(0x0b),
      salt: new Uint8Array(0),
      info: new Uint8Array(0),
      L: 42,
      prk: "da8c8a73c7fa77288ec6f5e7c297786aa0d32d01",
      okm: "0ac1af7002b3d761d1e55298da9d0506b9ae52057220a306e07b6b87e8df21d0ea00033de03984d34918",
    },
    {
      hash: "sha1",
      ikm: new Uint8Array(22).fill(0x0c),
      salt: undefined, // not provided: HashLen zero bytes
      info: new Uint8Array(0),
      L: 42,
      prk: "2adccada18779e7c2077ad2eb19d3f3e731385dd",
      okm: "2c91117204d745f3500d636a62f64f0ab3bae548aa53d423b0d1f27ebba6f5e5673a081d70cce7acfc48",
    },
  ];
  cases.forEach((c, i) => {
    it(`test case ${i + 1} (${c.hash})`, () => {
      const prk = hkdfExtract(c.hash, c.ikm, c.salt);
      assert.equal(toHex(prk), c.prk);
      assert.equal(toHex(hkdfExpand(c.hash, prk, c.info, c.L)), c.okm);
      assert.equal(toHex(hkdf(c.hash, c.ikm, { salt: c.salt, info: c.info, length: c.L })), c.okm);
    });
  });
});

const FILES: [string, HkdfHash][] = [
  ["hkdf_sha1_test.json", "sha1"],
  ["hkdf_sha256_test.json", "sha256"],
  ["hkdf_sha384_test.json", "sha384"],
  ["hkdf_sha512_test.json", "sha512"],
];

describe("Wycheproof HKDF", () => {
  for (const [file, hash] of FILES) {
    const path = `wycheproof/${file}`;
    it(`${file}: every case`, { skip: skipUnless(path) }, () => {
      const data = readVectorJson<WycheproofFile<HkdfTestGroup>>(path);
      let count = 0;
      for (const group of data.testGroups) {
        for (const t of group.tests) {
          const id = `${file} tcId ${t.tcId} (${t.comment})`;
          const options = { salt: hex(t.salt), info: hex(t.info), length: t.size };
          if (t.result === "valid") {
            assert.equal(toHex(hkdf(hash, hex(t.ikm), options)), t.okm, id);
          } else {
            assert.ok(t.flags.includes("SizeTooLarge"), id);
            throwsKeyed(() => hkdf(hash, hex(t.ikm), options), "LENGTH", /at most 255/);
          }
          count++;
        }
      }
      assert.equal(count, data.numberOfTests);
    });
  }
});

describe("HKDF against node:crypto (property tests)", () => {
  for (const hash of ["sha1", "sha256", "sha384", "sha512"] as const) {
    it(`${hash} (1,000 cases)`, () => {
      fc.assert(
        fc.property(
          fc.uint8Array({ maxLength: 200 }),
          fc.uint8Array({ maxLength: 200 }),
          fc.uint8Array({ maxLength: 200 }),
          fc.integer({ min: 0, max: 1000 }),
          (ikm, salt, info, length) => {
            const expected = new Uint8Array(hkdfSync(hash, ikm, salt, info, length));
            assert.deepEqual(hkdf(hash, ikm, { salt, info, length }), expected);
          },
        ),
        { numRuns: 1000 },
      );
    });
  }
});

describe("HKDF limits and bad input", () => {
  it("produces 255 × HashLen bytes and refuses one more with LENGTH", () => {
    assert.equal(hkdf("sha256", new Uint8Array(32), { length: 255 * 32 }).length, 8160);
    throwsKeyed(() => hkdf("sha256", new Uint8Array(32), { length: 8161 }), "LENGTH", /8160/);
    throwsKeyed(() => hkdfExpand("sha1", new Uint8Array(20), undefined, 5101), "LENGTH", /5100/);
  });
  it("refuses bad arguments before doing any work", () => {
    const ikm = new Uint8Array(32);
    throwsKeyed(() => hkdf("md5" as HkdfHash, ikm, { length: 32 }), "UNKNOWN_ALGORITHM", /sha256/);
    for (const bad of [-1, 1.5, "32", undefined, Number.NaN]) {
      throwsKeyed(() => hkdf("sha256", ikm, { length: bad as number }), "BAD_INPUT", /length/);
    }
    throwsKeyed(() => hkdf("sha256", ikm, null as unknown as { length: number }), "BAD_INPUT");
    for (const [, value] of notBytes()) {
      throwsKeyed(() => hkdf("sha256", value as Uint8Array, { length: 32 }), "BAD_INPUT", /^ikm /);
      if (value === undefined) continue;
      throwsKeyed(
        () => hkdf("sha256", ikm, { salt: value as Uint8Array, length: 32 }),
        "BAD_INPUT",
        /salt/,
      );
      throwsKeyed(
        () => hkdf("sha256", ikm, { info: value as Uint8Array, length: 32 }),
        "BAD_INPUT",
        /info/,
      );
    }
    throwsKeyed(
      () => hkdfExpand("sha256", new Uint8Array(31), undefined, 32),
      "KEY_TOO_SHORT",
      /HashLen/,
    );
  });
});
