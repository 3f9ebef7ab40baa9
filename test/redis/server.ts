/**
 * Real redis-server processes for the tests: one server, or a 3-master cluster, on free 127.0.0.1
 * ports with temporary directories, no persistence, stopped at the end. Without the binary the
 * tests are skipped with the reason; under CI=true a missing binary fails them.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isCi } from "../vectors.js";

function which(name: string): string | undefined {
  for (const dir of ["/usr/bin", "/usr/local/bin", ...(process.env.PATH ?? "").split(":")]) {
    const path = join(dir, name);
    if (dir !== "" && existsSync(path)) return path;
  }
  return undefined;
}

export const REDIS_SERVER = which("redis-server");
export const REDIS_CLI = which("redis-cli");

/** node:test's `skip`: false when redis-server is there; throws under CI when it is not. */
export const skipWithoutRedis: string | false = (() => {
  if (REDIS_SERVER !== undefined && REDIS_CLI !== undefined) return false;
  const reason =
    "redis-server and redis-cli not found (Debian package redis-server; .ci/run installs it)";
  if (isCi(process.env.CI)) throw new Error(`${reason}; CI is set, so the Redis tests must run.`);
  return reason;
})();

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A free port whose cluster bus port (port + 10000) is free too. */
export async function freePort(): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const port = 20_000 + Math.floor(Math.random() * 30_000);
    if ((await portFree(port)) && (await portFree(port + 10_000))) return port;
  }
  throw new Error("no free port pair found");
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: "127.0.0.1" });
    let reply = "";
    socket.setTimeout(500);
    socket.on("connect", () => socket.write("PING\r\n"));
    socket.on("data", (d) => {
      reply += d.toString();
      if (reply.includes("\r\n")) {
        socket.destroy();
        resolve(reply.startsWith("+PONG"));
      }
    });
    socket.on("error", () => resolve(false));
    socket.on("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, check: () => Promise<boolean> | boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await sleep(25);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** One redis-server on 127.0.0.1:port: start, SIGKILL, SIGSTOP/SIGCONT, restart (empty), stop. */
export class RedisServer {
  readonly dir = mkdtempSync(join(tmpdir(), "keyed-redis-"));
  private child: ChildProcess | undefined;

  constructor(
    readonly port: number,
    private readonly extra: string[] = [],
  ) {}

  static async start(extra: string[] = []): Promise<RedisServer> {
    const server = new RedisServer(await freePort(), extra);
    await server.launch();
    return server;
  }

  async launch(): Promise<void> {
    const args = [
      "--port",
      String(this.port),
      "--bind",
      "127.0.0.1",
      "--dir",
      this.dir,
      "--save",
      "",
      "--appendonly",
      "no",
      "--daemonize",
      "no",
      "--loglevel",
      "warning",
      "--enable-debug-command",
      "local",
      ...this.extra,
    ];
    const child = spawn(REDIS_SERVER as string, args, { stdio: "ignore" });
    this.child = child;
    await until(`redis-server on ${this.port}`, () => ping(this.port));
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** SIGKILL, and wait until the process is gone (its port closed). */
  async kill(): Promise<void> {
    const child = this.child;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.once("exit", r));
    child.kill("SIGKILL");
    await gone;
    this.child = undefined;
  }

  pause(): void {
    this.child?.kill("SIGSTOP");
  }

  resume(): void {
    this.child?.kill("SIGCONT");
  }

  /** Kill and start again on the same port with nothing in it. */
  async restartEmpty(): Promise<void> {
    await this.kill();
    await this.launch();
  }

  async stop(): Promise<void> {
    this.resume();
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A Redis Cluster of three masters (no replicas) started from the same binary. */
export class RedisCluster {
  private constructor(readonly nodes: RedisServer[]) {}

  get ports(): number[] {
    return this.nodes.map((n) => n.port);
  }

  static async start(): Promise<RedisCluster> {
    const nodes: RedisServer[] = [];
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      const node = new RedisServer(port, [
        "--cluster-enabled",
        "yes",
        "--cluster-config-file",
        `nodes-${port}.conf`,
        "--cluster-node-timeout",
        "3000",
      ]);
      nodes.push(node);
    }
    const cluster = new RedisCluster(nodes);
    try {
      await Promise.all(nodes.map((n) => n.launch()));
      const created = spawnSync(
        REDIS_CLI as string,
        [
          "--cluster",
          "create",
          ...nodes.map((n) => `127.0.0.1:${n.port}`),
          "--cluster-replicas",
          "0",
          "--cluster-yes",
        ],
        { encoding: "utf8", timeout: 30_000 },
      );
      if (created.status !== 0) throw new Error(`redis-cli --cluster create: ${created.stdout}`);
      await until(
        "cluster_state:ok on every node",
        () =>
          nodes.every((n) => {
            const info = spawnSync(REDIS_CLI as string, ["-p", String(n.port), "cluster", "info"], {
              encoding: "utf8",
            });
            return info.stdout.includes("cluster_state:ok");
          }),
        20_000,
      );
    } catch (error) {
      await cluster.stop();
      throw error;
    }
    return cluster;
  }

  async stop(): Promise<void> {
    await Promise.all(this.nodes.map((n) => n.stop()));
  }
}
