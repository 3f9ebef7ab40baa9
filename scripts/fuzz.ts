/**
 * `npm run fuzz`: long differential fuzzing of every MAC in macNames() on every backend against
 * independent oracles (node:crypto, @noble/hashes, @noble/ciphers, libsodium, the `siphash`
 * package, and a sample through the `openssl mac` command when it is installed). See
 * docs/assurance.md, "Fuzzing".
 *
 *   npm run fuzz -- --minutes 10 --seed 1        10 minutes in all, split over the backends
 *   npm run fuzz -- --cases 100000 --seed 1      100,000 cases per algorithm per backend
 *   npm run fuzz -- --algorithms blake3,kmac128 --backends wasm --minutes 1
 *   npm run fuzz -- --seed 1 --backends js --algorithms gmac-aes128 --case 4711   one case, verbose
 *
 * KEYED_BACKEND is read once, when keyed loads, so the parent runs one child process per backend,
 * one after the other (the machine's cores are shared). Every choice comes from a PRNG seeded by
 * (seed, algorithm, case index): a case is reproduced from those three alone, on any backend.
 * Only the nonces that tag() draws are random by design; the oracle takes them from the front of
 * the tag. Exit code 1 on any mismatch, or when a child fails.
 */
import { execFileSync, spawn } from "node:child_process";
import { createCipheriv, createHmac } from "node:crypto";
import { createRequire } from "node:module";
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

  bytes(n: number): Bytes {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i += 4) {
      const r = this.next();
      for (let j = 0; j < 4 && i + j < n; j++) out[i + j] = r >>> (8 * j);
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

/** Message lengths skewed small, with some past every node:crypto crossover (up to 16 KiB) and to 64 KiB. */
function messageLength(rng: Prng): number {
  const r = rng.next() / 2 ** 32;
  if (r < 0.6) return rng.int(0, 300);
  if (r < 0.85) return rng.int(300, 4200);
  if (r < 0.97) return rng.int(4096, 17000);
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

function makeCase(a: MacAlgorithm, rng: Prng): Case {
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
  const message = placed(rng, rng.bytes(messageLength(rng)));
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
function sipPackageTag(file: string, key: Bytes, message: Bytes): Bytes {
  const words = [0, 4, 8, 12].map((o) => Buffer.from(key).readUInt32LE(o));
  const r = (require(`siphash/lib/${file}.js`) as SipModule).hash(words, message);
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
    return ({ key, message }) => sipPackageTag(SIP_FILES[name], key, message);
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
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

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
      ? new TextEncoder().encode(c.options.customization)
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
    const want = oracle(input).subarray(0, c.authLength);
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

// --- the child: one backend ----------------------------------------------------------------------

interface AlgorithmReport {
  algorithm: string;
  cases: number;
  opensslCases: number;
  seconds: number;
  mismatches: { index: number; check: string; detail: string }[];
}

interface ChildReport {
  backend: string;
  algorithms: AlgorithmReport[];
}

interface Settings {
  seed: string;
  seconds: number;
  cases: number;
  algorithms: MacName[];
  opensslEvery: number;
  only: number | undefined;
}

/** A mismatch's one-line reproducer. */
function reproducer(s: Settings, backend: string, algorithm: string, index: number): string {
  return `npm run fuzz -- --seed ${s.seed} --backends ${backend} --algorithms ${algorithm} --case ${index}`;
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

async function child(s: Settings): Promise<void> {
  await sodium.ready;
  const backend = FORCED_BACKEND ?? "auto";
  const plans = s.algorithms.map((name) => {
    const oracle = oracleFor(name);
    if (oracle === undefined) throw new Error(`no oracle for ${name}: add one to scripts/fuzz.ts`);
    const report: AlgorithmReport = {
      algorithm: name,
      cases: 0,
      opensslCases: 0,
      seconds: 0,
      mismatches: [],
    };
    return { name, algorithm: macAlgorithm(name), oracle, report };
  });
  const openssl = opensslPresent && s.opensslEvery > 0;
  if (s.only !== undefined) {
    for (const p of plans) {
      const c = makeCase(p.algorithm, new Prng(`${s.seed}:${p.name}:${s.only}`));
      console.error(`${p.name} case ${s.only} on ${backend}:\n  ${describeCase(c)}`);
      const problems = runCase(p.name, p.algorithm, p.oracle, c, openssl);
      for (const m of problems) console.error(`  MISMATCH ${m.check}: ${m.detail}`);
      if (problems.length === 0) console.error("  every check agreed");
      p.report.cases = 1;
      p.report.mismatches = problems.map((m) => ({ index: s.only as number, ...m }));
    }
  } else {
    const deadline = performance.now() + s.seconds * 1000;
    let lastProgress = performance.now();
    // Round robin, one case per algorithm, so that a time limit spreads over all of them.
    for (let index = 0; index < s.cases && performance.now() < deadline; index++) {
      for (const p of plans) {
        const sampled = openssl && index % s.opensslEvery === 0;
        const started = performance.now();
        const c = makeCase(p.algorithm, new Prng(`${s.seed}:${p.name}:${index}`));
        const problems = runCase(p.name, p.algorithm, p.oracle, c, sampled);
        p.report.seconds += (performance.now() - started) / 1000;
        p.report.cases++;
        if (sampled) p.report.opensslCases++;
        for (const m of problems) {
          p.report.mismatches.push({ index, ...m });
          if (p.report.mismatches.length <= 3) {
            console.error(`MISMATCH ${backend} ${p.name} case ${index}, ${m.check}: ${m.detail}`);
            console.error(`  reproduce: ${reproducer(s, backend, p.name, index)}`);
          }
        }
      }
      if (performance.now() - lastProgress > 10_000) {
        lastProgress = performance.now();
        console.error(`  ${backend}: ${index + 1} cases per algorithm`);
      }
    }
  }
  const report: ChildReport = { backend, algorithms: plans.map((p) => p.report) };
  console.log(JSON.stringify(report));
}

// --- the parent: one child per backend, and the report -------------------------------------------

function runChild(backend: BackendName, args: string[]): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const script = fileURLToPath(import.meta.url);
    const proc = spawn(process.execPath, [...process.execArgv, script, ...args, "--child"], {
      env: { ...process.env, KEYED_BACKEND: backend },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    proc.stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    proc.on("error", reject);
    proc.on("close", (code) => {
      const last = out.trim().split("\n").pop() ?? "";
      try {
        if (code !== 0) throw new Error(`exit code ${code}`);
        const report = JSON.parse(last) as ChildReport;
        if (report.backend !== backend) throw new Error(`ran on ${report.backend}`);
        resolve(report);
      } catch (error) {
        reject(new Error(`the ${backend} child failed: ${String(error)}`));
      }
    });
  });
}

function table(reports: ChildReport[]): string {
  const rows = [
    "| algorithm | backend | cases | cases/s | openssl cases | mismatches |",
    "| --- | --- | ---: | ---: | ---: | ---: |",
  ];
  for (const r of reports) {
    for (const a of r.algorithms) {
      const rate = a.seconds > 0 ? (a.cases / a.seconds).toFixed(0) : "-";
      rows.push(
        `| ${a.algorithm} | ${r.backend} | ${a.cases} | ${rate} | ${a.opensslCases} | ${a.mismatches.length} |`,
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
      "openssl-every": { type: "string", default: "50" },
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
  const seed = values.seed ?? String(Math.floor(Math.random() * 2 ** 31));
  const minutes = number(values.minutes, "minutes", Number.POSITIVE_INFINITY);
  const settings: Settings = {
    seed,
    // --minutes is the whole run's budget, shared equally by the backends.
    seconds: values.child ? minutes * 60 : (minutes * 60) / backends.length,
    cases: number(values.cases, "cases", Number.POSITIVE_INFINITY),
    algorithms,
    opensslEvery: number(values["openssl-every"], "openssl-every", 50),
    only: values.case === undefined ? undefined : number(values.case, "case", 0),
  };
  if (values.child) return child(settings);

  console.error(
    `seed ${seed}; ${algorithms.length} algorithms on ${backends.join(", ")}; ` +
      `openssl ${opensslPresent ? `every ${settings.opensslEvery}th case` : "not found"}`,
  );
  const args = [
    "--seed",
    seed,
    "--algorithms",
    algorithms.join(","),
    "--openssl-every",
    String(settings.opensslEvery),
  ];
  if (Number.isFinite(settings.seconds)) args.push("--minutes", String(settings.seconds / 60));
  if (values.cases !== undefined) args.push("--cases", values.cases);
  if (values.case !== undefined) args.push("--case", values.case);
  const started = performance.now();
  const reports: ChildReport[] = [];
  let failed = false;
  for (const backend of backends) {
    try {
      reports.push(await runChild(backend, args));
    } catch (error) {
      console.error(String(error));
      failed = true;
    }
  }
  const elapsed = (performance.now() - started) / 1000;
  console.log(`${table(reports)}\n\nseed ${seed}, ${elapsed.toFixed(0)} s in all`);
  let mismatches = 0;
  for (const r of reports) {
    for (const a of r.algorithms) {
      for (const m of a.mismatches) {
        mismatches++;
        console.log(
          `MISMATCH ${r.backend} ${a.algorithm} case ${m.index}, ${m.check}: ${m.detail}`,
        );
        console.log(`  reproduce: ${reproducer(settings, r.backend, a.algorithm, m.index)}`);
      }
    }
  }
  const total = reports.reduce((n, r) => n + r.algorithms.reduce((k, a) => k + a.cases, 0), 0);
  console.log(`${total} cases, ${mismatches} mismatches${failed ? ", and a child failed" : ""}.`);
  if (mismatches > 0 || failed) process.exitCode = 1;
}

await main();
