/// <reference types="node" />
/**
 * Runs jobs on worker threads (one file per job, at most `jobs` at once) and hands the outcomes
 * back in input order, whatever order they finish in. Stdin is read on the main thread.
 */
import { Worker } from "node:worker_threads";
import { type Job, newReadBuffers, type Outcome, runJob, type WorkerMessage } from "./job.js";

/** The worker script next to this module, once built to dist/. */
const WORKER_URL = new URL("./worker.js", import.meta.url);
/**
 * Run from source (node --import tsx), there is no worker.js, and Node 20's worker threads do not
 * inherit tsx's loader: everything then runs on the main thread.
 */
const WORKERS_AVAILABLE = !import.meta.url.endsWith(".ts");

export interface RunOptions {
  /** Most worker threads at once; 1 runs everything on the main thread. */
  jobs: number;
  /** Bytes read, as they are read (for the progress bar). */
  onBytes?: ((bytes: number) => void) | undefined;
  /** Worker threads even for jobs = 1 (keyed bench --files compares like with like). */
  alwaysThreads?: boolean | undefined;
  /** Threads for one large BLAKE3 file, when files run on the main thread (job.ts, treeJob). */
  treeThreads?: number | undefined;
}

/** Calls `emit` with outcomes in index order (0, 1, 2, …) as soon as each is next in line. */
function inOrder(emit: (outcome: Outcome) => void): (outcome: Outcome) => void {
  const waiting = new Map<number, Outcome>();
  let next = 0;
  return (outcome) => {
    waiting.set(outcome.index, outcome);
    for (let ready = waiting.get(next); ready !== undefined; ready = waiting.get(next)) {
      waiting.delete(next);
      next++;
      emit(ready);
    }
  };
}

/**
 * Runs `list` (whose indices are 0 … length-1 in order) and calls `emit` for each outcome, in
 * order. With `jobs` > 1 and several files, files go to min(jobs, files) worker threads.
 */
export async function runJobs(
  list: readonly Job[],
  options: RunOptions,
  emit: (outcome: Outcome) => void,
): Promise<void> {
  const onBytes = options.onBytes ?? (() => {});
  const done = inOrder(emit);
  const buffers = newReadBuffers();
  const files = list.filter((job) => job.path !== "-");
  const workerCount = WORKERS_AVAILABLE ? Math.min(options.jobs, files.length) : 1;
  if (workerCount === 0 || (workerCount === 1 && !(options.alwaysThreads && WORKERS_AVAILABLE))) {
    for (const job of list) done(await runJob(job, buffers, onBytes, options.treeThreads));
    return;
  }

  const queue = [...files];
  const workers: Worker[] = [];
  const drive = (worker: Worker): Promise<void> =>
    new Promise((resolve, reject) => {
      let finished = false;
      const next = () => {
        const job = queue.shift();
        if (job === undefined) {
          finished = true;
          resolve();
        } else {
          worker.postMessage(job);
        }
      };
      worker.on("message", (message: WorkerMessage) => {
        if (message.type === "progress") {
          onBytes(message.bytes);
        } else {
          done(message.outcome);
          next();
        }
      });
      worker.on("error", reject);
      worker.on("exit", (code) => {
        if (!finished) reject(new Error(`a worker thread stopped early (exit code ${code})`));
      });
      next();
    });

  try {
    const running: Promise<void>[] = [];
    for (let i = 0; i < workerCount; i++) {
      const worker = new Worker(WORKER_URL);
      workers.push(worker);
      running.push(drive(worker));
    }
    const stdin = list.filter((job) => job.path === "-");
    running.push(
      (async () => {
        for (const job of stdin) done(await runJob(job, buffers, onBytes));
      })(),
    );
    await Promise.all(running);
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}
