/**
 * The ChaCha20-Poly1305 and XChaCha20-Poly1305 MACs: the AEAD's tag (RFC 8439 section 2.8,
 * draft-irtf-cfrg-xchacha-03) over an empty plaintext with the message as associated data, so any
 * ChaCha20-Poly1305 implementation can check a keyed tag. The tag construction itself (`aeadTag`)
 * lives here too, below the AEAD (aead/chacha20poly1305.ts), which builds on it.
 */
import { ChaCha20, xchachaKeyInto } from "../cipher/chacha20.js";
import { type Bytes, EMPTY_BYTES as EMPTY, readWordsLE } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import type { MacAlgorithm, MacKernel, MacKernelState, MacName } from "../core/mac.js";
import { redactKeyMaterial } from "../core/redact.js";
import { nativeFamily } from "../engine/native-families.js";
import { loadPoly1305Wasm, Poly1305State, poly1305Aead } from "./poly1305.js";

const TAG_LENGTH = 16;
/**
 * The ChaCha20 state and the Poly1305 one-time key buffer the MAC kernels derive a tag's key in.
 * One set serves every kernel (JavaScript runs one call at a time, and each is wiped before the
 * call returns): a key object per message then costs no allocation for them.
 */
const KEY_STREAM = new ChaCha20(new Uint8Array(32), new Uint8Array(12));
const POLY_KEY = new Uint8Array(32);
/** XChaCha20's per-message subkey and 96-bit nonce, shared the same way. */
const SUBKEY = new Uint8Array(32);
const NONCE12 = new Uint8Array(12);

/** le64(|aad|) ‖ le64(|ciphertext|): public, so one buffer serves every call. */
const LENGTHS = new Uint8Array(16);

/**
 * The AEAD's tag (RFC 8439 2.8): Poly1305 under the one-time key `polyKey` over aad ‖ pad16 ‖
 * ciphertext[0..ctEnd) ‖ pad16 ‖ le64(|aad|) ‖ le64(ctEnd), into out[outOffset..+16).
 */
export function aeadTag(
  polyKey: Uint8Array,
  aad: Uint8Array,
  ciphertext: Uint8Array,
  ctEnd: number,
  out: Uint8Array,
  outOffset: number,
): void {
  const lengths = LENGTHS;
  writeLe64(lengths, 0, aad.length);
  writeLe64(lengths, 8, ctEnd);
  poly1305Aead(polyKey, aad, ciphertext, ctEnd, lengths, out, outOffset);
}

function writeLe64(out: Uint8Array, offset: number, value: number): void {
  const low = value % 0x100000000;
  const high = Math.floor(value / 0x100000000);
  for (let i = 0; i < 4; i++) {
    out[offset + i] = low >>> (8 * i);
    out[offset + 4 + i] = high >>> (8 * i);
  }
}

// --- the MACs ------------------------------------------------------------------------------------

/**
 * `stream().verify(tag)` learns the nonce only from the tag, after the message, and the one-time
 * Poly1305 key depends on it: such a stream keeps up to this many bytes to compute the tag then.
 * Past it the message is dropped, and only the stream's own nonce (its digest) can be served.
 * `verifyingStream(tag)` knows the nonce from the start and keeps nothing.
 */
export const VERIFY_BUFFER_LIMIT = 16 * 1024 * 1024;

/** The core always passes the nonce (MacAlgorithm.nonceLength); a kernel called without one is a bug. */
function needNonce(nonce: Bytes | undefined): asserts nonce is Bytes {
  if (nonce === undefined)
    throw new KeyedError("BAD_INPUT", "the ChaCha20-Poly1305 MAC needs a nonce.");
}

/**
 * Kernel of chacha20-poly1305 and xchacha20-poly1305 as MACs. A stream gets its nonce when it
 * starts, so the one-time key is known and the message goes straight into Poly1305 (constant
 * memory for any length); verifying streams also keep up to VERIFY_BUFFER_LIMIT bytes.
 */
class ChaChaMacKernel implements MacKernel {
  readonly outputLength = TAG_LENGTH;
  private readonly key: Uint8Array;
  /** The key as eight little-endian words, for the WebAssembly kernel's one-call tag. */
  private readonly keyWords = new Int32Array(8);
  private readonly extended: boolean;
  /** Shared by every kernel: used within one call and wiped before it returns (see POLY_KEY). */
  private readonly stream = KEY_STREAM;
  private readonly polyKey = POLY_KEY;
  /** node:crypto's ChaCha20-Poly1305 from the crossover on, where this build has it. */
  private readonly native = nativeFamily("chacha20-poly1305");

  constructor(key: Bytes, extended: boolean) {
    // Copies are new Uint8Arrays here: Buffer#slice gives a view, and this key is wiped.
    this.key = new Uint8Array(key);
    readWordsLE(key, 0, this.keyWords, 0, 8);
    this.extended = extended;
  }

  /**
   * For XChaCha20, SUBKEY and NONCE12 ← the HChaCha20 subkey and 4 zero bytes ‖ the nonce's last 8
   * (draft-irtf-cfrg-xchacha 2.3); the caller wipes SUBKEY. ChaCha20 uses its key and nonce as
   * they are.
   */
  private deriveSubkey(nonce: Bytes): void {
    xchachaKeyInto(this.key, nonce, SUBKEY, NONCE12);
  }

  /** Fills this.polyKey with the one-time key for `nonce` (RFC 8439 2.6; XChaCha: its subkey). */
  private derivePolyKey(nonce: Bytes): Uint8Array {
    if (this.extended) {
      this.deriveSubkey(nonce);
      this.stream.reset(SUBKEY, NONCE12, 0).keystream(this.polyKey, 32);
      SUBKEY.fill(0);
    } else {
      this.stream.reset(this.key, nonce, 0).keystream(this.polyKey, 32);
    }
    this.stream.wipe();
    return this.polyKey;
  }

  compute(message: Bytes, out: Bytes, nonce?: Bytes): void {
    needNonce(nonce);
    const native = this.native;
    if (native?.serves(message.length)) {
      // RFC 8439 2.8 with an empty plaintext, on node:crypto (XChaCha20: under its subkey).
      if (!this.extended) {
        native.tag(this.key, nonce, message, out);
        return;
      }
      this.deriveSubkey(nonce);
      try {
        native.tag(SUBKEY, NONCE12, message, out);
      } finally {
        SUBKEY.fill(0);
      }
      return;
    }
    // The key block, Poly1305 and the lengths in one call into the WebAssembly module.
    const wasm = loadPoly1305Wasm();
    if (wasm !== undefined && message.length <= wasm.capacity) {
      wasm.chachaMacTag(this.keyWords, nonce, message, out);
      return;
    }
    // One ChaCha20 and one Poly1305 key buffer shared by every kernel: no allocation.
    const polyKey = this.derivePolyKey(nonce);
    aeadTag(polyKey, message, EMPTY, 0, out, 0);
    polyKey.fill(0);
  }

  start(nonce?: Bytes): MacKernelState {
    needNonce(nonce);
    return new ChaChaMacStream(this, nonce);
  }

  /** @internal A Poly1305 state keyed for `nonce`, for ChaChaMacStream. */
  poly1305For(nonce: Bytes): Poly1305State {
    const polyKey = this.derivePolyKey(nonce);
    const state = new Poly1305State(polyKey);
    polyKey.fill(0);
    return state;
  }

  wipe(): void {
    this.key.fill(0);
    this.keyWords.fill(0);
  }
}

redactKeyMaterial(ChaChaMacKernel);

/**
 * One stream: Poly1305 over AD ‖ pad16 ‖ le64(|AD|) ‖ le64(0) (RFC 8439 2.8, empty ciphertext)
 * under the nonce the stream started with (drawn for a tag, or read from the tag of a
 * verifyingStream).
 */
class ChaChaMacStream implements MacKernelState {
  readonly nonce: Uint8Array;
  private readonly kernel: ChaChaMacKernel;
  private readonly poly: Poly1305State;
  private length = 0;
  /** The message so far, for a verify under another nonce; undefined past the limit. */
  private chunks: Uint8Array[] | undefined = [];

  constructor(kernel: ChaChaMacKernel, nonce: Bytes) {
    this.kernel = kernel;
    this.nonce = new Uint8Array(nonce);
    this.poly = kernel.poly1305For(this.nonce);
  }

  update(chunk: Bytes): void {
    this.poly.update(chunk);
    this.length += chunk.length;
    if (this.chunks === undefined) return;
    if (this.length > VERIFY_BUFFER_LIMIT) this.dropChunks();
    else this.chunks.push(new Uint8Array(chunk));
  }

  finish(out: Bytes, nonce?: Bytes): void {
    if (nonce === undefined || equalBytes(nonce, this.nonce)) {
      const lengths = LENGTHS;
      writeLe64(lengths, 0, this.length);
      writeLe64(lengths, 8, 0);
      this.poly.padToBlock().update(lengths);
      this.poly.finish(out);
      return;
    }
    // Verifying a tag made under another nonce: its one-time key applies to the whole message.
    this.poly.wipe();
    const chunks = this.chunks;
    if (chunks === undefined) {
      throw new KeyedError(
        "LENGTH",
        `a ${this.nonce.length === 24 ? "xchacha20" : "chacha20"}-poly1305 stream keeps at most ` +
          `${VERIFY_BUFFER_LIMIT} bytes to verify: the one-time key depends on the nonce at the ` +
          "front of the tag, known only at the end. Give the tag first, with " +
          "mac.verifyingStream(tag), which streams any length in constant memory.",
      );
    }
    const message = new Uint8Array(this.length);
    let offset = 0;
    for (const c of chunks) {
      message.set(c, offset);
      offset += c.length;
    }
    this.dropChunks();
    this.kernel.compute(message, out, nonce);
    message.fill(0);
  }

  wipe(): void {
    this.poly.wipe();
    this.dropChunks();
    this.nonce.fill(0);
  }

  private dropChunks(): void {
    for (const c of this.chunks ?? []) c.fill(0);
    this.chunks = undefined;
  }
}

redactKeyMaterial(ChaChaMacStream);

/** True when a and b hold the same bytes (public nonces: no constant time needed). */
function equalBytes(a: Bytes, b: Bytes): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function chachaMacAlgorithm(name: MacName, extended: boolean): MacAlgorithm {
  return {
    name,
    key: { kind: "fixed", length: 32 },
    nonceLength: extended ? 24 : 12,
    // Random 96-bit nonces: SP 800-38D 8.3's bound for random IVs applies alike. 192-bit ones
    // (XChaCha20) can be drawn at random without a practical limit.
    nonceLimit: extended
      ? undefined
      : { invocations: 2 ** 32, basis: "SP 800-38D section 8.3's bound for random 96-bit nonces" },
    tag: { full: 16, safeMinimum: 16, maximum: 16, basis: "RFC 8439: the AEAD tag is 16 bytes" },
    // The kernel copies or derives what it keeps (see MacAlgorithm.copiesKey).
    copiesKey: true,
    createKernel: (key) => new ChaChaMacKernel(key, extended),
  };
}

export const CHACHA_MAC_ALGORITHMS = {
  "chacha20-poly1305": chachaMacAlgorithm("chacha20-poly1305", false),
  "xchacha20-poly1305": chachaMacAlgorithm("xchacha20-poly1305", true),
} as const;
