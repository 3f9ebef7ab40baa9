/**
 * The one implementation of the Mac contract (core/mac.ts): `PreparedMac` wraps any algorithm's
 * `MacKernel` and owns verification (constant time, `equalPrefix`), truncation, one-time and nonce
 * rules, batches and streams, and destruction — written once, so no algorithm can get them wrong.
 */
import { assertBytes, type Bytes, copyBytes, EMPTY_BYTES as NO_NONCE } from "./bytes.js";
import { equalPrefix } from "./equal.js";
import { KeyedError } from "./errors.js";
import { encodeFields, encodeFieldsTuple, type Field } from "./fields.js";
import {
  checkKey,
  checkMacOptions,
  type Mac,
  type MacAlgorithm,
  type MacKernel,
  type MacKernelState,
  type MacName,
  type MacOptions,
  type MacStream,
  type MacVerifyingStream,
  resolveTagLength,
} from "./mac.js";
import { describeType } from "./options.js";
import { fillNonce } from "./random.js";
import { redactKeyMaterial } from "./redact.js";

/** Batches up to this many messages reuse one buffer for the kernel's outputs. */
const BATCH_SCRATCH_MESSAGES = 64;

/** Checks a batch: an array whose every entry is bytes (BAD_INPUT naming the first that is not). */
function checkBatch(items: unknown, name: string): asserts items is readonly Bytes[] {
  if (!Array.isArray(items)) {
    throw new KeyedError(
      "BAD_INPUT",
      `${name} must be an array of Uint8Array; got ${describeType(items)}.`,
    );
  }
  for (let i = 0; i < items.length; i++) {
    // The name is built only for a refusal: a template string per entry costs more than its check.
    const item = items[i];
    if (!(item instanceof Uint8Array) || item.length === 0) assertBytes(item, `${name}[${i}]`);
  }
}

function destroyedError(name: string): KeyedError {
  return new KeyedError("DESTROYED", `this ${name} key was destroyed; create a new Mac to go on.`);
}

/**
 * The kernel for a copy of `key`, wiped once the kernel has taken what it keeps (kept apart from the
 * constructor: V8 inlines a caller's callees only within a budget of bytecode, and a key per message
 * is the path that budget must cover).
 */
function kernelOnCopy(algorithm: MacAlgorithm, key: Bytes, shape: MacShape): MacKernel {
  const own = copyBytes(key);
  try {
    return algorithm.createKernel(own, shape.outputLength, shape.checked);
  } finally {
    own.fill(0);
  }
}

function keyReusedError(algorithm: MacName, used: boolean, messages: number): KeyedError {
  return new KeyedError(
    "KEY_REUSED",
    used
      ? `a ${algorithm} key authenticates one message only, and this one was already used: ` +
          "derive a fresh one-time key per message (as ChaCha20-Poly1305 does)."
      : `a ${algorithm} key authenticates one message only; a batch of ${messages} ` +
          "would use it for each: derive a fresh one-time key per message.",
  );
}

function checkOut(out: Bytes, tagLength: number): void {
  assertBytes(out, "out");
  if (out.length !== tagLength) {
    throw new KeyedError(
      "BAD_INPUT",
      `out must be exactly tagLength (${tagLength}) bytes; got ${out.length}.`,
    );
  }
}

/**
 * What a key's rules come to for one algorithm and its options: lengths, the nonce rule, one-time
 * use, the field encoding. The same for every key made without options, so those share one (a
 * key object per message, Poly1305's normal use, then sets a handful of fields, not a dozen).
 */
interface MacShape {
  readonly algorithm: MacAlgorithm;
  readonly checked: MacOptions;
  readonly tagLength: number;
  /** Bytes of nonce in front of the tag (0 for most MACs). */
  readonly nonceLength: number;
  /** Bytes of authenticator after the nonce: the resolved `tagLength` option. */
  readonly authLength: number;
  /** What the kernel writes: the full tag, or KMAC's configured output length. */
  readonly outputLength: number;
  /** Tags one key may make with random nonces (Infinity when none), and the standard that says so. */
  readonly nonceLimit: number;
  readonly nonceBasis: string;
  readonly oneTime: boolean;
  readonly encode: (purpose: string, fields: readonly Field[]) => Uint8Array;
  /** Set when the full tag is shorter than the safe minimum and allowShortTags was not given. */
  readonly shortTagReason: string | undefined;
}

function shapeOf(algorithm: MacAlgorithm, options: unknown): MacShape {
  const checked = checkMacOptions(algorithm, options);
  const authLength = resolveTagLength(algorithm, checked);
  const nonceLength = algorithm.nonceLength ?? 0;
  return {
    algorithm,
    checked,
    tagLength: nonceLength + authLength,
    nonceLength,
    authLength,
    outputLength: algorithm.tag.variableOutput ? authLength : algorithm.tag.full,
    nonceLimit: algorithm.nonceLimit?.invocations ?? Number.POSITIVE_INFINITY,
    nonceBasis: algorithm.nonceLimit?.basis ?? "",
    oneTime: algorithm.oneTime === true,
    encode: algorithm.fieldEncoding === "tuple" ? encodeFieldsTuple : encodeFields,
    shortTagReason:
      authLength < algorithm.tag.safeMinimum && !checked.allowShortTags
        ? algorithm.tag.basis
        : undefined,
  };
}

/** The shape of each algorithm's keys made without options, on first need. */
const DEFAULT_SHAPES = new WeakMap<MacAlgorithm, MacShape>();

/** The last default shape asked for: a WeakMap lookup costs ~5 ns, a compare ~1. */
let lastShape: MacShape | undefined;

function defaultShape(algorithm: MacAlgorithm): MacShape {
  if (lastShape !== undefined && lastShape.algorithm === algorithm) return lastShape;
  let shape = DEFAULT_SHAPES.get(algorithm);
  if (shape === undefined) {
    shape = shapeOf(algorithm, undefined);
    DEFAULT_SHAPES.set(algorithm, shape);
  }
  lastShape = shape;
  return shape;
}

export class PreparedMac implements Mac {
  // Every field is declared and set in the constructor alone: a field with an initializer (or a
  // plain declaration) makes V8 call an initializer function on each construction, and a key per
  // message (Poly1305's normal use) pays it every time.
  /** The algorithm this key was prepared for. */
  declare readonly algorithm: MacName;
  declare readonly tagLength: number;
  /** @internal */ declare readonly kernel: MacKernel;
  declare private readonly shape: MacShape;
  /**
   * Full kernel output before truncation, made on first need (a one-shot full-length tag never
   * needs it); wiped after each use.
   */
  declare private scratchBytes: Uint8Array | undefined;
  /** Full kernel outputs of a batch (tagMany, verifyMany), made on first need; wiped after each. */
  declare private batch: Uint8Array | undefined;
  declare private readonly nonce: Uint8Array;
  /** Tags made with a random nonce so far, against the shape's nonceLimit. */
  declare private nonceUses: number;
  declare private destroyed: boolean;
  declare private used: boolean;

  constructor(algorithm: MacAlgorithm, key: Bytes, options?: MacOptions) {
    assertBytes(key, "key");
    const shape = options === undefined ? defaultShape(algorithm) : shapeOf(algorithm, options);
    checkKey(algorithm, key, shape.checked);
    this.algorithm = algorithm.name;
    this.shape = shape;
    this.tagLength = shape.tagLength;
    // A kernel that copies or derives what it keeps is given `key` itself; any other a copy.
    this.kernel =
      algorithm.copiesKey === true
        ? algorithm.createKernel(key, shape.outputLength, shape.checked)
        : kernelOnCopy(algorithm, key, shape);
    this.nonce = shape.nonceLength === 0 ? NO_NONCE : new Uint8Array(shape.nonceLength);
    this.scratchBytes = undefined;
    this.batch = undefined;
    this.nonceUses = 0;
    this.destroyed = false;
    this.used = false;
  }

  /** Bytes of nonce in front of the tag (0 for most MACs). */
  private get nonceLength(): number {
    return this.shape.nonceLength;
  }

  /** Bytes of authenticator after the nonce. */
  private get authLength(): number {
    return this.shape.authLength;
  }

  /** The kernel-output scratch (see scratchBytes). */
  private get scratch(): Uint8Array {
    return (this.scratchBytes ??= new Uint8Array(this.kernel.outputLength));
  }

  /** Tags shorter than the safe minimum may be made (hash tables) but not checked without the flag. */
  private checkVerifiable(): void {
    const reason = this.shape.shortTagReason;
    if (reason !== undefined) {
      throw new KeyedError(
        "TAG_LENGTH",
        `${this.algorithm} tags are ${this.authLength} bytes, too short to verify without allowShortTags: ${reason}.`,
      );
    }
  }

  /**
   * Every use starts here: DESTROYED, then KEY_REUSED for a one-time key used before (or asked
   * for `messages` > 1 at once; a batch of none is no use).
   */
  private begin(messages = 1): void {
    if (this.destroyed) throw destroyedError(this.algorithm);
    if (this.shape.oneTime && messages > 0) {
      if (this.used || messages > 1) throw keyReusedError(this.algorithm, this.used, messages);
      this.used = true;
    }
  }

  tag(message: Bytes, out?: Bytes): Bytes {
    assertBytes(message, "message");
    if (out !== undefined) checkOut(out, this.tagLength);
    this.begin();
    if (out === undefined) out = new Uint8Array(this.tagLength);
    const kernel = this.kernel;
    if (this.nonceLength > 0) {
      this.drawNonce(out);
      kernel.compute(message, this.scratch, this.nonce);
      this.truncateInto(out);
    } else if (kernel.outputLength === this.tagLength) {
      kernel.compute(message, out);
    } else {
      kernel.compute(message, this.scratch);
      this.truncateInto(out);
    }
    return out;
  }

  verify(message: Bytes, tag: Bytes): boolean {
    assertBytes(message, "message");
    assertBytes(tag, "tag");
    this.checkVerifiable();
    this.begin();
    // The tag is computed whatever the length of the candidate, so a wrong length costs the same.
    this.kernel.compute(message, this.scratch, this.readNonce(tag));
    return this.compareAndWipe(tag);
  }

  tagMany(messages: readonly Bytes[], out?: Bytes): Bytes {
    checkBatch(messages, "messages");
    const n = messages.length;
    const tagLength = this.tagLength;
    if (out !== undefined) {
      assertBytes(out, "out");
      if (out.length !== n * tagLength) {
        throw new KeyedError(
          "BAD_INPUT",
          `out must be exactly messages.length × tagLength (${n} × ${tagLength} = ${n * tagLength}) bytes; got ${out.length}.`,
        );
      }
    }
    this.begin(n);
    // All or nothing: a batch that would pass the nonce limit makes no tag.
    if (this.nonceLength > 0 && this.nonceUses + n > this.shape.nonceLimit) this.countNonce(n);
    if (out === undefined) out = new Uint8Array(n * tagLength);
    const kernel = this.kernel;
    if (this.nonceLength > 0) {
      // Every message's nonce drawn now, in one call to the random source (each is drawn at the
      // moment of use all the same: within this call, never ahead of it).
      const nonceLength = this.nonceLength;
      const nonces = fillNonce(new Uint8Array(n * nonceLength));
      const nonce = this.nonce;
      for (let i = 0; i < n; i++) {
        this.countNonce();
        for (let j = 0; j < nonceLength; j++) {
          const byte = nonces[i * nonceLength + j];
          nonce[j] = byte;
          out[i * tagLength + j] = byte;
        }
        kernel.compute(messages[i], this.scratch, nonce);
        this.truncateInto(out, i * tagLength);
      }
      nonces.fill(0);
    } else if (kernel.computeMany !== undefined && n > 1) {
      if (kernel.outputLength === tagLength) {
        kernel.computeMany(messages, out);
      } else {
        const full = this.batchScratch(n);
        kernel.computeMany(messages, full);
        const outputLength = kernel.outputLength;
        for (let i = 0; i < n; i++)
          for (let j = 0; j < tagLength; j++) out[i * tagLength + j] = full[i * outputLength + j];
        full.fill(0);
      }
    } else {
      for (let i = 0; i < n; i++) {
        kernel.compute(messages[i], this.scratch);
        this.truncateInto(out, i * tagLength);
      }
    }
    return out;
  }

  verifyMany(messages: readonly Bytes[], tags: readonly Bytes[]): boolean[] {
    checkBatch(messages, "messages");
    checkBatch(tags, "tags");
    const n = messages.length;
    if (tags.length !== n) {
      throw new KeyedError(
        "BAD_INPUT",
        `tags must hold one tag per message: ${n} messages, ${tags.length} tags.`,
      );
    }
    this.checkVerifiable();
    this.begin(n);
    const results = new Array<boolean>(n);
    const kernel = this.kernel;
    if (this.nonceLength === 0 && kernel.computeMany !== undefined && n > 1) {
      // Every expected tag is computed first, whatever the candidates' lengths (as verify does).
      const full = this.batchScratch(n);
      kernel.computeMany(messages, full);
      const outputLength = kernel.outputLength;
      for (let i = 0; i < n; i++) {
        const tag = tags[i];
        results[i] = equalPrefix(full, this.authLength, tag, this.nonceLength, i * outputLength);
      }
      // Computed tags that did not match are forgeries for their messages: wipe them all.
      full.fill(0);
      return results;
    }
    for (let i = 0; i < n; i++) {
      kernel.compute(messages[i], this.scratch, this.readNonce(tags[i]));
      results[i] = this.compareAndWipe(tags[i]);
    }
    return results;
  }

  /**
   * Room for `n` full kernel outputs, kept for the next batch of that size or less; the caller
   * wipes what it used. Batches of up to 64 reuse it; longer ones get their own.
   */
  private batchScratch(n: number): Uint8Array {
    const length = n * this.kernel.outputLength;
    if (n > BATCH_SCRATCH_MESSAGES) return new Uint8Array(length);
    if (this.batch === undefined)
      this.batch = new Uint8Array(BATCH_SCRATCH_MESSAGES * this.kernel.outputLength);
    return this.batch.subarray(0, length);
  }

  tagFields(purpose: string, fields: readonly Field[], out?: Bytes): Bytes {
    return this.tag(this.shape.encode(purpose, fields), out);
  }

  verifyFields(purpose: string, fields: readonly Field[], tag: Bytes): boolean {
    return this.verify(this.shape.encode(purpose, fields), tag);
  }

  stream(): MacStream {
    this.begin();
    if (this.nonceLength === 0) return new PreparedMacStream(this, this.kernel.start());
    // Drawn now for the kernel's key setup, counted only if the stream makes a tag (finishInto).
    const nonce = fillNonce(new Uint8Array(this.nonceLength));
    return new PreparedMacStream(this, this.kernel.start(nonce), nonce);
  }

  verifyingStream(tag: Bytes): MacVerifyingStream {
    assertBytes(tag, "tag");
    this.checkVerifiable();
    this.begin();
    const expected = copyBytes(tag);
    const nonce = this.nonceLength === 0 ? undefined : copyBytes(this.readNonce(expected)!);
    return new PreparedMacStream(this, this.kernel.start(nonce), nonce, expected);
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.kernel.wipe();
    this.scratchBytes?.fill(0);
    this.batch?.fill(0);
  }

  /** @internal */
  get isDestroyed(): boolean {
    return this.destroyed;
  }

  /** @internal For tests: the count of random-nonce tags, to start it near the limit. */
  get nonceInvocations(): number {
    return this.nonceUses;
  }
  /** @internal */
  set nonceInvocations(count: number) {
    this.nonceUses = count;
  }

  /** Counts one random-nonce tag against the limit; NONCE_LIMIT past it (or past `asking` more). */
  private countNonce(asking = 1): void {
    const { nonceLimit, nonceBasis } = this.shape;
    if (this.nonceUses + asking > nonceLimit) {
      throw new KeyedError(
        "NONCE_LIMIT",
        asking === 1
          ? `this ${this.algorithm} key has made ${this.nonceUses} tags with random nonces, the most ` +
              `${nonceBasis} allows; a repeated nonce would become too likely. Use a new key.`
          : `this ${this.algorithm} key has made ${this.nonceUses} tags with random nonces; ${asking} ` +
              `more would pass the ${nonceLimit} that ${nonceBasis} allows. Use a new key.`,
      );
    }
    this.nonceUses++;
  }

  /**
   * Counts a tag (countNonce), then writes a fresh random nonce to the front of `out`, drawn now
   * (never ahead: a cloned or snapshotted process must not repeat them).
   */
  private drawNonce(out: Bytes): void {
    this.countNonce();
    const nonce = fillNonce(this.nonce);
    for (let i = 0; i < nonce.length; i++) out[i] = nonce[i];
  }

  /** The nonce at the front of a candidate tag (zeros where it is too short: it will fail). */
  private readNonce(tag: Bytes): Bytes | undefined {
    const n = this.nonceLength;
    if (n === 0) return undefined;
    const nonce = this.nonce;
    for (let i = 0; i < n; i++) nonce[i] = i < tag.length ? tag[i] : 0;
    return nonce;
  }

  /** Copies the leftmost `authLength` bytes of the kernel output to out[offset ..] after the nonce. */
  private truncateInto(out: Bytes, offset = 0): void {
    const scratch = this.scratch;
    const n = offset + this.nonceLength;
    for (let i = 0; i < this.authLength; i++) out[n + i] = scratch[i];
    scratch.fill(0);
  }

  /** Compares the kernel output with the tag part of `tag` in constant time, then wipes it. */
  private compareAndWipe(tag: Bytes): boolean {
    const ok = equalPrefix(this.scratch, this.authLength, tag, this.nonceLength);
    // A computed tag that did not match is a forgery for this message: never leave it in memory.
    this.scratch.fill(0);
    return ok;
  }

  /** @internal `nonce`: the one the stream started with (nonce MACs). */
  finishInto(state: MacKernelState, out: Bytes, nonce: Bytes | undefined): void {
    if (nonce !== undefined) {
      this.countNonce();
      for (let i = 0; i < nonce.length; i++) out[i] = nonce[i];
      state.finish(this.scratch, nonce);
      this.truncateInto(out);
    } else if (this.kernel.outputLength === this.tagLength) {
      state.finish(out);
    } else {
      state.finish(this.scratch);
      this.truncateInto(out);
    }
  }

  /** @internal */
  finishAndCompare(state: MacKernelState, tag: Bytes): boolean {
    this.checkVerifiable();
    state.finish(this.scratch, this.readNonce(tag));
    return this.compareAndWipe(tag);
  }
}

redactKeyMaterial(PreparedMac, (m) => ({ algorithm: m.algorithm, tagLength: m.tagLength }));

class PreparedMacStream implements MacStream, MacVerifyingStream {
  private readonly owner: PreparedMac;
  private readonly state: MacKernelState;
  /** Nonce MACs: the nonce this stream started with (wiped with the stream). */
  private readonly nonce: Bytes | undefined;
  /** A verifying stream's copy of the tag it checks. */
  private readonly expected: Bytes | undefined;
  private finished = false;

  constructor(owner: PreparedMac, state: MacKernelState, nonce?: Bytes, expected?: Bytes) {
    this.owner = owner;
    this.state = state;
    this.nonce = nonce;
    this.expected = expected;
  }

  private check(): void {
    if (this.owner.isDestroyed) {
      this.state.wipe();
      throw destroyedError(this.owner.algorithm);
    }
    if (this.finished) {
      throw new KeyedError(
        "FINISHED",
        "this stream already produced its tag; start a new stream().",
      );
    }
  }

  update(chunk: Bytes): this {
    this.check();
    assertBytes(chunk, "chunk");
    this.state.update(chunk);
    return this;
  }

  digest(out?: Bytes): Bytes {
    this.check();
    if (out === undefined) out = new Uint8Array(this.owner.tagLength);
    else checkOut(out, this.owner.tagLength);
    if (this.expected !== undefined) {
      throw new KeyedError("BAD_INPUT", "a verifyingStream() only verifies; use stream() to tag.");
    }
    this.finished = true;
    try {
      this.owner.finishInto(this.state, out, this.nonce);
    } finally {
      this.wipe();
    }
    return out;
  }

  verify(tag?: Bytes): boolean {
    this.check();
    if (this.expected !== undefined && tag === undefined) tag = this.expected;
    assertBytes(tag, "tag");
    this.finished = true;
    try {
      return this.owner.finishAndCompare(this.state, tag);
    } finally {
      this.wipe();
    }
  }

  private wipe(): void {
    this.state.wipe();
    this.nonce?.fill(0);
    this.expected?.fill(0);
  }
}

redactKeyMaterial(PreparedMacStream);
