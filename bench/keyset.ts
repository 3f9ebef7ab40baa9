/**
 * What a keyset costs over the same prepared Mac: tagging through `Keyset.tag` (the primary key's
 * prefix written in front of the MAC) against `Mac.tag`, and `Keyset.verify` (the prefix lookup,
 * then the MAC check) against `Mac.verify`, at 16 and 1024 bytes. The Mac rows are the baseline:
 * the difference is the keyset's overhead (issue 14 asks for at most 60 ns at 16 bytes).
 */
import { Keyset, mac } from "../src/index.js";
import { type BenchCase, checkContenders, consume, random, type Suite } from "./harness.js";

const ALGORITHMS = ["hmac-sha256", "blake3"] as const;
const SIZES = [16, 1024];
const TRUE = Uint8Array.of(1);
const FALSE = Uint8Array.of(0);

function cases(algorithm: string): BenchCase[] {
  const name = ALGORITHMS.find((a) => a === algorithm);
  if (name === undefined) throw new Error(`keyset suite: unknown algorithm ${algorithm}`);
  const key = random(32);
  const m = mac(name, key);
  const tink = Keyset.fromKey(name, key, { prefix: "tink", id: 0x1234abcd });
  tink.add(name, { prefix: "tink" }); // a second key, as during a rotation
  const raw = Keyset.fromKey(name, key, { prefix: "raw" });
  return SIZES.map((size) => {
    const message = random(size);
    const expected = m.tag(message);
    const prefixed = Uint8Array.of(1, 0x12, 0x34, 0xab, 0xcd, ...expected);
    const c: BenchCase = {
      algorithm,
      size,
      contenders: [
        { name: "keyed Mac.tag", kind: "prepared", fn: () => consume(m.tag(message)) },
        {
          name: "keyed Keyset.tag tink",
          kind: "prepared",
          expectedFor: () => prefixed,
          fn: () => consume(tink.tag(message)),
        },
        { name: "keyed Keyset.tag raw", kind: "prepared", fn: () => consume(raw.tag(message)) },
        {
          name: "keyed Mac.verify",
          kind: "prepared",
          expectedFor: () => TRUE,
          fn: () => consume(m.verify(message, expected) ? TRUE : FALSE),
        },
        {
          name: "keyed Keyset.verify tink",
          kind: "prepared",
          expectedFor: () => TRUE,
          fn: () => consume(tink.verify(message, prefixed) ? TRUE : FALSE),
        },
      ],
    };
    checkContenders(c, expected, "Mac.tag");
    return c;
  });
}

export const keysetSuite: Suite = {
  name: "keyset",
  algorithms: [...ALGORITHMS],
  cases,
  charts: false,
  notes: [
    "The same key as a prepared Mac and inside a keyset (two keys, TINK prefix; and one RAW key).",
    "The difference between a Keyset row and the Mac row beside it is the keyset's cost: the",
    "5-byte prefix written (or looked up, for verify) around the same MAC computation.",
  ].join("\n"),
};
