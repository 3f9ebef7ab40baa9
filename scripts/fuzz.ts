/**
 * `npm run fuzz`: long differential fuzzing of every MAC in macNames() on every backend against
 * independent oracles (node:crypto, @noble/hashes, @noble/ciphers, libsodium, the `siphash`
 * package, and a sample through the `openssl mac` command when it is installed). See
 * docs/assurance.md, "Fuzzing".
 *
 *   npm run fuzz -- --minutes 10 --seed 1        about 10 minutes in all, split over the backends
 *   npm run fuzz -- --cases 333334 --seed 1 --jobs 2   333,334 cases per algorithm per backend
 *   npm run fuzz -- --algorithms blake3,kmac128 --backends wasm --minutes 1
 *   npm run fuzz -- --seed 1 --backends js --algorithms gmac-aes128 --case 4711   one case, verbose
 *
 * KEYED_BACKEND is read once, when keyed loads, so the work runs in child processes, each on one
 * backend, --jobs of them at a time (default: the machine's cores). With --cases the work is cut
 * into units (backend, algorithm, range of case indexes) that the children pull from the parent
 * over IPC, so the cores stay busy to the end. Every choice comes from a PRNG seeded by
 * (seed, algorithm, case index) and the size profile (--sizes): a case is reproduced from those
 * alone, on any backend, whichever child ran it.
 * Only the nonces that tag() draws are random by design; the oracle takes them from the front of
 * the tag. Exit code 1 on any mismatch, or when a child fails.
 */
import { execFileSync, spawn } from "node:child_process";
import { createCipheriv, createHmac } from "node:crypto";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { poly1305 as noblePoly1305 } from "@noble/ciphers/_poly1305.js";
import { blake3 as nobleBlake3 } from "@noble/hashes/blake3.js";
import { kmac128 as nobleKmac128, kmac256 as nobleKmac256 } from "@noble/hashes/sha3-addons.js";
import sodium from "libsodium-wrappers-sumo";
import type { MacAlgorithm, MacName, MacOptions } from "../src/core/mac.js";
import { FORCED_BACKEND } from "../src/engine/native.js";
import { gmac } from "../src/hazmat.js";
import { type Mac, mac, macNames } from "../src/index.js";
import { macAlgorithm } from "../src/mac/registry.js";
import { cmacOracle } from "../test/helpers.js";

type Bytes = Uint8Array;
const BACKENDS = ["js", "wasm", "native"] as const;
type BackendName = (typeof BACKENDS)[number];

// --- a seeded PRNG -------------------------------------------------------------------------------

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** xoshiro128** (Blackman, Vigna), seeded through splitmix32 from an FNV-1a hash of a label. */
class Prng {
  private s: Uint32Array;

  constructor(label: string) {
    let h = 0x811c9dc5;
    for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193);
    this.s = new Uint32Array(4);
    for (let i = 0; i < 4; i++) {
      h = (h + 0x9e3779b9) | 0;
      let z = h;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      this.s[i] = z ^ (z >>> 16);
    }
  }

  next(): number {
    const s = this.s;
    const x = Math.imul(s[1], 5);
    const result = Math.imul((x << 7) | (x >>> 25), 9) >>> 0;
    const t = s[1] << 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 11) | (s[3] >>> 21);
    return result;
  }

  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor((this.next() / 2 ** 32) * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() / 2 ** 32 < p;
  }

  /** n bytes: each output word little-endian, then the last word's low bytes. */
  bytes(n: number): Bytes {
    const out = new Uint8Array(n);
    const words = n >>> 2;
    if (LITTLE_ENDIAN) {
      // next(), inlined over locals: messages are most of the bytes drawn.
      const w = new Uint32Array(out.buffer, 0, words);
      const s = this.s;
      let [s0, s1, s2, s3] = s;
      for (let i = 0; i < words; i++) {
        const x = Math.imul(s1, 5);
        w[i] = Math.imul((x << 7) | (x >>> 25), 9);
        const t = s1 << 9;
        s2 ^= s0;
        s3 ^= s1;
        s1 ^= s2;
        s0 ^= s3;
        s2 ^= t;
        s3 = (s3 << 11) | (s3 >>> 21);
      }
      s[0] = s0;
      s[1] = s1;
      s[2] = s2;
      s[3] = s3;
    } else {
      for (let i = 0; i < words; i++) {
        const r = this.next();
        out[4 * i] = r;
        out[4 * i + 1] = r >>> 8;
        out[4 * i + 2] = r >>> 16;
        out[4 * i + 3] = r >>> 24;
      }
    }
    if ((n & 3) !== 0) {
      const r = this.next();
      for (let j = 0; j < (n & 3); j++) out[4 * words + j] = r >>> (8 * j);
    }
    return out;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)];
  }
}

// --- one case's inputs ---------------------------------------------------------------------------

interface Case {
  key: Bytes;
  message: Bytes;
  options: MacOptions;
  /** Bytes of tag after the nonce. */
  authLength: number;
  /** The message's stream splits for digest() and for stream verify(). */
  splitsA: number[];
  splitsB: number[];
  /** Pass an `out` buffer to tag(). */
  withOut: boolean;
  /** Bit of the tag flipped for the wrong-tag check. */
  flipBit: number;
  /** GMAC only: an explicit nonce of any length for hazmat gmac(). */
  explicitNonce: Bytes;
}

/**
 * Message length profiles: the share of cases in each size class. Every profile has all four:
 * small messages, 300 B to 4.2 KiB (the crossovers of src/engine/select.ts from 512 B to 4 KiB),
 * 4 KiB to 17 KiB (past the highest, 16 KiB) and up to 64 KiB. `light` (the default) spends the
 * time on many cases, as a million-case run needs; `wide` (the first runs' profile) on big messages.
 */
const SIZE_PROFILES = {
  light: [0.9, 0.98, 0.995],
  wide: [0.6, 0.85, 0.97],
} as const;
type SizeProfile = keyof typeof SIZE_PROFILES;

function messageLength(rng: Prng, profile: SizeProfile): number {
  const [small, medium, large] = SIZE_PROFILES[profile];
  const r = rng.next() / 2 ** 32;
  if (r < small) return rng.int(0, 300);
  if (r < medium) return rng.int(300, 4200);
  if (r < large) return rng.int(4096, 17000);
  return rng.int(17000, 65536);
}

/** Chunk lengths for a stream: small and odd ones, empty ones, and big runs. */
function splits(rng: Prng, length: number): number[] {
  const out: number[] = [];
  let left = length;
  while (left > 0 && out.length < 64) {
    const n = rng.chance(0.5) ? rng.int(0, Math.min(left, 70)) : rng.int(0, left);
    out.push(n);
    left -= n;
  }
  if (left > 0) out.push(left);
  return out;
}

/** The message as a view at a random offset: unaligned input reaches the kernels' copy code. */
function placed(rng: Prng, message: Bytes): Bytes {
  const offset = rng.int(0, 7);
  const backing = new Uint8Array(message.length + offset + rng.int(0, 7));
  backing.set(message, offset);
  return backing.subarray(offset, offset + message.length);
}

function makeCase(a: MacAlgorithm, rng: Prng, sizes: SizeProfile): Case {
  const options: MacOptions = {};
  let keyLength: number;
  if (a.key.kind === "fixed") keyLength = a.key.length;
  else {
    const minimum = a.key.minimum ?? 16;
    if (rng.chance(0.1)) {
      options.allowShortKeys = true;
      keyLength = rng.int(0, minimum - 1);
    } else {
      // Across every hash's block size (64, 128, 136, 144, 168) and beyond.
      keyLength = rng.chance(0.6) ? rng.int(minimum, 64) : rng.int(minimum, 300);
    }
  }
  const rule = a.tag;
  let authLength = rule.full;
  if (rule.allowed !== undefined) authLength = rng.pick(rule.allowed);
  else if (rng.chance(0.4)) {
    const cap = rule.variableOutput && rng.chance(0.05) ? Math.min(rule.maximum, 2048) : 128;
    authLength = rng.int(4, Math.min(rule.maximum, cap));
  }
  if (authLength !== rule.full || rng.chance(0.2)) options.tagLength = authLength;
  if (authLength < rule.safeMinimum) options.allowShortTags = true;
  if (a.extraOptions?.includes("customization") && rng.chance(0.5)) {
    options.customization = rng.chance(0.5)
      ? rng.bytes(rng.int(0, 40))
      : "keyed fuzz ✓".slice(0, rng.int(0, 12));
  }
  const message = placed(rng, rng.bytes(messageLength(rng, sizes)));
  const nonceLength = a.nonceLength ?? 0;
  return {
    key: rng.bytes(keyLength),
    message,
    options,
    authLength,
    splitsA: splits(rng, message.length),
    splitsB: splits(rng, message.length),
    withOut: rng.chance(0.5),
    flipBit: rng.int(0, 8 * (nonceLength + authLength) - 1),
    explicitNonce: rng.bytes(rng.chance(0.5) ? 12 : rng.int(1, 64)),
  };
}

// --- oracles -------------------------------------------------------------------------------------

interface OracleInput {
  key: Bytes;
  message: Bytes;
  /** The nonce read from the front of keyed's tag (nonce MACs only). */
  nonce: Bytes;
  authLength: number;
  customization: Bytes;
}

type Oracle = (input: OracleInput) => Bytes;

const require = createRequire(import.meta.url);
type SipModule = { hash(key: number[], m: Uint8Array): { h: number; l: number } | Uint32Array };
const SIP_FILES: Record<string, string> = {
  "siphash-2-4": "siphash",
  "siphash-1-3": "siphash13",
  "siphash-2-4-128": "siphash-double",
  "siphash-1-3-128": "siphash13-double",
};

/** The `siphash` package's tag as bytes: its 64-bit value(s) little-endian (as test/engine/wasm-siphash). */
function sipPackageTag(sip: SipModule, key: Bytes, message: Bytes): Bytes {
  const view = new DataView(key.buffer, key.byteOffset, key.byteLength);
  const words = [0, 4, 8, 12].map((o) => view.getUint32(o, true));
  const r = sip.hash(words, message);
  // 64-bit: { h, l }; 128-bit: [second.h, second.l, first.h, first.l].
  const halves = r instanceof Uint32Array ? [r[3], r[2], r[1], r[0]] : [r.l, r.h];
  const b = Buffer.alloc(4 * halves.length);
  for (let i = 0; i < halves.length; i++) b.writeUInt32LE(halves[i] >>> 0, 4 * i);
  return b;
}

const HMAC_HASHES: Record<string, string> = {
  "hmac-sha1": "sha1",
  "hmac-sha224": "sha224",
  "hmac-sha256": "sha256",
  "hmac-sha384": "sha384",
  "hmac-sha512": "sha512",
  "hmac-sha512-224": "sha512-224",
  "hmac-sha512-256": "sha512-256",
  "hmac-sha3-224": "sha3-224",
  "hmac-sha3-256": "sha3-256",
  "hmac-sha3-384": "sha3-384",
  "hmac-sha3-512": "sha3-512",
};

/** GCM with an empty plaintext and the message as AAD: GMAC (SP 800-38D section 3). */
function gcmTag(key: Bytes, nonce: Bytes, message: Bytes): Bytes {
  const c = createCipheriv(`aes-${key.length * 8}-gcm` as "aes-128-gcm", key, nonce);
  c.setAAD(message);
  c.final();
  return c.getAuthTag();
}

/** The full-length output of an independent implementation; callers compare its prefix. */
function oracleFor(name: MacName): Oracle | undefined {
  const hash = HMAC_HASHES[name];
  if (hash !== undefined)
    return ({ key, message }) => createHmac(hash, key).update(message).digest();
  if (name.startsWith("cmac-")) return ({ key, message }) => cmacOracle(key, message);
  if (name.startsWith("gmac-")) return ({ key, message, nonce }) => gcmTag(key, nonce, message);
  if (SIP_FILES[name] !== undefined) {
    const sip = require(`siphash/lib/${SIP_FILES[name]}.js`) as SipModule;
    return ({ key, message }) => sipPackageTag(sip, key, message);
  }
  switch (name) {
    case "poly1305":
      return ({ key, message }) => noblePoly1305(message, key);
    case "chacha20-poly1305":
      // RFC 8439 2.8 with an empty plaintext: the message is the AAD.
      return ({ key, message, nonce }) => {
        const c = createCipheriv("chacha20-poly1305", key, nonce, { authTagLength: 16 });
        c.setAAD(message, { plaintextLength: 0 });
        c.final();
        return c.getAuthTag();
      };
    case "xchacha20-poly1305":
      return ({ key, message, nonce }) =>
        sodium.crypto_aead_xchacha20poly1305_ietf_encrypt(
          new Uint8Array(0),
          message,
          null,
          nonce,
          key,
        );
    case "kmac128":
    case "kmac256": {
      const kmac = name === "kmac128" ? nobleKmac128 : nobleKmac256;
      return ({ key, message, authLength, customization }) =>
        kmac(key, message, { dkLen: authLength, personalization: customization });
    }
    case "blake3":
      return ({ key, message, authLength }) => nobleBlake3(message, { key, dkLen: authLength });
  }
  return undefined;
}

// --- the openssl command, for a sample -----------------------------------------------------------

const hexOf = (b: Bytes) => Buffer.from(b).toString("hex");

/** `openssl mac` arguments for this case, or undefined where it has no such MAC or limit. */
function opensslArgs(name: MacName, input: OracleInput): string[] | undefined {
  const { key, nonce, authLength, customization } = input;
  const k = `hexkey:${hexOf(key)}`;
  const hash = HMAC_HASHES[name];
  if (hash !== undefined) {
    return key.length === 0 ? undefined : ["-digest", hash.toUpperCase(), "-macopt", k, "HMAC"];
  }
  if (name.startsWith("cmac-")) {
    return ["-cipher", `AES-${key.length * 8}-CBC`, "-macopt", k, "CMAC"];
  }
  if (name.startsWith("gmac-")) {
    const iv = `hexiv:${hexOf(nonce)}`;
    return ["-cipher", `AES-${key.length * 8}-GCM`, "-macopt", k, "-macopt", iv, "GMAC"];
  }
  if (name === "poly1305") return ["-macopt", k, "POLY1305"];
  if (name.startsWith("siphash-")) {
    const [c, d] = [name[8], name[10]];
    const size = name.endsWith("-128") ? 16 : 8;
    const rounds = ["-macopt", `c-rounds:${c}`, "-macopt", `d-rounds:${d}`];
    return ["-macopt", k, "-macopt", `size:${size}`, ...rounds, "SIPHASH"];
  }
  if (name === "kmac128" || name === "kmac256") {
    // OpenSSL's KMAC takes keys of 4 to 512 bytes and customizations up to 512.
    if (key.length < 4 || key.length > 512 || customization.length > 512) return undefined;
    const custom = customization.length > 0 ? ["-macopt", `hexcustom:${hexOf(customization)}`] : [];
    return ["-macopt", k, "-macopt", `size:${authLength}`, ...custom, name.toUpperCase()];
  }
  return undefined;
}

const opensslPresent = (() => {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

function opensslTag(args: string[], message: Bytes): Bytes {
  const hex = execFileSync("openssl", ["mac", ...args], { input: message })
    .toString()
    .trim();
  return Buffer.from(hex, "hex");
}

// --- one case ------------------------------------------------------------------------------------

interface Mismatch {
  check: string;
  detail: string;
}

function streamed(m: Mac, message: Bytes, chunks: number[]) {
  const s = m.stream();
  let at = 0;
  for (const n of chunks) {
    s.update(message.subarray(at, at + n));
    at += n;
  }
  return s;
}

function sameBytes(a: Bytes, b: Bytes): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const utf8 = new TextEncoder();

/** Runs every check of one case; returns what disagreed (empty when all agreed). */
function runCase(
  name: MacName,
  a: MacAlgorithm,
  oracle: Oracle,
  c: Case,
  openssl: boolean,
): Mismatch[] {
  const problems: Mismatch[] = [];
  const nonceLength = a.nonceLength ?? 0;
  const customization =
    typeof c.options.customization === "string"
      ? utf8.encode(c.options.customization)
      : (c.options.customization ?? new Uint8Array(0));
  // A one-time key (Poly1305) serves one use: a fresh Mac for every use.
  let shared: Mac | undefined;
  const fresh = () =>
    a.oneTime ? mac(name, c.key, c.options) : (shared ??= mac(name, c.key, c.options));
  const check = (label: string, fn: () => string | undefined) => {
    try {
      const detail = fn();
      if (detail !== undefined) problems.push({ check: label, detail });
    } catch (error) {
      problems.push({ check: label, detail: `threw ${String(error)}` });
    }
  };
  // Without a nonce the oracle's answer depends on the case alone: computed once, compared twice.
  let sameForAll: Bytes | undefined;
  /** Checks nonce ‖ tag against the oracle, with the nonce it carries. */
  const againstOracle = (tag: Bytes): string | undefined => {
    if (tag.length !== nonceLength + c.authLength) return `length ${tag.length}`;
    const nonce = tag.subarray(0, nonceLength);
    const input = {
      key: c.key,
      message: c.message,
      nonce,
      authLength: c.authLength,
      customization,
    };
    const want =
      nonceLength === 0
        ? (sameForAll ??= oracle(input).subarray(0, c.authLength))
        : oracle(input).subarray(0, c.authLength);
    const got = tag.subarray(nonceLength);
    return sameBytes(got, want) ? undefined : `keyed ${hexOf(got)}, oracle ${hexOf(want)}`;
  };

  let oneShot: Bytes | undefined;
  check("tag() = oracle", () => {
    const m = fresh();
    oneShot = c.withOut ? m.tag(c.message, new Uint8Array(m.tagLength)) : m.tag(c.message);
    return againstOracle(oneShot);
  });
  check("stream digest() = oracle", () => {
    const digest = streamed(fresh(), c.message, c.splitsA).digest();
    if (nonceLength === 0 && oneShot !== undefined && !sameBytes(digest, oneShot)) {
      return `stream ${hexOf(digest)}, one-shot ${hexOf(oneShot)}`;
    }
    return againstOracle(digest);
  });
  if (oneShot === undefined) return problems;
  const tag = oneShot;
  check("verify(right tag)", () => (fresh().verify(c.message, tag) ? undefined : "false"));
  check("stream verify(right tag)", () =>
    streamed(fresh(), c.message, c.splitsB).verify(tag) ? undefined : "false",
  );
  check("verify(one bit flipped)", () => {
    const wrong = tag.slice();
    wrong[c.flipBit >>> 3] ^= 1 << (c.flipBit & 7);
    return fresh().verify(c.message, wrong) ? `true for bit ${c.flipBit}` : undefined;
  });
  check("verify(truncated, extended)", () => {
    const extended = new Uint8Array(tag.length + 1);
    extended.set(tag);
    if (fresh().verify(c.message, tag.subarray(0, tag.length - 1))) return "true when truncated";
    if (fresh().verify(c.message, extended)) return "true when extended";
    return undefined;
  });
  if (!a.oneTime) {
    // A batch of the message and its first half, in turns (two block counts at most), so the
    // multi-buffer kernels' lanes and their grouping meet the oracle too.
    check("tagMany / verifyMany = oracle, per message", () => {
      const count = 2 + (c.flipBit % 6);
      const half = c.message.subarray(0, c.message.length >>> 1);
      const batch = Array.from({ length: count }, (_, i) => (i % 2 === 1 ? half : c.message));
      const m = fresh();
      const tags = m.tagMany(batch);
      const tagLength = m.tagLength;
      const split = batch.map((_, i) => tags.slice(i * tagLength, (i + 1) * tagLength));
      for (let i = 0; i < count; i++) {
        const want = oracle({
          key: c.key,
          message: batch[i],
          nonce: split[i].subarray(0, nonceLength),
          authLength: c.authLength,
          customization,
        }).subarray(0, c.authLength);
        const got = split[i].subarray(nonceLength);
        if (!sameBytes(got, want))
          return `message ${i}: keyed ${hexOf(got)}, oracle ${hexOf(want)}`;
      }
      const wrong = split.map((t) => t.slice());
      const bad = c.flipBit % count;
      wrong[bad][c.flipBit >>> 3] ^= 1 << (c.flipBit & 7);
      const results = m.verifyMany(batch, wrong);
      for (let i = 0; i < count; i++)
        if (results[i] !== (i !== bad)) return `verifyMany ${i}: ${results[i]}`;
      return undefined;
    });
  }
  if (name.startsWith("gmac-")) {
    check("hazmat gmac(explicit nonce) = oracle", () => {
      const got = gmac(c.key, c.explicitNonce, c.message);
      const want = gcmTag(c.key, c.explicitNonce, c.message);
      return sameBytes(got, want) ? undefined : `keyed ${hexOf(got)}, oracle ${hexOf(want)}`;
    });
  }
  if (openssl) {
    const nonce = tag.subarray(0, nonceLength);
    const input = {
      key: c.key,
      message: c.message,
      nonce,
      authLength: c.authLength,
      customization,
    };
    const args = opensslArgs(name, input);
    if (args !== undefined) {
      check("openssl mac = keyed", () => {
        const want = opensslTag(args, c.message).subarray(0, c.authLength);
        const got = tag.subarray(nonceLength);
        return sameBytes(got, want) ? undefined : `keyed ${hexOf(got)}, openssl ${hexOf(want)}`;
      });
    }
  }
  return problems;
}

// --- the child: one backend, the units the parent hands it ---------------------------------------

interface AlgorithmReport {
  algorithm: string;
  cases: number;
  opensslCases: number;
  seconds: number;
  /**
   * CPU time of the child process (all its threads) over those cases: the unit's CPU time shared
   * by the algorithms in proportion to their wall time (process.cpuUsage per case costs ~10 %).
   */
  cpuSeconds: number;
  /** Every mismatch counted; the first few of them kept. */
  mismatchCount: number;
  mismatches: { index: number; check: string; detail: string }[];
}

/** Mismatches kept per algorithm and backend (all are counted). */
const KEPT_MISMATCHES = 10;

/** A piece of work: cases [start, end) of some algorithms, taking turns, on one backend. */
interface Unit {
  backend: BackendName;
  algorithms: MacName[];
  start: number;
  end: number;
  /** Time limit of this unit. */
  seconds: number;
  /** Print each case's inputs and outcome (--case). */
  verbose: boolean;
}

type ToChild = { type: "unit"; unit: Unit } | { type: "stop" };
type FromChild =
  | { type: "ready"; backend: string }
  | { type: "result"; backend: string; reports: AlgorithmReport[] };

interface Settings {
  seed: string;
  sizes: SizeProfile;
  opensslEvery: number;
}

/** A mismatch's one-line reproducer. */
function reproducer(s: Settings, backend: string, algorithm: string, index: number): string {
  const sizes = s.sizes === "light" ? "" : ` --sizes ${s.sizes}`;
  return `npm run fuzz -- --seed ${s.seed}${sizes} --backends ${backend} --algorithms ${algorithm} --case ${index}`;
}

function describeCase(c: Case): string {
  const options = { ...c.options, customization: undefined };
  return [
    `key (${c.key.length} B) ${hexOf(c.key)}`,
    `message ${c.message.length} B, starting ${hexOf(c.message.subarray(0, 32))}`,
    `options ${JSON.stringify(options)}${c.options.customization !== undefined ? ` customization ${JSON.stringify(typeof c.options.customization === "string" ? c.options.customization : hexOf(c.options.customization))}` : ""}`,
    `splits ${c.splitsA.join(",")} / ${c.splitsB.join(",")}`,
  ].join("\n  ");
}

function newReport(algorithm: string): AlgorithmReport {
  return {
    algorithm,
    cases: 0,
    opensslCases: 0,
    seconds: 0,
    cpuSeconds: 0,
    mismatchCount: 0,
    mismatches: [],
  };
}

/** Runs one unit; the mismatches are also printed, with reproducers, as they are found. */
function runUnit(s: Settings, backend: string, unit: Unit): AlgorithmReport[] {
  const openssl = opensslPresent && s.opensslEvery > 0;
  const plans = unit.algorithms.map((name) => {
    const oracle = oracleFor(name);
    if (oracle === undefined) throw new Error(`no oracle for ${name}: add one to scripts/fuzz.ts`);
    return { name, algorithm: macAlgorithm(name), oracle, report: newReport(name) };
  });
  const deadline = performance.now() + unit.seconds * 1000;
  const wallStart = performance.now();
  const cpuStart = process.cpuUsage();
  let lastProgress = performance.now();
  // Round robin, one case per algorithm, so that a time limit spreads over all of them.
  for (let index = unit.start; index < unit.end && performance.now() < deadline; index++) {
    for (const p of plans) {
      const sampled = openssl && (unit.verbose || index % s.opensslEvery === 0);
      const started = performance.now();
      const c = makeCase(p.algorithm, new Prng(`${s.seed}:${p.name}:${index}`), s.sizes);
      if (unit.verbose)
        console.error(`${p.name} case ${index} on ${backend}:\n  ${describeCase(c)}`);
      const problems = runCase(p.name, p.algorithm, p.oracle, c, sampled);
      p.report.seconds += (performance.now() - started) / 1000;
      p.report.cases++;
      if (sampled) p.report.opensslCases++;
      if (unit.verbose && problems.length === 0) console.error("  every check agreed");
      for (const m of problems) {
        p.report.mismatchCount++;
        if (p.report.mismatches.length < KEPT_MISMATCHES) {
          p.report.mismatches.push({ index, ...m });
          console.error(`MISMATCH ${backend} ${p.name} case ${index}, ${m.check}: ${m.detail}`);
          console.error(`  reproduce: ${reproducer(s, backend, p.name, index)}`);
        }
      }
    }
    if (plans.length > 1 && performance.now() - lastProgress > 10_000) {
      lastProgress = performance.now();
      console.error(`  ${backend}: ${index + 1} cases per algorithm`);
    }
  }
  const cpu = process.cpuUsage(cpuStart);
  const wall = (performance.now() - wallStart) / 1000;
  const cpuShare = wall > 0 ? (cpu.user + cpu.system) / 1e6 / wall : 0;
  for (const p of plans) p.report.cpuSeconds = p.report.seconds * cpuShare;
  return plans.map((p) => p.report);
}

async function child(s: Settings): Promise<void> {
  await sodium.ready;
  const backend = FORCED_BACKEND ?? "auto";
  const send = (m: FromChild) => process.send?.(m);
  process.on("message", (m: ToChild) => {
    if (m.type === "stop") {
      process.disconnect();
      return;
    }
    send({ type: "result", backend, reports: runUnit(s, backend, m.unit) });
  });
  send({ type: "ready", backend });
}

// --- the parent: the units, the children, and the report -----------------------------------------

/** Cases of one algorithm in a --cases unit: small enough to balance the cores at the end. */
const UNIT_CASES = 20_000;

class Totals {
  private readonly byKey = new Map<string, AlgorithmReport>();

  add(backend: string, r: AlgorithmReport): void {
    const key = `${backend}:${r.algorithm}`;
    const t = this.byKey.get(key) ?? newReport(r.algorithm);
    this.byKey.set(key, t);
    t.cases += r.cases;
    t.opensslCases += r.opensslCases;
    t.seconds += r.seconds;
    t.cpuSeconds += r.cpuSeconds;
    t.mismatchCount += r.mismatchCount;
    for (const m of r.mismatches) {
      if (t.mismatches.length < KEPT_MISMATCHES) t.mismatches.push(m);
    }
  }

  get(backend: string, algorithm: string): AlgorithmReport | undefined {
    return this.byKey.get(`${backend}:${algorithm}`);
  }
}

/**
 * One child process on `backend`: it takes that backend's units from `pending` until none is left.
 * Resolves false when it failed (a unit it had was lost: the run is incomplete).
 */
function runChild(
  backend: BackendName,
  pending: Unit[],
  deadline: number,
  totals: Totals,
  childArgs: string[],
): Promise<boolean> {
  return new Promise((resolve) => {
    const script = fileURLToPath(import.meta.url);
    const proc = spawn(process.execPath, [...process.execArgv, script, ...childArgs, "--child"], {
      env: { ...process.env, KEYED_BACKEND: backend },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      // Structured clone: units carry Infinity, which JSON would turn into null.
      serialization: "advanced",
    });
    let held: Unit | undefined;
    let failure: string | undefined;
    const handOut = () => {
      const i = pending.findIndex((u) => u.backend === backend);
      held = i < 0 ? undefined : pending.splice(i, 1)[0];
      if (held === undefined) {
        proc.send({ type: "stop" } satisfies ToChild);
        return;
      }
      const left = Math.max(0, (deadline - performance.now()) / 1000);
      const unit = { ...held, seconds: Math.min(held.seconds, left) };
      proc.send({ type: "unit", unit } satisfies ToChild);
    };
    proc.on("message", (m: FromChild) => {
      if (m.backend !== backend) {
        failure = `ran on ${m.backend}`;
        proc.kill();
        return;
      }
      if (m.type === "result") {
        for (const r of m.reports) totals.add(backend, r);
        held = undefined;
      }
      handOut();
    });
    proc.on("error", (error) => {
      failure = String(error);
    });
    proc.on("close", (code) => {
      if (code !== 0) failure ??= `exit code ${code}`;
      if (held !== undefined) failure ??= "exited with a unit unfinished";
      if (failure !== undefined) console.error(`a ${backend} child failed: ${failure}`);
      resolve(failure === undefined);
    });
  });
}

function table(backends: readonly string[], algorithms: readonly string[], totals: Totals): string {
  const rows = [
    "| algorithm | backend | cases | cases/s | cases/CPU s | openssl cases | mismatches |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const backend of backends) {
    for (const algorithm of algorithms) {
      const a = totals.get(backend, algorithm);
      if (a === undefined) continue;
      const rate = (s: number) => (s > 0 ? (a.cases / s).toFixed(0) : "-");
      rows.push(
        `| ${a.algorithm} | ${backend} | ${a.cases} | ${rate(a.seconds)} | ${rate(a.cpuSeconds)} | ${a.opensslCases} | ${a.mismatchCount} |`,
      );
    }
  }
  return rows.join("\n");
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      minutes: { type: "string" },
      cases: { type: "string" },
      seed: { type: "string" },
      algorithms: { type: "string" },
      backends: { type: "string" },
      case: { type: "string" },
      sizes: { type: "string", default: "light" },
      jobs: { type: "string" },
      "openssl-every": { type: "string", default: "2000" },
      child: { type: "boolean", default: false },
    },
  });
  const number = (text: string | undefined, flag: string, fallback: number) => {
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!(n >= 0) || !Number.isFinite(n))
      throw new Error(`--${flag} must be a number ≥ 0, not ${text}`);
    return n;
  };
  if (!Object.hasOwn(SIZE_PROFILES, values.sizes)) {
    throw new Error(`--sizes: ${values.sizes} is none of ${Object.keys(SIZE_PROFILES).join(", ")}`);
  }
  const settings: Settings = {
    seed: values.seed ?? String(Math.floor(Math.random() * 2 ** 31)),
    sizes: values.sizes as SizeProfile,
    opensslEvery: Math.floor(number(values["openssl-every"], "openssl-every", 2000)),
  };
  if (values.child) return child(settings);

  const all = macNames();
  const algorithms = (values.algorithms?.split(",") ?? all) as MacName[];
  for (const a of algorithms) {
    if (!all.includes(a))
      throw new Error(`--algorithms: no MAC named ${a}; macNames(): ${all.join(", ")}`);
  }
  const backends = (values.backends?.split(",") ?? [...BACKENDS]) as BackendName[];
  for (const b of backends) {
    if (!BACKENDS.includes(b))
      throw new Error(`--backends: ${b} is none of ${BACKENDS.join(", ")}`);
  }
  if (values.minutes === undefined && values.cases === undefined && values.case === undefined) {
    throw new Error(
      "say when to stop: --minutes N (in all), --cases N (per algorithm), or --case I",
    );
  }
  const jobs = Math.max(1, Math.floor(number(values.jobs, "jobs", availableParallelism())));
  const minutes = number(values.minutes, "minutes", Number.POSITIVE_INFINITY);
  const cases = Math.floor(number(values.cases, "cases", Number.POSITIVE_INFINITY));

  const pending: Unit[] = [];
  const unit = (backend: BackendName, names: MacName[], start: number, end: number) => ({
    backend,
    algorithms: names,
    start,
    end,
    seconds: Number.POSITIVE_INFINITY,
    verbose: false,
  });
  if (values.case !== undefined) {
    const only = Math.floor(number(values.case, "case", 0));
    for (const b of backends)
      pending.push({ ...unit(b, algorithms, only, only + 1), verbose: true });
  } else if (Number.isFinite(cases)) {
    // Chunk by chunk, every backend and algorithm: a run cut short by --minutes stays even.
    for (let start = 0; start < cases; start += UNIT_CASES) {
      for (const b of backends) {
        for (const a of algorithms)
          pending.push(unit(b, [a], start, Math.min(cases, start + UNIT_CASES)));
      }
    }
  } else {
    // --minutes alone: one unit per backend, and --minutes of wall time for them all.
    const waves = Math.ceil(backends.length / jobs);
    for (const b of backends) {
      pending.push({
        ...unit(b, algorithms, 0, Number.POSITIVE_INFINITY),
        seconds: (minutes * 60) / waves,
      });
    }
  }
  // With --cases and --minutes, each unit gets the time left when it starts.
  const deadline = Number.isFinite(cases)
    ? performance.now() + minutes * 60_000
    : Number.POSITIVE_INFINITY;

  const units = pending.length;
  console.error(
    `seed ${settings.seed}; ${algorithms.length} algorithms on ${backends.join(", ")}; ` +
      `sizes ${settings.sizes}; ${jobs} jobs, ${units} units; ` +
      `openssl ${opensslPresent ? (settings.opensslEvery > 0 ? `every ${settings.opensslEvery}th case` : "off") : "not found"}`,
  );
  const childArgs = [
    "--seed",
    settings.seed,
    "--sizes",
    settings.sizes,
    "--openssl-every",
    String(settings.opensslEvery),
  ];
  const started = performance.now();
  const totals = new Totals();
  let failed = false;
  const progress = setInterval(() => {
    const done = units - pending.length;
    const minutesIn = ((performance.now() - started) / 60_000).toFixed(1);
    console.error(`  ${minutesIn} min: ${done} of ${units} units handed out`);
  }, 60_000);
  const slot = async () => {
    while (pending.length > 0) {
      if (!(await runChild(pending[0].backend, pending, deadline, totals, childArgs)))
        failed = true;
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, units) }, slot));
  clearInterval(progress);

  const elapsed = (performance.now() - started) / 1000;
  console.log(
    `${table(backends, algorithms, totals)}\n\nseed ${settings.seed}, ${elapsed.toFixed(0)} s in all`,
  );
  let mismatches = 0;
  let total = 0;
  const perAlgorithm: number[] = [];
  for (const a of algorithms) {
    let n = 0;
    for (const b of backends) {
      const r = totals.get(b, a);
      if (r === undefined) continue;
      n += r.cases;
      mismatches += r.mismatchCount;
      for (const m of r.mismatches) {
        console.log(`MISMATCH ${b} ${a} case ${m.index}, ${m.check}: ${m.detail}`);
        console.log(`  reproduce: ${reproducer(settings, b, a, m.index)}`);
      }
    }
    total += n;
    perAlgorithm.push(n);
  }
  const fewest = Math.min(...perAlgorithm);
  console.log(
    `${total} cases (at least ${fewest} per algorithm over the backends), ` +
      `${mismatches} mismatches${failed ? ", and a child failed" : ""}.`,
  );
  if (mismatches > 0 || failed) process.exitCode = 1;
}

await main();
