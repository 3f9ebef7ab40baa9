import { assertBytes, type Bytes } from "./bytes.js";

/**
 * Constant-time comparison. Reads every byte of the longer input whatever the contents, with no
 * early exit; only the lengths (public) decide how many bytes are read. False when the lengths
 * differ. Technique: OR-accumulate the XOR of each byte pair, decide once at the end.
 */
export function equal(a: Bytes, b: Bytes): boolean {
  assertBytes(a, "a");
  assertBytes(b, "b");
  const n = a.length;
  if (n !== b.length) return equalPrefix(a, n, b);
  // Equal lengths (a tag check): four bytes a step into two accumulators, the shape that measured
  // fastest in V8 (one byte a step has more loop overhead, eight more bounds checks in flight): a
  // 32-byte compare in about a third of crypto.timingSafeEqual's time.
  let d0 = 0;
  let d1 = 0;
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    d0 |= (a[i] ^ b[i]) | (a[i + 2] ^ b[i + 2]);
    d1 |= (a[i + 1] ^ b[i + 1]) | (a[i + 3] ^ b[i + 3]);
  }
  for (; i < n; i++) d0 |= a[i] ^ b[i];
  return (d0 | d1) === 0;
}

/**
 * Constant-time check that `candidate[offset ..)` equals `expected[from .. from + length)`, reading
 * the longer of the two whatever their contents. The Mac contract compares truncated tags (and the
 * tag after a nonce, and a batch's tags in one buffer) with it, so no subarray is allocated.
 */
export function equalPrefix(
  expected: Bytes,
  length: number,
  candidate: Bytes,
  offset = 0,
  from = 0,
): boolean {
  const lc = Math.max(0, candidate.length - offset);
  let diff = (length ^ lc) | (candidate.length < offset ? 1 : 0);
  const common = Math.min(length, lc);
  // Two bytes a step into two accumulators (as `equal`, the fastest shape measured in V8).
  let d0 = 0;
  let d1 = 0;
  let i = 0;
  for (; i + 2 <= common; i += 2) {
    d0 |= expected[from + i] ^ candidate[offset + i];
    d1 |= expected[from + i + 1] ^ candidate[offset + i + 1];
  }
  if (i < common) diff |= expected[from + i] ^ candidate[offset + i];
  diff |= d0 | d1;
  // Past the shorter input, keep reading the longer one so that the work depends only on the
  // lengths. Folding those bytes into `diff` is harmless: it is already non-zero through the
  // length term whenever these loops run.
  for (i = common; i < length; i++) diff |= expected[from + i];
  for (i = common; i < lc; i++) diff |= candidate[offset + i];
  return diff === 0;
}
