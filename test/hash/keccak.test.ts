import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  cshake,
  HASH_FUNCTIONS,
  keccakF1600,
  sha3_256,
  shake,
  tupleHash,
} from "../../src/hazmat.js";
import { ascii, atOffset, hex, notBytes, throwsKeyed, toHex } from "../helpers.js";
import { readVectorJson, skipUnless } from "../vectors.js";

const SHA3 = ["sha3-224", "sha3-256", "sha3-384", "sha3-512"] as const;

describe("SHA-3 and SHAKE known answers (FIPS 202 examples)", () => {
  // NIST CSRC example values: the empty message, "abc", and 200 bytes of 0xa3 (1600 bits).
  const known: Record<(typeof SHA3)[number], [string, string, string]> = {
    "sha3-224": [
      "6b4e03423667dbb73b6e15454f0eb1abd4597f9a1b078e3f5b5a6bc7",
      "e642824c3f8cf24ad09234ee7d3c766fc9a3a5168d0c94ad73b46fdf",
      "9376816aba503f72f96ce7eb65ac095deee3be4bf9bbc2a1cb7e11e0",
    ],
    "sha3-256": [
      "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a",
      "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532",
      "79f38adec5c20307a98ef76e8324afbfd46cfd81b22e3973c65fa1bd9de31787",
    ],
    "sha3-384": [
      "0c63a75b845e4f7d01107d852e4c2485c51a50aaaa94fc61995e71bbee983a2ac3713831264adb47fb6bd1e058d5f004",
      "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b298d88cea927ac7f539f1edf228376d25",
      "1881de2ca7e41ef95dc4732b8f5f002b189cc1e42b74168ed1732649ce1dbcdd76197a31fd55ee989f2d7050dd473e8f",
    ],
    "sha3-512": [
      "a69f73cca23a9ac5c8b567dc185a756e97c982164fe25859e0d1dcc1475c80a615b2123af1f5f94c11e3e9402c3ac558f500199d95b6d3e301758586281dcd26",
      "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0",
      "e76dfad22084a8b1467fcf2ffa58361bec7628edf5f3fdc0e4805dc48caeeca81b7c13c30adf52a3659584739a2df46be589c51ca1a4a8416df6545a1ce8ba00",
    ],
  };
  for (const name of SHA3) {
    it(name, () => {
      const [empty, abc, a3] = known[name];
      const digest = (m: Uint8Array) => toHex(HASH_FUNCTIONS[name].create().update(m).digest());
      assert.equal(digest(new Uint8Array(0)), empty);
      assert.equal(digest(ascii("abc")), abc);
      assert.equal(digest(new Uint8Array(200).fill(0xa3)), a3);
    });
  }
  it("SHAKE128 and SHAKE256 of the empty message", () => {
    assert.equal(
      toHex(shake(128, new Uint8Array(0), 32)),
      "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26",
    );
    assert.equal(
      toHex(shake(256, new Uint8Array(0), 64)),
      "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762fd75dc4ddd8c0f200cb05019d67b592f6fc821c49479ab48640292eacb3b7c4be",
    );
  });
});

interface Sp800185Sample {
  name: string;
  function: string;
  data?: string;
  tuple?: string[];
  N?: string;
  S: string;
  outputBits: number;
  output: string;
}

describe("cSHAKE and TupleHash (SP 800-185 sample values)", () => {
  const file = "rfc/nist_sp800-185_cshake_tuplehash_samples.json";
  it("every cSHAKE, TupleHash and TupleHashXOF sample", { skip: skipUnless(file) }, () => {
    const { tests } = readVectorJson<{ tests: Sp800185Sample[] }>(file);
    assert.equal(tests.length, 16);
    for (const t of tests) {
      const strength = t.function.endsWith("256") ? 256 : 128;
      const length = t.outputBits / 8;
      let out: Uint8Array;
      if (t.function.startsWith("cSHAKE")) {
        out = cshake(strength, hex(t.data ?? ""), length, {
          functionName: t.N ?? "",
          customization: t.S,
        });
      } else {
        out = tupleHash(strength, (t.tuple ?? []).map(hex), length, {
          customization: t.S,
          xof: t.function.startsWith("TupleHashXOF"),
        });
      }
      assert.equal(toHex(out), t.output, t.name);
    }
  });
  it("TupleHash separates ('ab', 'c') from ('a', 'bc')", () => {
    assert.notDeepEqual(tupleHash(128, ["ab", "c"], 32), tupleHash(128, ["a", "bc"], 32));
    assert.notDeepEqual(tupleHash(128, ["abc"], 32), tupleHash(128, ["abc", ""], 32));
    assert.deepEqual(
      tupleHash(128, ["ab", "c"], 32),
      tupleHash(128, [ascii("ab"), ascii("c")], 32),
    );
  });
  it("cSHAKE with empty N and S is SHAKE", () => {
    const m = ascii("message");
    assert.deepEqual(cshake(128, m, 40), shake(128, m, 40));
  });
});

describe("SHA-3 and SHAKE against node:crypto (property tests)", () => {
  for (const name of SHA3) {
    it(`${name}: random messages and split points (1,000 cases)`, () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 5000 }), fc.nat(), (message, cut) => {
          const p = cut % (message.length + 1);
          const state = HASH_FUNCTIONS[name].create();
          state.update(message.subarray(0, p)).update(atOffset(message.subarray(p)));
          assert.equal(toHex(state.digest()), createHash(name).update(message).digest("hex"));
        }),
        { numRuns: 1000 },
      );
    });
  }
  for (const strength of [128, 256] as const) {
    it(`SHAKE${strength}: random messages and output lengths (1,000 cases)`, () => {
      fc.assert(
        fc.property(
          fc.uint8Array({ maxLength: 2000 }),
          fc.integer({ min: 0, max: 600 }),
          (message, length) => {
            const expected = createHash(`shake${strength}`, { outputLength: length })
              .update(message)
              .digest("hex");
            assert.equal(toHex(shake(strength, message, length)), expected);
          },
        ),
        { numRuns: 1000 },
      );
    });
  }
  it("the permutation is the standard one (state after one call on zeros)", () => {
    const s = new Int32Array(50);
    keccakF1600(s);
    // Keccak-f[1600] of the zero state, first lane: F1258F7940E1DDE7 (Keccak team's KeccakF-1600 intermediate values).
    assert.equal(
      (s[1] >>> 0).toString(16).padStart(8, "0") + (s[0] >>> 0).toString(16).padStart(8, "0"),
      "f1258f7940e1dde7",
    );
  });
  it("bad input", () => {
    for (const [, value] of notBytes()) {
      throwsKeyed(() => sha3_256(value as Uint8Array), "BAD_INPUT", /^message /);
      throwsKeyed(() => shake(128, value as Uint8Array, 32), "BAD_INPUT");
    }
    throwsKeyed(() => cshake(128, new Uint8Array(0), -1), "BAD_INPUT", /length/);
    throwsKeyed(() => tupleHash(128, "ab" as unknown as string[], 32), "BAD_INPUT", /array/);
    throwsKeyed(() => tupleHash(128, [5 as unknown as string], 32), "BAD_INPUT", /items\[0\]/);
  });
});
