/** Spawns receiver processes (test/redis/worker.ts) and talks to them one JSON line at a time. */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface, type Interface } from "node:readline";
import type { Job } from "./worker.js";

const WORKER = join(import.meta.dirname, "worker.ts");

export interface Reply {
  ok: boolean;
  error?: string;
  unhandled: number;
  [field: string]: unknown;
}

export class Worker {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly lines: Interface;
  private readonly waiting: ((line: string) => void)[] = [];
  private stderr = "";
  exited: number | null | undefined;

  constructor() {
    this.child = spawn(process.execPath, ["--import", "tsx", WORKER], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child.stderr.on("data", (d: Buffer) => {
      this.stderr += d.toString();
    });
    this.child.on("exit", (code) => {
      this.exited = code;
      for (const w of this.waiting.splice(0))
        w(JSON.stringify({ ok: false, error: `exited ${code}: ${this.stderr}` }));
    });
    this.lines = createInterface({ input: this.child.stdout });
    this.lines.on("line", (line) => this.waiting.shift()?.(line));
  }

  /** Sends one job; resolves to its reply (throws when the worker failed it). */
  async run<T = Reply>(job: Job): Promise<T & Reply> {
    const reply = new Promise<string>((resolve) => this.waiting.push(resolve));
    this.child.stdin.write(`${JSON.stringify(job)}\n`);
    const parsed = JSON.parse(await reply) as T & Reply;
    if (!parsed.ok) throw new Error(`worker: ${parsed.error}`);
    return parsed;
  }

  async quit(): Promise<Reply> {
    const reply = await this.run({ op: "quit" });
    await new Promise((r) => (this.exited === undefined ? this.child.once("exit", r) : r(0)));
    return reply;
  }

  kill(): void {
    if (this.exited === undefined) this.child.kill("SIGKILL");
  }
}

/** `n` workers, each connected with the client named for it. */
export async function startWorkers(
  clients: ("node-redis" | "ioredis")[],
  ports: number[],
  options: { cluster?: boolean; timeoutMs?: number } = {},
): Promise<Worker[]> {
  const workers = clients.map(() => new Worker());
  try {
    await Promise.all(
      workers.map((w, i) => w.run({ op: "connect", client: clients[i], ports, ...options })),
    );
  } catch (error) {
    for (const w of workers) w.kill();
    throw error;
  }
  return workers;
}
