/**
 * The AES family's WebAssembly kernels (src/engine/wasm/assembly/aes.ts): FIPS 197 known answers
 * through the module's exports; AES, CMAC and GMAC against the bitsliced JavaScript kernels and
 * node:crypto on random keys of every size, messages from 0 bytes to past the module's input
 * buffer, and random stream splits; and no key material left in the module's memory after destroy.
 * Where WebAssembly SIMD is missing or KEYED_BACKEND=js is set, the WebAssembly parts are skipped.
 */
import assert from "node:assert/strict";
import { type CipherGCMTypes, createCipheriv, randomBytes, randomInt } from "node:crypto";
import { describe, it } from "node:test";
import { BitslicedAes } from "../../src/cipher/aes.js";
import * as aesGlue from "../../src/engine/wasm-aes.js";
import { type WasmAes, wasmAes } from "../../src/engine/wasm-aes.js";
import { AesKey, gmac as gmacHazmat } from "../../src/hazmat.js";
import { cmac, gmac, mac } from "../../src/index.js";
import { BitslicedCmac, type CmacChain, CmacState, WasmCmac } from "../../src/mac/cmac.js";
import { BitslicedGmac, WasmGmac } from "../../src/mac/gmac.js";
import { cmacOracle, hex, toHex } from "../helpers.js";
import { readVectorJson, skipUnless } from "../vectors.js";

const wasm = wasmAes();
const noWasm = wasm === undefined ? "no WebAssembly AES (KEYED_BACKEND=js or no SIMD)" : false;
const KEY_SIZES = [16, 24, 32];

const ecb = (key: Uint8Array, block: Uint8Array) =>
  new Uint8Array(
    createCipheriv(`aes-${key.length * 8}-ecb`, key, null)
      .setAutoPadding(false)
      .update(block),
  );

/** node:crypto AES-GCM with the message as associated data and no plaintext: GMAC. */
function gcmTag(key: Uint8Array, nonce: Uint8Array, message: Uint8Array): Uint8Array {
  const c = createCipheriv(`aes-${key.length * 8}-gcm` as CipherGCMTypes, key, nonce);
  c.setAAD(message);
  c.final();
  return new Uint8Array(c.getAuthTag());
}

/** Message lengths: every one to 300, then around the module's input buffer and past it. */
function lengths(w: WasmAes): number[] {
  const capacity = w.msgCapacity;
  const out = Array.from({ length: 301 }, (_, i) => i);
  out.push(8192, capacity - 1, capacity, capacity + 1, capacity + 17, 2 * capacity + 5);
  return out;
}

/** `message` cut at a few random points. */
function randomSplit(message: Uint8Array): Uint8Array[] {
  const cuts = Array.from({ length: randomInt(0, 6) }, () => randomInt(0, message.length + 1));
  cuts.sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let last = 0;
  for (const cut of [...cuts, message.length]) {
    pieces.push(message.subarray(last, cut));
    last = cut;
  }
  return pieces;
}

/** AES under `key` by calling the module's exports directly, in its scratch slot. */
function wasmEncrypt(w: WasmAes, key: Uint8Array, block: Uint8Array): string {
  const e = w.exports;
  const scratch = e.SCRATCH.value;
  let memory = w.bytes();
  memory.set(key, e.KEY.value);
  e.aes_key(scratch, key.length);
  memory = w.bytes();
  memory.set(block, w.msg);
  e.aes_encrypt(scratch);
  const out = toHex(w.bytes().slice(w.out, w.out + 16));
  w.bytes().fill(0, scratch, scratch + 512);
  return out;
}

describe("wasm AES: FIPS 197 known answers through the module's exports", { skip: noWasm }, () => {
  const w = wasm as WasmAes;
  it("appendix B and appendix C.1-C.3", () => {
    assert.equal(
      wasmEncrypt(
        w,
        hex("2b7e151628aed2a6abf7158809cf4f3c"),
        hex("3243f6a8885a308d313198a2e0370734"),
      ),
      "3925841d02dc09fbdc118597196a0b32",
    );
    // Appendix C: the key is the bytes 0, 1, 2, … and the plaintext 00112233…ff.
    const plaintext = hex("00112233445566778899aabbccddeeff");
    const ciphertexts = [
      "69c4e0d86a7b0430d8cdb78070b4c55a",
      "dda97ca4864cdfe06eaf70a0ec0d7191",
      "8ea2b7ca516745bfeafc49904b496089",
    ];
    for (const [n, size] of KEY_SIZES.entries()) {
      const key = Uint8Array.from({ length: size }, (_, i) => i);
      assert.equal(wasmEncrypt(w, key, plaintext), ciphertexts[n], `AES-${size * 8}`);
    }
  });
  const file = "rfc/nist_fips197_appendix_c.json";
  it("appendix C from the shared vector file", { skip: skipUnless(file) }, () => {
    const data = readVectorJson<{
      tests: { key: string; plaintext: string; ciphertext: string }[];
    }>(file);
    for (const t of data.tests)
      assert.equal(wasmEncrypt(w, hex(t.key), hex(t.plaintext)), t.ciphertext);
  });
  it("the module's S-box: every byte value in every position, against node:crypto", () => {
    // 16 blocks whose bytes run through all 256 values, under keys of each size.
    for (const size of KEY_SIZES) {
      const key = randomBytes(size);
      for (let start = 0; start < 256; start += 16) {
        const block = Uint8Array.from({ length: 16 }, (_, i) => (start + i * 17) & 255);
        assert.equal(wasmEncrypt(w, key, block), toHex(ecb(key, block)));
      }
    }
  });
});

describe("AES: wasm, bitsliced JavaScript and node:crypto agree", () => {
  it("random keys of 16, 24 and 32 bytes, 200 blocks each, first use and later uses", () => {
    for (const size of KEY_SIZES) {
      for (let k = 0; k < 20; k++) {
        const key = randomBytes(size);
        // AesKey runs in WebAssembly where it can: its first block in the scratch slot, the
        // later ones in a slot of its own.
        const aes = new AesKey(key);
        const js = new BitslicedAes(key);
        const out = new Uint8Array(16);
        for (let b = 0; b < 10; b++) {
          const block = randomBytes(16);
          const want = toHex(ecb(key, block));
          aes.encryptBlock(block, 0, out, 0);
          assert.equal(toHex(out), want, `AesKey, key ${toHex(key)}`);
          js.encryptBlock(block, 0, out, 0);
          assert.equal(toHex(out), want, `BitslicedAes, key ${toHex(key)}`);
        }
        aes.wipe();
        js.wipe();
      }
    }
  });
});

describe("CMAC: wasm, bitsliced JavaScript and node:crypto agree", { skip: noWasm }, () => {
  const w = wasm as WasmAes;
  it("every length 0-300 B, 8 KiB, and around and past the input buffer; keys of every size", () => {
    const all = lengths(w);
    const out = new Uint8Array(16);
    for (let n = 0; n < all.length; n++) {
      const key = randomBytes(KEY_SIZES[n % 3]);
      const message = randomBytes(all[n]);
      const want = toHex(cmacOracle(key, message));
      const ours = new WasmCmac(aesGlue, w, key);
      ours.compute(message, out);
      assert.equal(toHex(out), want, `wasm, length ${message.length}`);
      // Second use: the key's own slot rather than the scratch one.
      ours.compute(message, out);
      assert.equal(toHex(out), want, `wasm again, length ${message.length}`);
      ours.wipe();
      if (message.length <= 300 || n === all.length - 1) {
        const js = new BitslicedCmac(key);
        js.compute(message, out);
        assert.equal(toHex(out), want, `js, length ${message.length}`);
        js.wipe();
      }
    }
  });
  it("streams with random splits (wasm and JavaScript kernels, 300 messages)", () => {
    const all = lengths(w);
    const out = new Uint8Array(16);
    for (let n = 0; n < 300; n++) {
      const key = randomBytes(KEY_SIZES[n % 3]);
      const message = randomBytes(all[randomInt(all.length)]);
      const want = toHex(cmacOracle(key, message));
      const cores: (WasmCmac | BitslicedCmac)[] = [new WasmCmac(aesGlue, w, key)];
      if (message.length < 10000) cores.push(new BitslicedCmac(key));
      for (const core of cores) {
        const s = new CmacState(core);
        for (const piece of randomSplit(message)) s.update(piece);
        s.finish(out);
        assert.equal(toHex(out), want, `${core.constructor.name}, length ${message.length}`);
        core.wipe();
      }
    }
  });
  it("the block interface (TCP-AO's) chains across calls", () => {
    const key = randomBytes(16);
    const message = randomBytes(16 * 7 + 5);
    const core = new WasmCmac(aesGlue, w, key);
    const chain: CmacChain = new Int32Array(8);
    for (let offset = 0; offset < 16 * 7; offset += 16) core.absorb(chain, message, offset, 1);
    const out = new Uint8Array(16);
    core.finish(chain, message, 16 * 7, 5, out);
    assert.equal(toHex(out), toHex(cmacOracle(key, message)));
    assert.ok(
      chain.every((x) => x === 0),
      "finish zeroes the chain",
    );
  });
});

describe("GMAC: wasm, bitsliced JavaScript and node:crypto AES-GCM agree", { skip: noWasm }, () => {
  const w = wasm as WasmAes;
  const nonceFor = (n: number) => randomBytes(n % 4 === 0 ? randomInt(1, 65) : 12);
  it("every length 0-300 B, 8 KiB, around and past the input buffer; nonces of 1-64 B", () => {
    const all = lengths(w);
    const out = new Uint8Array(16);
    for (let n = 0; n < all.length; n++) {
      const key = randomBytes(KEY_SIZES[n % 3]);
      const nonce = nonceFor(n);
      const message = randomBytes(all[n]);
      const want = toHex(gcmTag(key, nonce, message));
      const ours = new WasmGmac(aesGlue, w, key);
      ours.compute(message, out, nonce);
      assert.equal(toHex(out), want, `wasm, length ${message.length}, nonce ${nonce.length}`);
      ours.compute(message, out, nonce);
      assert.equal(toHex(out), want, `wasm again, length ${message.length}`);
      ours.wipe();
      if (message.length <= 300 || n === all.length - 1) {
        const js = new BitslicedGmac(key);
        js.compute(message, out, nonce);
        assert.equal(toHex(out), want, `js, length ${message.length}, nonce ${nonce.length}`);
        js.wipe();
      }
    }
  });
  it("a nonce longer than the input buffer (node:crypto refuses it; the JavaScript kernel is the oracle)", () => {
    const key = randomBytes(16);
    const nonce = randomBytes(w.msgCapacity + 33);
    const message = randomBytes(100);
    const out = new Uint8Array(16);
    const want = new Uint8Array(16);
    const ours = new WasmGmac(aesGlue, w, key);
    ours.compute(message, out, nonce);
    new BitslicedGmac(key).compute(message, want, nonce);
    assert.equal(toHex(out), toHex(want));
    ours.wipe();
  });
  it("streams with random splits (wasm and JavaScript kernels, 300 messages)", () => {
    const all = lengths(w);
    const out = new Uint8Array(16);
    for (let n = 0; n < 300; n++) {
      const key = randomBytes(KEY_SIZES[n % 3]);
      const nonce = nonceFor(n);
      const message = randomBytes(all[randomInt(all.length)]);
      const want = toHex(gcmTag(key, nonce, message));
      const cores: (WasmGmac | BitslicedGmac)[] = [new WasmGmac(aesGlue, w, key)];
      if (message.length < 10000) cores.push(new BitslicedGmac(key));
      for (const core of cores) {
        const s = core.start();
        for (const piece of randomSplit(message)) s.update(piece);
        s.finish(out, nonce);
        assert.equal(toHex(out), want, `${core.constructor.name}, length ${message.length}`);
        core.wipe();
      }
    }
  });
});

describe("CMAC and GMAC through the public API, on the backend in use", () => {
  it("one-shot, prepared and streamed tags match node:crypto (keys of every size)", () => {
    for (const size of KEY_SIZES) {
      const key = randomBytes(size);
      const c = cmac(key);
      const g = gmac(key);
      for (const length of [0, 1, 15, 16, 17, 63, 64, 127, 128, 1000, 5000, 70000]) {
        const message = randomBytes(length);
        const want = toHex(cmacOracle(key, message));
        assert.equal(toHex(cmac(key).tag(message)), want, `cmac one-shot, ${length} B`);
        assert.equal(toHex(c.tag(message)), want, `cmac prepared, ${length} B`);
        const s = c.stream();
        for (const piece of randomSplit(message)) s.update(piece);
        assert.equal(toHex(s.digest()), want, `cmac stream, ${length} B`);
        const tagged = g.tag(message);
        const nonce = tagged.subarray(0, 12);
        assert.equal(
          toHex(tagged.subarray(12)),
          toHex(gcmTag(key, nonce, message)),
          `gmac, ${length} B`,
        );
        const gs = g.stream();
        for (const piece of randomSplit(message)) gs.update(piece);
        assert.equal(g.verify(message, gs.digest()), true, `gmac stream, ${length} B`);
        assert.equal(
          toHex(gmacHazmat(key, nonce, message)),
          toHex(gcmTag(key, nonce, message)),
          `hazmat gmac, ${length} B`,
        );
      }
    }
  });
  it("hazmat gmac with nonces past node:crypto's 128-byte limit, at lengths past the crossover", () => {
    for (const size of KEY_SIZES) {
      const key = randomBytes(size);
      for (const nonceLength of [129, 200, 1000]) {
        const nonce = randomBytes(nonceLength);
        const message = randomBytes(5000);
        const want = new Uint8Array(16);
        new BitslicedGmac(key).compute(message, want, nonce);
        assert.equal(toHex(gmacHazmat(key, nonce, message)), toHex(want), `nonce ${nonceLength} B`);
      }
    }
  });
});

// --- key material after destroy ------------------------------------------------------------------

const SBOX = (() => {
  const mul = (a: number, b: number) => {
    let r = 0;
    for (; b; b >>= 1, a = (a << 1) ^ (a & 0x80 ? 0x11b : 0)) if (b & 1) r ^= a;
    return r;
  };
  return Array.from({ length: 256 }, (_, x) => {
    let inv = 0;
    for (let y = 1; y < 256 && x !== 0; y++) if (mul(x, y) === 1) inv = y;
    let s = inv;
    for (let r = inv, k = 0; k < 4; k++) {
      r = ((r << 1) | (r >> 7)) & 255;
      s ^= r;
    }
    return s ^ 0x63;
  });
})();

/** The standard round keys (FIPS 197 5.2), 16 bytes each: what a careless kernel would leave. */
function roundKeys(key: Uint8Array): Uint8Array[] {
  const nk = key.length / 4;
  const total = 4 * (nk + 7);
  const w = Array.from(key);
  for (let i = nk, rcon = 1; i < total; i++) {
    let t = w.slice(4 * (i - 1), 4 * i);
    if (i % nk === 0) {
      t = [SBOX[t[1]] ^ rcon, SBOX[t[2]], SBOX[t[3]], SBOX[t[0]]];
      rcon = (rcon << 1) ^ (rcon & 0x80 ? 0x11b : 0);
    } else if (nk > 6 && i % nk === 4) {
      t = t.map((b) => SBOX[b]);
    }
    for (let b = 0; b < 4; b++) w.push(w[4 * (i - nk) + b] ^ t[b]);
  }
  return Array.from({ length: total / 4 }, (_, r) => Uint8Array.from(w.slice(16 * r, 16 * r + 16)));
}

function double(block: Uint8Array): Uint8Array {
  const out = new Uint8Array(16);
  for (let i = 0; i < 16; i++) out[i] = (block[i] << 1) | (i < 15 ? block[i + 1] >> 7 : 0);
  if (block[0] & 0x80) out[15] ^= 0x87;
  return out;
}

interface KernelKey {
  slot: number;
}

describe("wasm AES: no key material in the module's memory after destroy", { skip: noWasm }, () => {
  const w = wasm as WasmAes;
  /** Asserts that none of `secrets` (non-zero ones) occurs anywhere in the module's memory. */
  function assertGone(secrets: [string, Uint8Array][]): void {
    const memory = Buffer.from(w.exports.memory.buffer);
    for (const [name, secret] of secrets) {
      if (secret.every((b) => b === 0)) continue;
      assert.equal(memory.indexOf(Buffer.from(secret)), -1, `${name} is still in wasm memory`);
    }
  }
  /** The key, its standard round keys, and the 16-byte pieces of its slot as it was. */
  function secretsOf(key: Uint8Array, slot: Uint8Array): [string, Uint8Array][] {
    const secrets: [string, Uint8Array][] = [["key", key]];
    for (const [r, k] of roundKeys(key).entries()) secrets.push([`round key ${r}`, k]);
    for (let at = 0; at < slot.length; at += 16) {
      // Bytes 240-255 hold the round count, not key material.
      if (at !== 240) secrets.push([`slot bytes ${at}-${at + 15}`, slot.slice(at, at + 16)]);
    }
    return secrets;
  }
  /** The kernel's backend and its hold on the key (internals, reached for the test). */
  const coreOf = <C>(m: unknown) => (m as { kernel: { core: C } }).kernel.core;
  const slotOf = (m: unknown) => coreOf<{ key: KernelKey }>(m).key;

  for (const size of KEY_SIZES) {
    it(`CMAC, AES-${size * 8}: key, round keys, K1 and K2`, () => {
      const key = randomBytes(size);
      const l = ecb(key, new Uint8Array(16));
      const k1 = double(l);
      const m = mac(`cmac-aes${size * 8}` as "cmac-aes128", key);
      const held = slotOf(m);
      // One-shot use runs in the scratch slot, which is zeroed after the call.
      m.tag(randomBytes(40));
      assertGone([
        ["key", key],
        ["K1", k1],
        ["K2", double(k1)],
        ["L", l],
      ]);
      // From the second use the key has a slot of its own (unless node:crypto took the message).
      coreOf<WasmCmac>(m).compute(randomBytes(40), new Uint8Array(16));
      const slot = w.bytes().slice(held.slot, held.slot + 512);
      assert.ok(
        slot.some((b) => b !== 0),
        "the slot holds the schedule",
      );
      m.stream().update(randomBytes(100)).digest();
      m.destroy();
      assert.ok(
        w
          .bytes()
          .subarray(held.slot, held.slot + 512)
          .every((b) => b === 0),
        "the slot is zeroed",
      );
      assertGone([...secretsOf(key, slot), ["L", l], ["K1", k1], ["K2", double(k1)]]);
    });
    it(`GMAC, AES-${size * 8}: key, round keys and H`, () => {
      const key = randomBytes(size);
      const h = ecb(key, new Uint8Array(16));
      const m = mac(`gmac-aes${size * 8}` as "gmac-aes128", key);
      const held = slotOf(m);
      m.tag(randomBytes(40));
      assertGone([
        ["key", key],
        ["H", h],
      ]);
      const core = coreOf<WasmGmac>(m);
      core.compute(randomBytes(40), new Uint8Array(16), randomBytes(12));
      core.compute(randomBytes(40), new Uint8Array(16), randomBytes(20));
      const slot = w.bytes().slice(held.slot, held.slot + 512);
      assert.ok(
        slot.some((b) => b !== 0),
        "the slot holds the schedule and H",
      );
      const s = m.stream();
      s.update(randomBytes(100));
      s.digest();
      m.destroy();
      assert.ok(
        w
          .bytes()
          .subarray(held.slot, held.slot + 512)
          .every((b) => b === 0),
      );
      assertGone([...secretsOf(key, slot), ["H", h]]);
    });
  }
  it("AesKey (hazmat): wipe() zeroes its slot, and later use is refused", () => {
    const key = randomBytes(32);
    const aes = new AesKey(key);
    const out = new Uint8Array(16);
    aes.encryptBlock(new Uint8Array(16), 0, out, 0);
    aes.encryptBlock(new Uint8Array(16), 0, out, 0);
    const held = (aes as unknown as { wasm: KernelKey }).wasm;
    const slot = w.bytes().slice(held.slot, held.slot + 512);
    aes.wipe();
    assertGone(secretsOf(key, slot));
    assert.throws(() => aes.encryptBlock(out, 0, out, 0), /wiped/);
  });
});
