/**
 * BLAKE3 on every core: `blake3Parallel` (bytes in memory) and `blake3File` (a file), the same bytes
 * as `blake3()` in its three modes and at every output length. BLAKE3 is a tree (the BLAKE3
 * specification, sections 2.1 and 5.1), so complete subtrees are hashed on worker threads and
 * merged in order on the calling thread (src/engine/blake3-parallel.ts). Where the runtime has no
 * worker threads (browsers, KEYED_BACKEND=js) or the input is short, the calling thread hashes it
 * alone; nothing starts a thread until one of these functions is called with enough input.
 *
 * These are primitives without policy, like `blake3()`: the MAC with its key and tag rules is
 * `mac("blake3", key)`. Both return promises, since the work happens elsewhere.
 */
import { assertBytes, assertInteger, assertString, type Bytes } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import { checkOptions } from "../core/options.js";
import {
  blake3TreeInto,
  openFile,
  type TreeOptions,
  treeThreads,
} from "../engine/blake3-parallel.js";
import { wasmFamily } from "../engine/wasm-families.js";
import { Blake3, type Blake3Mode, type Blake3Options, blake3Into, blake3Mode } from "./blake3.js";

export interface Blake3ParallelOptions extends Blake3Options {
  /**
   * Threads to hash on, the calling thread's included when `mainThread` (default, and at most:
   * the available cores; more would only take turns).
   */
  threads?: number;
  /**
   * Hash on the calling thread as well as on worker threads, a few megabytes at a time between
   * turns of its event loop (default false: it only merges). For command-line tools, where
   * nothing else waits for the thread.
   */
  mainThread?: boolean;
  /** Called as input is hashed, with the bytes hashed since its last call. */
  onProgress?: (bytes: number) => void;
}

const OPTION_NAMES = ["key", "context", "length", "threads", "mainThread", "onProgress"] as const;

/**
 * Inputs under this many bytes are hashed on the calling thread: a megabyte takes under a
 * millisecond, about what handing work to threads and back costs.
 */
export const PARALLEL_MIN_BYTES = 1 << 20;

/** Bytes read per call where a file is hashed on the calling thread. */
const READ_SIZE = 1 << 20;

interface Parsed {
  mode: Blake3Mode;
  tree: TreeOptions;
}

function parse(options: unknown, where: string): Parsed {
  const o = checkOptions<Blake3ParallelOptions>(options, OPTION_NAMES, `${where} options`);
  const mainThread = o.mainThread ?? false;
  if (typeof mainThread !== "boolean") {
    throw new KeyedError("BAD_INPUT", `${where}: options.mainThread must be true or false.`);
  }
  if (o.onProgress !== undefined && typeof o.onProgress !== "function") {
    throw new KeyedError("BAD_INPUT", `${where}: options.onProgress must be a function.`);
  }
  const threads =
    o.threads === undefined ? treeThreads() : assertInteger(o.threads, "options.threads", 1, 256);
  const mode = blake3Mode(o);
  // No worker threads here (0): one thread, whatever was asked.
  const usable = Math.max(1, Math.min(threads, treeThreads()));
  return { mode, tree: { threads: usable, mainThread, onProgress: o.onProgress } };
}

/** Whether `length` input bytes go to threads. */
function parallel(tree: TreeOptions, length: number): boolean {
  return tree.threads >= 2 && length >= PARALLEL_MIN_BYTES;
}

/**
 * BLAKE3 of `message` on every core: the bytes `blake3(message, options)` returns (hash,
 * keyed_hash with `key`, derive_key with `context`; `length` bytes of output). A view of a
 * SharedArrayBuffer goes to the threads as it is; other bytes are copied into shared memory first.
 * Do not change `message` until the promise settles.
 */
export async function blake3Parallel(
  message: Bytes,
  options?: Blake3ParallelOptions,
): Promise<Bytes> {
  assertBytes(message, "message");
  const { mode, tree } = parse(options, "blake3Parallel");
  try {
    const out = new Uint8Array(mode.length);
    if (parallel(tree, message.length)) {
      await blake3TreeInto(mode.key, mode.flags, { bytes: message }, out, mode.length, tree);
    } else {
      blake3Into(mode.key, mode.flags, message, out, mode.length);
      tree.onProgress?.(message.length);
    }
    return out;
  } finally {
    mode.key?.fill(0);
  }
}

/**
 * BLAKE3 of the file at `path` on every core (Node): each thread reads its own parts of the file
 * straight into its WebAssembly memory. The file is hashed at the size it has when opened (an error
 * with code "ESHORT" if it shrinks meanwhile); what is not a regular file (a pipe, a device) is
 * read start to end and hashed on the calling thread. Errors from opening or reading are Node's
 * (code "ENOENT", "EACCES", …); where there is no node:fs, UNAVAILABLE.
 */
export async function blake3File(path: string, options?: Blake3ParallelOptions): Promise<Bytes> {
  assertString(path, "path");
  const { mode, tree } = parse(options, "blake3File");
  try {
    if (openFile === undefined) {
      throw new KeyedError(
        "UNAVAILABLE",
        "blake3File reads files with node:fs; this runtime has none.",
      );
    }
    const handle = await openFile(path, "r");
    try {
      const stats = await handle.stat();
      const out = new Uint8Array(mode.length);
      if (stats.isFile() && parallel(tree, stats.size)) {
        const input = { fd: handle.fd, length: stats.size };
        await blake3TreeInto(mode.key, mode.flags, input, out, mode.length, tree);
      } else {
        await hashSequentially(handle, mode, out, tree.onProgress);
      }
      return out;
    } finally {
      await handle.close();
    }
  } finally {
    mode.key?.fill(0);
  }
}

/** Reads `handle` start to end and hashes it on the calling thread. */
async function hashSequentially(
  handle: { read(b: Uint8Array, o: number, l: number, p: null): Promise<{ bytesRead: number }> },
  mode: Blake3Mode,
  out: Uint8Array,
  onProgress: ((bytes: number) => void) | undefined,
): Promise<void> {
  const buffer = new Uint8Array(READ_SIZE);
  const wasm = wasmFamily("blake3")?.wasmBlake3();
  const owner = {};
  const slot = wasm === undefined ? 0 : wasm.allocate(owner, mode.key, mode.flags);
  const js = slot === 0 ? new Blake3(mode.key, mode.flags) : undefined;
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, READ_SIZE, null);
      if (bytesRead === 0) break;
      const piece = buffer.subarray(0, bytesRead);
      if (js === undefined) wasm?.absorb(slot, piece);
      else js.absorb(piece, 0, bytesRead);
      onProgress?.(bytesRead);
    }
    if (js === undefined) wasm?.finishInto(slot, out, mode.length);
    else js.finishInto(out, 0, mode.length);
  } finally {
    if (js === undefined) wasm?.release(slot, owner);
    else js.wipe();
    buffer.fill(0);
  }
}
