/**
 * The WebAssembly Poly1305 kernel against keyed's TypeScript kernel and two independent
 * implementations (libsodium's crypto_onetimeauth and @noble/ciphers), over random keys, every
 * length to 1100 bytes, lengths around the SIMD path's step and around MSG_CAPACITY, random
 * stream splits and edge keys; and a scan of the module's memory for key material after use.
 * Under KEYED_BACKEND=js the comparisons run the TypeScript kernel and the scans are skipped.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import { poly1305 as noblePoly1305 } from "@noble/ciphers/_poly1305.js";
import fc from "fast-check";
import sodium from "libsodium-wrappers-sumo";
import { POLY1305_SLOT_SIZE, wasmPoly1305 } from "../../src/engine/wasm-poly1305.js";
import { chacha20, chacha20poly1305, Poly1305State, poly1305 } from "../../src/hazmat.js";
import { mac } from "../../src/index.js";
import { Poly1305Js, poly1305Padded } from "../../src/mac/poly1305.js";
import { throwsKeyed, toHex } from "../helpers.js";

await sodium.ready;

const wasm = wasmPoly1305();
const noWasm = wasm === undefined ? "no WebAssembly kernel in this run (KEYED_BACKEND=js)" : false;
const capacity = wasm?.msgCapacity ?? 65536;

const bytes = (n: number): Uint8Array => new Uint8Array(randomBytes(n));

/** The TypeScript kernel, whatever the backend. */
function jsTag(key: Uint8Array, message: Uint8Array): Uint8Array {
  const out = new Uint8Array(16);
  new Poly1305Js(key).update(message).finish(out);
  return out;
}

/** Poly1305State (the WebAssembly kernel in a key slot, when it serves) fed in pieces. */
function streamTag(key: Uint8Array, message: Uint8Array, cuts: number[]): Uint8Array {
  const state = new Poly1305State(key);
  let last = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    state.update(message, last, cut);
    last = cut;
  }
  state.update(message.subarray(last));
  const out = new Uint8Array(16);
  state.finish(out);
  return out;
}

/** Asserts that every kernel and both oracles agree on key and message. */
function agree(key: Uint8Array, message: Uint8Array, label: string, cuts: number[] = []): void {
  const expected = toHex(sodium.crypto_onetimeauth(message, key));
  assert.equal(toHex(noblePoly1305(message, key)), expected, `${label}: noble vs libsodium`);
  assert.equal(toHex(poly1305(key, message)), expected, `${label}: poly1305()`);
  assert.equal(toHex(jsTag(key, message)), expected, `${label}: TypeScript kernel`);
  assert.equal(toHex(streamTag(key, message, cuts)), expected, `${label}: stream`);
}

/** r as the kernel stores it: five 26-bit limbs of the clamped r, little-endian 32-bit words. */
function rLimbs(key: Uint8Array): Uint8Array {
  let r = 0n;
  for (let i = 15; i >= 0; i--) r = (r << 8n) | BigInt(key[i]);
  r &= 0x0ffffffc0ffffffc0ffffffc0fffffffn;
  const out = new Uint8Array(20);
  const view = new DataView(out.buffer);
  for (let i = 0; i < 5; i++) {
    view.setUint32(4 * i, Number((r >> BigInt(26 * i)) & 0x3ffffffn), true);
  }
  return out;
}

/** Throws unless none of `needles` occurs anywhere in the module's memory. */
function assertAbsent(needles: Record<string, Uint8Array>): void {
  const memory = Buffer.from((wasm as NonNullable<typeof wasm>).bytes());
  for (const [name, needle] of Object.entries(needles)) {
    assert.equal(memory.indexOf(Buffer.from(needle)), -1, `${name} is still in wasm memory`);
  }
}

/** MSG is all zeros between calls: the kernel zeroes what it read (pad16 relies on it). */
function assertMsgZero(): void {
  const w = wasm as NonNullable<typeof wasm>;
  const area = w.bytes().subarray(w.msg, w.msg + w.msgCapacity + 16);
  assert.equal(
    area.findIndex((b) => b !== 0),
    -1,
    "MSG holds bytes after the call",
  );
}

function keyNeedles(key: Uint8Array): Record<string, Uint8Array> {
  return {
    "key r half": key.subarray(0, 16),
    "key s half": key.subarray(16),
    "r limbs": rLimbs(key),
  };
}

describe("wasm Poly1305: the module", () => {
  it("serves unless KEYED_BACKEND=js, with the memory map the JavaScript side assumes", () => {
    if (process.env.KEYED_BACKEND === "js") {
      assert.equal(wasm, undefined);
      return;
    }
    assert.ok(wasm, "the kernel loads");
    const exports = wasm.exports;
    assert.equal(exports.STATE_SIZE.value, POLY1305_SLOT_SIZE, "slot size = STATE_SIZE");
    assert.ok(exports.ONE_SHOT.value + POLY1305_SLOT_SIZE <= wasm.msg, "one-shot area below MSG");
    // The last block is padded in place: 16 bytes after the largest message.
    assert.ok(wasm.msg + wasm.msgCapacity + 16 <= exports.SLOTS.value, "padding room after MSG");
    assert.equal(wasm.msgCapacity % 16, 0, "chunks of MSG_CAPACITY leave no partial block");
  });
});

describe("wasm Poly1305 against TypeScript, libsodium and noble", () => {
  it("random keys, every length 0-1100 B, a random split each", () => {
    for (let n = 0; n <= 1100; n++) {
      const message = bytes(n);
      const cuts = [Math.floor(Math.random() * (n + 1)), Math.floor(Math.random() * (n + 1))];
      agree(bytes(32), message, `${n} B`, cuts);
    }
  });
  it("65536 ± 17 B, MSG_CAPACITY ± 1 and several MSG_CAPACITY chunks", () => {
    const lengths = [65536 - 17, 65536 + 17, capacity - 1, capacity, capacity + 1];
    lengths.push(3 * capacity + 5, 1 << 20);
    for (const n of lengths) {
      const message = bytes(n);
      agree(
        bytes(32),
        message,
        `${n} B`,
        [1, 17, capacity - 3, capacity + 29].filter((c) => c <= n),
      );
    }
  });
  it("random stream splits, 1-byte pieces and pieces longer than MSG_CAPACITY (200 cases)", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.integer({ min: 0, max: 3 * capacity }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (key, length, picks) => {
          const message = bytes(length);
          const cuts = picks.map((p) => p % (length + 1));
          // A run of 1-byte pieces near the start crosses a partial block both ways.
          for (let i = 1; i < Math.min(length, 20); i++) cuts.push(i);
          agree(key, message, `${length} B`, cuts);
        },
      ),
      { numRuns: 200 },
    );
  });
  it("short and long updates alternating (the SIMD path re-entered with a carried accumulator)", () => {
    const key = bytes(32);
    const message = bytes(20000);
    const cuts: number[] = [];
    for (let at = 0, step = 0; at < message.length; step++) {
      at += step % 2 === 0 ? 3 + (step % 13) : 512 + 64 * (step % 7) + (step % 5);
      if (at < message.length) cuts.push(at);
    }
    agree(key, message, "alternating", cuts);
  });
  it("edge keys: r with every clamp bit set, s all ones, all-ones messages", () => {
    const allOnes = new Uint8Array(32).fill(0xff);
    const rMax = Uint8Array.of(...new Uint8Array(16).fill(0xff), ...bytes(16));
    const sMax = Uint8Array.of(...bytes(16), ...new Uint8Array(16).fill(0xff));
    const ones = new Uint8Array(3000).fill(0xff);
    for (const key of [allOnes, rMax, sMax]) {
      for (let n = 0; n <= 1100; n += n < 140 ? 1 : 97) agree(key, ones.subarray(0, n), `ff ${n}`);
      agree(key, ones, "ff 3000", [5, 16, 700]);
    }
  });
  it("accumulators at 2^130 - 5 and around it before the final reduction, s all ones", () => {
    // With r = 1 each block adds m + 2^128, so the blocks can be chosen to bring h to p + δ for δ
    // in -3..3; s all ones makes h + s wrap past 2^128. Three blocks reach p + δ unreduced; 64
    // blocks (the SIMD path) reach it modulo p.
    const key = new Uint8Array(32).fill(0xff);
    key.fill(0, 0, 16);
    key[0] = 1;
    const p = (1n << 130n) - 5n;
    const top = (1n << 128n) - 1n;
    /** n blocks whose Σ (m_i + 2^128) ≡ p + δ (mod p), the sum in the last blocks. */
    const messageFor = (n: number, delta: bigint): Uint8Array => {
      let rest = (((p + delta - BigInt(n) * (1n << 128n)) % p) + p) % p;
      const out = new Uint8Array(16 * n);
      for (let block = n - 1; block >= 0 && rest > 0n; block--) {
        const m = rest > top ? top : rest;
        rest -= m;
        for (let i = 0; i < 16; i++) out[16 * block + i] = Number((m >> BigInt(8 * i)) & 0xffn);
      }
      return out;
    };
    for (let delta = -3n; delta <= 3n; delta++) {
      agree(key, messageFor(3, delta), `3 blocks, h = p + (${delta})`, [16]);
      agree(key, messageFor(64, delta), `64 blocks, h ≡ p + (${delta})`, [1000]);
    }
  });
  it("the AEAD's padded input (poly1305Padded) matches Poly1305State with padToBlock", () => {
    for (const [a, b] of [
      [0, 0],
      [1, 15],
      [16, 17],
      [13, 1000],
      [700, capacity + 3],
    ]) {
      const key = bytes(32);
      const parts = [bytes(a), bytes(b), bytes(16)];
      const out = new Uint8Array(20);
      poly1305Padded(key, parts, out, 3);
      const state = new Poly1305State(key);
      const reference = new Poly1305Js(key);
      for (const part of parts) {
        state.update(part).padToBlock();
        reference.update(part).padToBlock();
      }
      const viaState = new Uint8Array(16);
      const viaJs = new Uint8Array(16);
      state.finish(viaState);
      reference.finish(viaJs);
      assert.equal(toHex(out.subarray(3, 19)), toHex(viaJs), `${a}, ${b}: poly1305Padded`);
      assert.equal(toHex(viaState), toHex(viaJs), `${a}, ${b}: Poly1305State`);
    }
  });
  it("many states at once: slots stay apart, and growing the memory keeps results right", () => {
    // More open states than fit in the initial memory, so allocating slots grows it.
    const keys = Array.from({ length: 300 }, () => bytes(32));
    const message = bytes(777);
    const states = keys.map((key) => new Poly1305State(key).update(message.subarray(0, 300)));
    for (const state of states) state.update(message.subarray(300));
    states.forEach((state, i) => {
      const out = new Uint8Array(16);
      state.finish(out);
      assert.equal(toHex(out), toHex(sodium.crypto_onetimeauth(message, keys[i])), `state ${i}`);
    });
    // And a one-shot tag after the growth reads the new memory.
    assert.equal(
      toHex(poly1305(keys[0], message)),
      toHex(sodium.crypto_onetimeauth(message, keys[0])),
    );
  });
});

describe("wasm Poly1305 in the API", () => {
  it("Buffer keys: the safe Mac copies the key, not a view of the copy it wipes", () => {
    const key = Buffer.from(bytes(32));
    const message = bytes(100);
    const expected = toHex(sodium.crypto_onetimeauth(message, key));
    assert.equal(toHex(mac("poly1305", key).tag(message)), expected);
    assert.equal(toHex(mac("poly1305", key).stream().update(message).digest()), expected);
    assert.equal(mac("poly1305", key).verify(message, Buffer.from(expected, "hex")), true);
  });
  it("Buffer keys and chunks in the ChaCha20-Poly1305 MAC and AEAD: copies, not views", () => {
    const key = bytes(32);
    const nonce = bytes(12);
    const message = bytes(100);
    const tag = mac("chacha20-poly1305", key).tag(message);
    assert.equal(mac("chacha20-poly1305", Buffer.from(key)).verify(message, tag), true);
    const chunk = Buffer.from(message);
    const stream = mac("chacha20-poly1305", Buffer.from(key)).stream().update(chunk);
    assert.equal(stream.verify(tag), true);
    assert.equal(toHex(chunk), toHex(message), "the caller's chunk is left as it was");
    assert.equal(
      toHex(chacha20poly1305(Buffer.from(key), Buffer.from(nonce)).seal(message)),
      toHex(chacha20poly1305(key, nonce).seal(message)),
    );
  });
  it("a finished or wiped Poly1305State refuses more input", () => {
    const state = new Poly1305State(bytes(32)).update(bytes(5));
    state.finish(new Uint8Array(16));
    throwsKeyed(() => state.update(bytes(1)), "FINISHED");
    throwsKeyed(() => state.finish(new Uint8Array(16)), "FINISHED");
    state.wipe();
    const wiped = new Poly1305State(bytes(32));
    wiped.wipe();
    throwsKeyed(() => wiped.padToBlock(), "FINISHED");
  });
  it("keeps KEY_WEAK and the one-time rule", () => {
    throwsKeyed(() => mac("poly1305", new Uint8Array(32)), "KEY_WEAK");
    const m = mac("poly1305", bytes(32));
    m.tag(bytes(40));
    throwsKeyed(() => m.tag(bytes(40)), "KEY_REUSED");
    const weak = new Poly1305State(Uint8Array.of(...new Uint8Array(16), ...bytes(16)));
    assert.equal(weak.isWeak(), true);
    assert.equal(new Poly1305State(bytes(32)).isWeak(), false);
  });
});

describe("wasm Poly1305 leaves no key material in the module's memory", () => {
  it("after a one-shot tag, short and long", { skip: noWasm }, () => {
    for (const n of [0, 34, 5000, capacity + 100]) {
      const key = bytes(32);
      mac("poly1305", key).tag(bytes(n));
      poly1305(key, bytes(n));
      assertAbsent(keyNeedles(key));
      assertMsgZero();
    }
  });
  it("after destroy() with a stream open, and after a stream's digest", { skip: noWasm }, () => {
    const w = wasm as NonNullable<typeof wasm>;
    const key = bytes(32);
    const m = mac("poly1305", key);
    const stream = m.stream().update(bytes(2000)).update(bytes(7));
    const kernel = (m as unknown as { kernel: { stream: { slot: number } } }).kernel;
    const slot = kernel.stream.slot;
    const before = w.bytes().slice(slot, slot + POLY1305_SLOT_SIZE);
    // r limbs, s, r^3 and r^6 limbs (+72, +92) and the SIMD tables (r^3 at +128, r^6 at +272,
    // [r^3 r^2] at +416) are there.
    assert.equal(toHex(before.subarray(16, 32)), toHex(key.subarray(16)), "the slot holds s");
    assert.equal(toHex(before.subarray(32, 52)), toHex(rLimbs(key)), "the slot holds r");
    assert.ok(
      before.subarray(128, 560).some((b) => b !== 0),
      "the slot holds the powers of r",
    );
    m.destroy();
    assert.ok(
      w
        .bytes()
        .subarray(slot, slot + POLY1305_SLOT_SIZE)
        .every((b) => b === 0),
      "the slot is zeroed",
    );
    assertAbsent({
      ...keyNeedles(key),
      "r^3 limbs": before.subarray(72, 92),
      "r^6 limbs": before.subarray(92, 112),
      "r^3 table": before.subarray(128, 144),
      "r^6 table": before.subarray(272, 288),
      "[r^3 r^2] table": before.subarray(416, 432),
    });
    throwsKeyed(() => stream.update(bytes(1)), "DESTROYED");

    const other = bytes(32);
    mac("poly1305", other).stream().update(bytes(3000)).digest();
    assertAbsent(keyNeedles(other));
  });
  it("after a hazmat Poly1305State finishes, and after wipe()", { skip: noWasm }, () => {
    const key = bytes(32);
    new Poly1305State(key).update(bytes(1000)).finish(new Uint8Array(16));
    const wiped = bytes(32);
    new Poly1305State(wiped).update(bytes(100)).wipe();
    assertAbsent({ ...keyNeedles(key), ...keyNeedles(wiped) });
    assertMsgZero();
  });
  it("after the ChaCha20-Poly1305 MACs' one-call tags: key, nonce, one-time key, message", {
    skip: noWasm,
  }, () => {
    for (const [name, nonceLength] of [
      ["chacha20-poly1305", 12],
      ["xchacha20-poly1305", 24],
    ] as const) {
      const key = bytes(32);
      const message = bytes(300);
      const m = mac(name, key);
      const tagged = m.tag(message);
      assert.equal(m.verify(message, tagged), true);
      const nonce = tagged.subarray(0, nonceLength);
      // The one-time key of a ChaCha20 nonce is block 0's first 32 bytes (RFC 8439 2.6).
      const oneTime =
        nonceLength === 12 ? chacha20(key, nonce, new Uint8Array(32)) : new Uint8Array(32);
      assertAbsent({
        [`${name} key, first half`]: key.subarray(0, 16),
        [`${name} key, second half`]: key.subarray(16),
        [`${name} nonce`]: nonce.subarray(0, 12),
        [`${name} message`]: message.subarray(0, 32),
        [`${name} tag`]: tagged.subarray(nonceLength),
        ...(nonceLength === 12 ? keyNeedles(oneTime) : {}),
      });
      assertMsgZero();
      m.destroy();
    }
  });
  it("after ChaCha20-Poly1305 seals: its one-time Poly1305 key", { skip: noWasm }, () => {
    const key = bytes(32);
    const nonce = bytes(12);
    chacha20poly1305(key, nonce, bytes(20)).seal(bytes(3000));
    assertAbsent(keyNeedles(chacha20(key, nonce, new Uint8Array(32))));
    assertMsgZero();
  });
});
