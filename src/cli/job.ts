/// <reference types="node" />
/**
 * One unit of work: stream one file (or stdin) through a MAC in fixed-size chunks, so memory
 * stays flat whatever the file's size. Runs on the main thread or in a worker (worker.ts).
 */
import { open, stat } from "node:fs/promises";
import { blake3File } from "../hazmat.js";
import { equal, type MacName, type MacOptions, mac } from "../index.js";
import { keysetFromRecord, wipeKeyset } from "../safe/keyset.js";
import type { KeysetRecord } from "../safe/keyset-record.js";

/** Where file bytes go: a tagging or a verifying stream. */
type Sink = { update(chunk: Uint8Array): unknown };

import { describeFileError } from "./errors.js";

/** Bytes read per call: large enough to amortize the read, small enough to stay flat in memory. */
export const CHUNK_SIZE = 1024 * 1024;

/**
 * BLAKE3 files of at least this size are hashed on every core (blake3File: the tree split across
 * threads) when the command runs its files on the main thread; below it, starting a thread costs
 * about what it saves.
 */
export const TREE_MIN_BYTES = 64 * 1024 * 1024;

/** An algorithm and key, as sent to workers (structured clone). */
export interface MacSpec {
  algorithm: MacName;
  key: Uint8Array;
  allowShortKeys: boolean;
  allowShortTags: boolean;
  /**
   * With --keyset: the keyset's enabled keys (then `algorithm` and `key` are unused). A worker
   * rebuilds the keyset from it and wipes it.
   */
  keyset?: KeysetRecord | undefined;
}

/** Wipes the key bytes a spec carries (the worker's structured-clone copy). */
export function wipeSpec(spec: MacSpec): void {
  spec.key.fill(0);
  for (const key of spec.keyset?.keys ?? []) key.key?.fill(0);
}

export interface Job {
  /** Position in the input order. */
  index: number;
  /** A file path, or "-" for stdin (main thread only). */
  path: string;
  spec: MacSpec;
  /** When set, the job verifies this tag instead of computing one. */
  expected?: Uint8Array | undefined;
}

export type Outcome =
  | { index: number; kind: "tag"; tag: Uint8Array }
  | { index: number; kind: "verify"; ok: boolean }
  | { index: number; kind: "error"; message: string; missing: boolean };

/** What a worker posts back: progress (bytes read since the last report), then the outcome. */
export type WorkerMessage =
  | { type: "progress"; bytes: number }
  | { type: "done"; outcome: Outcome };

export function macOptions(spec: Pick<MacSpec, "allowShortKeys" | "allowShortTags">): MacOptions {
  const options: MacOptions = {};
  if (spec.allowShortKeys) options.allowShortKeys = true;
  if (spec.allowShortTags) options.allowShortTags = true;
  return options;
}

/** Two read buffers: one is hashed while the next chunk is read into the other. */
export type ReadBuffers = readonly [Uint8Array, Uint8Array];

export function newReadBuffers(): ReadBuffers {
  return [new Uint8Array(CHUNK_SIZE), new Uint8Array(CHUNK_SIZE)];
}

/**
 * Reads `path` chunk by chunk into `stream`. The next read runs (on libuv's thread pool) while
 * the current chunk is hashed, so reading and hashing overlap; only one read is in flight at a
 * time, so the file position advances in order.
 */
async function feedFile(
  path: string,
  stream: Sink,
  buffers: ReadBuffers,
  onBytes: (bytes: number) => void,
): Promise<void> {
  const handle = await open(path, "r");
  let pending: Promise<{ bytesRead: number }> | undefined;
  try {
    let current = 0;
    pending = handle.read(buffers[current], 0, CHUNK_SIZE, null);
    for (;;) {
      const { bytesRead } = await pending;
      pending = undefined;
      if (bytesRead === 0) break;
      const filled = buffers[current].subarray(0, bytesRead);
      current ^= 1;
      pending = handle.read(buffers[current], 0, CHUNK_SIZE, null);
      stream.update(filled);
      onBytes(bytesRead);
    }
  } finally {
    // A read still in flight (after an error) must finish before the handle closes.
    await pending?.catch(() => {});
    await handle.close();
  }
}

async function feedStdin(stream: Sink, onBytes: (bytes: number) => void): Promise<void> {
  for await (const chunk of process.stdin) {
    const bytes = chunk as Buffer;
    stream.update(bytes);
    onBytes(bytes.length);
  }
}

function feed(
  job: Job,
  stream: Sink,
  buffers: ReadBuffers,
  onBytes: (bytes: number) => void,
): Promise<void> {
  return job.path === "-"
    ? feedStdin(stream, onBytes)
    : feedFile(job.path, stream, buffers, onBytes);
}

/** The outcome of a job that failed on `error`, naming its file. */
function errorOutcome(job: Job, error: unknown): Outcome {
  const missing = (error as { code?: unknown }).code === "ENOENT";
  return { index: job.index, kind: "error", message: describeFileError(job.path, error), missing };
}

/**
 * A BLAKE3 job on `threads` threads (this one included), or undefined when the input is not a
 * regular file of TREE_MIN_BYTES or more. The tag is keyed_hash's 32 bytes, the MAC's tag.
 */
async function treeJob(
  job: Job,
  threads: number,
  onBytes: (bytes: number) => void,
): Promise<Outcome | undefined> {
  try {
    const stats = await stat(job.path);
    if (!stats.isFile() || stats.size < TREE_MIN_BYTES) return undefined;
    const options = { key: job.spec.key, threads, mainThread: true, onProgress: onBytes };
    const tag = await blake3File(job.path, options);
    if (job.expected === undefined) return { index: job.index, kind: "tag", tag };
    const ok = equal(tag, job.expected);
    tag.fill(0);
    return { index: job.index, kind: "verify", ok };
  } catch (error) {
    return errorOutcome(job, error);
  }
}

/**
 * Runs `job`, reading through `buffers` (reused from job to job), and reports progress through
 * `onBytes`; a large BLAKE3 file goes to `threads` threads when there are several. Read errors
 * become an "error" outcome naming the file.
 */
export async function runJob(
  job: Job,
  buffers: ReadBuffers,
  onBytes: (bytes: number) => void,
  threads = 1,
): Promise<Outcome> {
  // One BLAKE3 key (not a keyset) on a large file: the tree on every core.
  if (threads > 1 && job.spec.algorithm === "blake3" && !job.spec.keyset && job.path !== "-") {
    const outcome = await treeJob(job, threads, onBytes);
    if (outcome !== undefined) return outcome;
  }
  const keyset =
    job.spec.keyset === undefined ? undefined : keysetFromRecord(copyRecord(job.spec.keyset));
  const prepared = keyset ?? mac(job.spec.algorithm, job.spec.key, macOptions(job.spec));
  try {
    // The tag is known before the file: a verifying stream keeps constant memory for every
    // algorithm, the ChaCha20-Poly1305 MACs included (their key setup needs the tag's nonce).
    if (job.expected !== undefined) {
      const checking = prepared.verifyingStream(job.expected);
      await feed(job, checking, buffers, onBytes);
      return { index: job.index, kind: "verify", ok: checking.verify() };
    }
    const stream = prepared.stream();
    await feed(job, stream, buffers, onBytes);
    return { index: job.index, kind: "tag", tag: stream.digest() };
  } catch (error) {
    return errorOutcome(job, error);
  } finally {
    if (keyset === undefined) (prepared as ReturnType<typeof mac>).destroy();
    else wipeKeyset(keyset);
  }
}

/** A copy of a record with its own key bytes (keysetFromRecord wipes the ones it is given). */
function copyRecord(record: KeysetRecord): KeysetRecord {
  return {
    primaryId: record.primaryId,
    keys: record.keys.map((key) => ({ ...key, key: key.key && new Uint8Array(key.key) })),
  };
}
