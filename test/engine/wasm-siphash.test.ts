/**
 * The WebAssembly SipHash kernel (src/engine/wasm/assembly/siphash.ts): the same tags as the
 * JavaScript kernel, the `siphash` package and libsodium, one-shot, streamed and through the
 * hash-table path, at lengths around every word and MSG_CAPACITY boundary; and no key material
 * left in its memory after use and destroy().
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { before, describe, it } from "node:test";
import fc from "fast-check";
import sodium from "libsodium-wrappers-sumo";
import { FORCED_BACKEND } from "../../src/engine/native.js";
import { wasmSipHash } from "../../src/engine/wasm-siphash.js";
import { siphash } from "../../src/hazmat.js";
import { mac, siphash13, siphash24 } from "../../src/index.js";
import { toHex } from "../helpers.js";

type Words = { h: number; l: number };
type SipModule = { hash(key: number[], m: Uint8Array): Words | Uint32Array };
const require = createRequire(import.meta.url);
const sipPackage = (file: string) => require(`siphash/lib/${file}.js`) as SipModule;
const keyWords = (key: Uint8Array) => [0, 4, 8, 12].map((o) => Buffer.from(key).readUInt32LE(o));

/** The `siphash` package's tag, as keyed's bytes: the 64-bit value(s) little-endian. */
function packageTag(name: string, key: Uint8Array, message: Uint8Array): string {
  const file = {
    "siphash-2-4": "siphash",
    "siphash-1-3": "siphash13",
    "siphash-2-4-128": "siphash-double",
    "siphash-1-3-128": "siphash13-double",
  }[name] as string;
  const r = sipPackage(file).hash(keyWords(key), message);
  // 64-bit: { h, l }; 128-bit: [second.h, second.l, first.h, first.l].
  const halves = r instanceof Uint32Array ? [r[3], r[2], r[1], r[0]] : [r.l, r.h];
  const b = Buffer.alloc(4 * halves.length);
  for (let i = 0; i < halves.length; i++) b.writeUInt32LE(halves[i] >>> 0, 4 * i);
  return b.toString("hex");
}

const NAMES = ["siphash-2-4", "siphash-1-3", "siphash-2-4-128", "siphash-1-3-128"] as const;
/** One more than MSG_CAPACITY (64 KiB) and then some: the chunked one-call path. */
const LONG = [65535, 65536, 65537, 65543, 131079, 200003];

/** Tags of every variant at boundary lengths, one-shot, streamed and hashHalves, as JSON. */
const SCRIPT = `
import { siphash13, siphash13_128, siphash24, siphash24_128 } from "./src/index.ts";
const make = { "siphash-2-4": siphash24, "siphash-1-3": siphash13, "siphash-2-4-128": siphash24_128, "siphash-1-3-128": siphash13_128 };
const key = new Uint8Array(16).map((_, i) => i * 17 + 3);
const out = {};
const lengths = [...Array(70).keys(), 127, 128, 129, 1000, 1100, ${LONG.join(", ")}];
for (const name of ${JSON.stringify(NAMES)}) {
  const m = make[name](key);
  for (const n of lengths) {
    const msg = new Uint8Array(n).map((_, i) => (i * 7 + n) & 255);
    const s = m.stream();
    for (let i = 0; i < n; i += 13 + (i % 1000)) s.update(msg.subarray(i, i + 13 + (i % 1000)));
    const row = [m.tag(msg), m.tag(msg), s.digest()].map((t) => Buffer.from(t).toString("hex"));
    if (m.tagLength === 8) row.push(Array.from(m.hashHalves(msg)).join(","));
    out[name + ":" + n] = row;
  }
}
console.log(JSON.stringify(out));
`;

function tagsUnder(backend: string): Record<string, string[]> {
  const stdout = execFileSync(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", SCRIPT],
    { env: { ...process.env, KEYED_BACKEND: backend }, encoding: "utf8", maxBuffer: 1 << 24 },
  );
  return JSON.parse(stdout);
}

describe("wasm SipHash: byte-identical to the JavaScript kernel", () => {
  it("js and wasm backends agree for every variant, one-shot, streamed and hashHalves", () => {
    const js = tagsUnder("js");
    const wasm = tagsUnder("wasm");
    assert.ok(Object.keys(js).length >= 4 * 80);
    for (const [key, row] of Object.entries(js)) {
      assert.equal(row[0], row[1], `${key}: js repeat`);
      assert.equal(row[0], row[2], `${key}: js stream`);
      assert.deepEqual(wasm[key], row, `${key}: wasm`);
    }
  });
});

describe("wasm SipHash against the siphash package and libsodium", () => {
  before(() => sodium.ready);

  it("2-4 (64 and 128 bit) match libsodium; all four match the siphash package (0-1100 B, splits)", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 16, maxLength: 16 }),
        fc.uint8Array({ maxLength: 1100 }),
        fc.constantFrom(...NAMES),
        fc.array(fc.nat(), { maxLength: 4 }),
        (key, message, name, cuts) => {
          const expected = packageTag(name, key, message);
          const m = mac(name, key, { allowShortTags: true });
          assert.equal(toHex(m.tag(message)), expected);
          assert.equal(toHex(m.tag(message)), expected, "second tag (key slot)");
          if (name === "siphash-2-4")
            assert.equal(toHex(sodium.crypto_shorthash(message, key)), expected);
          if (name === "siphash-2-4-128")
            assert.equal(toHex(sodium.crypto_shorthash_siphashx24(message, key)), expected);
          const s = m.stream();
          let last = 0;
          for (const p of cuts.map((c) => c % (message.length + 1)).sort((x, y) => x - y)) {
            s.update(message.subarray(last, p));
            last = p;
          }
          assert.equal(toHex(s.update(message.subarray(last)).digest()), expected);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("longer than MSG_CAPACITY: one call, hazmat, hashHalves and streams in big and odd chunks", () => {
    const key = new Uint8Array(16).map((_, i) => 0x40 + i);
    for (const n of LONG) {
      const message = new Uint8Array(n).map((_, i) => (i * 131 + 7) & 255);
      const expected = toHex(sodium.crypto_shorthash(message, key));
      const m = siphash24(key);
      assert.equal(toHex(m.tag(message)), expected, `${n} B`);
      assert.equal(toHex(m.tag(message)), expected, `${n} B again`);
      assert.equal(toHex(siphash(key, message)), expected, `${n} B hazmat`);
      const halves = m.hashHalves(message);
      assert.equal(
        Buffer.from(new Uint32Array([halves[0], halves[1]]).buffer).toString("hex"),
        expected,
      );
      const s = m.stream().update(message.subarray(0, 3));
      s.update(message.subarray(3, 70000)).update(message.subarray(70000));
      assert.equal(toHex(s.digest()), expected, `${n} B streamed`);
      assert.equal(
        toHex(siphash(key, message, { outLength: 16 })),
        toHex(sodium.crypto_shorthash_siphashx24(message, key)),
        `${n} B 128-bit`,
      );
      assert.equal(
        toHex(siphash13(key).tag(message)),
        packageTag("siphash-1-3", key, message),
        `${n} B 1-3`,
      );
    }
  });
});

describe("wasm SipHash memory", () => {
  it("serves every call under KEYED_BACKEND=wasm (and by default), and wipes the key on destroy", () => {
    const wasm = wasmSipHash();
    // KEYED_BACKEND=js has no wasm memory to scan.
    if (wasm === undefined) {
      assert.equal(FORCED_BACKEND, "js");
      return;
    }
    const key = new Uint8Array(16).map((_, i) => 0xc0 + i);
    const m = siphash24(key);
    const out = new Uint8Array(8);
    // The first call uses the one-shot key area, the second puts the key in a slot.
    m.tag(new Uint8Array(16), out);
    m.hashHalves(new Uint8Array(9));
    const slot = (m as unknown as { kernel: { core: { slot: number } } }).kernel.core.slot;
    assert.ok(slot >= wasm.exports.SLOTS.value, "the key went to a slot");
    assert.deepEqual(wasm.bytes().slice(slot, slot + 16), key, "the slot holds k0 ‖ k1");
    // A stream that moved into wasm, one abandoned there, and a message longer than MSG.
    const long = new Uint8Array(70000).fill(0x5a);
    m.stream().update(long.subarray(0, 300)).update(long.subarray(300)).digest();
    m.stream().update(long.subarray(0, 1000));
    m.tag(long, out);
    m.destroy();
    const memory = Buffer.from(wasm.bytes());
    assert.ok(
      memory.subarray(slot, slot + 16).every((b) => b === 0),
      "the slot is zeroed",
    );
    assert.equal(memory.indexOf(Buffer.from(key)), -1, "the key");
    // v0 = k0 ^ "somepseu" (little-endian): the initialized state is gone too.
    const v0 = Buffer.from(key.subarray(0, 8));
    Buffer.from("uespemos", "latin1").forEach((c, i) => {
      v0[i] ^= c;
    });
    assert.equal(memory.indexOf(v0), -1, "v0");
    // Scratch and the message area hold nothing: no key, no state, no message.
    const scratchFrom = wasm.exports.KEY.value as number;
    const msgEnd = wasm.msg + wasm.msgCapacity + 8;
    assert.ok(
      memory.subarray(scratchFrom, msgEnd).every((b) => b === 0),
      "KEY, STATE, OUT and MSG are zero",
    );
  });
});
