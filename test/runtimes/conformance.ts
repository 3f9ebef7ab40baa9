/**
 * The conformance script of the runtime matrix (test/runtimes/runtimes.test.ts, docs/runtimes.md).
 *
 * It imports the built package only ("keyed", "keyed/hazmat", "keyed/webhooks": dist/ through the
 * package's own exports) and nothing from node:, so the same code runs unchanged under Node, Deno,
 * Bun, workerd and in browsers, bundled by esbuild where a runtime needs one file. Its result is a
 * list of lines; every runtime must print exactly the lines Node prints. Nothing random, and no
 * clock, reaches a line: nonce MACs are checked through tags made with a fixed nonce, and `open`
 * gets a fixed `now`.
 */
import {
  bytesToHex,
  bytesToUtf8,
  hexToBytes,
  hkdf,
  KeyedError,
  type MacName,
  type MacOptions,
  mac,
  macInfo,
  macNames,
  open,
  seal,
  utf8ToBytes,
} from "keyed";
import {
  blake3,
  chacha20poly1305,
  gmac,
  sha3_256,
  sha256,
  sha512,
  xchacha20poly1305,
} from "keyed/hazmat";
import { signGitHub, verifyGitHub, verifyGitHubRequest } from "keyed/webhooks";

/** One known-answer case from a vector file; `valid` says whether `tag` is the right answer. */
export interface VectorCase {
  /** "mac": `mac(name, key, options)`; "gmac": hazmat GMAC; "aead"/"xaead": hazmat (X)ChaCha20-Poly1305. */
  kind: "mac" | "gmac" | "aead" | "xaead";
  name?: MacName;
  options?: MacOptions;
  key: string;
  msg: string;
  tag: string;
  iv?: string;
  aad?: string;
  ct?: string;
  valid: boolean;
}

/** What the harness passes in: a sample of each vector file (read by Node, test/runtimes/sample.ts). */
export interface ConformanceInput {
  vectors: { file: string; cases: VectorCase[] }[];
}

/** GitHub's documentation example for X-Hub-Signature-256 ("Validating webhook deliveries"). */
export const GITHUB_EXAMPLE = {
  secret: "It's a Secret to Everybody",
  body: "Hello, World!",
  header: "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
};

/** `length` bytes of a fixed pattern, different for each `seed`. */
export function pattern(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = (seed * 0x9e3779b1) >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    // xorshift32: cheap, and every runtime computes the same bytes.
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

const hex = bytesToHex;

/** The KeyedError code `f` throws, "no error" when it returns. */
function codeOf(f: () => unknown): string {
  try {
    f();
    return "no error";
  } catch (e) {
    return e instanceof KeyedError ? e.code : `not a KeyedError: ${String(e)}`;
  }
}

/** Tags with a fixed nonce in front, as the safe API lays them out, made with the hazmat primitives. */
function fixedNonceTag(name: MacName, key: Uint8Array, message: Uint8Array): Uint8Array {
  const nonce = pattern(macInfo(name).nonceLength, 99);
  const body = name.startsWith("gmac-")
    ? gmac(key, nonce, message)
    : (name === "chacha20-poly1305" ? chacha20poly1305 : xchacha20poly1305)(
        key,
        nonce,
        message,
      ).seal(new Uint8Array(0));
  const tag = new Uint8Array(nonce.length + body.length);
  tag.set(nonce);
  tag.set(body, nonce.length);
  return tag;
}

/** Every MAC of this build over messages around block boundaries: one-shot, streamed, fields. */
function macLines(): string[] {
  const lines: string[] = [];
  const messages = [0, 3, 64, 65, 1000].map((n) => pattern(n, n + 1));
  for (const name of macNames()) {
    const info = macInfo(name);
    const key = pattern(info.recommendedKeyLength, name.length);
    // 64-bit SipHash tags verify only with allowShortTags.
    const options = info.tagLength < info.minTagLength ? { allowShortTags: true } : undefined;
    // Poly1305 keys are one-time: a fresh prepared key for every message.
    const prepare = () => mac(name, key, options);
    for (const message of messages) {
      if (info.nonceLength > 0) {
        const fixed = fixedNonceTag(name, key, message);
        const own = prepare().tag(message);
        const tampered = own.slice();
        tampered[tampered.length - 1] ^= 1;
        lines.push(
          `${name} ${message.length} B: fixed-nonce tag ${hex(fixed)} verify ${prepare().verify(message, fixed)}, ` +
            `own tag ${own.length} B verify ${prepare().verify(message, own)}, tampered ${prepare().verify(message, tampered)}`,
        );
        continue;
      }
      const tag = prepare().tag(message);
      const stream = prepare().stream();
      for (let at = 0; at < message.length; at += 7) stream.update(message.subarray(at, at + 7));
      const streamed = stream.digest();
      const tampered = tag.slice();
      tampered[0] ^= 0x80;
      lines.push(
        `${name} ${message.length} B: ${hex(tag)} stream ${hex(streamed) === hex(tag) ? "same" : hex(streamed)} ` +
          `verify ${prepare().verify(message, tag)} tampered ${prepare().verify(message, tampered)}`,
      );
    }
    if (info.nonceLength === 0) {
      lines.push(`${name} fields: ${hex(prepare().tagFields("conformance", ["a", messages[1]]))}`);
    }
  }
  const kmacKey = pattern(32, 5);
  lines.push(
    `kmac256 customization: ${hex(mac("kmac256", kmacKey, { customization: "my app" }).tag(messages[2]))}`,
  );
  lines.push(
    `hmac-sha256 tagLength 16: ${hex(mac("hmac-sha256", kmacKey, { tagLength: 16 }).tag(messages[2]))}`,
  );
  return lines;
}

/** 1 MiB through BLAKE3 and HMAC-SHA256 (the long-input paths: SIMD kernels, node:crypto). */
function largeLines(): string[] {
  const big = pattern(1 << 20, 7);
  const key = pattern(32, 8);
  return [
    `blake3 keyed 1 MiB: ${hex(mac("blake3", key).tag(big))}`,
    `hmac-sha256 1 MiB: ${hex(mac("hmac-sha256", key).tag(big))}`,
    `sha256 1 MiB: ${hex(sha256(big))}`,
    ...nativePathLines(key),
  ];
}

/**
 * Messages past node:crypto's crossovers, where keyed hands node:crypto a key, nonce or AAD for one
 * call and zeroes it once the call returns (engine/native.ts lend): a runtime whose node:crypto
 * read them later would print other bytes here. Where a runtime has no node:crypto, or not the
 * cipher, keyed's own kernels give the same lines.
 */
function nativePathLines(key: Uint8Array): string[] {
  const aead = chacha20poly1305(key, pattern(12, 12), pattern(40, 13));
  const plaintext = pattern(8192, 14);
  const sealed = aead.seal(plaintext);
  const m1k = pattern(1024, 16);
  const m4k = pattern(4096, 15);
  const m20k = pattern(20000, 17);
  // A new key per tag: its first use lends its raw bytes. The random-nonce MACs are checked
  // against the hazmat primitives under the nonce their tag carries.
  const cmacTag = hex(mac("cmac-aes256", key).tag(m1k));
  const hmacTag = hex(mac("hmac-sha512", key).tag(m4k));
  const gmacTag = mac("gmac-aes256", key).tag(m4k);
  const chachaTag = mac("chacha20-poly1305", key).tag(m20k);
  const hazmatChacha = chacha20poly1305(key, chachaTag.subarray(0, 12), m20k).seal(
    plaintext.subarray(0, 0),
  );
  // In 100-byte chunks, CMAC's and HMAC's streams cross the crossover mid-way, where
  // engine/hybrid.ts hands them to node:crypto.
  const streamed = (name: MacName, message: Uint8Array): string => {
    const stream = mac(name, key).stream();
    for (let i = 0; i < message.length; i += 100) stream.update(message.subarray(i, i + 100));
    return hex(stream.digest());
  };
  return [
    `chacha20-poly1305 seal 8 KiB, 40 B AAD: ${hex(sha256(sealed))}, opens ${hex(aead.open(sealed)) === hex(plaintext)}`,
    `cmac-aes256 1 KiB, a new key: ${cmacTag}; streamed the same: ${streamed("cmac-aes256", m1k) === cmacTag}`,
    `hmac-sha512 4 KiB, a new key: ${hmacTag}; streamed the same: ${streamed("hmac-sha512", m4k) === hmacTag}`,
    `gmac-aes256 4 KiB, a new key: agrees with hazmat gmac ${
      hex(gmacTag.subarray(12)) === hex(gmac(key, gmacTag.subarray(0, 12), m4k))
    }`,
    `chacha20-poly1305 MAC 20,000 B, a new key: agrees with the hazmat AEAD ${
      hex(chachaTag.subarray(12)) === hex(hazmatChacha)
    }`,
  ];
}

function hazmatLines(): string[] {
  const abc = utf8ToBytes("abc");
  const key = pattern(32, 9);
  return [
    `sha256("abc"): ${hex(sha256(abc))}`,
    `sha512("abc"): ${hex(sha512(abc))}`,
    `sha3-256("abc"): ${hex(sha3_256(abc))}`,
    `blake3("abc"): ${hex(blake3(abc))}`,
    `hkdf sha256: ${hex(hkdf("sha256", key, { salt: pattern(16, 10), info: abc, length: 42 }))}`,
    `errors: short key ${codeOf(() => mac("hmac-sha256", pattern(8, 1)))}, ` +
      `unknown ${codeOf(() => mac("hmac-md5" as MacName, key))}, ` +
      `poly1305 reuse ${codeOf(() => {
        const m = mac("poly1305", key);
        m.tag(abc);
        m.tag(abc);
      })}`,
  ];
}

/** The sampled vector cases: the outcome must agree with the file's verdict. */
function vectorLines(input: ConformanceInput): string[] {
  return input.vectors.map(({ file, cases }) => {
    let match = 0;
    let refused = 0;
    const wrong: number[] = [];
    cases.forEach((c, index) => {
      let outcome: "match" | "differ" | "refused";
      try {
        outcome = vectorOutcome(c);
      } catch (e) {
        if (!(e instanceof KeyedError)) throw e;
        outcome = "refused";
      }
      if (outcome === "match") match++;
      if (outcome === "refused") refused++;
      if (c.valid !== (outcome === "match")) wrong.push(index);
    });
    return `vectors ${file}: ${cases.length} cases, ${match} match, ${refused} refused, wrong: ${wrong.length === 0 ? "none" : wrong.join(",")}`;
  });
}

function vectorOutcome(c: VectorCase): "match" | "differ" {
  const [key, msg, tag] = [c.key, c.msg, c.tag].map(hexToBytes);
  if (c.kind === "mac") {
    const m = mac(c.name as MacName, key, c.options);
    const verified = m.verify(msg, tag);
    // A valid case must also give the tag itself; verify alone could accept too much.
    if (verified && c.valid && hex(m.tag(msg)) !== c.tag) return "differ";
    return verified ? "match" : "differ";
  }
  const iv = hexToBytes(c.iv ?? "");
  if (c.kind === "gmac") {
    return hex(gmac(key, iv, msg).subarray(0, tag.length)) === c.tag ? "match" : "differ";
  }
  const aead = c.kind === "aead" ? chacha20poly1305 : xchacha20poly1305;
  const sealed = aead(key, iv, hexToBytes(c.aad ?? "")).seal(msg);
  return hex(sealed) === `${c.ct}${c.tag}` ? "match" : "differ";
}

async function webhookLines(): Promise<string[]> {
  const { secret, body, header } = GITHUB_EXAMPLE;
  const verdict = (r: { ok: boolean; reason?: string }) => (r.ok ? "ok" : `refused ${r.reason}`);
  const request = new Request("http://127.0.0.1/hook", {
    method: "POST",
    body,
    headers: { "x-hub-signature-256": header },
  });
  return [
    `github sign: ${signGitHub(secret, body) === header ? "the documented header" : signGitHub(secret, body)}`,
    `github verify: ${verdict(verifyGitHub(secret, body, header))}`,
    `github tampered: ${verdict(verifyGitHub(secret, `${body} `, header))}`,
    `github missing: ${verdict(verifyGitHub(secret, body, undefined))}`,
    `github request: ${verdict(await verifyGitHubRequest(secret, request))}`,
  ];
}

function sealLines(): string[] {
  const key = pattern(32, 11);
  const payload = utf8ToBytes('{"user":"alice"}');
  const timestamp = 1_700_000_000;
  const lines: string[] = [];
  for (const algorithm of ["hmac-sha256", "kmac256", "blake3", "cmac-aes256"] as const) {
    const token = seal(key, payload, { purpose: "session", timestamp, algorithm });
    const opened = open(key, token, {
      purpose: "session",
      maxAgeSeconds: 60,
      now: timestamp + 30,
      algorithm,
    });
    lines.push(
      `seal ${algorithm}: ${hex(token)} opens to ${bytesToUtf8(opened.payload)} at ${opened.timestamp}; ` +
        `later ${codeOf(() => open(key, token, { purpose: "session", maxAgeSeconds: 60, now: timestamp + 61, algorithm }))}, ` +
        `other purpose ${codeOf(() => open(key, token, { purpose: "other", now: timestamp, algorithm }))}`,
    );
  }
  return lines;
}

/** Every line of the conformance run. */
export async function conformance(input: ConformanceInput): Promise<string[]> {
  return [
    ...macLines(),
    ...largeLines(),
    ...hazmatLines(),
    ...vectorLines(input),
    ...(await webhookLines()),
    ...sealLines(),
  ];
}
