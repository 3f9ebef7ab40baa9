/**
 * `npm run ct`: dudect-style timing checks (Reparaz, Balasch, Verbauwhede, DATE 2017) of the
 * comparisons, verifications and WebAssembly kernels that handle keys and secret tags, and of the
 * webhook verifiers. See docs/constant-time.md.
 *
 * keyed's own kernels are what is measured: KEYED_BACKEND is set to "wasm" (unless it is already
 * set) before keyed loads, so that no call goes to node:crypto.
 *
 *   npm run ct                    about 3 min
 *   npm run ct -- --quick         about 1 min
 *   npm run ct -- --seconds 30    measuring time per target
 *   npm run ct -- --only verify   only the targets whose label contains "verify" (and the control)
 *   npm run ct -- --write-doc     also puts the table into docs/constant-time.md
 *
 * Exit code 1 when a target whose classes share an outcome shows |t| >= 10, or when the control
 * does not.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { parseArgs } from "node:util";
import type { Bytes, MacName } from "../src/index.js";
import {
  defineTarget,
  formatTable,
  type InputClass,
  type Result,
  randomInput,
  runTarget,
  T_LEAK,
  type Target,
} from "./ct/dudect.js";

// KEYED_BACKEND is read once, when keyed loads: set it first, then load keyed.
process.env.KEYED_BACKEND ??= "wasm";
const backend = process.env.KEYED_BACKEND;
const { AesKey, Ghash, gmac, poly1305 } = await import("../src/hazmat.js");
const { equal, mac, randomBytes } = await import("../src/index.js");
const webhooks = await import("../src/protocols/webhooks.js");
const { wasmHmac } = await import("../src/engine/wasm-hmac.js");
const { wasmBlake3 } = await import("../src/engine/wasm-blake3.js");
const { blake3TreeSync } = await import("../src/engine/blake3-parallel.js");
const { KEYED_HASH, keyWords } = await import("../src/hash/blake3.js");
const { wasmKeccak } = await import("../src/engine/wasm-keccak.js");
const { wasmSipHash } = await import("../src/engine/wasm-siphash.js");
if (
  backend === "wasm" &&
  [wasmHmac(), wasmBlake3(), wasmKeccak(), wasmSipHash()].some((k) => k === undefined)
) {
  throw new Error("a WebAssembly kernel did not load: its rows would time the TypeScript one.");
}

/**
 * A copy of `bytes`, with byte `index` changed to a different random value when `change` is set.
 * Both classes allocate and draw the same, so that heap layout cannot tell them apart.
 */
function variant(bytes: Bytes, index: number, change: boolean): Bytes {
  const delta = 1 + (randomInput(1)[0] % 255);
  const out = bytes.slice();
  if (change) out[index] ^= delta;
  return out;
}

/** Index of the last byte of a 32-byte tag. */
const LAST = 31;

interface Pair {
  a: Bytes;
  b: Bytes;
}

interface Verification {
  message: Bytes;
  tag: Bytes;
}

/** Fresh random tags for every measurement, so the classes differ only where they are meant to. */
function equalTarget(classes: [string, string], make: (cls: InputClass, a: Bytes) => Bytes) {
  return defineTarget<Pair>({
    name: "equal (32 B)",
    classes,
    revealsOutcome: classes[0] === "equal",
    batch: 32,
    input(cls) {
      const a = randomInput(32);
      return { a, b: make(cls, a) };
    },
    run({ a, b }) {
      return equal(a, b);
    },
  });
}

function verifyTarget(
  name: "hmac-sha256" | "cmac-aes128",
  classes: [string, string],
  make: (cls: InputClass, tag: Bytes) => Bytes,
) {
  const m = mac(name, randomBytes(name === "cmac-aes128" ? 16 : 32));
  return defineTarget<Verification>({
    name: `${name} verify (64 B message)`,
    classes,
    revealsOutcome: classes[0] === "correct tag",
    batch: 16,
    input(cls) {
      const message = randomInput(64);
      return { message, tag: make(cls, m.tag(message)) };
    },
    run({ message, tag }) {
      return m.verify(message, tag);
    },
  });
}

/**
 * Kernel targets in dudect's classic form: a fixed input against fresh random ones. Both classes
 * are prepared by the same steps (a copy of fixed bytes or of random bytes), so only the values
 * differ.
 */
function fixedVsRandom<I>(
  name: string,
  length: number,
  batch: number,
  prepare: (bytes: Bytes) => I,
  run: (input: I) => unknown,
) {
  const fixed = randomBytes(length);
  return defineTarget<I>({
    name,
    classes: ["fixed", "random"],
    batch,
    input(cls) {
      // The same allocations and draws for both classes: a random draw, then one copy.
      const random = randomInput(length);
      return prepare((cls === 0 ? fixed : random).slice());
    },
    run,
  });
}

const block = new Uint8Array(16);
const out16 = new Uint8Array(16);
const aesKey = new AesKey(randomBytes(16));
const ghashFixed = new Ghash(randomBytes(16));
const polyMessage = randomBytes(64);
// Long enough for the three-lane path (two Horner lanes in SIMD, one scalar; from 24 blocks).
const polyLong = randomBytes(1024);
const polyKey = randomBytes(32);
const message64 = randomBytes(64);
const gmacKey = randomBytes(16);
const gmacNonce = randomBytes(12);
const cmac128 = mac("cmac-aes128", randomBytes(16));

const kernelTargets: Target<unknown>[] = [
  // AES: timing must depend on neither the key (schedule and rounds) nor the data.
  fixedVsRandom(
    "AES-128 encrypt block: key",
    16,
    16,
    (key) => new AesKey(key),
    (key) => key.encryptBlock(block, 0, out16, 0),
  ),
  fixedVsRandom(
    "AES-128 encrypt block: plaintext",
    16,
    16,
    (p) => p,
    (p) => aesKey.encryptBlock(p, 0, out16, 0),
  ),
  // GHASH: neither H nor the data may matter.
  fixedVsRandom(
    "GHASH block: subkey H",
    16,
    16,
    (h) => new Ghash(h),
    (g) => g.updateBlock(block, 0),
  ),
  fixedVsRandom(
    "GHASH block: data",
    16,
    16,
    (d) => d,
    (d) => ghashFixed.updateBlock(d, 0),
  ),
  // GMAC and CMAC whole (the WebAssembly kernels below the node:crypto crossover): the key
  // expansion, H and the message must not matter.
  fixedVsRandom(
    "GMAC-AES-128 (64 B): key",
    16,
    8,
    (k) => k,
    (k) => gmac(k, gmacNonce, message64),
  ),
  fixedVsRandom(
    "GMAC-AES-128 (64 B): message",
    64,
    8,
    (m) => m,
    (m) => gmac(gmacKey, gmacNonce, m),
  ),
  fixedVsRandom(
    "CMAC-AES-128 (64 B): message",
    64,
    8,
    (m) => m,
    (m) => cmac128.tag(m, out16),
  ),
  // Poly1305: the key (r, s) and the message, short and on the three-lane path.
  ...poly1305Targets("64 B", polyMessage, 8),
  ...poly1305Targets("1 KiB, three lanes", polyLong, 2),
  // The safe one-time key (eight int32 fields, one call): a new Mac per message.
  fixedVsRandom(
    'Poly1305 mac("poly1305", key) (64 B): key',
    32,
    8,
    (k) => k,
    (k) => mac("poly1305", k).tag(polyMessage, out16),
  ),
  // The ChaCha20-Poly1305 MACs in one call (chacha_mac: the key block or HChaCha20, Poly1305 and
  // the lengths), under a fixed nonce: the key, then the message.
  ...chachaMacTargets("chacha20-poly1305", "ChaCha20-Poly1305 MAC", 12),
  ...chachaMacTargets("xchacha20-poly1305", "XChaCha20-Poly1305 MAC", 24),
];

/** A MAC's kernel, to time it under a nonce of the test's choosing. */
function kernelOf(m: unknown): { compute(message: Bytes, out: Bytes, nonce?: Bytes): void } {
  return (m as { kernel: { compute(message: Bytes, out: Bytes, nonce?: Bytes): void } }).kernel;
}

function chachaMacTargets(name: MacName, label: string, nonceLength: number): Target<unknown>[] {
  const nonce = randomBytes(nonceLength);
  const prepared = kernelOf(mac(name, randomBytes(32)));
  return [
    fixedVsRandom(
      `${label} (64 B, one call): key`,
      32,
      8,
      (k) => kernelOf(mac(name, k)),
      (kernel) => kernel.compute(message64, out16, nonce),
    ),
    fixedVsRandom(
      `${label} (64 B, one call): message`,
      64,
      8,
      (m) => m,
      (m) => prepared.compute(m, out16, nonce),
    ),
  ];
}

/**
 * HMAC's outer hash alone (hmac_outer), which finishes a tag past the node:crypto crossover over
 * the inner digest node:crypto computed: the key's outer state, then the inner digest.
 */
function hmacOuterTargets(name: MacName, label: string, digestLength: number): Target<unknown>[] {
  type Outer = { outer(innerDigest: Bytes, out: Bytes): void };
  const coreOf = (m: unknown): Outer => (m as { kernel: { core: Outer } }).kernel.core;
  const digest = randomBytes(digestLength);
  const out = new Uint8Array(64);
  const prepared = mac(name, randomBytes(32));
  prepared.tag(message64);
  const core = coreOf(prepared);
  return [
    fixedVsRandom(
      `${label} outer hash (hmac_outer): key`,
      32,
      4,
      (k) => {
        const m = mac(name, k);
        m.tag(message64);
        return coreOf(m);
      },
      (c) => c.outer(digest, out),
    ),
    fixedVsRandom(
      `${label} outer hash (hmac_outer): inner digest`,
      digestLength,
      8,
      (d) => d,
      (d) => core.outer(d, out),
    ),
  ];
}

/**
 * The WebAssembly kernels that hold a key besides AES, GHASH and Poly1305 (above): for each, the
 * key (a fresh Mac per call: key setup, one 64-byte tag, destroy) and the message (a prepared key
 * whose slot is already loaded), fixed against random.
 */
function keyedKernelTargets(name: MacName, label: string, keyLength: number): Target<unknown>[] {
  const message = randomBytes(64);
  const prepared = mac(name, randomBytes(keyLength));
  const out = new Uint8Array(prepared.tagLength);
  // Past the first message every kernel tags through its key's own slot.
  prepared.tag(message, out);
  prepared.tag(message, out);
  return [
    fixedVsRandom(
      `${label} (64 B): key`,
      keyLength,
      4,
      (k) => k,
      (k) => {
        const m = mac(name, k);
        m.tag(message, out);
        m.destroy();
      },
    ),
    fixedVsRandom(
      `${label} (64 B): message`,
      64,
      8,
      (m) => m,
      (m) => prepared.tag(m, out),
    ),
  ];
}

/**
 * The BLAKE3 kernel's subtree exports (startAt, absorbFrom, subtree, pushSubtree: what the threads
 * of blake3Parallel run), timed on the calling thread alone (blake3TreeSync): 4 KiB + 100 B split
 * into one-chunk subtrees, merged, then the last chunk and a 32-byte output; the key, then the
 * message, fixed against random.
 */
function treeTargets(): Target<unknown>[] {
  const message = randomBytes(4196);
  const key = keyWords(randomBytes(32));
  const out = new Uint8Array(32);
  return [
    fixedVsRandom(
      "BLAKE3 keyed subtrees (4 KiB): key",
      32,
      4,
      (k) => keyWords(k),
      (words) => blake3TreeSync(words, KEYED_HASH, message, out, 32, 0),
    ),
    fixedVsRandom(
      "BLAKE3 keyed subtrees (4 KiB): message",
      4196,
      4,
      (m) => m,
      (m) => blake3TreeSync(key, KEYED_HASH, m, out, 32, 0),
    ),
  ];
}

/** Poly1305 (hazmat) at `message`'s length: the key (r, s), then the message, fixed against random. */
function poly1305Targets(label: string, message: Uint8Array, batch: number): Target<unknown>[] {
  return [
    fixedVsRandom(
      `Poly1305 (${label}): key`,
      32,
      batch,
      (k) => k,
      (k) => poly1305(k, message),
    ),
    fixedVsRandom(
      `Poly1305 (${label}): message`,
      message.length,
      batch,
      (m) => m,
      (m) => poly1305(polyKey, m),
    ),
  ];
}

/**
 * The batch path (tagMany: the messages queued in the module's memory; four per SIMD call for
 * SHA-1 and SHA-256, every SHA-384/512 message through the one-message kernel over the queue): the
 * key (a fresh Mac per call, one batch) and one message of `count` (the others fixed), fixed
 * against random.
 */
function batchKernelTargets(
  name: MacName,
  label: string,
  count: number,
  size = 64,
): Target<unknown>[] {
  const others = Array.from({ length: count - 1 }, () => randomBytes(size));
  const last = randomBytes(size);
  const prepared = mac(name, randomBytes(32));
  const out = new Uint8Array(count * prepared.tagLength);
  prepared.tagMany([...others, randomBytes(size)], out);
  return [
    fixedVsRandom(
      `${label} (tagMany, ${count} × ${size} B): key`,
      32,
      2,
      (k) => k,
      (k) => {
        const m = mac(name, k);
        m.tagMany([...others, last], out);
        m.destroy();
      },
    ),
    fixedVsRandom(
      `${label} (tagMany, ${count} × ${size} B): message`,
      size,
      4,
      (m) => [...others, m],
      (batch) => prepared.tagMany(batch, out),
    ),
  ];
}

const wasmKernelTargets: Target<unknown>[] = [
  ...batchKernelTargets("hmac-sha256", "HMAC-SHA256 ×4 lanes", 4),
  ...batchKernelTargets("hmac-sha1", "HMAC-SHA1 ×4 lanes", 4),
  ...batchKernelTargets("hmac-sha512", "HMAC-SHA512 queue, one-message kernel", 3, 128),
  // HMAC's three one-message compression kernels (unrolled; SHA-1's schedule in locals, SHA-256's
  // and SHA-512's in SIMD): SHA-256, SHA-1, SHA-512.
  ...keyedKernelTargets("hmac-sha256", "HMAC-SHA256", 32),
  ...keyedKernelTargets("hmac-sha1", "HMAC-SHA1", 32),
  ...keyedKernelTargets("hmac-sha512", "HMAC-SHA512", 32),
  ...hmacOuterTargets("hmac-sha256", "HMAC-SHA256", 32),
  ...hmacOuterTargets("hmac-sha1", "HMAC-SHA1", 20),
  ...hmacOuterTargets("hmac-sha512", "HMAC-SHA512", 64),
  ...keyedKernelTargets("kmac128", "KMAC128", 32),
  ...keyedKernelTargets("blake3", "BLAKE3 keyed", 32),
  ...treeTargets(),
  ...keyedKernelTargets("siphash-2-4-128", "SipHash-2-4-128", 16),
];

/**
 * A webhook verifier given a signature wrong in its first or its last byte (of the decoded
 * HMAC-SHA256), encoded as the scheme sends it (untimed). Both classes are refused as
 * signature_mismatch; a difference would show where parsing, decoding or comparing stops early.
 */
function webhookTarget<I>(
  name: string,
  scheme: {
    /** The right signature's 32 bytes for `body`, signed at `timestamp`. */
    sign(secret: Bytes, body: Bytes, timestamp: number): Bytes;
    /** The verifier's arguments besides secret and body, carrying `signature`. */
    encode(signature: Bytes, timestamp: number): I;
    verify(secret: Bytes, body: Bytes, encoded: I, timestamp: number): boolean;
  },
) {
  const secret = randomBytes(32);
  const body = randomBytes(256);
  const timestamp = Math.floor(Date.now() / 1000);
  const right = scheme.sign(secret, body, timestamp);
  if (!scheme.verify(secret, body, scheme.encode(right, timestamp), timestamp)) {
    throw new Error(`${name}: the right signature is refused, so the target would time nothing`);
  }
  return defineTarget<I>({
    name: `${name} (256 B body)`,
    classes: ["first byte wrong", "last byte wrong"],
    batch: 4,
    input(cls) {
      return scheme.encode(variant(right, cls === 0 ? 0 : LAST, true), timestamp);
    },
    run(encoded) {
      return scheme.verify(secret, body, encoded, timestamp);
    },
  });
}

const hex = (b: Bytes) => Buffer.from(b).toString("hex");
/** The 64 hex digits at the end of a header value, as bytes. */
const lastHex = (s: string): Bytes => Buffer.from(s.slice(-64), "hex");

const webhookTargets: Target<unknown>[] = [
  webhookTarget("verifyGitHub", {
    sign: (secret, body) => lastHex(webhooks.signGitHub(secret, body)),
    encode: (sig) => `sha256=${hex(sig)}`,
    verify: (secret, body, header) => webhooks.verifyGitHub(secret, body, header).ok,
  }),
  // The batch path: four deliveries through the SIMD lanes at once, each with the wrong byte.
  webhookTarget("verifyGitHubMany ×4", {
    sign: (secret, body) => lastHex(webhooks.signGitHub(secret, body)),
    encode: (sig) => `sha256=${hex(sig)}`,
    verify: (secret, body, header) => {
      const delivery = { body, header };
      const answers = webhooks.verifyGitHubMany(secret, [delivery, delivery, delivery, delivery]);
      return answers.every((a) => a.ok);
    },
  }),
  webhookTarget("verifyStripe", {
    sign: (secret, body, timestamp) => lastHex(webhooks.signStripe(secret, body, { timestamp })),
    encode: (sig, t) => `t=${t},v1=${hex(sig)}`,
    verify: (secret, body, header, now) => webhooks.verifyStripe(secret, body, header, { now }).ok,
  }),
  webhookTarget("verifySlack", {
    sign: (secret, body, timestamp) =>
      lastHex(webhooks.signSlack(secret, body, { timestamp }).signature),
    encode: (sig, t) => ({ signature: `v0=${hex(sig)}`, timestamp: String(t) }),
    verify: (secret, body, headers, now) => webhooks.verifySlack(secret, body, headers, { now }).ok,
  }),
  webhookTarget("verifyStandardWebhook", {
    sign: (secret, body, timestamp) => {
      const headers = webhooks.signStandardWebhook(secret, { id: "msg_1", timestamp, body });
      return Buffer.from(headers["webhook-signature"].slice(3), "base64");
    },
    encode: (sig, t) => ({
      "webhook-id": "msg_1",
      "webhook-timestamp": String(t),
      "webhook-signature": `v1,${Buffer.from(sig).toString("base64")}`,
    }),
    verify: (secret, body, headers, now) =>
      webhooks.verifyStandardWebhook(secret, body, headers, { now }).ok,
  }),
];

/** Returns at the first difference: the textbook leak that `equal` exists to avoid. */
function naiveEqual(a: Bytes, b: Bytes): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function controlTarget(): Target<unknown> {
  // Fixed inputs are enough here, and avoid allocating 8 KiB per measurement.
  const a = randomBytes(4096);
  const b = [variant(a, 0, true), variant(a, a.length - 1, true)];
  return defineTarget<Bytes>({
    name: "naive early-exit compare (4096 B)",
    classes: ["first byte differs", "last byte differs"],
    control: true,
    batch: 4,
    input(cls) {
      return b[cls];
    },
    run(candidate) {
      return naiveEqual(a, candidate);
    },
  });
}

const targets: Target<unknown>[] = [
  equalTarget(["equal", "first byte differs"], (cls, a) => variant(a, 0, cls === 1)),
  equalTarget(["first byte differs", "last byte differs"], (cls, a) =>
    variant(a, cls === 0 ? 0 : LAST, true),
  ),
  verifyTarget("hmac-sha256", ["correct tag", "first byte wrong"], (cls, tag) =>
    variant(tag, 0, cls === 1),
  ),
  verifyTarget("hmac-sha256", ["first byte wrong", "last byte wrong"], (cls, tag) =>
    variant(tag, cls === 0 ? 0 : LAST, true),
  ),
  verifyTarget("cmac-aes128", ["correct tag", "first byte wrong"], (cls, tag) =>
    variant(tag, 0, cls === 1),
  ),
  verifyTarget("cmac-aes128", ["first byte wrong", "last byte wrong"], (cls, tag) =>
    variant(tag, cls === 0 ? 0 : 15, true),
  ),
  ...kernelTargets,
  ...wasmKernelTargets,
  ...webhookTargets,
  controlTarget(),
];

const { values } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    seconds: { type: "string" },
    only: { type: "string" },
    "write-doc": { type: "boolean", default: false },
  },
});
const label = (t: Target<unknown>) => `${t.name}: ${t.classes[0]} vs ${t.classes[1]}`;
const only = values.only;
if (only !== undefined && values["write-doc"]) throw new Error("--only and --write-doc conflict");
// The control always runs: without it a quiet result means nothing.
const selected = targets.filter((t) => t.control || only === undefined || label(t).includes(only));
const seconds = values.seconds === undefined ? (values.quick ? 2 : 6) : Number(values.seconds);
if (!(seconds > 0)) throw new Error(`--seconds must be a positive number, not ${values.seconds}`);

const started = performance.now();
const results: Result[] = [];
for (const target of selected) {
  process.stderr.write(`${label(target)} ... `);
  // The control leaks by orders of magnitude; a fraction of the time shows it, given enough
  // measurements to fill the crops (under 2 s, a busy machine left it at one chunk, |t| = 9).
  const controlSeconds = Math.max(seconds / 4, 2);
  const result = runTarget(target, { seconds: target.control ? controlSeconds : seconds });
  process.stderr.write(`|t| = ${result.maxT.toFixed(2)}\n`);
  results.push(result);
}
const elapsed = (performance.now() - started) / 1000;

const cpu = cpus();
const environment =
  `Node ${process.version}, ${process.platform}/${process.arch}, ${cpu.length} × ${cpu[0]?.model ?? "unknown CPU"}; ` +
  `KEYED_BACKEND=${backend}; ${values.quick ? "--quick, " : ""}${seconds} s per target, ${elapsed.toFixed(0)} s in all; ` +
  new Date().toISOString().slice(0, 10);
const table = formatTable(results);
console.log(`\n${table}\n\n${environment}`);

// Targets whose classes differ in outcome are reported but do not fail the run (see Target).
const failures = results.filter((r) =>
  r.control ? r.maxT < T_LEAK : !r.revealsOutcome && r.maxT >= T_LEAK,
);
for (const r of failures) {
  console.log(
    r.control
      ? `FAIL: the control "${r.name}" shows no leak; the measurements cannot be trusted.`
      : `FAIL: "${r.name}" (${r.classes[0]} vs ${r.classes[1]}) leaks, |t| = ${r.maxT.toFixed(2)}.`,
  );
}
if (failures.length > 0) process.exitCode = 1;

if (values["write-doc"]) {
  // The doc keeps its prose; only the block between these markers is replaced.
  const path = new URL("../docs/constant-time.md", import.meta.url);
  const begin = "<!-- ct:results:begin -->";
  const end = "<!-- ct:results:end -->";
  const doc = readFileSync(path, "utf8");
  const from = doc.indexOf(begin);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) throw new Error(`docs/constant-time.md lacks the ${begin} markers`);
  const block = `${begin}\n${table}\n\n${environment}\n${end}`;
  writeFileSync(path, doc.slice(0, from) + block + doc.slice(to + end.length));
  console.log("docs/constant-time.md updated.");
}
