import assert from "node:assert/strict";
import { createCipheriv } from "node:crypto";
import { KeyedError } from "../src/core/errors.js";
import type { KeyRule, MacAlgorithm, MacKernel, TagRule } from "../src/core/mac.js";
import { MemoryReplayStore, type ReplayStore } from "../src/safe/store.js";

export const hex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h, "hex"));
export const toHex = (b: Uint8Array): string => Buffer.from(b).toString("hex");
export const ascii = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Asserts that `fn` throws a KeyedError with `code`, and optionally a message matching `text`. */
export function throwsKeyed(fn: () => unknown, code: string, text?: RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof KeyedError, `expected KeyedError, got ${String(error)}`);
    assert.equal(error.code, code, `code: ${error.message}`);
    if (text) assert.match(error.message, text);
    return true;
  });
}

function detachedBytes(): Uint8Array {
  const buffer = new ArrayBuffer(8);
  const view = new Uint8Array(buffer);
  structuredClone(buffer, { transfer: [buffer] });
  return view;
}

/** Values that are not bytes, each of which every byte argument must refuse with BAD_INPUT. */
export function notBytes(): [string, unknown][] {
  return [
    ["a string", "abc"],
    ["a number", 42],
    ["null", null],
    ["undefined", undefined],
    ["an ArrayBuffer", new ArrayBuffer(16)],
    ["a DataView", new DataView(new ArrayBuffer(16))],
    ["an Int8Array", new Int8Array(16)],
    ["a plain array", [1, 2, 3]],
    ["a detached Uint8Array", detachedBytes()],
  ];
}

/** `bytes` copied into a larger buffer at an odd offset, as a subarray view. */
export function atOffset(bytes: Uint8Array, offset = 3): Uint8Array {
  const backing = new Uint8Array(bytes.length + offset + 5).fill(0xee);
  backing.set(bytes, offset);
  return backing.subarray(offset, offset + bytes.length);
}

/**
 * An independent CMAC oracle on node:crypto: the subkeys from one AES-ECB block, then AES-CBC with
 * a zero IV over the message whose last block is adjusted (SP 800-38B 6.2); the tag is the last
 * ciphertext block.
 */
export function cmacOracle(key: Uint8Array, message: Uint8Array): Uint8Array {
  const bits = key.length * 8;
  const encrypt = (block: Uint8Array) =>
    createCipheriv(`aes-${bits}-ecb`, key, null).setAutoPadding(false).update(block);
  const dbl = (x: Uint8Array) => {
    const out = new Uint8Array(16);
    for (let i = 0; i < 16; i++) out[i] = (x[i] << 1) | (i < 15 ? x[i + 1] >> 7 : 0);
    if (x[0] & 0x80) out[15] ^= 0x87;
    return out;
  };
  const k1 = dbl(encrypt(new Uint8Array(16)));
  const k2 = dbl(k1);
  const n = Math.max(1, Math.ceil(message.length / 16));
  const complete = message.length > 0 && message.length % 16 === 0;
  const padded = new Uint8Array(16 * n);
  padded.set(message);
  if (!complete) padded[message.length] = 0x80;
  const last = padded.subarray(16 * (n - 1));
  const sub = complete ? k1 : k2;
  for (let i = 0; i < 16; i++) last[i] ^= sub[i];
  const cbc = createCipheriv(`aes-${bits}-cbc`, key, new Uint8Array(16))
    .setAutoPadding(false)
    .update(padded);
  return new Uint8Array(cbc.subarray(cbc.length - 16));
}

/** Wall and user-CPU milliseconds of one call. */
function timeOnce(run: () => unknown): { wall: number; cpu: number } {
  const cpu = process.cpuUsage();
  const start = performance.now();
  run();
  return { wall: performance.now() - start, cpu: process.cpuUsage(cpu).user / 1000 };
}

/**
 * Asserts that time grows at most linearly: `large` (10x the input of `small`) takes under `bound`
 * (default 25) times as long as `small`, by wall time or by user CPU time. Each side keeps its
 * fastest of `repeats` interleaved runs, so both see the same load on a shared machine; a round
 * over the bound is measured again, up to three rounds. A quadratic step (100x) fails every round.
 */
export function assertLinearTime(
  what: string,
  small: () => unknown,
  large: () => unknown,
  options: { repeats?: number; bound?: number; diagnostic?: (message: string) => void } = {},
): void {
  const { repeats = 3, bound = 25, diagnostic } = options;
  small(); // warm up the code paths
  const seen: string[] = [];
  for (let round = 0; round < 3; round++) {
    const best = {
      small: { wall: Infinity, cpu: Infinity },
      large: { wall: Infinity, cpu: Infinity },
    };
    for (let i = 0; i < repeats; i++) {
      for (const [side, run] of [
        ["small", small],
        ["large", large],
      ] as const) {
        const t = timeOnce(run);
        best[side].wall = Math.min(best[side].wall, t.wall);
        best[side].cpu = Math.min(best[side].cpu, t.cpu);
      }
    }
    // A floor of 1 ms on the small side: timer granularity is not growth.
    const wall = best.large.wall / Math.max(best.small.wall, 1);
    const cpu = best.large.cpu / Math.max(best.small.cpu, 1);
    seen.push(
      `${best.small.wall.toFixed(1)} vs ${best.large.wall.toFixed(1)} ms wall (${wall.toFixed(1)}x), ` +
        `${cpu.toFixed(1)}x CPU`,
    );
    if (Math.min(wall, cpu) < bound) {
      diagnostic?.(`${what}: ${seen.join("; ")}`);
      return;
    }
  }
  assert.fail(`${what}: 10x the input took over ${bound}x the time: ${seen.join("; ")}`);
}

/**
 * A toy kernel, not a MAC: byte i of the output mixes the key, the nonce, the message length and
 * the first message byte, so a tag depends on all of them.
 */
export function toyMacAlgorithm(
  over: Partial<Omit<MacAlgorithm, "tag">> & { tag?: Partial<TagRule>; key?: KeyRule } = {},
): MacAlgorithm {
  const tag: TagRule = { full: 16, safeMinimum: 10, maximum: 16, basis: "toy rule", ...over.tag };
  return {
    name: "hmac-sha256",
    key: { kind: "variable" },
    ...over,
    tag,
    createKernel(k, outputLength): MacKernel {
      const state = k.slice();
      const fill = (m: Uint8Array, out: Uint8Array, nonce?: Uint8Array) => {
        for (let i = 0; i < outputLength; i++) {
          const n = nonce && nonce.length > 0 ? nonce[i % nonce.length] : 0;
          out[i] = state[i % state.length] ^ n ^ m.length ^ (m[0] ?? 0) ^ (i * 29);
        }
      };
      return {
        outputLength,
        compute: fill,
        start() {
          const parts: number[] = [];
          return {
            update: (c) => {
              parts.push(...c);
            },
            finish: (out, nonce) => fill(Uint8Array.from(parts), out, nonce),
            wipe: () => {},
          };
        },
        wipe: () => state.fill(0),
      };
    },
  };
}

/**
 * A replay store that counts the claims it is asked for (forgeries must never reach a store) and
 * can be made to fail (every claim then rejects), over `inner` (a fresh MemoryReplayStore).
 */
export function countingStore(inner: ReplayStore = new MemoryReplayStore()) {
  let claims = 0;
  let failing = false;
  const store: ReplayStore = {
    claim(id, ttl, options) {
      claims++;
      return failing ? Promise.reject(new Error("down")) : inner.claim(id, ttl, options);
    },
  };
  return {
    store,
    get claims() {
      return claims;
    },
    fail() {
      failing = true;
    },
  };
}
