/// <reference types="node" />
/** A worker thread of the pool (pool.ts): runs one job at a time, posting progress and outcome. */
import { parentPort } from "node:worker_threads";
import { type Job, newReadBuffers, runJob, type WorkerMessage, wipeSpec } from "./job.js";

/** Progress is posted at most this often, so a fast worker does not flood the main thread. */
const REPORT_MS = 50;

const port = parentPort;
if (port === null) throw new Error("worker.ts runs as a worker thread of keyed's pool");
const buffers = newReadBuffers();
const post = (message: WorkerMessage) => port.postMessage(message);

async function handle(job: Job): Promise<void> {
  let unreported = 0;
  let last = performance.now();
  const outcome = await runJob(job, buffers, (bytes) => {
    unreported += bytes;
    const now = performance.now();
    if (now - last >= REPORT_MS) {
      post({ type: "progress", bytes: unreported });
      unreported = 0;
      last = now;
    }
  });
  if (unreported > 0) post({ type: "progress", bytes: unreported });
  wipeSpec(job.spec);
  post({ type: "done", outcome });
}

port.on("message", (job: Job) => {
  void handle(job);
});
