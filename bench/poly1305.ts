/**
 * Poly1305 (RFC 8439 2.5) against @noble/ciphers, @stablelib/poly1305 and libsodium's
 * crypto_onetimeauth; the ChaCha20-Poly1305 AEAD (RFC 8439 2.8) against node:crypto and
 * @noble/ciphers.
 *
 * A Poly1305 key authenticates one message, so every contender sets its key up on every call:
 * "one-shot" is the real use. There is no prepared row: a prepared key could be timed only on its
 * one message, and the harness has no untimed per-call setup to make a fresh one.
 */
import { createCipheriv, createSecretKey, type KeyObject } from "node:crypto";
import { poly1305 as noblePoly1305 } from "@noble/ciphers/_poly1305.js";
import {
  chacha20poly1305 as nobleChaCha,
  xchacha20poly1305 as nobleXChaCha,
} from "@noble/ciphers/chacha.js";
import { oneTimeAuth } from "@stablelib/poly1305";
import sodium from "libsodium-wrappers-sumo";
import type { MacKernel } from "../src/core/mac.js";
import { chacha20poly1305, chacha20poly1305Key, poly1305 } from "../src/hazmat.js";
import { mac } from "../src/index.js";
import {
  type BenchCase,
  checkContenders,
  consume,
  keyedNonceRows,
  random,
  randomNoncePeer,
  type Suite,
} from "./harness.js";

const POLY1305_SIZES = [16, 34, 64, 128, 1024, 8192, 1 << 20];
const AEAD_SIZES = [64, 1024, 8192, 1 << 20];
const MAC_SIZES = [16, 64, 128, 1024, 8192, 1 << 20];
const EMPTY = new Uint8Array(0);

const hex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, "hex"));

/** RFC 8439 section 2.5.2: the 34-byte message, its key and its tag. */
const RFC_KEY = hex("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b");
const RFC_MESSAGE = new TextEncoder().encode("Cryptographic Forum Research Group");
const RFC_TAG = "a8061dc1305136c6c22b8baf0c0127a9";

async function poly1305Cases(): Promise<BenchCase[]> {
  await sodium.ready;
  const got = Buffer.from(sodium.crypto_onetimeauth(RFC_MESSAGE, RFC_KEY)).toString("hex");
  if (got !== RFC_TAG) throw new Error(`libsodium gave ${got} for RFC 8439 2.5.2; want ${RFC_TAG}`);
  const built: BenchCase[] = [];
  for (const size of POLY1305_SIZES) {
    // The 34-byte case is RFC 8439 2.5.2's message under its key.
    const rfc = size === RFC_MESSAGE.length;
    const key = rfc ? RFC_KEY : random(32);
    const msg = rfc ? RFC_MESSAGE : random(size);
    const c: BenchCase = {
      algorithm: "poly1305",
      size,
      contenders: [
        {
          name: "keyed hazmat",
          kind: "one-shot",
          headline: true,
          fn: () => consume(poly1305(key, msg)),
        },
        {
          name: "keyed",
          kind: "one-shot",
          headline: true,
          fn: () => consume(mac("poly1305", key).tag(msg)),
        },
        { name: "noble", kind: "one-shot", fn: () => consume(noblePoly1305(msg, key)) },
        { name: "stablelib", kind: "one-shot", fn: () => consume(oneTimeAuth(key, msg)) },
        {
          name: "libsodium",
          kind: "one-shot",
          fn: () => consume(sodium.crypto_onetimeauth(msg, key)),
        },
      ],
    };
    checkContenders(c, sodium.crypto_onetimeauth(msg, key), "libsodium");
    built.push(c);
  }
  return built;
}

/**
 * ciphertext ‖ tag, as keyed and noble return it (node hands the tag over apart). `key`: raw bytes,
 * or a KeyObject made once (node:crypto's prepared form).
 */
export function nodeSeal(
  key: Uint8Array | KeyObject,
  nonce: Uint8Array,
  plaintext: Uint8Array,
): Uint8Array {
  const cipher = createCipheriv("chacha20-poly1305", key, nonce, { authTagLength: 16 });
  const ciphertext = cipher.update(plaintext);
  cipher.final();
  return Buffer.concat([ciphertext, cipher.getAuthTag()]);
}

async function aeadCases(): Promise<BenchCase[]> {
  const key = random(32);
  const nonce = random(12);
  const prepared = chacha20poly1305Key(key);
  const keyObject = createSecretKey(key);
  const built: BenchCase[] = [];
  for (const size of AEAD_SIZES) {
    const plaintext = random(size);
    const c: BenchCase = {
      algorithm: "aead-chacha20-poly1305",
      size,
      contenders: [
        {
          name: "keyed",
          kind: "prepared",
          headline: true,
          fn: () => consume(prepared.seal(nonce, plaintext)),
        },
        {
          name: "keyed",
          kind: "one-shot",
          headline: true,
          fn: () => consume(chacha20poly1305(key, nonce).seal(plaintext)),
        },
        {
          name: "node:crypto",
          kind: "prepared",
          fn: () => consume(nodeSeal(keyObject, nonce, plaintext)),
        },
        {
          name: "node:crypto",
          kind: "one-shot",
          fn: () => consume(nodeSeal(key, nonce, plaintext)),
        },
        {
          name: "noble",
          kind: "one-shot",
          fn: () => consume(nobleChaCha(key, nonce).encrypt(plaintext)),
        },
      ],
    };
    checkContenders(c, nodeSeal(key, nonce, plaintext), "node:crypto");
    built.push(c);
  }
  return built;
}

/**
 * The chacha20-poly1305 and xchacha20-poly1305 MACs: the AEAD's tag over an empty plaintext with
 * the message as associated data. keyed draws a nonce per tag and returns nonce ‖ tag; the peers
 * compute the same tag under a fixed nonce.
 */
async function macCases(algorithm: "chacha20-poly1305" | "xchacha20-poly1305") {
  await sodium.ready;
  const extended = algorithm === "xchacha20-poly1305";
  const nonceLength = extended ? 24 : 12;
  const key = random(32);
  const nonce = random(nonceLength);
  const prepared = mac(algorithm, key);
  const nobleTag = (n: Uint8Array, msg: Uint8Array): Uint8Array =>
    (extended ? nobleXChaCha : nobleChaCha)(key, n, msg).encrypt(EMPTY);
  // keyed's kernel under a fixed nonce: like for like with the peers' fixed-nonce rows.
  const kernel = (prepared as unknown as { kernel: MacKernel }).kernel;
  // The random-nonce peers' nonce, drawn per call (kept, so that the output can be checked).
  const drawn = new Uint8Array(nonceLength);
  const sodiumTagUnder = (n: Uint8Array, msg: Uint8Array): Uint8Array =>
    extended
      ? sodium.crypto_aead_xchacha20poly1305_ietf_encrypt(EMPTY, msg, null, n, key)
      : sodium.crypto_aead_chacha20poly1305_ietf_encrypt(EMPTY, msg, null, n, key);
  const nodeTag = (n: Uint8Array, msg: Uint8Array): Uint8Array => {
    const cipher = createCipheriv("chacha20-poly1305", key, n, { authTagLength: 16 });
    cipher.setAAD(msg, { plaintextLength: 0 });
    cipher.final();
    return cipher.getAuthTag();
  };
  const built: BenchCase[] = [];
  for (const size of MAC_SIZES) {
    const msg = random(size);
    const nobleUnder = (n: Uint8Array): Uint8Array => nobleTag(n, msg);
    const sodiumUnder = (n: Uint8Array): Uint8Array => sodiumTagUnder(n, msg);
    const expectedFor = (output: Uint8Array): Uint8Array => {
      const drawn = output.subarray(0, nonceLength);
      return Buffer.concat([drawn, nobleTag(drawn, msg)]);
    };
    const c: BenchCase = {
      algorithm,
      size,
      contenders: [
        ...keyedNonceRows(algorithm, key, prepared, msg, kernel, nonce, expectedFor),
        { name: "noble", kind: "one-shot", fn: () => consume(nobleTag(nonce, msg)) },
        { name: "libsodium", kind: "one-shot", fn: () => consume(sodiumTagUnder(nonce, msg)) },
        // What a peer's user must do for a safe MAC: a fresh random nonce per tag. Compared with
        // keyed's safe rows, which do the same.
        randomNoncePeer("noble", drawn, nobleUnder, sodiumUnder),
        randomNoncePeer("libsodium", drawn, sodiumUnder, nobleUnder),
      ],
    };
    if (!extended) {
      c.contenders.push(
        { name: "node:crypto", kind: "one-shot", fn: () => consume(nodeTag(nonce, msg)) },
        randomNoncePeer("node:crypto", drawn, (n) => nodeTag(n, msg), nobleUnder),
      );
    }
    checkContenders(c, nobleTag(nonce, msg), "noble");
    built.push(c);
  }
  return built;
}

async function cases(algorithm: string): Promise<BenchCase[]> {
  if (algorithm === "poly1305") return poly1305Cases();
  if (algorithm === "aead-chacha20-poly1305") return aeadCases();
  if (algorithm === "chacha20-poly1305" || algorithm === "xchacha20-poly1305")
    return macCases(algorithm);
  throw new Error(`poly1305 suite: unknown algorithm ${algorithm}`);
}

export const poly1305Suite: Suite = {
  name: "poly1305",
  algorithms: ["poly1305", "chacha20-poly1305", "xchacha20-poly1305", "aead-chacha20-poly1305"],
  cases,
  notes: [
    "Poly1305 keys are one-time, so every row sets its key up per message, as real use does.",
    '"keyed hazmat one-shot" is `poly1305(key, msg)` from keyed/hazmat; "keyed one-shot" is the safe',
    '`mac("poly1305", key).tag(msg)` (a new Mac per message, with its weak-key check). Both run',
    "keyed's WebAssembly Poly1305 (SIMD from 512 bytes; its TypeScript kernel with",
    "KEYED_BACKEND=js). There is no prepared row: a prepared one-time key could be timed on one",
    "message only. The 34-byte case is RFC 8439 2.5.2's message and key. libsodium is",
    "libsodium-wrappers-sumo `crypto_onetimeauth` (WebAssembly). The chacha20-poly1305 and",
    "xchacha20-poly1305 rows are the MACs: the AEAD tag over an empty plaintext with the message as",
    'associated data. "keyed prepared" and "keyed one-shot" draw a fresh nonce per tag and are',
    'compared with the "random-nonce" peer rows, which draw one per tag from the same source',
    '(`crypto.getRandomValues`); "keyed kernel prepared" is the same prepared kernel under a fixed',
    "nonce, compared with the peers given a fixed one. The",
    'aead-chacha20-poly1305 rows seal without associated data, all under one key: "keyed prepared"',
    "is `chacha20poly1305Key(key).seal(nonce, pt)` from keyed/hazmat (the key prepared once, the",
    'nonce per call), "keyed one-shot" `chacha20poly1305(key, nonce).seal(pt)` (an object per key',
    "and nonce). Both run on node:crypto from the chacha20-poly1305-aead crossover on; below it on",
    "keyed's WebAssembly ChaCha20 (SIMD past one block) and Poly1305. noble is",
    "`chacha20poly1305(key, nonce).encrypt(pt)`. node:crypto returns the tag apart, so its rows",
    "include one `Buffer.concat` of ciphertext and tag to give the same ciphertext ‖ tag; its",
    "prepared row passes a KeyObject made once, its one-shot row the key's bytes.",
  ].join("\n"),
};
