/**
 * AES-CMAC: keyed against node:crypto (RFC 4493 built on OpenSSL's AES-CBC), @noble/ciphers,
 * @stablelib/cmac and aes-cmac (WebCrypto, asynchronous).
 */
import { createCipheriv, createSecretKey, type KeyObject } from "node:crypto";
import { cmac as nobleCmac } from "@noble/ciphers/aes.js";
import { AES } from "@stablelib/aes";
import { CMAC } from "@stablelib/cmac";
import { AesCmac } from "aes-cmac";
import { type MacName, mac } from "../src/index.js";
import {
  type BenchCase,
  checkContendersAsync,
  consume,
  engineNote,
  keyedRows,
  random,
  type Suite,
  tagAllocation,
} from "./harness.js";

const SIZES = [16, 64, 128, 1024, 8192, 1048576];
/** aes-cmac makes one WebCrypto call per block: past this, a single tag takes seconds. */
const WEBCRYPTO_MAX = 8192;
const ZERO_BLOCK = new Uint8Array(16);

// --- CMAC from node:crypto's AES (RFC 4493 section 2) --------------------------------------------

/** dbl(S) (RFC 4493 2.3): S << 1, ⊕ 0x87 into the last byte if the top bit of S was set. */
function dbl(s: Uint8Array): Uint8Array {
  const out = new Uint8Array(16);
  for (let i = 0; i < 15; i++) out[i] = (s[i] << 1) | (s[i + 1] >>> 7);
  out[15] = (s[15] << 1) ^ (s[0] & 0x80 ? 0x87 : 0);
  return out;
}

interface Subkeys {
  k1: Uint8Array;
  k2: Uint8Array;
}

/** K1 = dbl(L), K2 = dbl(K1), L = AES-128(K, 0^128) (RFC 4493 2.3), L from AES-128-ECB. */
function nodeSubkeys(key: KeyObject | Uint8Array, bits = 128): Subkeys {
  const ecb = createCipheriv(`aes-${bits}-ecb`, key, null).setAutoPadding(false);
  const l = ecb.update(ZERO_BLOCK);
  ecb.final();
  const k1 = dbl(l);
  return { k1, k2: dbl(k1) };
}

/**
 * AES-CMAC (RFC 4493 2.4): the last block of AES-128-CBC (IV 0) over M', where M' is M with its
 * last block ⊕ K1 when complete, or padded with 10* and ⊕ K2 when partial or empty. CBC chains
 * across `update` calls, so only the last block is copied; the output of the first call (the CBC
 * ciphertext of all blocks but the last) is thrown away.
 */
function nodeCmac(
  key: KeyObject | Uint8Array,
  { k1, k2 }: Subkeys,
  msg: Uint8Array,
  bits = 128,
): Uint8Array {
  const n = msg.length;
  const complete = n > 0 && n % 16 === 0;
  const lastStart = complete ? n - 16 : n - (n % 16);
  const last = new Uint8Array(16);
  if (complete) {
    for (let i = 0; i < 16; i++) last[i] = msg[lastStart + i] ^ k1[i];
  } else {
    const r = n - lastStart;
    for (let i = 0; i < 16; i++)
      last[i] = (i < r ? msg[lastStart + i] : i === r ? 0x80 : 0) ^ k2[i];
  }
  const cbc = createCipheriv(`aes-${bits}-cbc`, key, ZERO_BLOCK).setAutoPadding(false);
  if (lastStart > 0) cbc.update(msg.subarray(0, lastStart));
  const tag = cbc.update(last);
  cbc.final();
  return tag;
}

/** RFC 4493 section 4, examples 1 to 4: the node construction and keyed must give these. */
function checkKnownAnswers(): void {
  const hex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, "hex"));
  const key = hex("2b7e151628aed2a6abf7158809cf4f3c");
  const m64 = hex(
    "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51" +
      "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710",
  );
  const examples: [number, string][] = [
    [0, "bb1d6929e95937287fa37d129b756746"],
    [16, "070a16b46b4d4144f79bdd9dd04a287c"],
    [40, "dfa66747de9ae63030ca32611497c827"],
    [64, "51f0bebf7e3b9d92fc49741779363cfe"],
  ];
  const subkeys = nodeSubkeys(key);
  const prepared = mac("cmac-aes128", key);
  for (const [length, want] of examples) {
    const msg = m64.subarray(0, length);
    for (const [who, got] of [
      ["node:crypto construction", nodeCmac(key, subkeys, msg)],
      ["keyed", prepared.tag(msg)],
    ] as const) {
      const hexGot = Buffer.from(got).toString("hex");
      if (hexGot !== want) {
        throw new Error(`cmac: ${who} gave ${hexGot} for RFC 4493 Mlen=${length}; want ${want}`);
      }
    }
  }
}

// --- cases ---------------------------------------------------------------------------------------

/** AES key size of each CMAC in the suite. */
const AES_BITS: Record<string, number | undefined> = {
  "cmac-aes128": 128,
  "cmac-aes192": 192,
  "cmac-aes256": 256,
};

async function cases(name: string): Promise<BenchCase[]> {
  const algorithm = name as MacName;
  const bits = AES_BITS[name];
  if (bits === undefined) throw new Error(`cmac suite: unknown algorithm ${algorithm}`);
  checkKnownAnswers();
  const key = random(bits / 8);
  const prepared = mac(algorithm, key);
  const out = new Uint8Array(prepared.tagLength);
  const keyObject = createSecretKey(key);
  const subkeys = nodeSubkeys(keyObject, bits);
  const stablelib = new CMAC(new AES(key));
  const stablelibOut = new Uint8Array(16);
  const webCrypto = new AesCmac(key);

  const built: BenchCase[] = [];
  for (const size of SIZES) {
    const msg = random(size);
    const c: BenchCase = {
      algorithm,
      size,
      contenders: [
        ...keyedRows(algorithm, key, prepared, out, msg),
        {
          name: "node:crypto",
          kind: "prepared",
          fn: () => consume(nodeCmac(keyObject, subkeys, msg, bits)),
        },
        {
          name: "node:crypto",
          kind: "one-shot",
          fn: () => consume(nodeCmac(key, nodeSubkeys(key, bits), msg, bits)),
        },
        { name: "noble", kind: "one-shot", fn: () => consume(nobleCmac(msg, key)) },
        {
          name: "stablelib",
          kind: "prepared",
          fn: () => {
            stablelib.reset().update(msg).finish(stablelibOut);
            consume(stablelibOut);
          },
        },
        {
          name: "stablelib",
          kind: "one-shot",
          fn: () => consume(new CMAC(new AES(key)).update(msg).digest()),
        },
      ],
    };
    if (size <= WEBCRYPTO_MAX) {
      c.contenders.push({
        name: "aes-cmac",
        kind: "prepared",
        async: true,
        fn: async () => consume(await webCrypto.calculate(msg)),
      });
    }
    await checkContendersAsync(c, nobleCmac(msg, key), "noble");
    built.push(c);
  }
  return built;
}

export const cmacSuite: Suite = {
  name: "cmac",
  algorithms: ["cmac-aes128", "cmac-aes192", "cmac-aes256"],
  cases,
  allocation: () => tagAllocation("cmac-aes128", 16, true),
  notes: [
    "node:crypto has no CMAC: its rows are RFC 4493's construction over OpenSSL's AES-128-CBC",
    '(subkeys from AES-128-ECB; checked against RFC 4493\'s examples). Its "prepared" row derives',
    "the subkeys once and keeps a KeyObject (OpenSSL still expands the AES key on every",
    '`createCipheriv`); its "one-shot" row derives them on every call. noble\'s CMAC has no reset or',
    "clone, so only one-shot. stablelib is @stablelib/cmac over @stablelib/aes; its prepared row",
    "reuses one instance through `reset()`. aes-cmac runs on WebCrypto and is asynchronous (one",
    "`crypto.subtle.encrypt` per block): its row awaits each call, and stops at 8 KiB (a 1 MiB tag",
    "takes seconds).",
    engineNote(
      ["cmac-aes128", "cmac-aes192", "cmac-aes256"],
      "the keyed rows",
      "keyed's WebAssembly kernels",
    ),
  ].join("\n"),
};
