/**
 * The WebAssembly ChaCha20 kernel (src/engine/wasm/assembly/chacha20.ts): the same bytes as the
 * JavaScript kernel and node:crypto's "chacha20" cipher at lengths around every block, four-block
 * group and MSG_CAPACITY boundary, from any counter; the same counter-exhaustion behavior; and no
 * key or keystream left in its memory after use.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createCipheriv } from "node:crypto";
import { describe, it } from "node:test";
import fc from "fast-check";
import { ChaCha20 } from "../../src/cipher/chacha20.js";
import { FORCED_BACKEND } from "../../src/engine/native.js";
import { wasmChaCha20 } from "../../src/engine/wasm-chacha20.js";
import { chacha20, chacha20poly1305, hchacha20 } from "../../src/hazmat.js";
import { throwsKeyed, toHex } from "../helpers.js";

/** node:crypto's ChaCha20: a 16-byte IV of the 32-bit counter (little-endian) and the nonce. */
function nodeChaCha20(
  key: Uint8Array,
  nonce: Uint8Array,
  data: Uint8Array,
  counter: number,
): Uint8Array {
  const iv = Buffer.alloc(16);
  iv.writeUInt32LE(counter, 0);
  iv.set(nonce, 4);
  return Uint8Array.from(createCipheriv("chacha20", key, iv).update(data));
}

/** Past MSG_CAPACITY (64 KiB): chunked calls, the counter carried between them. */
const LONG = [65535, 65536, 65537, 65600, 131073, 200003];
const LENGTHS = [...Array(301).keys(), 4095, 4096, 4097, ...LONG];

/** Digests of ChaCha20, HChaCha20 and AEAD outputs under fixed inputs, as JSON. */
const SCRIPT = `
import { createHash } from "node:crypto";
import { ChaCha20 } from "./src/cipher/chacha20.ts";
import { chacha20, chacha20poly1305, hchacha20, xchacha20poly1305 } from "./src/hazmat.ts";
const key = new Uint8Array(32).map((_, i) => i * 29 + 1);
const nonce = new Uint8Array(12).map((_, i) => i * 3 + 7);
const out = {};
const h = (b) => createHash("sha256").update(b).digest("hex");
for (const n of ${JSON.stringify(LENGTHS)}) {
  const data = new Uint8Array(n).map((_, i) => (i * 7 + n) & 255);
  out["xor:" + n] = h(chacha20(key, nonce, data, (n * 2654435761) % 0xffff0000));
  const short = data.subarray(0, Math.min(n, 128));
  out["last-blocks:" + n] = h(chacha20(key, nonce, short, 2 ** 32 - Math.max(1, Math.ceil(short.length / 64))));
  out["aead:" + n] = h(chacha20poly1305(key, nonce, data.subarray(0, 13)).seal(data));
  out["xaead:" + n] = h(xchacha20poly1305(key, new Uint8Array(24).fill(n), data).seal(data.subarray(0, n % 300)));
  out["hchacha:" + n] = h(hchacha20(key, new Uint8Array(16).fill(n)));
}
// Counter exhaustion part-way: the blocks the counter allows are written, then LENGTH, for good.
const c = new ChaCha20(key, nonce, 0xfffffffe);
const dst = new Uint8Array(200);
try { c.xor(new Uint8Array(200).fill(1), dst); out.exhausted = "no error"; } catch (e) { out.exhausted = e.code + ":" + h(dst); }
try { c.keystream(dst, 32); out.afterwards = "no error"; } catch (e) { out.afterwards = e.code; }
console.log(JSON.stringify(out));
`;

function outputsUnder(backend: string): Record<string, string> {
  const stdout = execFileSync(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", SCRIPT],
    { env: { ...process.env, KEYED_BACKEND: backend }, encoding: "utf8", maxBuffer: 1 << 24 },
  );
  return JSON.parse(stdout);
}

describe("wasm ChaCha20: byte-identical to the JavaScript kernel", () => {
  it("js and wasm backends agree: ChaCha20, the AEADs and HChaCha20, counter exhaustion", () => {
    const js = outputsUnder("js");
    const wasm = outputsUnder("wasm");
    assert.ok(Object.keys(js).length >= 5 * LENGTHS.length);
    assert.match(js.exhausted, /^LENGTH:/);
    assert.equal(js.afterwards, "LENGTH");
    assert.deepEqual(wasm, js);
  });
});

describe("ChaCha20 against node:crypto", () => {
  it("0-300 B, 4 KiB ± 1 and past MSG_CAPACITY, from random counters", () => {
    for (const n of LENGTHS) {
      const key = new Uint8Array(32).map((_, i) => (i * 13 + n) & 255);
      const nonce = new Uint8Array(12).map((_, i) => (i * 5 + n) & 255);
      const data = new Uint8Array(n).map((_, i) => (i * 11 + 3) & 255);
      const counter = (n * 40503 * 65537) % (2 ** 32 - Math.ceil(n / 64));
      assert.equal(
        toHex(chacha20(key, nonce, data, counter)),
        toHex(nodeChaCha20(key, nonce, data, counter)),
        `${n} B from block ${counter}`,
      );
    }
  });
  it("random keys, nonces, data and counters, up to the last block (1,000 cases)", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ minLength: 12, maxLength: 12 }),
        fc.uint8Array({ maxLength: 1100 }),
        fc.oneof(fc.nat(), fc.integer({ min: 2 ** 32 - 40, max: 2 ** 32 - 1 })),
        (key, nonce, data, start) => {
          const counter = Math.min(start, 2 ** 32 - Math.max(1, Math.ceil(data.length / 64)));
          assert.deepEqual(
            chacha20(key, nonce, data, counter),
            nodeChaCha20(key, nonce, data, counter),
          );
        },
      ),
      { numRuns: 1000 },
    );
  });
  it("the counter may not wrap: the last block is served, the one after it refused", () => {
    const key = new Uint8Array(32).fill(9);
    const nonce = new Uint8Array(12).fill(4);
    const data = new Uint8Array(200).fill(0x33);
    const stream = new ChaCha20(key, nonce, 2 ** 32 - 2);
    const out = new Uint8Array(200);
    throwsKeyed(() => stream.xor(data, out), "LENGTH", /counter exhausted/);
    // Blocks 2^32 - 2 and 2^32 - 1 were written before the refusal; nothing after them.
    assert.deepEqual(
      out.subarray(0, 128),
      nodeChaCha20(key, nonce, data.subarray(0, 128), 2 ** 32 - 2),
    );
    assert.ok(out.subarray(128).every((b) => b === 0));
    throwsKeyed(() => stream.keystream(out, 32), "LENGTH", /counter exhausted/);
    const last = new ChaCha20(key, nonce, 2 ** 32 - 1);
    last.keystream(out, 64);
    assert.deepEqual(
      out.subarray(0, 64),
      nodeChaCha20(key, nonce, new Uint8Array(64), 2 ** 32 - 1),
    );
    throwsKeyed(() => last.xor(data, out), "LENGTH", /counter exhausted/);
  });
});

describe("wasm ChaCha20 memory", () => {
  it("holds no key, input state or keystream after use", () => {
    const wasm = wasmChaCha20();
    // KEYED_BACKEND=js has no wasm memory to scan.
    if (wasm === undefined) {
      assert.equal(FORCED_BACKEND, "js");
      return;
    }
    const key = new Uint8Array(32).map((_, i) => 0xa0 + i);
    const nonce = new Uint8Array(12).map((_, i) => 0x10 + i);
    // 1100 B: the last group of four blocks runs to 1280, two blocks past the data's last.
    const ciphertext = chacha20(key, nonce, new Uint8Array(1100));
    const keystream = chacha20(key, nonce, new Uint8Array(1280));
    chacha20(key, nonce, new Uint8Array(70000), 5);
    const sealed = chacha20poly1305(key, nonce).seal(new Uint8Array(3000));
    const stream = new ChaCha20(key, nonce);
    stream.keystream(new Uint8Array(32), 32);
    stream.xor(new Uint8Array(65), new Uint8Array(65));
    stream.wipe();
    hchacha20(key, new Uint8Array(16).fill(7));
    assert.equal(toHex(ciphertext), toHex(keystream.subarray(0, 1100)));
    const memory = Buffer.from(wasm.bytes());
    const find = (needle: Uint8Array) => memory.indexOf(Buffer.from(needle));
    assert.equal(find(key), -1, "the key");
    assert.equal(find(key.subarray(0, 16)), -1, "half the key");
    assert.equal(find(nonce), -1, "the nonce (input state)");
    assert.equal(find(keystream.subarray(1100, 1132)), -1, "keystream past the data");
    assert.equal(find(keystream.subarray(1216, 1248)), -1, "keystream two blocks past the data");
    assert.equal(find(keystream.subarray(0, 32)), -1, "the first keystream block");
    assert.equal(find(sealed.subarray(0, 32)), -1, "AEAD keystream");
    const input = wasm.exports.INPUT.value as number;
    assert.ok(
      memory.subarray(input, wasm.msg + wasm.msgCapacity).every((b) => b === 0),
      "INPUT, BLOCK, OUT and MSG are zero",
    );
  });
});
