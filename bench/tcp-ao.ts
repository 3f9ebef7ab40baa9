/**
 * TCP-AO: the MAC of one 128-byte TCP segment (IPv4) with prepared traffic keys, per algorithm.
 *
 *   node --import tsx bench/tcp-ao.ts [--quick]
 *
 * Standalone (it does not use bench/harness.ts, whose API is moving). Prints a markdown table: ns
 * per segment for `tag` and `verify` (median of interleaved samples), CPU cycles per segment, and
 * the Linux kernel's figures beside them; then an allocation check over 10^6 calls.
 *
 * Cycles: a hardware counter (`perf stat -e cycles`) is looked for, but where it exists it counts
 * the whole process, not one call; so cycles = ns × the CPU's clock from /proc/cpuinfo "cpu MHz"
 * (mean over cores, read at start). That assumes the core ran at that clock throughout: a nominal
 * figure, not a count.
 */
import { execFileSync } from "node:child_process";
import { createHmac, randomFillSync } from "node:crypto";
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import {
  type TcpAoAlgorithm,
  type TcpAoSegment,
  tcpAo,
  tcpAoTrafficKey,
} from "../src/protocols/tcp-ao.js";
import { measureAllocation, runCase } from "./harness.js";

const quick = process.argv.includes("--quick");
const ROUNDS = quick ? 5 : 31;
const BATCH_MS = quick ? 10 : 25;
const SEGMENT_LENGTH = 128;
const ALGORITHMS: TcpAoAlgorithm[] = ["hmac-sha1-96", "aes-128-cmac-96", "hmac-sha256-128"];

/**
 * The Linux kernel's TCP-AO figures after its move to the crypto library, in cycles per segment,
 * as published with that rework (native code on other hardware; not measured here).
 */
const LINUX_CYCLES: Record<TcpAoAlgorithm, number> = {
  "hmac-sha1-96": 1256,
  "aes-128-cmac-96": 1107,
  "hmac-sha256-128": 1344,
};

const SOURCE = Uint8Array.of(10, 11, 12, 13);
const DESTINATION = Uint8Array.of(172, 27, 28, 29);

/** A 128-byte segment shaped like RFC 9235's: header, NOP, NOP, Timestamp, TCP-AO, payload. */
function makeSegment(macLength: number): Uint8Array {
  const s = randomFillSync(new Uint8Array(SEGMENT_LENGTH));
  const optionsLength = 12 + 4 + macLength;
  s[12] = ((20 + optionsLength) / 4) << 4;
  s[13] = 0x18; // PSH, ACK
  s.set([1, 1, 8, 10], 20);
  s.set([29, 4 + macLength, 61, 84], 32);
  return s;
}

/** The HMAC algorithms' MAC by node:crypto, to check keyed's output before timing. */
function oracle(algorithm: TcpAoAlgorithm, key: Uint8Array, segment: Uint8Array): Uint8Array {
  const hash = algorithm === "hmac-sha1-96" ? "sha1" : "sha256";
  const s = Uint8Array.from(segment);
  s[16] = 0;
  s[17] = 0;
  s.fill(0, 36, (s[12] >>> 4) * 4); // the MAC field: the options end with TCP-AO here
  const prefix = new Uint8Array(16); // SNE 0 ‖ IPv4 pseudo-header
  prefix.set(SOURCE, 4);
  prefix.set(DESTINATION, 8);
  prefix[13] = 6;
  prefix[15] = s.length;
  const full = createHmac(hash, key).update(prefix).update(s).digest();
  return new Uint8Array(full.subarray(0, algorithm === "hmac-sha1-96" ? 12 : 16));
}

function clock(): { mhz: number; how: string } {
  let perf = "perf not found";
  try {
    const report = execFileSync("sh", ["-c", "perf stat -e cycles true 2>&1 >/dev/null"], {
      encoding: "utf8",
    });
    perf = report.includes("not supported")
      ? "`perf stat -e cycles` reports <not supported> here (no hardware cycle counter in this VM)"
      : "`perf stat -e cycles` works here, but counts the whole process, not one call";
  } catch {
    // No perf or no shell.
  }
  const mhz = readFileSync("/proc/cpuinfo", "utf8")
    .split("\n")
    .filter((line) => line.startsWith("cpu MHz"))
    .map((line) => Number(line.split(":")[1]));
  const mean = mhz.reduce((a, b) => a + b, 0) / mhz.length;
  return {
    mhz: mean,
    how: `ns × ${mean.toFixed(0)} MHz ("cpu MHz" in /proc/cpuinfo, mean over ${mhz.length} cores); ${perf}`,
  };
}

// --- allocation ---------------------------------------------------------------------------------

// --- main ---------------------------------------------------------------------------------------

let sink = 0;

async function main(): Promise<void> {
  const { mhz, how } = clock();
  const load = loadavg()[0];
  const masterKey = randomFillSync(new Uint8Array(32));
  const timing: string[] = [];
  const memory: string[] = [];
  for (const algorithm of ALGORITHMS) {
    const trafficKey = tcpAoTrafficKey(algorithm, masterKey, {
      source: SOURCE,
      destination: DESTINATION,
      sourcePort: 0xe9d7,
      destinationPort: 179,
      sourceIsn: 0xfbfbab5a,
      destinationIsn: 0x11c14261,
    });
    const key = tcpAo(algorithm, trafficKey);
    // One input object per direction, reused for every call, as a stack would.
    const input: TcpAoSegment = {
      source: SOURCE,
      destination: DESTINATION,
      segment: makeSegment(key.macLength),
      sne: 0,
    };
    const signed: TcpAoSegment = { ...input, segment: input.segment.slice() };
    key.sign(signed);
    const out = new Uint8Array(key.macLength);
    // Checked before timing: HMACs against node:crypto; CMAC (which node:crypto lacks) by
    // signing and verifying here and by the RFC 9235 vectors in test/protocols/tcp-ao.test.ts.
    if (algorithm !== "aes-128-cmac-96") {
      const want = Buffer.from(oracle(algorithm, trafficKey, input.segment)).toString("hex");
      const got = Buffer.from(key.tag(input, out)).toString("hex");
      if (got !== want) throw new Error(`${algorithm}: keyed gave ${got}, node:crypto ${want}`);
    }
    if (!key.verify(signed)) throw new Error(`${algorithm}: a signed segment does not verify`);
    const tag = () => {
      key.tag(input, out);
      sink ^= out[0];
    };
    const verify = () => {
      if (!key.verify(signed)) throw new Error("verify failed");
    };
    const { results } = runCase(
      {
        algorithm,
        size: SEGMENT_LENGTH,
        contenders: [
          { name: "keyed tag", kind: "prepared", fn: tag },
          { name: "keyed verify", kind: "prepared", fn: verify },
        ],
      },
      { rounds: ROUNDS, batchMs: BATCH_MS, log: () => {} },
    );
    const t = { ns: results[0].nsPerOp, spread: results[0].spread };
    const v = { ns: results[1].nsPerOp, spread: results[1].spread };
    const cycles = (t.ns * mhz) / 1000;
    timing.push(
      `| ${algorithm} | ${t.ns.toFixed(0)} ns | ${cycles.toFixed(0)} | ${v.ns.toFixed(0)} ns | ` +
        `${((v.ns * mhz) / 1000).toFixed(0)} | ${LINUX_CYCLES[algorithm]} | ` +
        `${(cycles / LINUX_CYCLES[algorithm]).toFixed(2)}× | ${(100 * Math.max(t.spread, v.spread)).toFixed(0)}% |`,
    );
    for (const [name, fn] of [
      ["tag", tag],
      ["verify", verify],
    ] as const) {
      const a = await measureAllocation({ name, calls: 1_000_000, fn });
      memory.push(
        `| ${algorithm} ${name} | ${(a.retainedBytes / 1024).toFixed(1)} KiB | ` +
          `${(a.rawDeltaBytes / 1024).toFixed(1)} KiB | ${a.gcEvents} |`,
      );
    }
  }
  console.log(
    `Machine: ${cpus()[0]?.model ?? "unknown CPU"}, ${cpus().length} cores, Node ${process.version}, ` +
      `${process.platform}; load ${load.toFixed(2)} at start. ${ROUNDS} interleaved samples of ` +
      `~${BATCH_MS} ms per cell; medians. Segment: IPv4, ${SEGMENT_LENGTH} bytes of TCP (NOP, NOP, ` +
      "Timestamp, TCP-AO, payload), options covered, prepared traffic key.",
  );
  console.log(`\nCycles = ${how}.`);
  console.log(
    "Linux = the kernel's TCP-AO figures after its crypto-library rework, as published with that rework " +
      "(native code, other hardware; not measured here).\n",
  );
  console.log(
    "| algorithm | tag | tag cycles | verify | verify cycles | Linux cycles | keyed tag / Linux | worst spread |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const row of timing) console.log(row);
  console.log(
    "\nAllocation over 10^6 calls after warm-up: heap growth = heapUsed after a forced GC minus " +
      "before; heapUsed delta = right after the loop, no GC; GC events during the loop.\n",
  );
  console.log("| call | heap growth | heapUsed delta | GC events |");
  console.log("| --- | ---: | ---: | ---: |");
  for (const row of memory) console.log(row);
  if (sink === 0x100) console.log(""); // keeps `sink` alive
}

await main();
