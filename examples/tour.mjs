// A short tour of keyed: for every MAC this build offers, make a key, tag a message, verify it,
// and show that a tampered message and a truncated tag are refused. Run: npm start
import { bytesToHex, KeyedError, mac, macInfo, macNames, randomBytes, utf8ToBytes } from "keyed";

const message = utf8ToBytes('{"event":"payment.succeeded","amount":4200,"currency":"EUR"}');
const tampered = utf8ToBytes('{"event":"payment.succeeded","amount":9900,"currency":"EUR"}');

/** Average microseconds per call of `fn` over `runs` calls, after as many warm-up calls. */
function time(fn, runs = 2000) {
  for (let i = 0; i < runs; i++) fn();
  const start = process.hrtime.bigint();
  for (let i = 0; i < runs; i++) fn();
  return (Number(process.hrtime.bigint() - start) / 1000 / runs).toFixed(2).padStart(8);
}
const rows = [];

for (const name of macNames()) {
  const info = macInfo(name);
  const key = randomBytes(info.keyLength ?? 32);

  const m = mac(name, key);
  const tag = m.tag(message);
  const ok = m.verify(message, tag);
  const tamperedOk = m.verify(tampered, tag);
  const truncatedOk = m.verify(message, tag.subarray(0, tag.length - 1));

  const setup = time(() => mac(name, key), 500);
  const out = new Uint8Array(m.tagLength);
  const tagTime = time(() => m.tag(message, out));
  const verifyTime = time(() => m.verify(message, tag));
  m.destroy();
  rows.push({ name, tag, ok, tamperedOk, truncatedOk, setup, tagTime, verifyTime });
}

console.log(`keyed tour — message: ${new TextDecoder().decode(message)}\n`);
console.log(
  "algorithm        tag (hex, first 16 bytes)          verify  tampered  truncated  key setup µs  tag µs  verify µs",
);
for (const r of rows) {
  console.log(
    `${r.name.padEnd(16)} ${bytesToHex(r.tag.subarray(0, 16)).padEnd(34)} ${String(r.ok).padEnd(7)} ` +
      `${(r.tamperedOk ? "ACCEPTED!" : "refused").padEnd(9)} ${(r.truncatedOk ? "ACCEPTED!" : "refused").padEnd(9)} ` +
      `${r.setup}    ${r.tagTime} ${r.verifyTime}`,
  );
}
console.log(
  "\n(times: mean of 2,000 calls after warm-up, on a 61-byte message; `npm run bench` compares with peers)\n",
);

// The policy at work: a short key and a short tag are refused with a clear, stable error code.
for (const attempt of [
  () => mac("hmac-sha256", utf8ToBytes("password")),
  () => mac("hmac-sha256", randomBytes(32), { tagLength: 8 }),
]) {
  try {
    attempt();
  } catch (error) {
    if (!(error instanceof KeyedError)) throw error;
    console.log(`refused: ${error.code} — ${error.message}`);
  }
}

const failures = rows.filter((r) => !r.ok || r.tamperedOk || r.truncatedOk);
if (failures.length > 0) {
  console.error(`tour FAILED for ${failures.map((r) => r.name).join(", ")}`);
  process.exit(1);
}
