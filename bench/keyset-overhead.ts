/**
 * The keyset's cost over the same prepared Mac at 16 bytes, measured so that a shared, busy
 * machine does not drown it (`node --import tsx bench/keyset-overhead.ts`): process CPU time
 * (process.cpuUsage) rather than wall time, batches of Mac.tag, Keyset.tag and Mac.tag again
 * interleaved, and the median over 61 rounds of (keyset - mean of the two Mac batches). Issue 14
 * asks for at most 60 ns; `npm run bench -- --only=keyset` gives the wall-time table.
 */
import { Keyset, mac } from "../src/index.js";

const BATCH = 20_000;
const ROUNDS = 61;
const key = Uint8Array.from({ length: 32 }, (_, i) => i * 7 + 1);
const message = new Uint8Array(16).fill(1);
const sink: { last: Uint8Array } = { last: message };

/** CPU nanoseconds per call of `fn`, over one batch. */
function cpuPerCall(fn: () => void): number {
  const start = process.cpuUsage();
  for (let i = 0; i < BATCH; i++) fn();
  const used = process.cpuUsage(start);
  return ((used.user + used.system) * 1000) / BATCH;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];

console.log("| algorithm | Mac.tag | Keyset.tag (tink) | overhead | Keyset.tag (raw) | overhead |");
console.log("|---|---:|---:|---:|---:|---:|");
for (const name of ["hmac-sha256", "blake3", "cmac-aes128"] as const) {
  const k = name === "cmac-aes128" ? key.subarray(0, 16) : key;
  const m = mac(name, k);
  const tink = Keyset.fromKey(name, k, { id: 0x1234abcd });
  tink.add(name); // a second key, as during a rotation
  const raw = Keyset.fromKey(name, k, { prefix: "raw" });
  const plain = () => {
    sink.last = m.tag(message);
  };
  const viaTink = () => {
    sink.last = tink.tag(message);
  };
  const viaRaw = () => {
    sink.last = raw.tag(message);
  };
  for (let i = 0; i < 20; i++) for (const fn of [plain, viaTink, viaRaw]) cpuPerCall(fn);
  const base: number[] = [];
  const tinkExtra: number[] = [];
  const rawExtra: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const a = cpuPerCall(plain);
    const t = cpuPerCall(viaTink);
    const w = cpuPerCall(viaRaw);
    const b = cpuPerCall(plain);
    const mean = (a + b) / 2;
    base.push(mean);
    tinkExtra.push(t - mean);
    rawExtra.push(w - mean);
  }
  const ns = (x: number) => `${x.toFixed(0)} ns`;
  const mb = median(base);
  const te = median(tinkExtra);
  const re = median(rawExtra);
  console.log(
    `| ${name} | ${ns(mb)} | ${ns(mb + te)} | ${te >= 0 ? "+" : ""}${ns(te)} | ${ns(mb + re)} | ${re >= 0 ? "+" : ""}${ns(re)} |`,
  );
}
