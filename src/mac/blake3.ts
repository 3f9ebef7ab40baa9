/**
 * BLAKE3 keyed hashing as a MAC (the BLAKE3 specification section 2.3, keyed_hash mode): a 32-byte
 * key, a 32-byte tag by default. BLAKE3's output is extendable and every shorter output is a prefix
 * of a longer one, so `tagLength` may be anything from the policy minimum to 64 bytes.
 */
import { assertBytes, assertInteger, assertString, type Bytes } from "../core/bytes.js";
import type { MacAlgorithm, MacKernel, MacKernelState, MacOptions } from "../core/mac.js";
import { PreparedMac } from "../core/prepared-mac.js";
import { redactKeyMaterial } from "../core/redact.js";
import type { WasmBlake3 } from "../engine/wasm-blake3.js";
import { wasmFamily } from "../engine/wasm-families.js";
import {
  Blake3,
  blake3Into,
  contextKeyWords,
  DERIVE_KEY_MATERIAL,
  KEYED_HASH,
  keyWords,
} from "../hash/blake3.js";

/** BLAKE3 keyed_hash under one key on one backend. */
interface Blake3Core {
  compute(message: Bytes, out: Bytes): void;
  start(): MacKernelState;
  wipe(): void;
}

/** The TypeScript kernel: one reusable hasher under the key words. */
class JsBlake3Mac implements Blake3Core {
  private readonly key: Int32Array;
  private readonly outputLength: number;
  /** The work state, made on first need. */
  private work: Blake3 | undefined;

  constructor(key: Int32Array, outputLength: number) {
    this.key = key;
    this.outputLength = outputLength;
  }

  compute(message: Bytes, out: Bytes): void {
    const work = (this.work ??= new Blake3(this.key, KEYED_HASH)).reset();
    work.absorb(message, 0, message.length);
    work.finishInto(out, 0, this.outputLength);
  }

  start(): MacKernelState {
    const state = new Blake3(this.key, KEYED_HASH);
    return {
      update: (chunk) => state.absorb(chunk, 0, chunk.length),
      finish: (out) => state.finishInto(out, 0, this.outputLength),
      wipe: () => state.wipe(),
    };
  }

  wipe(): void {
    this.key.fill(0);
    this.work?.wipe();
  }
}

redactKeyMaterial(JsBlake3Mac);

/**
 * The WebAssembly kernel (engine/wasm-blake3.ts), faster than the TypeScript one at every length:
 * the first message through the module's transient state, so a one-shot `mac(…).tag(…)` sets up
 * no slot, and later ones through this key's own slot (or the transient state again when every
 * slot is taken, MAX_LIVE_SLOTS).
 */
class WasmBlake3Mac implements Blake3Core {
  private readonly wasm: WasmBlake3;
  private readonly key: Int32Array;
  private readonly outputLength: number;
  /** This key's slot, from the second message on (0: none). */
  private slot = 0;
  private messages = 0;
  /** The TypeScript kernel, for streams when every slot is taken. */
  private readonly js: JsBlake3Mac;

  constructor(wasm: WasmBlake3, key: Int32Array, outputLength: number) {
    this.wasm = wasm;
    this.key = key;
    this.outputLength = outputLength;
    this.js = new JsBlake3Mac(key, outputLength);
  }

  compute(message: Bytes, out: Bytes): void {
    const wasm = this.wasm;
    if (this.slot !== 0) {
      wasm.hashInto(this.slot, message, out, this.outputLength);
    } else if (
      this.messages++ === 0 ||
      (this.slot = wasm.allocate(this, this.key, KEYED_HASH)) === 0
    ) {
      // The first message, or every message once the module's slots are all taken.
      wasm.oneShotInto(this.key, KEYED_HASH, message, out, this.outputLength);
    } else {
      wasm.hashInto(this.slot, message, out, this.outputLength);
    }
  }

  start(): MacKernelState {
    const stream = new WasmBlake3Stream(this.wasm, this.key, this.outputLength);
    // Every slot taken (MAX_LIVE_SLOTS): the TypeScript kernel serves this stream.
    return stream.slot !== 0 ? stream : this.js.start();
  }

  wipe(): void {
    this.js.wipe();
    if (this.slot !== 0) this.wasm.release(this.slot, this);
    this.slot = 0;
  }
}

redactKeyMaterial(WasmBlake3Mac);

/**
 * A keyed_hash key. The backend is chosen once, here: the WebAssembly kernel where the module has
 * loaded, else the TypeScript one. (On Chrome's main thread the 12.7 KB module compiles in the
 * background; keys made before it is ready keep the TypeScript kernel.)
 */
class Blake3Kernel implements MacKernel {
  readonly outputLength: number;
  private readonly core: Blake3Core;

  constructor(key: Uint8Array, outputLength: number) {
    this.outputLength = outputLength;
    const words = keyWords(key);
    const wasm = wasmFamily("blake3")?.wasmBlake3();
    this.core =
      wasm === undefined
        ? new JsBlake3Mac(words, outputLength)
        : new WasmBlake3Mac(wasm, words, outputLength);
  }

  compute(message: Bytes, out: Bytes): void {
    this.core.compute(message, out);
  }

  start(): MacKernelState {
    return this.core.start();
  }

  wipe(): void {
    this.core.wipe();
  }
}

redactKeyMaterial(Blake3Kernel);

/** A stream on the WebAssembly kernel: its chunk state and subtree stack live in a slot of its own. */
class WasmBlake3Stream implements MacKernelState {
  private readonly wasm: WasmBlake3;
  private readonly outputLength: number;
  private live: boolean;

  /** 0 when the module had no free slot: the caller then takes the TypeScript kernel. */
  readonly slot: number;

  constructor(wasm: WasmBlake3, key: Int32Array, outputLength: number) {
    this.wasm = wasm;
    this.outputLength = outputLength;
    this.slot = wasm.allocate(this, key, KEYED_HASH);
    this.live = this.slot !== 0;
  }

  update(chunk: Bytes): void {
    this.wasm.absorb(this.slot, chunk);
  }

  finish(out: Bytes): void {
    this.wasm.finishInto(this.slot, out, this.outputLength);
  }

  wipe(): void {
    if (!this.live) return;
    this.live = false;
    this.wasm.release(this.slot, this);
  }
}

redactKeyMaterial(WasmBlake3Stream);

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
  // The kernel copies or derives what it keeps (see MacAlgorithm.copiesKey).
  copiesKey: true,
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
  const key = contextKeyWords(context);
  const out = new Uint8Array(length);
  blake3Into(key, DERIVE_KEY_MATERIAL, material, out, length);
  key.fill(0);
  return out;
}
