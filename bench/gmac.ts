/**
 * GMAC (AES-GCM with an empty plaintext, the message as associated data): keyed against
 * node:crypto's aes-128-gcm and @noble/ciphers' gcm.
 *
 * keyed's safe `mac("gmac-aes128", key)` draws a random nonce for every tag and returns nonce ‖
 * tag; the peers take the caller's nonce. The like-for-like rows are keyed's prepared kernel with a
 * fixed nonce (the safe Mac's engine, without the random nonce) and the hazmat `gmac()`, which
 * takes a nonce and sets the key up on every call.
 */
import { createCipheriv } from "node:crypto";
import { gcm } from "@noble/ciphers/aes.js";
import { gmac } from "../src/hazmat.js";
import { type MacName, mac } from "../src/index.js";
import { GmacKernel } from "../src/mac/gmac.js";
import {
  type AllocationCase,
  type BenchCase,
  checkContenders,
  consume,
  engineNote,
  keyedNonceRows,
  random,
  randomNoncePeer,
  type Suite,
} from "./harness.js";

const SIZES = [16, 64, 128, 1024, 8192, 1048576];
const NONCE_LENGTH = 12;
const EMPTY = new Uint8Array(0);

/** The GCM tag over an empty plaintext with `msg` as AAD (SP 800-38D: GMAC). */
function nodeGmac(key: Uint8Array, nonce: Uint8Array, msg: Uint8Array): Uint8Array {
  const cipher = createCipheriv(`aes-${key.length * 8}-gcm` as "aes-128-gcm", key, nonce);
  cipher.setAAD(msg);
  cipher.final();
  return cipher.getAuthTag();
}

function cases(name: string): BenchCase[] {
  const algorithm = name as MacName;
  const bits = { "gmac-aes128": 128, "gmac-aes192": 192, "gmac-aes256": 256 }[name];
  if (bits === undefined) throw new Error(`gmac suite: unknown algorithm ${algorithm}`);
  const key = random(bits / 8);
  const nonce = random(NONCE_LENGTH);
  const safe = mac(algorithm, key);
  const kernel = new GmacKernel(key);
  // The random-nonce peers' nonce, drawn per call (kept, so that the output can be checked).
  const drawn = new Uint8Array(NONCE_LENGTH);

  const built: BenchCase[] = [];
  for (const size of SIZES) {
    const msg = random(size);
    const nobleUnder = (n: Uint8Array): Uint8Array => gcm(key, n, msg).encrypt(EMPTY);
    // nonce ‖ tag, under the nonce a safe row drew.
    const expectedFor = (output: Uint8Array): Uint8Array => {
      const drawn = output.subarray(0, NONCE_LENGTH);
      return Buffer.concat([drawn, nodeGmac(key, drawn, msg)]);
    };
    const c: BenchCase = {
      algorithm,
      size,
      contenders: [
        ...keyedNonceRows(algorithm, key, safe, msg, kernel, nonce, expectedFor),
        { name: "keyed hazmat", kind: "one-shot", fn: () => consume(gmac(key, nonce, msg)) },
        { name: "node:crypto", kind: "one-shot", fn: () => consume(nodeGmac(key, nonce, msg)) },
        {
          name: "noble",
          kind: "one-shot",
          fn: () => consume(nobleUnder(nonce)),
        },
        // What a peer's user must do for a safe GMAC: a fresh random nonce per tag. Compared
        // with keyed's safe rows, which do the same.
        randomNoncePeer("node:crypto", drawn, (n) => nodeGmac(key, n, msg), nobleUnder),
        randomNoncePeer("noble", drawn, nobleUnder, (n) => nodeGmac(key, n, msg)),
      ],
    };
    checkContenders(c, nodeGmac(key, nonce, msg), "node:crypto");
    built.push(c);
  }
  return built;
}

/** 10^6 tags of a 16-byte message: the safe Mac (random nonce) and the kernel. */
function allocation(): AllocationCase[] {
  const key = random(16);
  const m = mac("gmac-aes128", key);
  const kernel = new GmacKernel(key);
  const nonce = random(NONCE_LENGTH);
  const msg = random(16);
  const out = new Uint8Array(m.tagLength);
  const kernelOut = new Uint8Array(16);
  const calls = 1_000_000;
  return [
    { name: "gmac-aes128 tag(msg16, out)", calls, fn: () => consume(m.tag(msg, out)) },
    {
      name: "GmacKernel compute(msg16, out, nonce)",
      calls,
      fn: () => {
        kernel.compute(msg, kernelOut, nonce);
        consume(kernelOut);
      },
    },
  ];
}

export const gmacSuite: Suite = {
  name: "gmac",
  algorithms: ["gmac-aes128", "gmac-aes192", "gmac-aes256"],
  cases,
  allocation,
  notes: [
    '"keyed prepared" is the safe `mac("gmac-aes128", key).tag(msg, out)`: it draws a fresh random',
    '12-byte nonce for every tag (drawn from the system at use) and returns nonce ‖ tag; "keyed',
    'one-shot" makes a new key object per message as well. Their ratios are against the',
    '"random-nonce" peer rows, which draw a fresh 12-byte nonce per tag from the same source',
    "(`crypto.getRandomValues`), as a peer's user must for a safe GMAC. The like-for-like row for",
    'the peers given a fixed nonce is "keyed kernel prepared": the same prepared `GmacKernel` (AES',
    "schedule and H computed once) with a fixed nonce and no random draw.",
    '"keyed hazmat one-shot" is `gmac(key, nonce, message)` from keyed/hazmat, which sets the key up',
    "on every call. node:crypto is aes-128-gcm with an empty plaintext and the message as AAD, and",
    "noble is `gcm(key, nonce, msg).encrypt(empty)`: both set the key up on every call (neither has",
    "a reusable keyed state).",
    engineNote(["gmac"], "the keyed rows", "keyed's WebAssembly kernels"),
  ].join("\n"),
};
