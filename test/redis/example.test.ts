/** examples/fleet-receivers.mjs: two receivers, one Redis, a replay refused by the second. */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { skipWithoutRedis } from "./server.js";

const ROOT = join(import.meta.dirname, "..", "..");
const skipUnlessBuilt = existsSync(join(ROOT, "dist", "safe", "redis.js"))
  ? false
  : "dist/ not built (npm test builds it; or run npm run build)";

describe("examples/fleet-receivers.mjs", { skip: skipWithoutRedis || skipUnlessBuilt }, () => {
  it("is exported as keyed/redis", async () => {
    const redis = await import("keyed/redis");
    assert.equal(typeof redis.RedisReplayStore, "function");
    assert.equal(typeof redis.RedisReplayWindow, "function");
    assert.equal(typeof redis.RedisFailureBudget, "function");
  });

  it("shows the second instance refusing the replay", () => {
    const run = spawnSync(process.execPath, [join(ROOT, "examples", "fleet-receivers.mjs")], {
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, REDIS_URL: "" },
    });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /instance A, the message: +204/);
    assert.match(run.stdout, /instance B, the same message again: 409 replayed/);
  });
});
