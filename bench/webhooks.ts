/**
 * Webhook verification against the same check written by hand on node:crypto
 * (`node --import tsx bench/webhooks.ts [--write]`): all four schemes, bodies of 256 B, 4 KiB and
 * 64 KiB, one secret and a rotation list of three (the matching secret last), the verifiers and
 * the request helpers (a fetch `Request`). keyed and the hand-written check of a cell are timed
 * interleaved, round by round, in this one process; the ratio is keyed's time over the hand's
 * (below 1: keyed is faster). `--batch`: the batch verifiers instead, over 32 deliveries.
 * `--write` puts the table into docs/benchmarks.md.
 *
 * The hand-written checks are what a careful user writes: the secret decoded once at start-up,
 * the header split, createHmac over the signed parts, timingSafeEqual against each candidate of
 * the right length, every secret tried.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  signGitHub,
  signSlack,
  signStandardWebhook,
  signStripe,
  verifyGitHub,
  verifyGitHubMany,
  verifyGitHubRequest,
  verifySlack,
  verifySlackMany,
  verifySlackRequest,
  verifyStandardWebhook,
  verifyStandardWebhookMany,
  verifyStandardWebhookRequest,
  verifyStripe,
  verifyStripeMany,
  verifyStripeRequest,
} from "../src/protocols/webhooks.js";
import { collectYoung } from "./harness.js";

const NOW = 1_700_000_000;
const TEXT_SECRETS = ["old-secret-one", "old-secret-two", "it's a secret to everybody"];
const STANDARD_KEYS = ["MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "A".repeat(32), "Z".repeat(32)].map(
  (k) => Buffer.from(k),
);
const WHSEC = STANDARD_KEYS.map((k) => `whsec_${k.toString("base64")}`);

type Check = () => unknown;

/** Samples per cell (see timeInterleaved). */
const ROUNDS = 21;
type AsyncCheck = () => Promise<unknown>;

/**
 * Median ns per call of each function, timed interleaved in rounds of ~10 ms each. As in the
 * suites' harness, each sample starts after an untimed scavenge and ends with a timed one, so each
 * function pays for its own garbage (a fetch Request leaves a lot) and none for another's, and
 * who goes first rotates from round to round, so that no function always follows the same one.
 * 21 rounds: with 15 and a fixed order, the request helpers' cells (~30 µs a call, most of it the
 * Request) moved by up to 28% between two runs of unchanged code (2026-12-05).
 */
async function timeInterleaved(fns: (Check | AsyncCheck)[], rounds = ROUNDS): Promise<number[]> {
  const samples: number[][] = fns.map(() => []);
  for (const fn of fns) for (let i = 0; i < 300; i++) await fn();
  for (let r = 0; r < rounds; r++) {
    for (let j = 0; j < fns.length; j++) {
      const f = (r + j) % fns.length;
      const fn = fns[f];
      let n = 0;
      collectYoung();
      const start = performance.now();
      while (performance.now() - start < 10) {
        for (let i = 0; i < 10; i++) await fn();
        n += 10;
      }
      collectYoung();
      samples[f].push(((performance.now() - start) * 1e6) / n);
    }
  }
  return samples.map((s) => s.sort((a, b) => a - b)[Math.floor(s.length / 2)]);
}

/** Constant-time check of `candidate` (text in `encoding`) against `mac`, length first. */
function handEqual(mac: Buffer, candidate: string, encoding: "hex" | "base64"): boolean {
  const given = Buffer.from(candidate, encoding);
  return given.length === mac.length && timingSafeEqual(given, mac);
}

interface Contenders {
  keyed: Check;
  hand: Check;
  request: AsyncCheck;
  handRequest: AsyncCheck;
  /** The delivery as the scheme's batch verifier takes it. */
  delivery: object;
  /** keyed's batch verifier over `deliveries` (this one's among them). */
  many(deliveries: object[]): unknown;
}

interface Scheme {
  name: string;
  /** keyed's verifier and the hand-written check, for `secrets` (1 or 3) over `body`. */
  make(secretCount: number, body: Uint8Array): Contenders;
}

const headerOf = (h: Record<string, string>) => new Headers(h);
const request = (headers: Record<string, string>, body: Uint8Array) => () =>
  new Request("https://hooks.example/", {
    method: "POST",
    headers: headerOf(headers),
    body: body as Uint8Array<ArrayBuffer>,
  });

/** The hand-written request check: read the body once, then the hand check on it. */
const handRequest =
  (make: () => Request, check: (body: Uint8Array, headers: Headers) => unknown): AsyncCheck =>
  async () => {
    const r = make();
    return check(new Uint8Array(await r.arrayBuffer()), r.headers);
  };

const SCHEMES: Scheme[] = [
  {
    name: "GitHub",
    make(count, body) {
      const secrets = TEXT_SECRETS.slice(-count);
      const header = signGitHub(secrets[secrets.length - 1], body);
      const hand = (data: Uint8Array, value: string) => {
        let ok = false;
        for (const s of secrets) {
          const mac = createHmac("sha256", s).update(data).digest();
          ok = (value.startsWith("sha256=") && handEqual(mac, value.slice(7), "hex")) || ok;
        }
        return ok;
      };
      const make = request({ "x-hub-signature-256": header }, body);
      const keyedSecrets = count === 1 ? secrets[0] : secrets;
      return {
        keyed: () => verifyGitHub(keyedSecrets, body, header),
        hand: () => hand(body, header),
        request: async () => verifyGitHubRequest(keyedSecrets, make()),
        handRequest: handRequest(make, (b, h) => hand(b, h.get("x-hub-signature-256") ?? "")),
        delivery: { body, header },
        many: (ds) => verifyGitHubMany(keyedSecrets, ds as never),
      };
    },
  },
  {
    name: "Stripe",
    make(count, body) {
      const secrets = TEXT_SECRETS.slice(-count);
      const header = signStripe(secrets[secrets.length - 1], body, { timestamp: NOW });
      const hand = (data: Uint8Array, value: string) => {
        let t: string | undefined;
        const v1: string[] = [];
        for (const item of value.split(",")) {
          const [k, v] = item.split("=");
          if (k === "t") t = v;
          else if (k === "v1") v1.push(v);
        }
        if (t === undefined || Math.abs(NOW - Number(t)) > 300) return false;
        let ok = false;
        for (const s of secrets) {
          const mac = createHmac("sha256", s).update(`${t}.`).update(data).digest();
          for (const c of v1) ok = handEqual(mac, c, "hex") || ok;
        }
        return ok;
      };
      const make = request({ "stripe-signature": header }, body);
      const keyedSecrets = count === 1 ? secrets[0] : secrets;
      return {
        keyed: () => verifyStripe(keyedSecrets, body, header, { now: NOW }),
        hand: () => hand(body, header),
        request: async () => verifyStripeRequest(keyedSecrets, make(), { now: NOW }),
        handRequest: handRequest(make, (b, h) => hand(b, h.get("stripe-signature") ?? "")),
        delivery: { body, header },
        many: (ds) => verifyStripeMany(keyedSecrets, ds as never, { now: NOW }),
      };
    },
  },
  {
    name: "Slack",
    make(count, body) {
      const secrets = TEXT_SECRETS.slice(-count);
      const signed = signSlack(secrets[secrets.length - 1], body, { timestamp: NOW });
      const hand = (data: Uint8Array, signature: string, timestamp: string) => {
        if (Math.abs(NOW - Number(timestamp)) > 300 || !signature.startsWith("v0=")) return false;
        let ok = false;
        for (const s of secrets) {
          const mac = createHmac("sha256", s).update(`v0:${timestamp}:`).update(data).digest();
          ok = handEqual(mac, signature.slice(3), "hex") || ok;
        }
        return ok;
      };
      const make = request(
        { "x-slack-signature": signed.signature, "x-slack-request-timestamp": signed.timestamp },
        body,
      );
      const keyedSecrets = count === 1 ? secrets[0] : secrets;
      return {
        keyed: () => verifySlack(keyedSecrets, body, signed, { now: NOW }),
        hand: () => hand(body, signed.signature, signed.timestamp),
        request: async () => verifySlackRequest(keyedSecrets, make(), { now: NOW }),
        handRequest: handRequest(make, (b, h) =>
          hand(b, h.get("x-slack-signature") ?? "", h.get("x-slack-request-timestamp") ?? ""),
        ),
        delivery: { body, headers: signed },
        many: (ds) => verifySlackMany(keyedSecrets, ds as never, { now: NOW }),
      };
    },
  },
  {
    name: "Standard Webhooks",
    make(count, body) {
      const keys = STANDARD_KEYS.slice(-count);
      const whsec = WHSEC.slice(-count);
      const headers = signStandardWebhook(whsec[whsec.length - 1], {
        id: "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W",
        timestamp: NOW,
        body,
      });
      const hand = (data: Uint8Array, get: (name: string) => string) => {
        const id = get("webhook-id");
        const t = get("webhook-timestamp");
        if (Math.abs(NOW - Number(t)) > 300) return false;
        const candidates = get("webhook-signature")
          .split(" ")
          .filter((e) => e.startsWith("v1,"))
          .map((e) => e.slice(3));
        let ok = false;
        for (const k of keys) {
          const mac = createHmac("sha256", k).update(`${id}.${t}.`).update(data).digest();
          for (const c of candidates) ok = handEqual(mac, c, "base64") || ok;
        }
        return ok;
      };
      const make = request(headers, body);
      const keyedSecrets = count === 1 ? whsec[0] : whsec;
      const record = headers as Record<string, string>;
      return {
        keyed: () => verifyStandardWebhook(keyedSecrets, body, headers, { now: NOW }),
        hand: () => hand(body, (n) => record[n]),
        request: async () => verifyStandardWebhookRequest(keyedSecrets, make(), { now: NOW }),
        handRequest: handRequest(make, (b, h) => hand(b, (n) => h.get(n) ?? "")),
        delivery: { body, headers },
        many: (ds) => verifyStandardWebhookMany(keyedSecrets, ds as never, { now: NOW }),
      };
    },
  },
];

const SIZES = [256, 4096, 65536];
const GOALS: Record<string, number> = { GitHub: 1.15, Stripe: 1.15, Slack: 1.15 };
const goalOf = (scheme: string) => GOALS[scheme] ?? 1.25;

const us = (ns: number) => (ns / 1000).toFixed(2);

/** Writes `text` between the `name` markers of docs/benchmarks.md. */
function writeSection(name: string, text: string): void {
  const doc = join(dirname(dirname(fileURLToPath(import.meta.url))), "docs", "benchmarks.md");
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const current = readFileSync(doc, "utf8");
  const i = current.indexOf(start);
  const j = current.indexOf(end);
  if (i < 0 || j < i) throw new Error(`no ${start} … ${end} in ${doc}`);
  writeFileSync(doc, `${current.slice(0, i + start.length)}\n\n${text}\n\n${current.slice(j)}`);
}

const machine = () =>
  `Machine: ${cpus()[0]?.model.trim() ?? "unknown CPU"}, ${cpus().length} cores, Node ${process.version}; ${new Date().toISOString().slice(0, 10)}.`;

const markdownTable = (header: string[], rows: string[][], textColumns: number) =>
  [
    `| ${header.join(" | ")} |`,
    `|${header.map((_, i) => (i < textColumns ? "---" : "---:")).join("|")}|`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ].join("\n");

/**
 * One row per scheme, body size and secret count (one, or a rotation list of three): the three
 * first cells, then what `measure` returns. A dot on stderr per row.
 */
async function eachCell(
  sizes: readonly number[],
  measure: (scheme: Scheme, size: number, count: number) => Promise<string[]>,
): Promise<string[][]> {
  const rows: string[][] = [];
  for (const scheme of SCHEMES) {
    for (const size of sizes) {
      for (const count of [1, 3]) {
        rows.push([
          scheme.name,
          `${size} B`,
          String(count),
          ...(await measure(scheme, size, count)),
        ]);
        process.stderr.write(".");
      }
    }
  }
  process.stderr.write("\n");
  return rows;
}

/** Deliveries in a batch: a queue worker's batch of stored webhooks. */
const BATCH = 32;
const BATCH_SIZES = [256, 1024, 4096];

/**
 * The batch verifiers (verifyGitHubMany, …) over BATCH deliveries with different bodies, against
 * the single verifier called on each and the hand-written check on each; per delivery.
 */
async function batchSection(): Promise<string> {
  let met = 0;
  const rows = await eachCell(BATCH_SIZES, async (scheme, size, count) => {
    const made = Array.from({ length: BATCH }, (_, i) =>
      scheme.make(count, new Uint8Array(size).fill(i)),
    );
    const deliveries = made.map((m) => m.delivery);
    const many = () => made[0].many(deliveries);
    const each = () => {
      for (const m of made) m.keyed();
    };
    const hand = () => {
      for (const m of made) m.hand();
    };
    const answers = many() as { ok: boolean }[];
    if (answers.length !== BATCH || answers.some((a) => !a.ok)) throw new Error("refused");
    const [m, e, h] = (await timeInterleaved([many, each, hand])).map((t) => t / BATCH);
    if (m <= e) met++;
    return [us(m), us(e), us(h), (m / e).toFixed(2), (m / h).toFixed(2)];
  });
  const header = [
    "scheme",
    "body",
    "secrets",
    `keyed batch of ${BATCH}, per delivery (µs)`,
    "keyed verify, one by one (µs)",
    "by hand, one by one (µs)",
    "batch ÷ one by one",
    "batch ÷ hand",
  ];
  return [
    `The batch verifiers (\`verifyGitHubMany\`, \`verifyStripeMany\`, \`verifySlackMany\`, \`verifyStandardWebhookMany\`) over ${BATCH} deliveries with different bodies, against the single verifier called on each and the hand-written check above on each (\`node --import tsx bench/webhooks.ts --batch\`). Times are per delivery; interleaved medians of ${ROUNDS} rounds. The batch computes each secret's tags for every delivery in one call: four short messages per call of the WebAssembly SIMD kernel; bodies from node:crypto's crossover on go to node:crypto one by one, as in the single verifier.`,
    `${machine()} The batch was at most as fast as one by one in ${met} of ${rows.length} cells.`,
    markdownTable(header, rows, 3),
  ].join("\n\n");
}

async function main(): Promise<void> {
  if (process.argv.includes("--batch")) {
    const text = await batchSection();
    console.log(text);
    if (process.argv.includes("--write")) writeSection("webhooks-batch", text);
    return;
  }
  let met = 0;
  let cells = 0;
  const rows = await eachCell(SIZES, async (scheme, size, count) => {
    const made = scheme.make(count, new Uint8Array(size).fill(0x7b));
    for (const fn of [made.keyed, made.hand]) if (fn() === false) throw new Error("refused");
    const [k, h, kr, hr] = await timeInterleaved([
      made.keyed,
      made.hand,
      made.request,
      made.handRequest,
    ]);
    const goal = goalOf(scheme.name);
    for (const ratio of [k / h, kr / hr]) {
      cells++;
      if (ratio <= goal) met++;
    }
    return [us(k), us(h), (k / h).toFixed(2), us(kr), us(hr), (kr / hr).toFixed(2), `≤ ${goal}`];
  });
  const header = [
    "scheme",
    "body",
    "secrets",
    "keyed verify (µs)",
    "by hand (µs)",
    "keyed ÷ hand (below 1: keyed faster)",
    "keyed request helper (µs)",
    "by hand, fetch Request (µs)",
    "helper ÷ hand",
    "goal",
  ];
  const table = markdownTable(header, rows, 3);
  const text = [
    `The four webhook verifiers against the same check written by hand on node:crypto (\`node --import tsx bench/webhooks.ts\`; the hand-written checks are in the script): the secret decoded once at start-up, the header split, \`createHmac\` over the signed parts, \`timingSafeEqual\` against every candidate. keyed's verifiers also check the header's format, the timestamp, and every secret of a rotation list in constant time. Interleaved medians of ${ROUNDS} rounds of ~10 ms per cell (who goes first rotating), one process.`,
    `${machine()} ${met} of ${cells} cells within their goal.`,
    table,
  ].join("\n\n");
  console.log(text);
  if (process.argv.includes("--write")) writeSection("webhooks", text);
}

await main();
