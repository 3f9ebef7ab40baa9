/**
 * BLAKE3 keyed hashing as a MAC (the BLAKE3 specification section 2.3, keyed_hash mode): a 32-byte
 * key, a 32-byte tag by default. BLAKE3's output is extendable and every shorter output is a prefix
 * of a longer one, so `tagLength` may be anything from the policy minimum to 64 bytes.
 */
import { assertBytes, assertInteger, assertString, type Bytes } from "../core/bytes.js";
import {
  type MacAlgorithm,
  type MacKernel,
  type MacKernelState,
  type MacOptions,
  PreparedMac,
} from "../core/mac.js";
import {
  Blake3,
  contextKeyWords,
  DERIVE_KEY_MATERIAL,
  KEYED_HASH,
  keyWords,
} from "../hash/blake3.js";

class Blake3Kernel implements MacKernel {
  readonly outputLength: number;
  private readonly words: Int32Array;
  private readonly work: Blake3;

  constructor(key: Uint8Array, outputLength: number) {
    this.outputLength = outputLength;
    this.words = keyWords(key);
    this.work = new Blake3(this.words, KEYED_HASH);
  }

  compute(message: Bytes, out: Bytes): void {
    const work = this.work.reset();
    work.absorb(message, 0, message.length);
    work.finishInto(out, 0, this.outputLength);
  }

  start(): MacKernelState {
    const state = new Blake3(this.words, KEYED_HASH);
    return {
      update: (chunk) => state.absorb(chunk, 0, chunk.length),
      finish: (out) => state.finishInto(out, 0, this.outputLength),
      wipe: () => state.wipe(),
    };
  }

  wipe(): void {
    this.words.fill(0);
    this.work.wipe();
  }
}

export const BLAKE3_ALGORITHM: MacAlgorithm = {
  name: "blake3",
  key: { kind: "fixed", length: 32 },
  tag: {
    full: 32,
    safeMinimum: 10,
    maximum: 64,
    // Outputs of different lengths are prefixes of one stream, so computing at the requested
    // length is the same as truncating, without computing bytes that are thrown away.
    variableOutput: true,
    basis: "RFC 2104 section 5: at least 80 bits",
  },
  createKernel: (key, outputLength) => new Blake3Kernel(key, outputLength),
};

/** A BLAKE3 keyed-hash prepared key (32-byte key). */
export const blake3Keyed = (key: Bytes, options?: MacOptions): PreparedMac =>
  new PreparedMac(BLAKE3_ALGORITHM, key, options);

/**
 * BLAKE3 derive_key (section 2.3): `length` bytes (default 32) of key material for the purpose
 * named by `context`, a hard-coded, globally unique string such as
 * "example.com 2026-11-30 session tokens v1". Different contexts give independent keys.
 */
export function deriveKey(context: string, material: Bytes, length = 32): Bytes {
  assertString(context, "context");
  assertBytes(material, "material");
  assertInteger(length, "length", 1, 2 ** 31 - 1);
  const h = new Blake3(contextKeyWords(context), DERIVE_KEY_MATERIAL);
  h.absorb(material, 0, material.length);
  const out = new Uint8Array(length);
  h.finishInto(out, 0, length);
  h.wipe();
  return out;
}
