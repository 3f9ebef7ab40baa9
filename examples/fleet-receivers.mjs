// Two webhook receivers behind one Redis: a Standard Webhooks message accepted by the first
// instance and replayed to the second is refused there, because both claim webhook-ids in the
// same RedisReplayStore (docs/fleet.md).
//
//   npm run build
//   node examples/fleet-receivers.mjs            (starts redis-server on a free loopback port)
//   REDIS_URL=redis://127.0.0.1:6379 node examples/fleet-receivers.mjs   (uses that Redis)
//
// The receivers use node-redis (`npm install redis`); ioredis works the same way.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, request } from "node:http";
import { createServer as createTcpServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { claimOnce } from "keyed";
import { RedisReplayStore } from "keyed/redis";
import { signStandardWebhook, verifyStandardWebhookRequest } from "keyed/webhooks";
import { createClient } from "redis";

const SECRET = `whsec_${Buffer.from("an example secret of 32 bytes!!!").toString("base64")}`;
const TOLERANCE = 300; // Standard Webhooks: 5 minutes either way

// --- one receiver instance ---------------------------------------------------------------------

async function receiver(name, redisUrl) {
  const redis = createClient({ url: redisUrl, disableOfflineQueue: true });
  redis.on("error", (e) => console.error(`[${name}] redis: ${e.message}`));
  await redis.connect();
  const store = new RedisReplayStore(redis, { keyPrefix: "example:webhooks:", timeoutMs: 1000 });
  // A new Redis starts its epochs now, not at the first messages (docs/fleet.md, the epoch rule).
  const epoch = await store.startEpochs();

  const server = createServer(async (req, res) => {
    const verified = await verifyStandardWebhookRequest(SECRET, req, { limit: 1 << 20 });
    if (!verified.ok) {
      res.writeHead(401).end(verified.reason);
      return;
    }
    // Claimed only after the signature checked out, for as long as the message stays valid.
    const claim = await claimOnce(store, verified.id, {
      validFrom: verified.timestamp,
      validUntil: verified.timestamp + TOLERANCE,
    });
    if (!claim.ok) {
      // replayed: already handled by some instance; store_unavailable: let the sender retry.
      res.writeHead(claim.reason === "replayed" ? 409 : 503).end(claim.reason);
      return;
    }
    res.writeHead(204).end();
  });
  server.listen(0, "127.0.0.1", () => {
    process.send({ name, port: server.address().port, epoch });
  });
  process.on("disconnect", () => process.exit(1)); // the demo went away
  process.on("message", async (m) => {
    if (m === "stop") {
      server.close();
      await redis.quit();
      process.exit(0);
    }
  });
}

// --- the demonstration -------------------------------------------------------------------------

const freePort = () =>
  new Promise((resolve) => {
    const s = createTcpServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

async function startRedis() {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "keyed-example-"));
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", ""];
  const child = spawn("redis-server", [...args, "--appendonly", "no"], { stdio: "ignore" });
  await new Promise((resolve, reject) => {
    child.once("error", reject);
    const probe = async () => {
      const c = createClient({ url: `redis://127.0.0.1:${port}` });
      c.on("error", () => {});
      try {
        await c.connect();
        await c.quit();
        resolve();
      } catch {
        c.destroy();
        setTimeout(probe, 50);
      }
    };
    probe();
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () => {
      child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function post(port, headers, body) {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method: "POST", headers }, (res) => {
      let text = "";
      res.on("data", (d) => {
        text += d;
      });
      res.on("end", () => resolve(`${res.statusCode} ${text}`.trim()));
    });
    req.on("error", reject);
    req.end(body);
  });
}

async function demo() {
  const redis = process.env.REDIS_URL
    ? { url: process.env.REDIS_URL, stop() {} }
    : await startRedis();
  const instances = ["A", "B"].map((name) =>
    spawn(process.execPath, [import.meta.filename, "--receiver", name, redis.url], {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    }),
  );
  try {
    const [a, b] = await Promise.all(
      instances.map(
        (child) =>
          new Promise((resolve, reject) => {
            child.once("message", resolve);
            child.once("exit", (code) => reject(new Error(`a receiver exited (${code})`)));
          }),
      ),
    );
    // A message issued after the store's epoch started (at most a second from now).
    const epoch = Math.max(a.epoch, b.epoch);
    while (Date.now() / 1000 < epoch) await new Promise((r) => setTimeout(r, 50));
    const body = JSON.stringify({ type: "invoice.paid", id: "in_42" });
    const headers = signStandardWebhook(SECRET, { id: `msg_${Date.now()}`, body });
    const first = await post(a.port, headers, body);
    const replay = await post(b.port, headers, body);
    console.log(`instance A, the message:            ${first}`);
    console.log(`instance B, the same message again: ${replay}`);
    const ok = first === "204" && replay === "409 replayed";
    console.log(ok ? "the replay was refused by the second instance" : "UNEXPECTED");
    process.exitCode = ok ? 0 : 1;
  } finally {
    const running = instances.filter((c) => c.exitCode === null && c.signalCode === null);
    for (const child of running) child.send("stop");
    await Promise.all(running.map((c) => new Promise((r) => c.once("exit", r))));
    redis.stop();
  }
}

const at = process.argv.indexOf("--receiver");
if (at > 0) await receiver(process.argv[at + 1], process.argv[at + 2]);
else await demo();
