/**
 * HMAC: keyed against node:crypto (OpenSSL, native) and @noble/hashes (pure JS, like keyed).
 *
 * "prepared" contenders set the key up once and then only tag; "one-shot" contenders set the key
 * up on every call, as code that keeps no key object does.
 */
import { createHmac } from "node:crypto";
import { hmac as nobleHmac } from "@noble/hashes/hmac.js";
import { sha1 } from "@noble/hashes/legacy.js";
import { sha256, sha512 } from "@noble/hashes/sha2.js";
import { wasmHmac } from "../src/engine/wasm.js";
import { mac } from "../src/index.js";
import {
  type BenchCase,
  checkContenders,
  consume,
  engineNote,
  random,
  type Suite,
  tagAllocation,
} from "./harness.js";

type NobleHash = Parameters<typeof nobleHmac>[0];
type Algorithm = "hmac-sha256" | "hmac-sha512" | "hmac-sha1";

const HASHES: Record<Algorithm, { node: string; noble: NobleHash }> = {
  "hmac-sha256": { node: "sha256", noble: sha256 },
  "hmac-sha512": { node: "sha512", noble: sha512 },
  "hmac-sha1": { node: "sha1", noble: sha1 },
};

const SIZES = [16, 64, 1024, 8192, 1 << 20];

function isAlgorithm(name: string): name is Algorithm {
  return Object.hasOwn(HASHES, name);
}

function cases(algorithm: string): BenchCase[] {
  if (!isAlgorithm(algorithm)) throw new Error(`hmac suite: unknown algorithm ${algorithm}`);
  const { node, noble } = HASHES[algorithm];
  // 32 bytes: under every block size here, so no contender hashes the key first.
  const key = random(32);
  const prepared = mac(algorithm, key);
  const out = new Uint8Array(prepared.tagLength);
  // noble v2 has no reset: the cheapest reuse is copying the keyed state into one working
  // instance (`_cloneInto` with a target allocates no new hash objects), then finishing that.
  const nobleBase = nobleHmac.create(noble, key);
  const nobleWork = nobleBase.clone();
  const nobleOut = new Uint8Array(nobleBase.outputLen);

  return SIZES.map((size) => {
    const msg = random(size);
    const c: BenchCase = {
      algorithm,
      size,
      contenders: [
        { name: "keyed", kind: "prepared", fn: () => consume(prepared.tag(msg, out)) },
        { name: "keyed", kind: "one-shot", fn: () => consume(mac(algorithm, key).tag(msg)) },
        {
          name: "node:crypto",
          kind: "one-shot",
          fn: () => consume(createHmac(node, key).update(msg).digest()),
        },
        { name: "noble", kind: "one-shot", fn: () => consume(nobleHmac(noble, key, msg)) },
        {
          name: "noble",
          kind: "prepared",
          fn: () => {
            nobleBase._cloneInto(nobleWork).update(msg).digestInto(nobleOut);
            consume(nobleOut);
          },
        },
      ],
    };
    checkContenders(c, createHmac(node, key).update(msg).digest(), "node:crypto");
    return c;
  });
}

export const hmacSuite: Suite = {
  name: "hmac",
  algorithms: ["hmac-sha256", "hmac-sha512", "hmac-sha1"],
  cases,
  allocation: () => tagAllocation("hmac-sha256", 32, true),
  notes: engineNote(
    ["hmac-sha256", "hmac-sha512", "hmac-sha1"],
    "the keyed rows",
    wasmHmac() === undefined ? undefined : "keyed's WebAssembly HMAC kernels (src/engine/wasm.ts)",
  ),
};
