/**
 * KMAC128 and KMAC256 (SP 800-185 section 4): keyed against @noble/hashes and js-sha3 (both pure
 * JS; node:crypto has no KMAC in Node 20). Tags are keyed's defaults: L = 256 bits for KMAC128 and
 * 512 bits for KMAC256, no customization string.
 */
import { kmac128 as nobleKmac128, kmac256 as nobleKmac256 } from "@noble/hashes/sha3-addons.js";
import { kmac128 as jsKmac128, kmac256 as jsKmac256 } from "js-sha3";
import { mac } from "../src/index.js";
import {
  type BenchCase,
  checkContenders,
  consume,
  keyedRows,
  random,
  type Suite,
  tagAllocation,
} from "./harness.js";

type Algorithm = "kmac128" | "kmac256";

const PEERS: Record<Algorithm, { noble: typeof nobleKmac128; js: typeof jsKmac128; bits: number }> =
  {
    kmac128: { noble: nobleKmac128, js: jsKmac128, bits: 256 },
    kmac256: { noble: nobleKmac256, js: jsKmac256, bits: 512 },
  };

const SIZES = [16, 64, 128, 1024, 8192, 1048576];

function isAlgorithm(name: string): name is Algorithm {
  return Object.hasOwn(PEERS, name);
}

function cases(algorithm: string): BenchCase[] {
  if (!isAlgorithm(algorithm)) throw new Error(`kmac suite: unknown algorithm ${algorithm}`);
  const { noble, js, bits } = PEERS[algorithm];
  const dkLen = bits / 8;
  // 32 bytes: KMAC256's minimum in keyed (SP 800-185 8.4.1), and fine for KMAC128.
  const key = random(32);
  const prepared = mac(algorithm, key);
  const out = new Uint8Array(prepared.tagLength);
  if (prepared.tagLength !== dkLen) throw new Error(`${algorithm}: tag is ${prepared.tagLength} B`);
  // As in the HMAC suite: noble has no reset, so the keyed sponge is copied into one working
  // instance (`_cloneInto` with a target) for each tag.
  const nobleBase = noble.create(key, { dkLen });
  const nobleWork = nobleBase.clone();
  const nobleOut = new Uint8Array(dkLen);

  const built: BenchCase[] = [];
  for (const size of SIZES) {
    const msg = random(size);
    const c: BenchCase = {
      algorithm,
      size,
      contenders: [
        ...keyedRows(algorithm, key, prepared, out, msg, true),
        { name: "noble", kind: "one-shot", fn: () => consume(noble(key, msg, { dkLen })) },
        {
          name: "noble",
          kind: "prepared",
          fn: () => {
            nobleBase._cloneInto(nobleWork).update(msg).digestInto(nobleOut);
            consume(nobleOut);
          },
        },
        {
          name: "js-sha3",
          kind: "one-shot",
          fn: () => consume(new Uint8Array(js.arrayBuffer(key, msg, bits, ""))),
        },
      ],
    };
    checkContenders(c, noble(key, msg, { dkLen }), "noble");
    built.push(c);
  }
  return built;
}

export const kmacSuite: Suite = {
  name: "kmac",
  algorithms: ["kmac128", "kmac256"],
  cases,
  allocation: () => tagAllocation("kmac128", 32),
  notes: [
    "Tags are 32 bytes (KMAC128) and 64 bytes (KMAC256), with a 32-byte key and no customization.",
    '"noble prepared" copies a keyed `kmac.create(key)` sponge into one working instance per tag',
    "(`_cloneInto`), as keyed does internally; js-sha3 has no way to reuse a keyed state, so only",
    'one-shot (`kmac128.arrayBuffer(key, msg, bits, "")`).',
  ].join("\n"),
};
