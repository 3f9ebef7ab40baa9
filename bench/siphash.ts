/**
 * SipHash-2-4 (64-bit output): keyed's `tag`, its hash-table fast path `hashHalves` and its
 * one-shot forms, against the `siphash` package (pure JS, returns two 32-bit halves) and
 * libsodium's crypto_shorthash.
 */
import { createRequire } from "node:module";
import { endianness } from "node:os";
import sodium from "libsodium-wrappers-sumo";
import { wasmSipHash } from "../src/engine/wasm-siphash.js";
import { siphash } from "../src/hazmat.js";
import { type MacName, mac, siphash24 } from "../src/index.js";
import {
  type AllocationCase,
  type BenchCase,
  type Contender,
  checkContenders,
  consume,
  keyedRows,
  random,
  type Suite,
} from "./harness.js";

/** The part of the `siphash` package (CommonJS, no types) used here. */
interface SipHashJs {
  /** `key`: four little-endian 32-bit words; the result's `h` and `l` are the tag's halves. */
  hash(key: Uint32Array, message: Uint8Array): { h: number; l: number };
}

const require = createRequire(import.meta.url);
const sipHashJs = require("siphash") as SipHashJs;
const sipHash13Js = require("siphash/lib/siphash13.js") as SipHashJs;

const SIZES = [8, 16, 64, 128, 1024, 8192, 1 << 20];

/**
 * The `siphash` package's row: its key is four 32-bit words, and its result's halves are written
 * to one reused buffer, the little-endian tag.
 */
function sipHashJsRow(impl: SipHashJs, key: Uint8Array, msg: Uint8Array): Contender {
  const keyWords = new Uint32Array(key.buffer.slice(key.byteOffset, key.byteOffset + 16));
  const halves = new Uint32Array(2);
  const halvesBytes = new Uint8Array(halves.buffer);
  return {
    name: "siphash",
    kind: "prepared",
    fn: () => {
      const r = impl.hash(keyWords, msg);
      halves[0] = r.l;
      halves[1] = r.h;
      consume(halvesBytes);
    },
  };
}

/**
 * SipHash-1-3 and the 128-bit variants: keyed's prepared and one-shot tags against the peers that
 * offer them (the `siphash` package's SipHash-1-3; libsodium's crypto_shorthash_siphashx24 for
 * SipHash-2-4-128). SipHash-1-3-128 has no JavaScript peer: its rows stand alone.
 */
async function variantCases(algorithm: MacName): Promise<BenchCase[]> {
  await sodium.ready;
  const key = random(16);
  const prepared = mac(algorithm, key);
  const out = new Uint8Array(prepared.tagLength);
  const built: BenchCase[] = [];
  for (const size of SIZES) {
    const msg = random(size);
    const c: BenchCase = {
      algorithm,
      size,
      contenders: [...keyedRows(algorithm, key, prepared, out, msg)],
    };
    if (algorithm === "siphash-1-3") {
      c.contenders.push(sipHashJsRow(sipHash13Js, key, msg));
    } else if (algorithm === "siphash-2-4-128") {
      c.contenders.push({
        name: "libsodium",
        kind: "one-shot",
        fn: () => consume(sodium.crypto_shorthash_siphashx24(msg, key)),
      });
    }
    const expected = prepared.tag(msg);
    checkContenders(c, expected, "keyed");
    built.push(c);
  }
  return built;
}

async function cases(algorithm: string): Promise<BenchCase[]> {
  if (
    algorithm === "siphash-1-3" ||
    algorithm === "siphash-2-4-128" ||
    algorithm === "siphash-1-3-128"
  )
    return variantCases(algorithm);
  if (algorithm !== "siphash-2-4") throw new Error(`siphash suite: unknown algorithm ${algorithm}`);
  // Halves [low, high] in a Uint32Array are the little-endian tag's bytes only on such a machine.
  if (endianness() !== "LE") throw new Error("siphash suite: assumes a little-endian machine");
  await sodium.ready;
  const key = random(16);
  const prepared = siphash24(key);
  const out = new Uint8Array(prepared.tagLength);
  const halves = new Uint32Array(2);
  const halvesBytes = new Uint8Array(halves.buffer);

  const built: BenchCase[] = [];
  for (const size of SIZES) {
    const msg = random(size);
    const c: BenchCase = {
      algorithm,
      size,
      contenders: [
        {
          name: "keyed",
          kind: "prepared",
          headline: true,
          fn: () => consume(prepared.tag(msg, out)),
        },
        {
          name: "keyed hashHalves",
          kind: "prepared",
          headline: true,
          fn: () => {
            prepared.hashHalves(msg, halves);
            consume(halvesBytes);
          },
        },
        { name: "keyed", kind: "one-shot", fn: () => consume(siphash24(key).tag(msg)) },
        {
          name: "keyed hazmat",
          kind: "one-shot",
          headline: true,
          fn: () => consume(siphash(key, msg)),
        },
        sipHashJsRow(sipHashJs, key, msg),
        {
          name: "libsodium",
          kind: "one-shot",
          fn: () => consume(sodium.crypto_shorthash(msg, key)),
        },
      ],
    };
    checkContenders(c, sodium.crypto_shorthash(msg, key), "libsodium");
    built.push(c);
  }
  return built;
}

/** 10^6 SipHash-2-4 calls on a 16-byte message: `tag` and `hashHalves`, both with `out`. */
function allocation(): AllocationCase[] {
  const m = siphash24(random(16));
  const msg = random(16);
  const out = new Uint8Array(m.tagLength);
  const halves = new Uint32Array(2);
  const halvesBytes = new Uint8Array(halves.buffer);
  const calls = 1_000_000;
  return [
    { name: "siphash-2-4 tag(msg16, out)", calls, fn: () => consume(m.tag(msg, out)) },
    {
      name: "siphash-2-4 hashHalves(msg16, out)",
      calls,
      fn: () => {
        m.hashHalves(msg, halves);
        consume(halvesBytes);
      },
    },
  ];
}

export const siphashSuite: Suite = {
  name: "siphash",
  algorithms: ["siphash-2-4", "siphash-1-3", "siphash-2-4-128", "siphash-1-3-128"],
  cases,
  allocation,
  notes: [
    '"keyed prepared" is `siphash24(key).tag(msg, out)` (the 8-byte tag into `out`); "keyed',
    'hashHalves prepared" is the hash-table path `hashHalves(msg, out)`, the two 32-bit halves into',
    "a `Uint32Array`. The `siphash` package takes the key as four 32-bit words (converted once, so",
    '"prepared") and returns `{ h, l }`; its row stores both halves into a `Uint32Array`, as the',
    "hashHalves row does. libsodium is libsodium-wrappers-sumo `crypto_shorthash` (SipHash-2-4,",
    'WebAssembly), which takes the key bytes on every call. "keyed one-shot" is',
    '`siphash24(key).tag(msg)` and "keyed hazmat one-shot" is `siphash(key, msg)` from keyed/hazmat.',
    wasmSipHash() === undefined
      ? "keyed's rows run its JavaScript kernel (no WebAssembly in this run)."
      : "keyed's rows run its WebAssembly kernel (src/engine/wasm/assembly/siphash.ts, u64 words) at every size.",
  ].join("\n"),
};
