/**
 * KMAC128 and KMAC256 (SP 800-185 section 4): KMAC(K, X, L, S) = cSHAKE(bytepad(encode_string(K),
 * rate) ‖ X ‖ right_encode(L), L, "KMAC", S). The output length L is an input, so a shorter KMAC tag
 * is a different tag, not a prefix: `tagLength` sets L and verify computes with that L.
 *
 * The prefix blocks (function name, customization and padded key) depend only on the key and S, so
 * they are absorbed once per key and each tag starts from a copy of that sponge state.
 */
import { assertBytes, assertInteger, type Bytes } from "../core/bytes.js";
import type { MacAlgorithm, MacKernel, MacKernelState, MacName, MacOptions } from "../core/mac.js";
import { PreparedMac } from "../core/mac.js";
import {
  absorbBytepad,
  bytesOrText,
  cshakeSponge,
  type Keccak,
  rightEncode,
  type Strength,
} from "../hash/keccak.js";

const KMAC = new TextEncoder().encode("KMAC");

/** The sponge after cSHAKE's prefix and bytepad(encode_string(K)): what every tag starts from. */
function keyedSponge(strength: Strength, key: Uint8Array, customization: Uint8Array): Keccak {
  const sponge = cshakeSponge(strength, KMAC, customization);
  absorbBytepad(sponge, [key]);
  return sponge;
}

export class KmacKernel implements MacKernel {
  readonly outputLength: number;
  private readonly prepared: Keccak;
  private readonly work: Keccak;
  /** right_encode(L) (or right_encode(0) for KMACXOF), fixed per key. */
  private readonly suffix: Uint8Array;

  constructor(
    strength: Strength,
    key: Uint8Array,
    outputLength: number,
    customization: Uint8Array,
    xof = false,
  ) {
    this.outputLength = outputLength;
    this.prepared = keyedSponge(strength, key, customization);
    this.work = this.prepared.clone();
    this.suffix = rightEncode(xof ? 0 : outputLength * 8);
  }

  compute(message: Bytes, out: Bytes): void {
    const work = this.prepared.copyTo(this.work);
    work.absorb(message, 0, message.length);
    this.finishInto(work, out);
  }

  private finishInto(work: Keccak, out: Bytes): void {
    work.absorb(this.suffix, 0, this.suffix.length);
    work.squeeze(out, 0, this.outputLength);
    work.wipe();
  }

  start(): MacKernelState {
    const state = this.prepared.clone();
    return {
      update: (chunk) => state.absorb(chunk, 0, chunk.length),
      finish: (out) => this.finishInto(state, out),
      wipe: () => state.wipe(),
    };
  }

  wipe(): void {
    this.prepared.wipe();
    this.work.wipe();
  }
}

export interface KmacOptions {
  /** Customization string S. */
  customization?: Bytes | string;
}

/**
 * KMAC128/KMAC256 or KMACXOF128/256 in one call (hazmat: no key-length policy). `length` is the
 * output in bytes.
 */
export function kmac(
  strength: Strength,
  key: Bytes,
  message: Bytes,
  length: number,
  options: KmacOptions & { xof?: boolean } = {},
): Bytes {
  assertBytes(key, "key");
  assertBytes(message, "message");
  assertInteger(length, "length", 0, 2 ** 31 - 1);
  const kernel = new KmacKernel(
    strength,
    key,
    length,
    bytesOrText(options.customization ?? "", "options.customization"),
    options.xof === true,
  );
  const out = new Uint8Array(length);
  kernel.compute(message, out);
  kernel.wipe();
  return out;
}

function kmacAlgorithm(name: MacName, strength: Strength): MacAlgorithm {
  const full = strength === 128 ? 32 : 64;
  return {
    name,
    // SP 800-185 8.4.1: the key should be at least as long as the security strength.
    key: { kind: "variable", minimum: strength / 8 },
    tag: {
      full,
      safeMinimum: 10,
      maximum: 65536,
      variableOutput: true,
      basis: "SP 800-185 8.4.2 and keyed's default: at least 80 bits",
    },
    extraOptions: ["customization"],
    fieldEncoding: "tuple",
    createKernel: (key, outputLength, options) =>
      new KmacKernel(
        strength,
        key,
        outputLength,
        bytesOrText(options.customization ?? "", "options.customization"),
      ),
  };
}

export const KMAC_ALGORITHMS = {
  kmac128: kmacAlgorithm("kmac128", 128),
  kmac256: kmacAlgorithm("kmac256", 256),
} as const;

/** A KMAC128 prepared key (default 32-byte tag; `tagLength` sets L). */
export const kmac128 = (key: Bytes, options?: MacOptions): PreparedMac =>
  new PreparedMac(KMAC_ALGORITHMS.kmac128, key, options);
/** A KMAC256 prepared key (default 64-byte tag; `tagLength` sets L; keys of 32 bytes or more). */
export const kmac256 = (key: Bytes, options?: MacOptions): PreparedMac =>
  new PreparedMac(KMAC_ALGORITHMS.kmac256, key, options);
