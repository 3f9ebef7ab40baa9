import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { UPDATE_SLICE } from "../../src/engine/native.js";
import { NATIVE_CROSSOVER, type NativeFamily } from "../../src/engine/select.js";
import { aesCmacPrf128 } from "../../src/hazmat.js";
import { cmac, type MacName, mac } from "../../src/index.js";
import { atOffset, cmacOracle, hex, notBytes, throwsKeyed, toHex } from "../helpers.js";
import { type MacTestGroup, readVectorJson, skipUnless, type WycheproofFile } from "../vectors.js";

describe("CMAC known answers", () => {
  // RFC 4493 section 4 (= SP 800-38B examples 1-4).
  const key = hex("2b7e151628aed2a6abf7158809cf4f3c");
  const m = hex(
    "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710",
  );
  const cases: [number, string][] = [
    [0, "bb1d6929e95937287fa37d129b756746"],
    [16, "070a16b46b4d4144f79bdd9dd04a287c"],
    [40, "dfa66747de9ae63030ca32611497c827"],
    [64, "51f0bebf7e3b9d92fc49741779363cfe"],
  ];
  for (const [length, tag] of cases) {
    it(`RFC 4493 example, ${length}-byte message`, () => {
      const c = mac("cmac-aes128", key);
      assert.equal(toHex(c.tag(m.subarray(0, length))), tag);
      assert.equal(c.verify(m.subarray(0, length), hex(tag)), true);
    });
  }
  const file = "rfc/nist_sp800-38b_cmac_examples.json";
  it("SP 800-38B examples 1-12 (AES-128, -192, -256)", { skip: skipUnless(file) }, () => {
    const data = readVectorJson<{ tests: { key: string; message: string; tag: string }[] }>(file);
    assert.equal(data.tests.length, 12);
    for (const t of data.tests) {
      assert.equal(toHex(cmac(hex(t.key)).tag(hex(t.message))), t.tag);
    }
  });
  it("RFC 4615 AES-CMAC-PRF-128, keys of 18, 16 and 10 bytes", () => {
    const message = hex("000102030405060708090a0b0c0d0e0f10111213");
    assert.equal(
      toHex(aesCmacPrf128(hex("000102030405060708090a0b0c0d0e0fedcb"), message)),
      "84a348a4a45d235babfffc0d2b4da09a",
    );
    assert.equal(
      toHex(aesCmacPrf128(hex("000102030405060708090a0b0c0d0e0f"), message)),
      "980ae87b5f4c9c5214f5b6a8455e4c2d",
    );
    assert.equal(
      toHex(aesCmacPrf128(hex("00010203040506070809"), message)),
      "290d9e112edb09ee141fcf64c0b72f3d",
    );
    for (const [, value] of notBytes()) {
      throwsKeyed(() => aesCmacPrf128(value as Uint8Array, message), "BAD_INPUT", /^key /);
      throwsKeyed(() => aesCmacPrf128(message, value as Uint8Array), "BAD_INPUT", /^message /);
    }
  });
});

const NAME_BY_KEY_BITS: Record<number, MacName> = {
  128: "cmac-aes128",
  192: "cmac-aes192",
  256: "cmac-aes256",
};

describe("Wycheproof AES-CMAC", () => {
  const path = "wycheproof/aes_cmac_test.json";
  it("aes_cmac_test.json: every case", { skip: skipUnless(path) }, () => {
    const data = readVectorJson<WycheproofFile<MacTestGroup>>(path);
    let count = 0;
    for (const group of data.testGroups) {
      for (const t of group.tests) {
        const id = `tcId ${t.tcId} (${t.comment})`;
        const key = hex(t.key);
        const name = NAME_BY_KEY_BITS[group.keySize];
        count++;
        if (name === undefined) {
          // Invalid key sizes: refused before any tag is made, under every CMAC name.
          assert.equal(t.result, "invalid", id);
          for (const n of Object.values(NAME_BY_KEY_BITS))
            throwsKeyed(() => mac(n, key), "KEY_LENGTH");
          throwsKeyed(() => cmac(key), "KEY_LENGTH");
          continue;
        }
        const m = mac(name, key, { tagLength: group.tagSize / 8, allowShortTags: true });
        const message = hex(t.msg);
        if (t.result === "valid") {
          assert.equal(toHex(m.tag(message)), t.tag, id);
          assert.equal(m.verify(message, hex(t.tag)), true, id);
        } else {
          assert.equal(m.verify(message, hex(t.tag)), false, id);
          assert.equal(m.stream().update(message).verify(hex(t.tag)), false, id);
        }
      }
    }
    assert.equal(count, data.numberOfTests);
  });
});

describe("CMAC against a node:crypto CBC oracle (property tests)", () => {
  for (const size of [16, 24, 32]) {
    it(`AES-${size * 8}: random keys, lengths 0-5000 B, split points (1,000 cases)`, () => {
      fc.assert(
        fc.property(
          fc.uint8Array({ minLength: size, maxLength: size }),
          fc.uint8Array({ maxLength: 5000 }),
          fc.array(fc.nat(), { maxLength: 5 }),
          (key, message, cuts) => {
            const expected = cmacOracle(key, message);
            const m = cmac(atOffset(key));
            assert.deepEqual(m.tag(message), expected);
            const s = m.stream();
            let last = 0;
            for (const p of cuts.map((c) => c % (message.length + 1)).sort((x, y) => x - y)) {
              s.update(message.subarray(last, p));
              last = p;
            }
            s.update(message.subarray(last));
            assert.deepEqual(s.digest(), expected);
          },
        ),
        { numRuns: 1000 },
      );
    });
  }
  it("each key size on both sides of its own node:crypto crossover, one-shot and streamed in two", () => {
    for (const size of [16, 24, 32]) {
      const crossover = NATIVE_CROSSOVER[`cmac-aes${size * 8}` as NativeFamily];
      const key = Uint8Array.from({ length: size }, (_, i) => i * 7 + size);
      const m = cmac(key);
      for (const n of [crossover - 17, crossover - 16, crossover - 1, crossover, crossover + 1]) {
        const message = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff);
        const expected = cmacOracle(key, message);
        assert.deepEqual(m.tag(message), expected, `AES-${size * 8}, ${n} B`);
        const s = m.stream();
        s.update(message.subarray(0, n >> 1));
        s.update(message.subarray(n >> 1));
        assert.deepEqual(s.digest(), expected, `AES-${size * 8}, ${n} B streamed`);
      }
    }
  });
  it("one key, many messages in a row: each tag as under a fresh key (node:crypto's CBC context is kept between messages)", () => {
    // Lengths on keyed's kernel, past the crossover, past the native path's join limit (32 KiB,
    // three calls then) and past one and two of its update slices (engine/native.ts
    // updateDiscarding), with streams and verifies between them.
    const length = fc.oneof(
      fc.integer({ min: 0, max: 40 }),
      fc.integer({ min: 1000, max: 5000 }),
      fc.constantFrom(
        16,
        32,
        2048,
        32 * 1024 - 16,
        32 * 1024 - 15,
        32 * 1024,
        40000,
        65568,
        UPDATE_SLICE + 48,
        150001,
        2 * UPDATE_SLICE + 49,
      ),
    );
    for (const size of [16, 24, 32]) {
      fc.assert(
        fc.property(
          fc.uint8Array({ minLength: size, maxLength: size }),
          fc.array(fc.tuple(length, fc.nat(3)), { minLength: 1, maxLength: 12 }),
          (key, steps) => {
            const m = cmac(key);
            steps.forEach(([n, how], i) => {
              const message = Uint8Array.from({ length: n }, (_, j) => (j * 13 + i + n) & 0xff);
              const expected = cmacOracle(key, message);
              if (how === 1) {
                const s = m.stream();
                s.update(message.subarray(0, n >> 1));
                s.update(message.subarray(n >> 1));
                assert.deepEqual(s.digest(), expected, `step ${i}: ${n} B streamed`);
              } else if (how === 2) {
                assert.ok(m.verify(message, expected), `step ${i}: ${n} B verified`);
              } else {
                assert.deepEqual(m.tag(message), expected, `step ${i}: ${n} B`);
              }
            });
            m.destroy();
          },
        ),
        { numRuns: 40 },
      );
    }
  });
  it("every length from 0 to 100, streamed byte by byte", () => {
    const key = hex("000102030405060708090a0b0c0d0e0f");
    const data = Uint8Array.from({ length: 100 }, (_, i) => i);
    const m = cmac(key);
    for (let n = 0; n <= 100; n++) {
      const s = m.stream();
      for (let i = 0; i < n; i++) s.update(data.subarray(i, i + 1));
      assert.deepEqual(s.digest(), cmacOracle(key, data.subarray(0, n)), `length ${n}`);
    }
  });
});

describe("CMAC policy", () => {
  it("key length must match the name", () => {
    throwsKeyed(() => mac("cmac-aes128", new Uint8Array(32)), "KEY_LENGTH", /exactly 16/);
    throwsKeyed(() => mac("cmac-aes256", new Uint8Array(16)), "KEY_LENGTH", /exactly 32/);
    throwsKeyed(() => cmac(new Uint8Array(20)), "KEY_LENGTH", /16, 24 or 32/);
  });
  it("truncation down to 8 bytes; shorter needs allowShortTags (SP 800-38B)", () => {
    const key = new Uint8Array(16).fill(1);
    const full = cmac(key).tag(new Uint8Array(3));
    assert.deepEqual(cmac(key, { tagLength: 8 }).tag(new Uint8Array(3)), full.subarray(0, 8));
    throwsKeyed(() => cmac(key, { tagLength: 7 }), "TAG_LENGTH", /SP 800-38B/);
    assert.equal(cmac(key, { tagLength: 4, allowShortTags: true }).tagLength, 4);
    throwsKeyed(() => cmac(key, { tagLength: 17 }), "TAG_LENGTH");
  });
  it("destroy wipes the AES schedule and subkeys", () => {
    const m = cmac(new Uint8Array(16).fill(9));
    const core = (m as unknown as { kernel: { core: Record<string, unknown> } }).kernel.core;
    if (core.aes !== undefined) {
      // The bitsliced JavaScript kernel.
      const aes = core.aes as { roundKeys: Int32Array };
      assert.ok(aes.roundKeys.some((w) => w !== 0));
      m.destroy();
      assert.ok(aes.roundKeys.every((w) => w === 0));
      assert.ok((core.k1 as Int32Array).every((w) => w === 0));
      assert.ok((core.k2 as Int32Array).every((w) => w === 0));
    } else {
      // The WebAssembly kernel (test/engine/wasm-aes.test.ts scans the whole memory).
      const key = core.key as { own(): number; wasm: { bytes(): Uint8Array } };
      const slot = key.own();
      assert.ok(
        key.wasm
          .bytes()
          .subarray(slot, slot + 288)
          .some((b) => b !== 0),
      );
      m.destroy();
      assert.ok(
        key.wasm
          .bytes()
          .subarray(slot, slot + 512)
          .every((b) => b === 0),
      );
    }
    throwsKeyed(() => m.tag(new Uint8Array(1)), "DESTROYED");
  });
});
