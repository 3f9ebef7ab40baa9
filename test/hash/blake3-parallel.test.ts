/**
 * BLAKE3 on every core (src/engine/blake3-parallel.ts, src/hash/blake3-parallel.ts): the tree
 * split at chunk-aligned power-of-two boundaries, subtrees hashed on worker threads and merged on
 * the calling thread, must give `blake3()`'s bytes (and @noble/hashes') at every length — around
 * chunks, around the split's subtree boundaries, non-power-of-two totals, the last partial chunk —
 * in the three modes and at extended output lengths, from bytes, shared bytes and files, with
 * and without the calling thread's share. Nothing is left in any thread's memory after a job, and
 * a process that hashed exits on its own.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { blake3 as nobleBlake3 } from "@noble/hashes/blake3.js";
import fc from "fast-check";
import {
  blake3TreeInto,
  blake3TreeSync,
  splitTree,
  type TreeInput,
  treeMemoryScan,
  treeThreads,
} from "../../src/engine/blake3-parallel.js";
import { blake3Mode } from "../../src/hash/blake3.js";
import { PARALLEL_MIN_BYTES } from "../../src/hash/blake3-parallel.js";
import { blake3, blake3File, blake3Parallel } from "../../src/hazmat.js";
import { ascii, throwsKeyed } from "../helpers.js";

const KEY = new Uint8Array(32).map((_, i) => (i * 37 + 11) & 255);
const CONTEXT = "keyed blake3-parallel test 2026-12-02";
const MODES = [{}, { key: KEY }, { context: CONTEXT }] as const;
const threads = treeThreads();
const skip =
  threads === 0 ? "no worker threads here (KEYED_BACKEND=js or no node:worker_threads)" : false;

/** A message whose bytes depend on its length and a seed. */
const message = (n: number, seed = 0) =>
  Uint8Array.from({ length: n }, (_, i) => (i * 131 + seed * 7 + (i >> 10) * 3) & 255);

let dir = "";
before(() => {
  dir = mkdtempSync(join(tmpdir(), "keyed-blake3-parallel-"));
});
after(() => {
  if (dir !== "") rmSync(dir, { recursive: true, force: true });
});

/** The tree engine directly (no PARALLEL_MIN_BYTES), at any task size. */
async function tree(
  m: Uint8Array,
  options: { key?: Uint8Array; context?: string; length?: number },
  how: { input: "bytes" | "shared" | "file"; mainThread: boolean; maxTaskLog2?: number },
): Promise<Uint8Array> {
  const mode = blake3Mode(options);
  const out = new Uint8Array(mode.length);
  let fd = -1;
  let input: TreeInput;
  if (how.input === "file") {
    const path = join(dir, `m-${m.length}`);
    writeFileSync(path, m);
    fd = openSync(path, "r");
    input = { fd, length: m.length };
  } else if (how.input === "shared") {
    // A view at an offset into a larger SharedArrayBuffer, as a caller might hold one.
    const view = new Uint8Array(new SharedArrayBuffer(m.length + 21), 13, m.length);
    view.set(m);
    input = { bytes: view };
  } else {
    input = { bytes: m };
  }
  try {
    const tree = { threads: 2, mainThread: how.mainThread, maxTaskLog2: how.maxTaskLog2 };
    await blake3TreeInto(mode.key, mode.flags, input, out, mode.length, tree);
  } finally {
    if (fd >= 0) closeSync(fd);
    mode.key?.fill(0);
  }
  return out;
}

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

describe("the split (splitTree)", () => {
  it("covers every chunk but the last with aligned power-of-two subtrees, left to right", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1 << 16 }),
        fc.integer({ min: 0, max: 12 }),
        (n, max) => {
          const tasks = splitTree(n, max);
          let next = 0;
          for (const { start, log2 } of tasks) {
            assert.equal(start, next);
            assert.ok(log2 <= max);
            assert.equal(start % 2 ** log2, 0, "a subtree starts at a multiple of its size");
            next = start + 2 ** log2;
          }
          assert.equal(next, n - 1, "the last chunk stays with the caller");
        },
      ),
      { numRuns: 500 },
    );
  });
});

// A timeout, so that a stuck worker fails this file by name instead of holding the run until CI's
// limit (a worker between two tasks once claimed task 0 of a finished job and waited forever).
describe("BLAKE3 tree on threads: the same bytes as blake3()", { skip, timeout: 120_000 }, () => {
  // Every chunk edge up to 9 chunks, 2048·k ± 1, and the subtree edges of 1-, 2-, 4- and 8-chunk
  // tasks (a multiple of the task size of chunks, ± 1 byte, ± 1 chunk).
  const lengths = new Set<number>([0, 1, 63, 64, 65, 1023, 1024, 1025]);
  for (let k = 1; k <= 9; k++) for (const d of [-1, 0, 1]) lengths.add(1024 * k + d);
  for (let k = 1; k <= 6; k++) for (const d of [-1, 1]) lengths.add(2048 * k + d);
  for (const size of [2, 4, 8, 16, 32]) {
    for (const d of [-1025, -1, 0, 1, 1024, 1025]) lengths.add(1024 * size + d);
    lengths.add(1024 * size * 3 + 1);
  }
  const ways = [
    { input: "bytes", mainThread: false, maxTaskLog2: 0 },
    { input: "shared", mainThread: true, maxTaskLog2: 1 },
    { input: "file", mainThread: false, maxTaskLog2: 2 },
    { input: "bytes", mainThread: true, maxTaskLog2: 3 },
    { input: "shared", mainThread: false, maxTaskLog2: 4 },
  ] as const;

  it("at every chunk and subtree edge, three modes, 131 bytes of output", async () => {
    let way = 0;
    for (const n of [...lengths].sort((a, b) => a - b)) {
      if (n < 0) continue;
      const m = message(n, n & 7);
      for (const mode of MODES) {
        const how = ways[way++ % ways.length];
        const expected = blake3(m, { ...mode, length: 131 });
        const got = await tree(m, { ...mode, length: 131 }, how);
        assert.equal(hex(got), hex(expected), `${n} bytes, ${JSON.stringify(how)}`);
      }
    }
  });

  it("matches @noble/hashes on a few lengths (an oracle independent of keyed's kernels)", async () => {
    for (const n of [1025, 4097, 33 * 1024 + 5]) {
      const m = message(n, 3);
      const got = await tree(
        m,
        { key: KEY, length: 64 },
        { input: "bytes", mainThread: false, maxTaskLog2: 1 },
      );
      assert.equal(hex(got), hex(nobleBlake3(m, { key: KEY, dkLen: 64 })));
      const derived = await tree(
        m,
        { context: CONTEXT },
        { input: "file", mainThread: true, maxTaskLog2: 2 },
      );
      assert.equal(hex(derived), hex(nobleBlake3(m, { context: ascii(CONTEXT), dkLen: 32 })));
    }
  });

  it("extended output: 0 to 3000 bytes, across OUT's 1024-byte pieces", async () => {
    const m = message(20 * 1024 + 3, 5);
    for (const length of [0, 1, 31, 32, 33, 64, 65, 1023, 1024, 1025, 2049, 3000]) {
      for (const mode of MODES) {
        const expected = blake3(m, { ...mode, length });
        const got = await tree(
          m,
          { ...mode, length },
          { input: "bytes", mainThread: length % 2 === 0, maxTaskLog2: 2 },
        );
        assert.equal(hex(got), hex(expected), `length ${length}`);
      }
    }
  });

  it("random lengths up to 6 MiB with the default task size, every input kind", async () => {
    const sizes = fc.sample(fc.integer({ min: 1, max: 6 << 20 }), { numRuns: 6, seed: 17 });
    let i = 0;
    for (const n of sizes) {
      const m = message(n, i);
      const mode = MODES[i % 3];
      const how = { input: (["bytes", "shared", "file"] as const)[i % 3], mainThread: i % 2 === 0 };
      i++;
      assert.equal(hex(await tree(m, mode, how)), hex(blake3(m, mode)), `${n} bytes`);
    }
  });

  it("leaves no key, chaining value or message byte in any thread's memory", async () => {
    await tree(
      message(9 * 1024 + 1),
      { key: KEY, length: 100 },
      { input: "file", mainThread: true, maxTaskLog2: 1 },
    );
    await tree(
      message(40 * 1024),
      { key: KEY },
      { input: "bytes", mainThread: false, maxTaskLog2: 2 },
    );
    const scans = await treeMemoryScan();
    assert.ok(scans.length >= 2, "the calling thread and at least one worker");
    assert.deepEqual(
      scans,
      scans.map(() => -1),
      "every module memory is all zeros",
    );
  });

  it("a file that ends before its stated size is an ESHORT error, on a worker or here", async () => {
    const path = join(dir, "short");
    writeFileSync(path, message(10 * 1024));
    for (const mainThread of [false, true]) {
      const fd = openSync(path, "r");
      try {
        const out = new Uint8Array(32);
        const input = { fd, length: 30 * 1024 + 9 };
        await assert.rejects(
          blake3TreeInto(undefined, 0, input, out, 32, { threads: 2, mainThread, maxTaskLog2: 1 }),
          (error: { code?: string }) => error.code === "ESHORT",
        );
      } finally {
        closeSync(fd);
      }
    }
    // Short within the last chunk, which the calling thread reads itself.
    const fd = openSync(path, "r");
    try {
      const input = { fd, length: 10 * 1024 + 100 };
      const options = { threads: 2, mainThread: false, maxTaskLog2: 2 };
      await assert.rejects(blake3TreeInto(undefined, 0, input, new Uint8Array(32), 32, options), {
        code: "ESHORT",
      });
    } finally {
      closeSync(fd);
    }
    // The pool still works after a failed job.
    const m = message(5000);
    assert.equal(
      hex(await tree(m, {}, { input: "bytes", mainThread: false, maxTaskLog2: 0 })),
      hex(blake3(m)),
    );
  });
});

describe("BLAKE3 tree on the calling thread alone (blake3TreeSync, what npm run ct times)", () => {
  it("gives blake3()'s bytes", () => {
    for (const n of [0, 1, 1024, 1025, 4196, 9 * 1024 + 7]) {
      const m = message(n, 2);
      for (const mode of MODES) {
        const { key, flags, length } = blake3Mode({ ...mode, length: 40 });
        const out = new Uint8Array(length);
        blake3TreeSync(key, flags, m, out, length, 0);
        assert.equal(hex(out), hex(blake3(m, { ...mode, length: 40 })), `${n} bytes`);
      }
    }
  });
});

describe("blake3Parallel and blake3File (keyed/hazmat)", () => {
  it("give blake3()'s bytes in the three modes, from bytes, shared bytes and files", async () => {
    const n = PARALLEL_MIN_BYTES * 3 + 12345;
    const m = message(n, 9);
    const path = join(dir, "file");
    writeFileSync(path, m);
    const shared = new Uint8Array(new SharedArrayBuffer(n));
    shared.set(m);
    for (const mode of MODES) {
      const expected = hex(blake3(m, { ...mode, length: 77 }));
      assert.equal(hex(await blake3Parallel(m, { ...mode, length: 77 })), expected);
      assert.equal(hex(await blake3Parallel(shared, { ...mode, length: 77 })), expected);
      assert.equal(
        hex(await blake3File(path, { ...mode, length: 77, mainThread: true })),
        expected,
      );
      assert.equal(hex(await blake3Parallel(m, { ...mode, length: 77, threads: 1 })), expected);
    }
  });

  it("small inputs and one thread stay on the calling thread, with the same bytes", async () => {
    const m = message(5000, 1);
    const path = join(dir, "small");
    writeFileSync(path, m);
    let progress = 0;
    const onProgress = (bytes: number) => {
      progress += bytes;
    };
    assert.equal(
      hex(await blake3Parallel(m, { key: KEY, onProgress })),
      hex(blake3(m, { key: KEY })),
    );
    assert.equal(
      hex(await blake3File(path, { key: KEY, onProgress })),
      hex(blake3(m, { key: KEY })),
    );
    assert.equal(progress, 2 * m.length, "progress counts every byte once");
  });

  it("reports progress for every byte of a threaded file", { skip }, async () => {
    const m = message(PARALLEL_MIN_BYTES * 2 + 3);
    const path = join(dir, "progress");
    writeFileSync(path, m);
    for (const mainThread of [false, true]) {
      let progress = 0;
      await blake3File(path, { mainThread, onProgress: (bytes) => (progress += bytes) });
      assert.equal(progress, m.length);
    }
  });

  it("checks its options like every keyed function", async () => {
    const m = message(10);
    await assert.rejects(blake3Parallel(m, { thread: 2 } as never), /did you mean "threads"/);
    await assert.rejects(blake3Parallel(m, { threads: 0 }), /options.threads/);
    await assert.rejects(blake3Parallel(m, { mainThread: "yes" } as never), /mainThread/);
    await assert.rejects(blake3Parallel(m, { onProgress: 1 } as never), /onProgress/);
    await assert.rejects(blake3Parallel(m, { key: new Uint8Array(16) }), { code: "KEY_LENGTH" });
    await assert.rejects(blake3Parallel("text" as never), { code: "BAD_INPUT" });
    await assert.rejects(blake3File(42 as never), { code: "BAD_INPUT" });
    await assert.rejects(blake3File(join(dir, "missing")), { code: "ENOENT" });
    throwsKeyed(() => blake3(m, { key: KEY, context: CONTEXT }), "BAD_INPUT");
  });
});

describe("threads and process exit", () => {
  const run = (code: string, env: Record<string, string> = {}) =>
    spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
      cwd: join(import.meta.dirname, "..", ".."),
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, ...env },
    });

  it("a process that hashed on threads exits on its own, with nothing left running", {
    skip,
  }, () => {
    const code = `
      import { blake3, blake3Parallel } from "./src/hazmat.ts";
      import { treeThreads } from "./src/engine/blake3-parallel.ts";
      const m = new Uint8Array(3 << 20).map((_, i) => i * 7);
      const a = await blake3Parallel(m, { threads: 2 });
      const b = blake3(m);
      console.log(treeThreads() > 0, Buffer.from(a).equals(Buffer.from(b)));
    `;
    const started = performance.now();
    const result = run(code);
    assert.equal(result.error, undefined, "exited before the timeout");
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout.trim(), "true true");
    assert.ok(performance.now() - started < 60_000);
  });

  it("without threads (KEYED_BACKEND=js) the same functions hash on the calling thread", () => {
    const code = `
      import { blake3, blake3File, blake3Parallel } from "./src/hazmat.ts";
      import { treeThreads } from "./src/engine/blake3-parallel.ts";
      import { writeFileSync } from "node:fs";
      const m = new Uint8Array(2 << 20).map((_, i) => i * 5);
      const a = await blake3Parallel(m, { threads: 4 });
      writeFileSync(process.env.FILE, m);
      const b = await blake3File(process.env.FILE, { context: "c" });
      const same = Buffer.from(a).equals(Buffer.from(blake3(m)));
      console.log(treeThreads(), same && Buffer.from(b).equals(Buffer.from(blake3(m, { context: "c" }))));
    `;
    const result = run(code, { KEYED_BACKEND: "js", FILE: join(dir, "js-backend") });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout.trim(), "0 true");
  });
});
