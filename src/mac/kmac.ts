/**
 * KMAC128 and KMAC256 (SP 800-185 section 4): KMAC(K, X, L, S) = cSHAKE(bytepad(encode_string(K),
 * rate) ‖ X ‖ right_encode(L), L, "KMAC", S). The output length L is an input, so a shorter KMAC tag
 * is a different tag, not a prefix: `tagLength` sets L and verify computes with that L.
 *
 * The prefix blocks (function name, customization and padded key) depend only on the key and S, so
 * they are absorbed once per key and each tag starts from a copy of that sponge state.
 */

import { assertBytes, assertInteger, type Bytes, copyBytes } from "../core/bytes.js";
import type { MacAlgorithm, MacKernel, MacKernelState, MacName, MacOptions } from "../core/mac.js";
import { checkOptions } from "../core/options.js";
import { PreparedMac } from "../core/prepared-mac.js";
import { redactKeyMaterial } from "../core/redact.js";
import type { WasmFamilies } from "../engine/wasm-all.js";
import { wasmFamily } from "../engine/wasm-families.js";
import type { WasmKeccak } from "../engine/wasm-keccak.js";
import {
  absorbBytepad,
  bytepad,
  bytesOrText,
  cshakeSponge,
  type Keccak,
  putBytepad,
  rateOf,
  rightEncode,
  type Strength,
} from "../hash/keccak.js";

const KMAC = new TextEncoder().encode("KMAC");
/** cSHAKE's domain bits 00 with pad10*1's first 1 (SP 800-185 3.3). */
const CSHAKE_SUFFIX = 0x04;

/**
 * right_encode(bits) for the output lengths in use: public, read-only, and slow to build. Cached up
 * to the longest tag (64 KiB), so hazmat calls with arbitrary lengths cannot grow the cache.
 */
const SUFFIXES = new Map<number, Uint8Array>();
function suffixFor(bits: number): Uint8Array {
  let suffix = SUFFIXES.get(bits);
  if (suffix === undefined) {
    suffix = rightEncode(bits);
    if (bits <= 8 * 65536) SUFFIXES.set(bits, suffix);
  }
  return suffix;
}

/** The sponge after cSHAKE's prefix and bytepad(encode_string(K)): what every tag starts from. */
function keyedSponge(strength: Strength, key: Uint8Array, customization: Uint8Array): Keccak {
  const sponge = cshakeSponge(strength, KMAC, customization);
  absorbBytepad(sponge, [key]);
  return sponge;
}

/** KMAC under one key on one backend. */
interface KmacCore {
  compute(message: Bytes, out: Bytes): void;
  start(): MacKernelState;
  wipe(): void;
}

/** The parts of a KMAC key every backend needs: the rate, right_encode(L) and L. */
interface KmacParams {
  readonly rate: number;
  /** right_encode(L) (or right_encode(0) for KMACXOF), fixed per key. */
  readonly suffix: Uint8Array;
  readonly outputLength: number;
}

/** The TypeScript kernel: keyed's sponge after the prefix blocks, and a working copy. */
class JsKmac implements KmacCore {
  private readonly params: KmacParams;
  private readonly prepared: Keccak;
  private readonly work: Keccak;

  constructor(params: KmacParams, strength: Strength, key: Uint8Array, customization: Uint8Array) {
    this.params = params;
    this.prepared = keyedSponge(strength, key, customization);
    this.work = this.prepared.clone();
  }

  compute(message: Bytes, out: Bytes): void {
    const work = this.prepared.copyTo(this.work);
    work.absorb(message, 0, message.length);
    this.finish(work, out);
  }

  private finish(work: Keccak, out: Bytes): void {
    const { suffix, outputLength } = this.params;
    work.absorb(suffix, 0, suffix.length);
    work.squeeze(out, 0, outputLength);
    work.wipe();
  }

  start(): MacKernelState {
    const state = this.prepared.clone();
    return {
      update: (chunk) => state.absorb(chunk, 0, chunk.length),
      finish: (out) => this.finish(state, out),
      wipe: () => state.wipe(),
    };
  }

  wipe(): void {
    this.prepared.wipe();
    this.work.wipe();
  }
}

redactKeyMaterial(JsKmac);

/** A Keccak-f[1600] state, b = 1600 bits (FIPS 202 section 3.1), as a key slot holds it. */
const STATE_BYTES = 200;

/**
 * The WebAssembly kernel (src/engine/wasm-keccak.ts). The first use runs from the zero state over
 * the prefix blocks, the message and right_encode(L) in one call; from the second use on, the
 * prefix blocks are absorbed once into a key slot and each tag is one call from a copy of it.
 */
class WasmKmac implements KmacCore {
  private readonly params: KmacParams;
  private readonly glue: WasmFamilies["keccak"];
  private readonly wasm: WasmKeccak;
  /**
   * Until the key slot holds their sponge state: the strings of the prefix blocks,
   * bytepad(encode_string("KMAC") ‖ encode_string(S)) ‖ bytepad(encode_string(K)). The key is
   * keyed's own copy, wiped once the slot is set up.
   */
  private prefix: readonly (readonly Uint8Array[])[] | undefined;
  private key: Uint8Array | undefined;
  /** The key slot with the prepared state, or 0 before the second use. */
  private slot = 0;
  private uses = 0;

  constructor(
    params: KmacParams,
    glue: WasmFamilies["keccak"],
    wasm: WasmKeccak,
    key: Uint8Array,
    customization: Uint8Array,
  ) {
    this.params = params;
    this.glue = glue;
    this.wasm = wasm;
    this.key = copyBytes(key);
    this.prefix = [[KMAC, copyBytes(customization)], [this.key]];
  }

  /**
   * The state a tag starts from: the key slot, or (first use) ZERO with the prefix blocks still to
   * absorb. A slot is set up on the second use: a one-shot `mac(…).tag(…)` is cheaper without one,
   * and leaves none behind for the garbage collector to release.
   */
  private source(): number {
    if (this.slot !== 0) return this.slot;
    if (this.uses++ === 0) return this.glue.keccakLayout.zero;
    const wasm = this.wasm;
    const slot = wasm.allocate(this);
    // Every slot taken (MAX_LIVE_SLOTS): each tag absorbs the prefix blocks again, from ZERO.
    if (slot === 0) return this.glue.keccakLayout.zero;
    this.absorbPrefix(slot);
    this.key?.fill(0);
    this.key = undefined;
    this.prefix = undefined;
    this.slot = slot;
    return slot;
  }

  /** Absorbs the prefix blocks into the zero state at `state` (they end on a block boundary). */
  private absorbPrefix(state: number): void {
    const wasm = this.wasm;
    const rate = this.params.rate;
    const prefix = this.prefix as readonly (readonly Uint8Array[])[];
    const length = putBytepad(undefined, 0, prefix, rate);
    if (length <= wasm.msgCapacity) {
      putBytepad(wasm.bytes(), wasm.msg, prefix, rate);
      wasm.exports.absorb(state, 0, length, rate);
      wasm.bytes().fill(0, wasm.msg, wasm.msg + length);
    } else {
      const blocks = bytepad(prefix, rate);
      this.glue.absorbInWasm(wasm, state, 0, rate, blocks);
      blocks.fill(0);
    }
  }

  compute(message: Bytes, out: Bytes): void {
    const wasm = this.wasm;
    const { rate, suffix, outputLength } = this.params;
    const source = this.source();
    const prefix = source === this.slot ? undefined : this.prefix;
    const prefixLength = prefix === undefined ? 0 : putBytepad(undefined, 0, prefix, rate);
    const length = prefixLength + message.length + suffix.length;
    if (length <= wasm.msgCapacity && outputLength <= this.glue.keccakLayout.outCapacity) {
      // One call: MSG ← [prefix blocks ‖] X ‖ right_encode(L).
      const memory = wasm.bytes();
      const msg = wasm.msg;
      if (prefix !== undefined) putBytepad(memory, msg, prefix, rate);
      memory.set(message, msg + prefixLength);
      memory.set(suffix, msg + prefixLength + message.length);
      wasm.exports.tag(source, length, rate, CSHAKE_SUFFIX, outputLength);
      wasm.takeOut(out, outputLength, length);
      return;
    }
    // Long messages or outputs: the same steps in pieces, on the scratch state.
    const state = this.glue.keccakLayout.state;
    wasm.bytes().copyWithin(state, source, source + STATE_BYTES);
    if (prefix !== undefined) this.absorbPrefix(state);
    this.finish(state, this.glue.absorbInWasm(wasm, state, 0, rate, message), out);
    wasm.bytes().fill(0, state, state + STATE_BYTES);
  }

  /** Absorbs right_encode(L), pads and squeezes the tag from the sponge at `state`. */
  private finish(state: number, pos: number, out: Bytes): void {
    const { rate, suffix, outputLength } = this.params;
    pos = this.glue.absorbInWasm(this.wasm, state, pos, rate, suffix);
    this.glue.finishInWasm(this.wasm, state, pos, rate, CSHAKE_SUFFIX, out, outputLength);
  }

  /** A stream whose sponge lives in a slot of its own, from a copy of the key's state. */
  start(): MacKernelState {
    const wasm = this.wasm;
    const rate = this.params.rate;
    const source = this.source();
    let slot = 0;
    let pos = 0;
    const stream: MacKernelState = {
      update: (chunk) => {
        pos = this.glue.absorbInWasm(wasm, slot, pos, rate, chunk);
      },
      finish: (out) => this.finish(slot, pos, out),
      wipe: () => {
        if (slot === 0) return;
        wasm.release(slot, stream);
        slot = 0;
      },
    };
    slot = wasm.allocate(stream);
    if (slot === 0) return this.startSlotless(source);
    if (source === this.slot) wasm.bytes().copyWithin(slot, source, source + STATE_BYTES);
    else this.absorbPrefix(slot);
    return stream;
  }

  /**
   * A stream when every slot is taken (MAX_LIVE_SLOTS): its sponge is kept here, in GC'd memory,
   * and goes through the module's scratch state for each call (zeroed after it).
   */
  private startSlotless(source: number): MacKernelState {
    const wasm = this.wasm;
    const rate = this.params.rate;
    const scratch = this.glue.keccakLayout.state;
    const saved = new Uint8Array(STATE_BYTES);
    const load = () => wasm.bytes().set(saved, scratch);
    const save = () => {
      const memory = wasm.bytes();
      saved.set(memory.subarray(scratch, scratch + STATE_BYTES));
      memory.fill(0, scratch, scratch + STATE_BYTES);
    };
    wasm.bytes().copyWithin(scratch, source, source + STATE_BYTES);
    if (source !== this.slot) this.absorbPrefix(scratch);
    save();
    let pos = 0;
    return {
      update: (chunk) => {
        load();
        pos = this.glue.absorbInWasm(wasm, scratch, pos, rate, chunk);
        save();
      },
      finish: (out) => {
        load();
        this.finish(scratch, pos, out);
        wasm.bytes().fill(0, scratch, scratch + STATE_BYTES);
        saved.fill(0);
      },
      wipe: () => saved.fill(0),
    };
  }

  wipe(): void {
    if (this.slot !== 0) this.wasm.release(this.slot, this);
    this.slot = 0;
    this.key?.fill(0);
    this.key = undefined;
    this.prefix = undefined;
  }
}

redactKeyMaterial(WasmKmac);

/**
 * KMAC under one key. The backend is chosen once, here: WebAssembly where it loads, else keyed's
 * JavaScript sponge from a prepared copy.
 */
export class KmacKernel implements MacKernel {
  readonly outputLength: number;
  private readonly core: KmacCore;
  /**
   * Streams not yet finished: their states (as key-equivalent as the prepared one) are wiped with
   * it. Weak, so an abandoned stream is still collected (and its slot released); where WeakRef is
   * missing (workerd before compatibility date 2025-05-05) the stream itself is held.
   */
  private readonly streams = new Set<{ deref(): MacKernelState | undefined }>();

  constructor(
    strength: Strength,
    key: Uint8Array,
    outputLength: number,
    customization: Uint8Array,
    xof = false,
  ) {
    this.outputLength = outputLength;
    const params: KmacParams = {
      rate: rateOf(strength),
      suffix: suffixFor(xof ? 0 : outputLength * 8),
      outputLength,
    };
    const glue = wasmFamily("keccak");
    const wasm = glue?.wasmKeccak();
    this.core =
      glue === undefined || wasm === undefined
        ? new JsKmac(params, strength, key, customization)
        : new WasmKmac(params, glue, wasm, key, customization);
  }

  compute(message: Bytes, out: Bytes): void {
    this.core.compute(message, out);
  }

  start(): MacKernelState {
    const stream = this.core.start();
    const streams = this.streams;
    const ref = typeof WeakRef === "function" ? new WeakRef(stream) : { deref: () => stream };
    streams.add(ref);
    const wipe = stream.wipe;
    stream.wipe = () => {
      streams.delete(ref);
      wipe();
    };
    return stream;
  }

  wipe(): void {
    for (const ref of this.streams) ref.deref()?.wipe();
    this.core.wipe();
  }
}

redactKeyMaterial(KmacKernel);

/** KMAC's customization string S (SP 800-185 section 4.2), text as UTF-8. */
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
  checkOptions(options, ["customization", "xof"], "kmac options");
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
    // The kernel copies or derives what it keeps (see MacAlgorithm.copiesKey).
    copiesKey: true,
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
