/**
 * What one draw from the random source costs here: the safe GMAC and ChaCha20-Poly1305 MACs draw
 * a fresh 12- or 24-byte nonce per tag from `crypto.getRandomValues` (core/random.ts; never from
 * a pool, see fillNonce), so this is a floor under their per-tag time that no kernel can remove.
 *
 *   node bench/random-source.ts   (or node --import tsx)
 */
import { randomFillSync } from "node:crypto";

const ROUNDS = 7;
const CALLS = 100_000;

function perCall(fill: () => void): number {
  for (let i = 0; i < 10_000; i++) fill();
  const times: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < CALLS; i++) fill();
    times.push(Number(process.hrtime.bigint() - start) / CALLS);
  }
  return times.sort((a, b) => a - b)[ROUNDS >> 1];
}

for (const length of [12, 24, 4096]) {
  const out = new Uint8Array(length);
  const web = perCall(() => globalThis.crypto.getRandomValues(out));
  const node = perCall(() => randomFillSync(out));
  console.log(
    `${length} bytes: getRandomValues ${web.toFixed(0)} ns, randomFillSync ${node.toFixed(0)} ns per call (median of ${ROUNDS} rounds)`,
  );
}
