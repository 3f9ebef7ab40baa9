/**
 * Constant-time comparison of two equal 32-byte values (a tag check's worst case: every byte is
 * read either way): keyed's `equal` against node:crypto's `timingSafeEqual` (OpenSSL CRYPTO_memcmp).
 */
import { randomFillSync, timingSafeEqual } from "node:crypto";
import { equal } from "../src/index.js";
import { type BenchCase, checkContenders, consume, type Suite } from "./harness.js";

const SIZE = 32;

function cases(algorithm: string): BenchCase[] {
  if (algorithm !== "equal") throw new Error(`equal suite: unknown algorithm ${algorithm}`);
  const a = randomFillSync(new Uint8Array(SIZE));
  const b = a.slice();
  // The boolean goes out as one byte, the same store for both.
  const result = new Uint8Array(1);
  const c: BenchCase = {
    algorithm,
    size: SIZE,
    contenders: [
      {
        name: "keyed",
        kind: "one-shot",
        headline: true,
        fn: () => {
          result[0] = equal(a, b) ? 1 : 0;
          consume(result);
        },
      },
      {
        name: "node:crypto",
        kind: "one-shot",
        fn: () => {
          result[0] = timingSafeEqual(a, b) ? 1 : 0;
          consume(result);
        },
      },
    ],
  };
  checkContenders(c, Uint8Array.of(1), "true");
  return [c];
}

export const equalSuite: Suite = {
  name: "equal",
  algorithms: ["equal"],
  cases,
  notes: [
    "Two equal 32-byte arrays: both functions read every byte whatever the contents. There is no",
    'key: "one-shot" only labels the rows. The throughput column is bytes compared per second.',
  ].join("\n"),
};
