/**
 * HMAC over every hash keyed offers: keyed against node:crypto (OpenSSL, native), @noble/hashes
 * (pure JS, like keyed) and hash-wasm (C compiled to WebAssembly).
 *
 * "prepared" contenders set the key up once and then only tag; "one-shot" contenders set the key
 * up on every call, as code that keeps no key object does.
 */
import { createHmac } from "node:crypto";
import { hmac as nobleHmac } from "@noble/hashes/hmac.js";
import { sha1 } from "@noble/hashes/legacy.js";
import { sha224, sha256, sha384, sha512, sha512_224, sha512_256 } from "@noble/hashes/sha2.js";
import { sha3_224, sha3_256, sha3_384, sha3_512 } from "@noble/hashes/sha3.js";
import {
  createHMAC,
  createSHA1,
  createSHA3,
  createSHA224,
  createSHA256,
  createSHA384,
  createSHA512,
  type IHasher,
} from "hash-wasm";
import { wasmHmac } from "../src/engine/wasm-hmac.js";
import type { Mac } from "../src/index.js";
import { mac } from "../src/index.js";
import {
  type BenchCase,
  type Contender,
  checkContenders,
  consume,
  engineNote,
  keyedRows,
  random,
  type Suite,
  tagAllocation,
} from "./harness.js";

type NobleHash = Parameters<typeof nobleHmac>[0];

/** Per algorithm: node:crypto's name, noble's hash, and hash-wasm's (absent for SHA-512/t). */
const HASHES = {
  "hmac-sha1": { node: "sha1", noble: sha1, wasm: createSHA1 },
  "hmac-sha224": { node: "sha224", noble: sha224, wasm: createSHA224 },
  "hmac-sha256": { node: "sha256", noble: sha256, wasm: createSHA256 },
  "hmac-sha384": { node: "sha384", noble: sha384, wasm: createSHA384 },
  "hmac-sha512": { node: "sha512", noble: sha512, wasm: createSHA512 },
  "hmac-sha512-224": { node: "sha512-224", noble: sha512_224, wasm: undefined },
  "hmac-sha512-256": { node: "sha512-256", noble: sha512_256, wasm: undefined },
  "hmac-sha3-224": { node: "sha3-224", noble: sha3_224, wasm: () => createSHA3(224) },
  "hmac-sha3-256": { node: "sha3-256", noble: sha3_256, wasm: () => createSHA3(256) },
  "hmac-sha3-384": { node: "sha3-384", noble: sha3_384, wasm: () => createSHA3(384) },
  "hmac-sha3-512": { node: "sha3-512", noble: sha3_512, wasm: () => createSHA3(512) },
} satisfies Record<
  string,
  { node: string; noble: NobleHash; wasm: (() => Promise<IHasher>) | undefined }
>;
type Algorithm = keyof typeof HASHES;

const SIZES = [16, 64, 128, 256, 1024, 8192, 1 << 20];

/**
 * The batch row: messages per tagMany call, and the algorithms whose batches go through the
 * WebAssembly module's queue (SIMD lanes for SHA-1, SHA-224 and SHA-256; the one-message kernel for
 * SHA-384 and SHA-512).
 */
const BATCH = 32;
const BATCHED = new Set(["hmac-sha1", "hmac-sha224", "hmac-sha256", "hmac-sha384", "hmac-sha512"]);

/**
 * "keyed tagMany": a prepared key tagging BATCH messages of `size` bytes per tagMany call, timed
 * per message (the call runs on every BATCH-th invocation, so the mean per invocation is the time
 * per message). Its output is the first message's tag.
 */
function batchRow(prepared: Mac, msg: Uint8Array): Contender {
  const batch = Array.from({ length: BATCH }, () => msg.slice());
  const out = new Uint8Array(BATCH * prepared.tagLength);
  const first = out.subarray(0, prepared.tagLength);
  let calls = 0;
  return {
    name: "keyed tagMany",
    kind: "prepared",
    headline: true,
    fn: () => {
      if (calls++ % BATCH === 0) prepared.tagMany(batch, out);
      consume(first);
    },
  };
}

function isAlgorithm(name: string): name is Algorithm {
  return Object.hasOwn(HASHES, name);
}

async function cases(algorithm: string): Promise<BenchCase[]> {
  if (!isAlgorithm(algorithm)) throw new Error(`hmac suite: unknown algorithm ${algorithm}`);
  const { node, noble, wasm } = HASHES[algorithm];
  // 32 bytes: under every block size here, so no contender hashes the key first.
  const key = random(32);
  const prepared = mac(algorithm, key);
  const out = new Uint8Array(prepared.tagLength);
  // noble v2 has no reset: the cheapest reuse is copying the keyed state into one working
  // instance (`_cloneInto` with a target allocates no new hash objects), then finishing that.
  const nobleBase = nobleHmac.create(noble, key);
  const nobleWork = nobleBase.clone();
  const nobleOut = new Uint8Array(nobleBase.outputLen);
  // hash-wasm's HMAC object keeps the keyed state; init() restarts from it.
  const hashWasm = wasm === undefined ? undefined : await createHMAC(wasm(), key);

  return SIZES.map((size) => {
    const msg = random(size);
    const c: BenchCase = {
      algorithm,
      size,
      contenders: [
        ...keyedRows(algorithm, key, prepared, out, msg, BATCHED.has(algorithm) ? true : undefined),
        ...(BATCHED.has(algorithm) && size <= 1024 ? [batchRow(prepared, msg)] : []),
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
    if (hashWasm !== undefined) {
      c.contenders.push({
        name: "hash-wasm",
        kind: "prepared",
        fn: () => {
          hashWasm.init();
          hashWasm.update(msg);
          consume(hashWasm.digest("binary"));
        },
      });
    }
    checkContenders(c, createHmac(node, key).update(msg).digest(), "node:crypto");
    return c;
  });
}

export const hmacSuite: Suite = {
  name: "hmac",
  algorithms: Object.keys(HASHES),
  cases,
  allocation: () => tagAllocation("hmac-sha256", 32, true),
  notes: `${engineNote(
    ["hmac-sha256", "hmac-sha512", "hmac-sha1", "hmac-sha3"],
    "the keyed rows",
    wasmHmac() === undefined
      ? undefined
      : "keyed's WebAssembly HMAC kernels (src/engine/wasm-hmac.ts)",
  )}\n"keyed tagMany" (SHA-1 and the SHA-2 family, up to 1 KiB) is one prepared key tagging ${BATCH} messages of the size per \`tagMany\` call, timed per message: the messages go into the module's memory together and through its queue, four SIMD lanes at a time for SHA-1/SHA-224/SHA-256, its one-message kernel for the rest and for SHA-384/SHA-512 (below the crossover; from it, node:crypto message by message). Its ratio is that per-message time over the best peer's single message.`,
};
