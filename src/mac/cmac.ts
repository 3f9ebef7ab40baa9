/**
 * CMAC (SP 800-38B, RFC 4493) over AES, and AES-CMAC-PRF-128 (RFC 4615).
 *
 * The subkeys K1 = dbl(L) and K2 = dbl(K1), L = E(K, 0^128), are derived once per key (SP 800-38B
 * 6.1). Three backends give the same tags: WebAssembly (vector-permute AES, the whole CBC chain in
 * one call), node:crypto's AES-CBC for long messages (src/engine/select.ts), and the bitsliced
 * JavaScript AES, whose chain stays in the sliced domain from the first block to the last.
 */

import {
  aesRounds,
  BitslicedAes,
  newPackedBlock,
  type PackedBlock,
  packBlock,
  unpackBlock,
  xorPackedBlock,
} from "../cipher/aes.js";
import { assertBytes, type Bytes } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import type { MacAlgorithm, MacKernel, MacKernelState, MacOptions } from "../core/mac.js";
import { PreparedMac } from "../core/prepared-mac.js";
import { redactKeyMaterial } from "../core/redact.js";
import type { NativeCmac } from "../engine/native-cmac.js";
import { nativeFamily } from "../engine/native-families.js";
import type { WasmAes, WasmAesKey } from "../engine/wasm-aes.js";
import type { WasmFamilies } from "../engine/wasm-all.js";
import { wasmFamily } from "../engine/wasm-families.js";

/** dbl(S) (SP 800-38B 6.1, RFC 4493 2.3): S << 1, then ⊕ 0x87 if the top bit was set, in place. */
function double(block: Uint8Array): void {
  const carry = block[0] >>> 7;
  for (let i = 0; i < 15; i++) block[i] = ((block[i] << 1) | (block[i + 1] >>> 7)) & 0xff;
  // Constant time: the mask is 0x87 or 0 without a branch on the secret bit.
  block[15] = ((block[15] << 1) & 0xff) ^ (-carry & 0x87);
}

/**
 * A CMAC chaining value carried between calls, opaque to the caller: eight words, the sliced block
 * for the JavaScript kernel or 16 plain bytes for the WebAssembly one. Start from `newPackedBlock()`.
 */
export type CmacChain = PackedBlock;

/** CMAC under one key on one backend. */
interface CmacCore {
  compute(message: Bytes, out: Bytes): void;
  /** Runs `blocks` whole blocks from data[offset] through the chain; none may be the last. */
  absorb(chain: CmacChain, data: Uint8Array, offset: number, blocks: number): void;
  /** The last block, data[offset .. offset + count) with 0 ≤ count ≤ 16, then the tag; zeroes the chain. */
  finish(chain: CmacChain, data: Uint8Array, offset: number, count: number, out: Bytes): void;
  /** K1 ‖ K2 into `out` (32 bytes). */
  subkeys(out: Uint8Array): void;
  wipe(): void;
}

/** @internal The JavaScript kernel: the schedule and both subkeys in sliced form. */
export class BitslicedCmac implements CmacCore {
  private readonly aes: BitslicedAes;
  private readonly k1 = newPackedBlock();
  private readonly k2 = newPackedBlock();
  /** The chaining value of `compute`. */
  private readonly x = newPackedBlock();
  /** The last block, padded, when it is partial. */
  private readonly last = new Uint8Array(16);

  constructor(key: Bytes) {
    this.aes = new BitslicedAes(key);
    const l = new Uint8Array(16);
    this.aes.encryptBlock(l, 0, l, 0);
    double(l);
    packBlock(l, 0, this.k1);
    double(l);
    packBlock(l, 0, this.k2);
    l.fill(0);
  }

  compute(message: Bytes, out: Bytes): void {
    const x = this.x;
    x.fill(0);
    const length = message.length;
    // All blocks but the last (an empty message has one, empty, last block).
    const lastStart = length === 0 ? 0 : (Math.ceil(length / 16) - 1) * 16;
    this.absorb(x, message, 0, lastStart / 16);
    this.finish(x, message, lastStart, length - lastStart, out);
  }

  absorb(x: CmacChain, data: Uint8Array, offset: number, blocks: number): void {
    for (let end = offset + 16 * blocks; offset < end; offset += 16) {
      xorPackedBlock(data, offset, x);
      this.aes.encryptPacked(x);
    }
  }

  /** The last block (complete: ⊕ K1; partial: padded, ⊕ K2), then the tag. */
  finish(x: CmacChain, data: Uint8Array, offset: number, count: number, out: Bytes): void {
    if (count === 16) {
      xorPackedBlock(data, offset, x);
      xorPacked(x, this.k1);
    } else {
      const last = this.last;
      last.fill(0);
      for (let i = 0; i < count; i++) last[i] = data[offset + i];
      last[count] = 0x80;
      xorPackedBlock(last, 0, x);
      xorPacked(x, this.k2);
      last.fill(0);
    }
    this.aes.encryptPacked(x);
    unpackBlock(x, out, 0);
    x.fill(0);
  }

  subkeys(out: Uint8Array): void {
    unpackBlock(this.k1, out, 0);
    unpackBlock(this.k2, out, 16);
  }

  wipe(): void {
    this.aes.wipe();
    this.k1.fill(0);
    this.k2.fill(0);
    this.x.fill(0);
  }
}

redactKeyMaterial(BitslicedCmac);

function xorPacked(x: PackedBlock, y: PackedBlock): void {
  for (let j = 0; j < 8; j++) x[j] ^= y[j];
}

const ZERO_CHAIN = newPackedBlock();

/** @internal The WebAssembly kernel: round keys, K1 and K2 in a slot; the CBC chain runs in one call. */
export class WasmCmac implements CmacCore {
  private readonly key: WasmAesKey;

  constructor(glue: WasmFamilies["aes"], wasm: WasmAes, key: Bytes) {
    aesRounds(key);
    this.key = new glue.WasmAesKey(wasm, key, "cmac");
  }

  compute(message: Bytes, out: Bytes): void {
    const key = this.key;
    const length = message.length;
    const slot = key.acquire();
    if (length <= key.wasm.msgCapacity) {
      key.input(message, 0, length);
      key.exports.cmac(slot, length);
      key.takeOut(out, 0);
    } else {
      const lastStart = (Math.ceil(length / 16) - 1) * 16;
      key.loadState(ZERO_CHAIN);
      key.feed(slot, message, 0, lastStart, key.exports.cmac_update);
      const count = length - lastStart;
      key.input(message, lastStart, count);
      key.exports.cmac_final(slot, count);
      key.takeOut(out, 0);
    }
    key.release(slot);
  }

  absorb(x: CmacChain, data: Uint8Array, offset: number, blocks: number): void {
    // The chain lives across calls, and so must the key: a slot of its own.
    const key = this.key;
    const slot = key.own();
    key.loadState(x);
    key.feed(slot, data, offset, 16 * blocks, key.exports.cmac_update);
    key.saveState(x);
    key.release(slot);
  }

  finish(x: CmacChain, data: Uint8Array, offset: number, count: number, out: Bytes): void {
    const key = this.key;
    // A chain that absorbed anything has put the key in its own slot.
    const slot = key.acquire();
    key.loadState(x);
    key.input(data, offset, count);
    key.exports.cmac_final(slot, count);
    key.takeOut(out, 0);
    x.fill(0);
    key.release(slot);
  }

  subkeys(out: Uint8Array): void {
    const key = this.key;
    const slot = key.acquire();
    const at = slot + key.exports.CMAC_SUBKEYS.value;
    out.set(key.memory().subarray(at, at + 32));
    key.release(slot);
  }

  wipe(): void {
    this.key.wipe();
  }
}

redactKeyMaterial(WasmCmac);

/** CMAC under one AES key: WebAssembly where available, node:crypto on long messages. */
export class CmacKernel implements MacKernel {
  readonly outputLength = 16;
  private readonly core: CmacCore;
  /** node:crypto's AES-CBC for long inputs (engine/native-cmac.ts), where this build has it. */
  private readonly native: NativeCmac | undefined;

  constructor(key: Bytes) {
    const glue = wasmFamily("aes");
    const wasm = glue?.wasmAes();
    this.core =
      glue === undefined || wasm === undefined
        ? new BitslicedCmac(key)
        : new WasmCmac(glue, wasm, key);
    this.native = nativeFamily("cmac")?.for(key, this.core);
  }

  compute(message: Bytes, out: Bytes): void {
    const native = this.native;
    if (native?.serves(message.length)) native.compute(message, out);
    else this.core.compute(message, out);
  }

  /** @internal Runs one full, non-final block at data[offset] through `chain`. */
  absorb(chain: CmacChain, data: Uint8Array, offset: number): void {
    this.core.absorb(chain, data, offset, 1);
  }

  /** @internal The last block (complete: ⊕ K1; partial: padded, ⊕ K2), then the tag; zeroes `chain`. */
  finishInto(chain: CmacChain, data: Uint8Array, offset: number, count: number, out: Bytes): void {
    this.core.finish(chain, data, offset, count, out);
  }

  start(): MacKernelState {
    const startOwn = () => new CmacState(this.core);
    return this.native === undefined ? startOwn() : this.native.start(startOwn);
  }

  wipe(): void {
    this.native?.wipe();
    this.core.wipe();
  }
}

redactKeyMaterial(CmacKernel);

/** @internal Incremental CMAC: up to 16 bytes are held back, since the last block is treated apart. */
export class CmacState implements MacKernelState {
  private readonly core: CmacCore;
  private readonly x = newPackedBlock();
  private readonly pending = new Uint8Array(16);
  private pendingLength = 0;

  constructor(core: CmacCore) {
    this.core = core;
  }

  update(chunk: Bytes): void {
    const pending = this.pending;
    let pos = 0;
    const length = chunk.length;
    if (length === 0) return;
    // A full pending block is final only if nothing follows; something does, so absorb it.
    if (this.pendingLength === 16) {
      this.core.absorb(this.x, pending, 0, 1);
      this.pendingLength = 0;
    }
    if (this.pendingLength > 0) {
      while (this.pendingLength < 16 && pos < length) pending[this.pendingLength++] = chunk[pos++];
      if (pos === length) return;
      this.core.absorb(this.x, pending, 0, 1);
      this.pendingLength = 0;
    }
    // Whole blocks straight from the chunk, keeping back at least one byte's block.
    const blocks = Math.floor((length - pos - 1) / 16);
    if (blocks > 0) {
      this.core.absorb(this.x, chunk, pos, blocks);
      pos += 16 * blocks;
    }
    while (pos < length) pending[this.pendingLength++] = chunk[pos++];
  }

  finish(out: Bytes): void {
    this.core.finish(this.x, this.pending, 0, this.pendingLength, out);
  }

  wipe(): void {
    this.x.fill(0);
    this.pending.fill(0);
  }
}

redactKeyMaterial(CmacState);

// --- AES-CMAC-PRF-128 (RFC 4615) ----------------------------------------------------------------

const ZERO_KEY = new Uint8Array(16);

/**
 * AES-CMAC-PRF-128 (RFC 4615 section 3): a 16-byte PRF output for a key of any length. A 16-byte
 * key is used as is; any other is first condensed to K = AES-CMAC(0^128, key). TCP-AO's
 * KDF_AES_128_CMAC (RFC 5926 3.1.1.2) uses it.
 */
export function aesCmacPrf128(key: Bytes, message: Bytes): Bytes {
  assertBytes(key, "key");
  assertBytes(message, "message");
  const out = new Uint8Array(16);
  let derived: Uint8Array | undefined;
  if (key.length !== 16) {
    derived = new Uint8Array(16);
    const condense = new CmacKernel(ZERO_KEY);
    condense.compute(key, derived);
    condense.wipe();
  }
  const kernel = new CmacKernel(derived ?? key);
  kernel.compute(message, out);
  kernel.wipe();
  derived?.fill(0);
  return out;
}

// --- registry ---------------------------------------------------------------------------------

export type CmacName = "cmac-aes128" | "cmac-aes192" | "cmac-aes256";

function cmacAlgorithm(name: CmacName, keyLength: number): MacAlgorithm {
  return {
    name,
    key: { kind: "fixed", length: keyLength },
    tag: {
      full: 16,
      safeMinimum: 8,
      maximum: 16,
      basis: "SP 800-38B 5.5 and appendix A: at least 64 bits",
    },
    // The kernel copies or derives what it keeps (see MacAlgorithm.copiesKey).
    copiesKey: true,
    createKernel: (key) => new CmacKernel(key),
  };
}

export const CMAC_ALGORITHMS: Record<CmacName, MacAlgorithm> = {
  "cmac-aes128": cmacAlgorithm("cmac-aes128", 16),
  "cmac-aes192": cmacAlgorithm("cmac-aes192", 24),
  "cmac-aes256": cmacAlgorithm("cmac-aes256", 32),
};

const CMAC_BY_KEY_LENGTH: Record<number, CmacName> = {
  16: "cmac-aes128",
  24: "cmac-aes192",
  32: "cmac-aes256",
};

/** A CMAC prepared key; the AES size follows the key (16, 24 or 32 bytes). */
export function cmac(key: Bytes, options?: MacOptions): PreparedMac {
  assertBytes(key, "key");
  const name = CMAC_BY_KEY_LENGTH[key.length];
  if (name === undefined) {
    throw new KeyedError(
      "KEY_LENGTH",
      `CMAC takes an AES key of 16, 24 or 32 bytes; got ${key.length}.`,
    );
  }
  return new PreparedMac(CMAC_ALGORITHMS[name], key, options);
}
