/**
 * Verify + claim throughput and latency: `npm run bench -- --fleet` (or
 * `node --import tsx bench/fleet.ts [--quick] [--write]`).
 *
 * Standalone (not bench/harness.ts: these are asynchronous requests with a latency each, not
 * ns/op). For a sealed token (`openOnce`) and a Standard Webhooks message (`verifyStandardWebhook`
 * then `claimOnce` of its webhook-id), every request a fresh message: the in-memory store; Redis
 * through one node-redis client with one request at a time; and Redis with 64 requests in flight
 * from one process (node-redis pipelines the commands issued in one tick; ioredis with
 * `enableAutoPipelining`). Starts its own redis-server on a free loopback port (test/redis/
 * server.ts). Prints a markdown section; `--write` puts it into docs/benchmarks.md.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { createClient } from "redis";
import { signStandardWebhook, verifyStandardWebhook } from "../src/protocols/webhooks.js";
import { openOnce, seal } from "../src/safe/envelope.js";
import { type RedisClientLike, RedisReplayStore } from "../src/safe/redis.js";
import { claimOnce, MemoryReplayStore, type ReplayStore } from "../src/safe/store.js";
import { REDIS_SERVER, RedisServer } from "../test/redis/server.js";

const quick = process.argv.includes("--quick");
const write = process.argv.includes("--write");
const SECONDS = quick ? 0.5 : 2;
const ROUNDS = quick ? 1 : 3;

const KEY = new Uint8Array(32).fill(5);
const WHSEC = `whsec_${Buffer.from("bench-secret-bench-secret-32byte").toString("base64")}`;
const BODY = JSON.stringify({ type: "invoice.paid", data: { id: "in_1", amount: 4200 } }).padEnd(
  256,
  " ",
);

interface Cell {
  perSecond: number;
  p50: number;
  p99: number;
}

type Request = (i: number) => Promise<boolean>;

/**
 * Runs `request` on messages 0, 1, … for `seconds` (or until the pool of POOL messages is used
 * up) with `concurrency` in flight: rate and latency percentiles.
 */
async function measure(request: Request, concurrency: number, seconds: number) {
  const latencies: number[] = [];
  let next = 0;
  let failed = 0;
  const end = performance.now() + seconds * 1000;
  const lanes = Array.from({ length: concurrency }, async () => {
    while (performance.now() < end && next < POOL) {
      const t0 = performance.now();
      if (!(await request(next++))) failed++;
      latencies.push(performance.now() - t0);
    }
  });
  const began = performance.now();
  await Promise.all(lanes);
  const elapsed = (performance.now() - began) / 1000;
  if (failed > 0) throw new Error(`${failed} requests were refused`);
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return { perSecond: latencies.length / elapsed, p50: at(0.5), p99: at(0.99) };
}

/** Median of rounds by rate; each round (and the warm-up) on a fresh store. */
async function cell(makeRequest: () => Promise<Request>, concurrency: number): Promise<Cell> {
  await measure(await makeRequest(), concurrency, 0.3);
  const cells: Cell[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    cells.push(await measure(await makeRequest(), concurrency, SECONDS));
  }
  cells.sort((a, b) => a.perSecond - b.perSecond);
  return cells[Math.floor(cells.length / 2)];
}

const POOL = quick ? 20_000 : 60_000;

/** The messages, made before any timing: POOL sealed tokens and POOL webhooks. */
function messages(timestamp: number) {
  const tokens = Array.from({ length: POOL }, (_, i) =>
    seal(KEY, new TextEncoder().encode(`order ${i}`), { purpose: "bench", timestamp }),
  );
  const webhooks = Array.from({ length: POOL }, (_, i) =>
    signStandardWebhook(WHSEC, { id: `msg_${i}`, timestamp, body: BODY }),
  );
  return { tokens, webhooks };
}

/** Verify + claim of message i, for each kind of message, and the claim alone. */
function requests(
  store: ReplayStore,
  timestamp: number,
  made: ReturnType<typeof messages>,
): Record<string, Request> {
  return {
    "seal/open (openOnce)": async (i) => {
      const r = await openOnce(KEY, made.tokens[i], {
        purpose: "bench",
        maxAgeSeconds: 300,
        now: timestamp,
        replayStore: store,
      });
      return r.ok;
    },
    "Standard Webhooks (verify + claimOnce)": async (i) => {
      const v = verifyStandardWebhook(WHSEC, BODY, made.webhooks[i], { now: timestamp });
      if (!v.ok) return false;
      const c = await claimOnce(store, v.id, {
        validFrom: v.timestamp,
        validUntil: v.timestamp + 300,
        now: timestamp,
      });
      return c.ok;
    },
    "claimOnce alone (no verification)": async (i) => {
      const c = await claimOnce(store, `id_${i}`, {
        validFrom: timestamp - 300,
        validUntil: timestamp + 300,
        now: timestamp,
      });
      return c.ok;
    },
  };
}

const fmt = (c: Cell) => [
  `${Math.round(c.perSecond).toLocaleString("en-US")}`,
  `${c.p50.toFixed(2)} ms`,
  `${c.p99.toFixed(2)} ms`,
];

async function main(): Promise<void> {
  if (REDIS_SERVER === undefined)
    throw new Error("redis-server not found (apt-get install redis-server)");
  const load = loadavg()[0].toFixed(2);
  const server = await RedisServer.start();
  const nodeRedis = createClient({ url: `redis://127.0.0.1:${server.port}` });
  nodeRedis.on("error", () => {});
  await nodeRedis.connect();
  const ioredis = new Redis(server.port, "127.0.0.1", { enableAutoPipelining: true });
  ioredis.on("error", () => {});
  try {
    // Far enough ahead that every fresh store's epoch (the server's clock) precedes validFrom.
    const timestamp = Math.floor(Date.now() / 1000) + 1000;
    process.stderr.write(`making ${POOL} tokens and ${POOL} webhooks\n`);
    const made = messages(timestamp);
    let stores = 0;
    const memory = async () => {
      const store = new MemoryReplayStore({ maxEntries: 1_000_000 });
      await store.claim("epoch", 1, { now: timestamp - 300 });
      return store;
    };
    const redis = (c: RedisClientLike) => async () => {
      const store = new RedisReplayStore(c, { keyPrefix: `bench${stores++}:`, timeoutMs: 2000 });
      await store.startEpochs();
      return store;
    };
    const setups: [string, () => Promise<ReplayStore>, number][] = [
      ["in-memory store", memory, 1],
      ["Redis, node-redis, 1 request at a time", redis(nodeRedis), 1],
      ["Redis, node-redis, 64 concurrent (pipelined)", redis(nodeRedis), 64],
      ["Redis, ioredis, 64 concurrent (auto-pipelined)", redis(ioredis), 64],
    ];
    const rows: string[][] = [];
    for (const [setup, makeStore, concurrency] of setups) {
      for (const message of Object.keys(requests(new MemoryReplayStore(), 0, made))) {
        process.stderr.write(`${setup}: ${message}\n`);
        const make = async () => requests(await makeStore(), timestamp, made)[message];
        rows.push([message, setup, ...fmt(await cell(make, concurrency))]);
      }
    }
    await nodeRedis.sendCommand(["FLUSHALL"]);
    const cpu = cpus()[0]?.model.trim() ?? "unknown CPU";
    const info = String(await nodeRedis.sendCommand(["INFO", "server"]));
    const version = /redis_version:(\S+)/.exec(info)?.[1] ?? "?";
    const lines = [
      "Verified and claimed messages per second from one Node process, and each request's latency " +
        "(from the call to verify to the claim's answer), `npm run bench -- --fleet` " +
        "(bench/fleet.ts). Every request is a message not seen before (made before the timing), " +
        "verified and then claimed; the last row of each store is the claim alone. Redis runs on " +
        "the same 2-core machine (loopback), so it and Node share the cores.",
      "",
      `Machine: ${cpu}, ${cpus().length} cores, Node ${process.version}, Redis ${version}; ` +
        `${new Date().toISOString().slice(0, 10)}, load ${load} at start. ${ROUNDS} rounds of ` +
        `${SECONDS} s per cell; the median round.`,
      "",
      "| request | store | per second | p50 | p99 |",
      "| --- | --- | ---: | ---: | ---: |",
      ...rows.map((r) => `| ${r.join(" | ")} |`),
    ];
    const body = lines.join("\n");
    process.stdout.write(`${body}\n`);
    if (write && !quick) writeSection("fleet", body);
  } finally {
    await nodeRedis.quit();
    ioredis.disconnect();
    await server.stop();
  }
}

/** Replaces (or appends) the `<!-- bench:NAME -->` section of docs/benchmarks.md. */
function writeSection(name: string, body: string): void {
  const doc = join(import.meta.dirname, "..", "docs", "benchmarks.md");
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const block = `${start}\n\n${body}\n\n${end}`;
  let text = existsSync(doc) ? readFileSync(doc, "utf8") : "";
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i >= 0 && j > i) text = text.slice(0, i) + block + text.slice(j + end.length);
  else text = `${text.trimEnd()}\n\n## ${name}: verify + claim (issue 15)\n\n${block}\n`;
  writeFileSync(doc, text);
}

await main();
