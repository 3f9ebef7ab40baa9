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

  // A one-time key (Poly1305) authenticates one message: each check below stands for a receiver
  // holding its own copy of the key, and the sender's second use is refused.
  // SipHash's 64-bit tags are for hash tables; verifying them needs allowShortTags (the policy).
  const fresh = () =>
    mac(name, key, info.tagLength < info.minTagLength ? { allowShortTags: true } : undefined);
  const m = fresh();
  const tag = m.tag(message);
  const receiver = info.oneTime ? fresh : () => m;
  const ok = receiver().verify(message, tag);
  const tamperedOk = receiver().verify(tampered, tag);
  const truncatedOk = receiver().verify(message, tag.subarray(0, tag.length - 1));
  if (info.oneTime) {
    try {
      m.tag(message);
      throw new Error(`${name}: a one-time key was accepted twice`);
    } catch (error) {
      if (!(error instanceof KeyedError) || error.code !== "KEY_REUSED") throw error;
    }
  }

  const setup = time(fresh, 500);
  const out = new Uint8Array(m.tagLength);
  // For a one-time key each timed call includes making the key object.
  const tagTime = time(() => (info.oneTime ? fresh() : m).tag(message, out));
  const verifyTime = time(() => receiver().verify(message, tag));
  m.destroy();
  rows.push({ name, tag, ok, tamperedOk, truncatedOk, setup, tagTime, verifyTime });
}

console.log(`keyed tour — message: ${new TextDecoder().decode(message)}\n`);
console.log(
  "algorithm          tag (hex, first 16 bytes)          verify  tampered  truncated  key setup µs  tag µs  verify µs",
);
for (const r of rows) {
  console.log(
    `${r.name.padEnd(18)} ${bytesToHex(r.tag.subarray(0, 16)).padEnd(34)} ${String(r.ok).padEnd(7)} ` +
      `${(r.tamperedOk ? "ACCEPTED!" : "refused").padEnd(9)} ${(r.truncatedOk ? "ACCEPTED!" : "refused").padEnd(9)} ` +
      `${r.setup}    ${r.tagTime} ${r.verifyTime}`,
  );
}
console.log(
  "\n(times: mean of 2,000 calls after warm-up, on a 61-byte message; `npm run bench` compares with peers)",
);
console.log(
  "(gmac and the chacha20-poly1305 MACs put a fresh random nonce in front of each tag; poly1305",
);
console.log(" keys are one-time: a second tag with the same key object throws KEY_REUSED)\n");

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
