/**
 * BLAKE3 on every core (Node): the tree of the BLAKE3 specification (sections 2.1, 5.1) split at
 * chunk-aligned power-of-two boundaries. Worker threads hash complete subtrees to their chaining
 * values on instances of the WebAssembly kernel (src/engine/wasm/assembly/blake3.ts: startAt,
 * absorbFrom, subtree), and the calling thread pushes those values in order onto one state
 * (pushSubtree), absorbs the last chunk and finishes it as usual. The last chunk never goes to a
 * thread, so no subtree is ever the root: the output is the single-threaded one, byte for byte, for
 * every length, mode and output length.
 *
 * Optional and lazy: nothing here runs until a caller asks for threads. Threads exist only where
 * `process.getBuiltinModule("node:worker_threads")` does (Node ≥ 20.16) and the WebAssembly kernel
 * loads; elsewhere `treeThreads()` is 0 and callers take the single-threaded path. The pool is
 * started on first use, and its threads are unref'd whenever no job runs, so it never keeps a
 * process alive. Input reaches the threads as a SharedArrayBuffer (a caller's shared view as it is,
 * other bytes copied in task by task, each task released to the threads once copied) or as a file
 * descriptor that each thread reads straight into its module's memory.
 *
 * Key material: the 8 key words travel in the job's shared control block, whose key words and
 * chaining values are zeroed when the job ends (its counters stay, so a late thread finds no task
 * left); each thread zeroes its state and read buffer after its share of a job.
 */

import { base64ToBytes } from "../core/bytes.js";
import { FORCED_BACKEND } from "./native.js";
import { WASM_BASE64 } from "./wasm/generated/blake3.js";
import { wasmSimd } from "./wasm.js";

/** fs.readSync's shape: reads into buffer[offset..offset + length) from file position `position`. */
type ReadSync = (
  fd: number,
  buffer: Uint8Array,
  offset: number,
  length: number,
  position: number,
) => number;

interface WorkerLike {
  postMessage(message: unknown): void;
  on(event: "message", listener: (message: ThreadMessage) => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  on(event: "exit", listener: (code: number) => void): unknown;
  ref(): void;
  unref(): void;
}

interface NodeModules {
  Worker: new (
    source: string,
    options: { eval: true; workerData: unknown; name?: string },
  ) => WorkerLike;
  readSync: ReadSync;
  cores: number;
}

/** The parts of node:fs/promises' FileHandle that blake3File uses. */
export interface FileHandleLike {
  readonly fd: number;
  stat(): Promise<{ size: number; isFile(): boolean }>;
  read(
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number | null,
  ): Promise<{ bytesRead: number }>;
  close(): Promise<void>;
}

type OpenFile = (path: string, flags: "r") => Promise<FileHandleLike>;

/**
 * What a thread posts back: the last task of job `id` is done, or the job failed there; or, asked
 * with a scan message, the first nonzero byte of its module's memory (-1: none).
 */
type ThreadMessage =
  | { type: "complete"; id: number }
  | { type: "error"; id: number; message: string; code: string | undefined }
  | { type: "scan"; id: number; at: number };

/** A job as posted to a thread: its control block, and the input as shared bytes or a file. */
interface JobMessage {
  id: number;
  control: SharedArrayBuffer;
  /** The input, shared; null when it is read from `fd`. */
  data: Uint8Array | null;
  fd: number;
}

/** A task of a job: the complete subtree of 2^log2 chunks from chunk `start` on. */
export interface TreeTask {
  start: number;
  log2: number;
}

/** The WebAssembly kernel's exports this module uses. */
interface TreeExports {
  memory: WebAssembly.Memory;
  MSG: WebAssembly.Global;
  OUT: WebAssembly.Global;
  OUT_CAPACITY: WebAssembly.Global;
  SLOTS: WebAssembly.Global;
  reset(state: number): void;
  absorb(state: number, length: number): void;
  finish(state: number, outLength: number): void;
  squeeze(state: number, block: number, outLength: number): void;
  clear(state: number): void;
  startAt(state: number, lo: number, hi: number): void;
  absorbFrom(state: number, at: number, length: number): void;
  subtree(state: number): void;
  pushSubtree(state: number, lo: number, hi: number, log2: number): void;
}

/** One thread's instance of the kernel and everything that touches a job's control block. */
interface TreeRunner {
  /** A job's control block: the tasks in order, the key words (undefined: the IV) and the mode. */
  createControl(
    tasks: readonly TreeTask[],
    key: Int32Array | undefined,
    flags: number,
    ready: boolean,
  ): SharedArrayBuffer;
  /** Marks task i's bytes as present (copied into the shared input) and wakes a waiting thread. */
  release(control: SharedArrayBuffer, index: number): void;
  /**
   * Hashes up to `budget` tasks of `job`: 0 (WORK_MORE) when its budget ran out first, 1 when no
   * task was left, 2 (WORK_LAST) when this thread finished the job's last task. On an error the
   * job is marked aborted (the other threads stop at their next task) and the error is thrown.
   */
  work(job: JobMessage, budget: number): number;
  /** Input bytes hashed so far by all threads. */
  progress(control: SharedArrayBuffer): number;
  /** Stops the job's threads at their next task (and wakes those waiting for bytes). */
  abort(control: SharedArrayBuffer): void;
  /**
   * Pushes the tasks' chaining values in order, absorbs `tail` (the last chunk), writes `length`
   * output bytes to `out` and zeroes the control block's secrets and this thread's state.
   */
  merge(control: SharedArrayBuffer, tail: Uint8Array, out: Uint8Array, length: number): void;
  /** Ends the job: ABORT set, the key words and chaining values zeroed (the counters stay). */
  wipe(control: SharedArrayBuffer): void;
  /** The first nonzero byte of this runner's module memory, or -1: what a job leaves behind. */
  firstNonZero(): number;
}

/**
 * A thread's runner over a new instance of `module`. Self-contained (no reference outside its
 * body): it is also the worker threads' source, through `Function.prototype.toString`.
 */
function createTreeRunner(module: WebAssembly.Module, readSync: ReadSync | undefined): TreeRunner {
  // The control block, as 32-bit words: counters first, then the key, then 4 words per task
  // (its first chunk, low and high; log2 of its chunk count; ready), then 8 words of chaining
  // value per task.
  const NEXT = 0; // the next task to claim
  const DONE = 1; // tasks finished
  const ABORT = 2; // nonzero: stop
  const COUNT = 3; // tasks
  const DONE_KIB = 4; // input hashed, in KiB (every task is whole chunks)
  const FLAGS = 5; // the mode flag
  const KEY = 8; // 8 key words
  const TASKS = 16;
  const TWO_32 = 4294967296;
  /** Bytes read or copied per absorb: a quarter of a core's L2, where the kernel then reads them. */
  const PIECE = 262144;

  const exports = new WebAssembly.Instance(module, { env: { abort: () => {} } })
    .exports as unknown as TreeExports;
  const state = exports.SLOTS.value;
  const buffer = state + 2048;
  const missing = buffer + PIECE - exports.memory.buffer.byteLength;
  if (missing > 0) exports.memory.grow(Math.ceil(missing / 65536));
  const memory = new Uint8Array(exports.memory.buffer);
  const words = new Int32Array(exports.memory.buffer);
  const msg = exports.MSG.value;
  const out = exports.OUT.value;
  const outCapacity = exports.OUT_CAPACITY.value;

  const cvAt = (count: number, index: number): number => TASKS + 4 * count + 8 * index;

  function loadKey(control: Int32Array): void {
    for (let i = 0; i < 8; i++) words[(state >> 2) + i] = control[KEY + i];
    words[(state >> 2) + 8] = control[FLAGS];
  }

  function unloadKey(): void {
    for (let i = 0; i <= 8; i++) words[(state >> 2) + i] = 0;
  }

  /**
   * Ends a job: stops it and zeroes its key words and chaining values. NEXT, COUNT and the ready
   * flags stay as they are: a thread between two tasks of the job (its count read before) must
   * find no task left, where a zeroed NEXT gave it task 0 again and a zeroed ready flag had it
   * Atomics.wait forever, never reading its next message.
   */
  function end(control: Int32Array): void {
    Atomics.store(control, ABORT, 1);
    control.fill(0, KEY, KEY + 8);
    control.fill(0, cvAt(control[COUNT], 0));
  }

  /** Reads exactly `length` bytes at file position `position` into the read buffer. */
  function readFully(fd: number, length: number, position: number): void {
    for (let got = 0; got < length; ) {
      const n = (readSync as ReadSync)(fd, memory, buffer + got, length - got, position + got);
      if (n === 0) {
        const error = new Error("the file ended before the size it had when opened");
        (error as { code?: string }).code = "ESHORT";
        throw error;
      }
      got += n;
    }
  }

  function hashTask(job: JobMessage, control: Int32Array, index: number): void {
    const t = TASKS + 4 * index;
    if (job.data !== null && Atomics.load(control, t + 3) === 0) Atomics.wait(control, t + 3, 0);
    const lo = control[t];
    const hi = control[t + 1];
    exports.startAt(state, lo, hi);
    let offset = (hi * TWO_32 + (lo >>> 0)) * 1024;
    for (let left = 1024 * 2 ** control[t + 2]; left > 0; ) {
      const n = Math.min(PIECE, left);
      if (job.data === null) readFully(job.fd, n, offset);
      else memory.set(job.data.subarray(offset, offset + n), buffer);
      exports.absorbFrom(state, buffer, n);
      offset += n;
      left -= n;
      Atomics.add(control, DONE_KIB, n >>> 10);
    }
    exports.subtree(state);
    const cv = cvAt(control[COUNT], index);
    for (let i = 0; i < 8; i++) {
      control[cv + i] = words[(out >> 2) + i];
      words[(out >> 2) + i] = 0;
    }
  }

  return {
    createControl(tasks, key, flags, ready) {
      const control = new Int32Array(new SharedArrayBuffer(4 * cvAt(tasks.length, tasks.length)));
      control[COUNT] = tasks.length;
      control[FLAGS] = flags;
      // Plain hashing's key words are the IV (section 2.1).
      const words = key ?? [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
      ];
      for (let i = 0; i < 8; i++) control[KEY + i] = words[i];
      for (let i = 0; i < tasks.length; i++) {
        const t = TASKS + 4 * i;
        control[t] = (tasks[i].start % TWO_32) | 0;
        control[t + 1] = Math.floor(tasks[i].start / TWO_32);
        control[t + 2] = tasks[i].log2;
        control[t + 3] = ready ? 1 : 0;
      }
      return control.buffer as SharedArrayBuffer;
    },

    release(buffer, index) {
      const control = new Int32Array(buffer);
      Atomics.store(control, TASKS + 4 * index + 3, 1);
      Atomics.notify(control, TASKS + 4 * index + 3);
    },

    work(job, budget) {
      const control = new Int32Array(job.control);
      const count = control[COUNT];
      let result = 0;
      let used = false;
      loadKey(control);
      try {
        for (let done = 0; result === 0 && done < budget; done++) {
          const index = Atomics.load(control, ABORT) === 0 ? Atomics.add(control, NEXT, 1) : count;
          if (index >= count) {
            result = 1;
          } else {
            used = true;
            hashTask(job, control, index);
            if (Atomics.add(control, DONE, 1) + 1 === count) result = 2;
          }
        }
      } catch (error) {
        Atomics.store(control, ABORT, 1);
        throw error;
      } finally {
        exports.clear(state);
        unloadKey();
        if (used) memory.fill(0, buffer, buffer + PIECE);
      }
      return result;
    },

    progress(buffer) {
      return 1024 * Atomics.load(new Int32Array(buffer), DONE_KIB);
    },

    abort(buffer) {
      const control = new Int32Array(buffer);
      Atomics.store(control, ABORT, 1);
      for (let i = 0; i < control[COUNT]; i++) {
        Atomics.store(control, TASKS + 4 * i + 3, 1);
        Atomics.notify(control, TASKS + 4 * i + 3);
      }
    },

    merge(buffer, tail, output, length) {
      const control = new Int32Array(buffer);
      const count = control[COUNT];
      try {
        loadKey(control);
        exports.reset(state);
        for (let i = 0; i < count; i++) {
          const cv = cvAt(count, i);
          for (let j = 0; j < 8; j++) words[(msg >> 2) + j] = control[cv + j];
          const t = TASKS + 4 * i;
          exports.pushSubtree(state, control[t], control[t + 1], control[t + 2]);
        }
        memory.set(tail, msg);
        exports.absorb(state, tail.length);
        memory.fill(0, msg, msg + tail.length);
        for (let done = 0; done < length; done += outCapacity) {
          const n = Math.min(outCapacity, length - done);
          if (done === 0) exports.finish(state, n);
          else exports.squeeze(state, done / 64, n);
          output.set(memory.subarray(out, out + n), done);
          memory.fill(0, out, out + n);
        }
      } finally {
        exports.clear(state);
        unloadKey();
        end(control);
      }
    },

    wipe(buffer) {
      end(new Int32Array(buffer));
    },

    firstNonZero() {
      return memory.findIndex((byte) => byte !== 0);
    },
  };
}

/**
 * The worker threads' program: the runner above on the module it is given, one job per message.
 * `__name` is the helper that tsx (esbuild's keepNames) calls inside functions it transforms,
 * absent from a worker's scope.
 */
const WORKER_SOURCE = `"use strict";
var __name = (f) => f;
const { parentPort, workerData } = process.getBuiltinModule("node:worker_threads");
const { readSync } = process.getBuiltinModule("node:fs");
const runner = (${createTreeRunner.toString()})(workerData.module, readSync);
parentPort.on("message", (job) => {
  if (job.scan === true) {
    parentPort.postMessage({ type: "scan", id: job.id, at: runner.firstNonZero() });
    return;
  }
  try {
    if (runner.work(job, Infinity) === 2) parentPort.postMessage({ type: "complete", id: job.id });
  } catch (error) {
    parentPort.postMessage({
      type: "error",
      id: job.id,
      message: String(error && error.message !== undefined ? error.message : error),
      code: error && typeof error.code === "string" ? error.code : undefined,
    });
  }
});
`;

/** node:worker_threads, node:fs and node:os where the runtime has them (Node ≥ 20.16), else undefined. */
const nodeModules: NodeModules | undefined = (() => {
  // The kernel needs WebAssembly SIMD; without it the TypeScript kernel serves, on one thread.
  if (FORCED_BACKEND === "js" || !wasmSimd) return undefined;
  if (typeof SharedArrayBuffer !== "function" || typeof Atomics !== "object") return undefined;
  const proc = (globalThis as { process?: { getBuiltinModule?: (name: string) => unknown } })
    .process;
  const load = proc?.getBuiltinModule;
  if (typeof load !== "function") return undefined;
  try {
    const threads = load("node:worker_threads") as { Worker?: NodeModules["Worker"] } | undefined;
    const fs = load("node:fs") as { readSync?: ReadSync } | undefined;
    const os = load("node:os") as
      | { availableParallelism?: () => number; cpus?: () => unknown[] }
      | undefined;
    if (threads?.Worker === undefined || fs?.readSync === undefined || os === undefined) {
      return undefined;
    }
    const cores = os.availableParallelism?.() ?? os.cpus?.().length ?? 1;
    return { Worker: threads.Worker, readSync: fs.readSync, cores: Math.max(1, cores) };
  } catch {
    return undefined;
  }
})();

/** node:fs/promises' open where the runtime has it (Node, Deno and Bun's Node layers), else undefined. */
export const openFile: OpenFile | undefined = (() => {
  const proc = (globalThis as { process?: { getBuiltinModule?: (name: string) => unknown } })
    .process;
  try {
    const fs = proc?.getBuiltinModule?.("node:fs") as
      | { promises?: { open?: OpenFile } }
      | undefined;
    const open = fs?.promises?.open;
    return open === undefined ? undefined : (path, flags) => open(path, flags);
  } catch {
    return undefined;
  }
})();

/**
 * The threads this runtime can hash on: its available cores, or 0 where there are no worker
 * threads (browsers, Deno without node:worker_threads, Node before 20.16) or KEYED_BACKEND=js.
 */
export function treeThreads(): number {
  return nodeModules === undefined ? 0 : nodeModules.cores;
}

/**
 * The tasks for the chunks before the last of `chunks` chunks: complete subtrees, each of at most
 * 2^maxLog2 chunks and starting at a multiple of its size, left to right (section 5.1.2's stack
 * takes them in that order). The last chunk stays with the caller, so none of them is the root.
 */
export function splitTree(chunks: number, maxLog2: number): TreeTask[] {
  const tasks: TreeTask[] = [];
  const end = chunks - 1;
  for (let start = 0; start < end; ) {
    let log2 = maxLog2;
    while (log2 > 0 && (start % 2 ** log2 !== 0 || start + 2 ** log2 > end)) log2--;
    tasks.push({ start, log2 });
    start += 2 ** log2;
  }
  return tasks;
}

/** Tasks of at most 4 MiB (2^12 chunks), at least 16 KiB, about 8 per thread on smaller inputs. */
function taskLog2(chunks: number, threads: number): number {
  const per = Math.floor(chunks / (8 * threads));
  return Math.max(4, Math.min(12, per < 1 ? 0 : Math.floor(Math.log2(per))));
}

/** The pool: the kernel module, the calling thread's runner, the worker threads, one job at a time. */
class TreePool {
  readonly main: TreeRunner;
  private readonly module: WebAssembly.Module;
  private readonly modules: NodeModules;
  private readonly workers: WorkerLike[] = [];
  private readonly pending = new Map<
    number,
    { resolve: (at: number) => void; reject: (error: Error) => void }
  >();
  private nextId = 1;
  /** The job running now, which later ones wait for. */
  private running: Promise<unknown> = Promise.resolve();
  private active = 0;

  constructor(modules: NodeModules, local: Local) {
    this.modules = modules;
    this.module = local.module;
    this.main = local.runner;
  }

  /** Runs `job` once every earlier job has ended. */
  serialize<T>(job: () => Promise<T>): Promise<T> {
    const result = this.running.then(job, job);
    this.running = result.catch(() => {});
    return result;
  }

  private spawn(): void {
    const worker = new this.modules.Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { module: this.module },
      name: "keyed blake3",
    });
    worker.on("message", (message) => {
      const job = this.pending.get(message.id);
      if (job === undefined) return;
      this.pending.delete(message.id);
      if (message.type !== "error") {
        job.resolve(message.type === "scan" ? message.at : 0);
      } else {
        const error = new Error(message.message);
        if (message.code !== undefined) (error as { code?: string }).code = message.code;
        job.reject(error);
      }
    });
    const lost = (error: Error) => {
      const at = this.workers.indexOf(worker);
      if (at >= 0) this.workers.splice(at, 1);
      for (const [id, job] of this.pending) {
        this.pending.delete(id);
        job.reject(error);
      }
    };
    worker.on("error", lost);
    worker.on("exit", (code) =>
      lost(new Error(`a BLAKE3 worker thread stopped (exit code ${code})`)),
    );
    if (this.active === 0) worker.unref();
    this.workers.push(worker);
  }

  /**
   * Posts `job` to `count` worker threads (started as needed) and returns the promise of its
   * last task; `settle` must be called once it is no longer awaited.
   */
  start(job: JobMessage, count: number): Promise<void> {
    while (this.workers.length < count) this.spawn();
    if (this.active++ === 0) for (const worker of this.workers) worker.ref();
    const done = new Promise<void>((resolve, reject) => {
      this.pending.set(job.id, { resolve: () => resolve(), reject });
    });
    for (let i = 0; i < count; i++) this.workers[i].postMessage(job);
    return done;
  }

  /** The job no longer waits for its threads: they may exit with the process once idle. */
  settle(id: number): void {
    this.pending.delete(id);
    if (--this.active === 0) for (const worker of this.workers) worker.unref();
  }

  id(): number {
    return this.nextId++;
  }

  /** The first nonzero byte of each worker's module memory (-1: all zeros), between jobs. */
  scan(): Promise<number[]> {
    return Promise.all(
      this.workers.map((worker) => {
        const id = this.nextId++;
        const answer = new Promise<number>((resolve, reject) => {
          this.pending.set(id, { resolve, reject });
        });
        worker.ref();
        worker.postMessage({ scan: true, id });
        return answer.finally(() => {
          if (this.active === 0) worker.unref();
        });
      }),
    );
  }
}

/** The kernel module, compiled once, and the calling thread's runner on it. */
interface Local {
  module: WebAssembly.Module;
  runner: TreeRunner;
}

let local: Local | undefined;
let pool: TreePool | undefined;

/** The calling thread's runner (its own instance of the kernel, apart from wasm-blake3.ts's). */
function localRunner(): Local {
  if (local === undefined) {
    const module = new WebAssembly.Module(base64ToBytes(WASM_BASE64) as Uint8Array<ArrayBuffer>);
    local = { module, runner: createTreeRunner(module, nodeModules?.readSync) };
  }
  return local;
}

/** TreeRunner.work's answers. */
const WORK_MORE = 0;
const WORK_LAST = 2;

/**
 * For tests: the first nonzero byte of the calling thread's and of each worker's module memory
 * (-1: all zeros), after the jobs so far. Empty before the first job.
 */
export function treeMemoryScan(): Promise<number[]> {
  const running = pool;
  if (running === undefined) return Promise.resolve([]);
  return running.serialize(async () => [running.main.firstNonZero(), ...(await running.scan())]);
}

/**
 * The same job on the calling thread alone, without worker threads: `message` split into
 * subtrees of at most 2^maxTaskLog2 chunks, each hashed apart and merged. For the constant-time
 * checks (scripts/ct.ts), which time the subtree exports without threads' noise.
 */
export function blake3TreeSync(
  key: Int32Array | undefined,
  flags: number,
  message: Uint8Array,
  out: Uint8Array,
  length: number,
  maxTaskLog2: number,
): void {
  const { runner } = localRunner();
  const chunks = Math.max(1, Math.ceil(message.length / 1024));
  const control = runner.createControl(splitTree(chunks, maxTaskLog2), key, flags, true);
  try {
    runner.work({ id: 0, control, data: message, fd: -1 }, Number.POSITIVE_INFINITY);
    runner.merge(control, message.subarray(1024 * (chunks - 1)), out, length);
  } finally {
    runner.wipe(control);
  }
}

/** The input: bytes in memory, or `length` bytes of the open file `fd` from position 0. */
export type TreeInput = { bytes: Uint8Array } | { fd: number; length: number };

export interface TreeOptions {
  /** Threads in all, the calling thread's included when `mainThread` (at least 2). */
  threads: number;
  /** The calling thread hashes tasks too (and is blocked while it does): for command-line tools. */
  mainThread: boolean;
  /** Called with the number of input bytes hashed since its last call. */
  onProgress?: ((bytes: number) => void) | undefined;
  /** Largest task, as log2 of its chunks (tests force small tasks to cross many boundaries). */
  maxTaskLog2?: number | undefined;
}

/**
 * `length` bytes of BLAKE3 output of `input` under 8 key words (undefined: the IV) in mode `flags`,
 * into `out`, computed on threads. Requires treeThreads() > 0. Jobs run one at a time.
 */
export function blake3TreeInto(
  key: Int32Array | undefined,
  flags: number,
  input: TreeInput,
  out: Uint8Array,
  length: number,
  options: TreeOptions,
): Promise<void> {
  if (nodeModules === undefined) throw new Error("BLAKE3 threads are not available here");
  pool ??= new TreePool(nodeModules, localRunner());
  const running = pool;
  const spec = { key, flags, input, out, length, options };
  return running.serialize(() => runJob(running, spec));
}

/** blake3TreeInto's arguments. */
interface JobSpec {
  key: Int32Array | undefined;
  flags: number;
  input: TreeInput;
  out: Uint8Array;
  length: number;
  options: TreeOptions;
}

async function runJob(pool: TreePool, spec: JobSpec): Promise<void> {
  const { key, flags, input, out, length, options } = spec;
  const bytes = "bytes" in input ? input.bytes : undefined;
  const total = bytes === undefined ? (input as { length: number }).length : bytes.length;
  const chunks = Math.max(1, Math.ceil(total / 1024));
  const workers = options.mainThread ? options.threads - 1 : options.threads;
  const tasks = splitTree(chunks, options.maxTaskLog2 ?? taskLog2(chunks, options.threads));
  // Shared input as it is; other bytes are copied into shared memory task by task below.
  const shared = bytes !== undefined && bytes.buffer instanceof SharedArrayBuffer;
  const data =
    bytes === undefined
      ? null
      : shared
        ? bytes
        : new Uint8Array(new SharedArrayBuffer(1024 * (chunks - 1)));
  const control = pool.main.createControl(tasks, key, flags, data === null || shared);
  const job: JobMessage = {
    id: pool.id(),
    control,
    data,
    fd: "fd" in input ? input.fd : -1,
  };
  const onProgress = options.onProgress;
  let reported = 0;
  const report = () => {
    if (onProgress === undefined) return;
    const now = pool.main.progress(control);
    if (now > reported) onProgress(now - reported);
    reported = now;
  };
  const done = tasks.length === 0 ? Promise.resolve() : pool.start(job, workers);
  // Awaited only when the calling thread does not finish the job itself.
  done.catch(() => {});
  const timer = onProgress === undefined ? undefined : setInterval(report, 50);
  try {
    if (bytes !== undefined && !shared && data !== null) {
      for (let i = 0; i < tasks.length; i++) {
        const from = 1024 * tasks[i].start;
        data.set(bytes.subarray(from, from + 1024 * 2 ** tasks[i].log2), from);
        pool.main.release(control, i);
      }
    }
    let finished = tasks.length === 0;
    // The calling thread's share, a few tasks at a time, letting its event loop turn between
    // them (progress reports, the threads' messages).
    for (let state = WORK_MORE; options.mainThread && !finished && state === WORK_MORE; ) {
      state = pool.main.work(job, 4);
      finished = state === WORK_LAST;
      if (state === WORK_MORE) {
        report();
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    if (!finished) await done;
    report();
    const tail = lastChunk(input, total, chunks);
    pool.main.merge(control, tail, out, length);
    if (onProgress !== undefined && tail.length > 0) onProgress(tail.length);
    tail.fill(0);
  } catch (error) {
    pool.main.abort(control);
    throw error;
  } finally {
    if (timer !== undefined) clearInterval(timer);
    if (tasks.length > 0) pool.settle(job.id);
    pool.main.wipe(control);
    if (data !== null && !shared) data.fill(0);
  }
}

/** The input's last chunk (1 to 1024 bytes; none for an empty input), as a copy. */
function lastChunk(input: TreeInput, total: number, chunks: number): Uint8Array {
  const from = 1024 * (chunks - 1);
  if ("bytes" in input) return input.bytes.slice(from, total);
  const tail = new Uint8Array(total - from);
  const readSync = (nodeModules as NodeModules).readSync;
  for (let got = 0; got < tail.length; ) {
    const n = readSync(input.fd, tail, got, tail.length - got, from + got);
    if (n === 0) {
      const error = new Error("the file ended before the size it had when opened");
      (error as { code?: string }).code = "ESHORT";
      throw error;
    }
    got += n;
  }
  return tail;
}
