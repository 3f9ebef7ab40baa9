/**
 * Webhook verification against the same check written by hand on node:crypto
 * (`node --import tsx bench/webhooks.ts [--write]`): all four schemes, bodies of 256 B, 4 KiB and
 * 64 KiB, one secret and a rotation list of three (the matching secret last), the verifiers and
 * the request helpers (a fetch `Request`). keyed and the hand-written check of a cell are timed
 * interleaved, round by round, in this one process; the ratio is keyed's time over the hand's
 * (below 1: keyed is faster). `--write` puts the table into docs/benchmarks.md.
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
  verifyGitHubRequest,
  verifySlack,
  verifySlackRequest,
  verifyStandardWebhook,
  verifyStandardWebhookRequest,
  verifyStripe,
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
type AsyncCheck = () => Promise<unknown>;

/**
 * Median ns per call of each function, timed interleaved in rounds of ~10 ms each. As in the
 * suites' harness, each sample starts after an untimed scavenge and ends with a timed one, so each
 * function pays for its own garbage (a fetch Request leaves a lot) and none for another's.
 */
async function timeInterleaved(fns: (Check | AsyncCheck)[], rounds = 15): Promise<number[]> {
  const samples: number[][] = fns.map(() => []);
  for (const fn of fns) for (let i = 0; i < 300; i++) await fn();
  for (let r = 0; r < rounds; r++) {
    for (let f = 0; f < fns.length; f++) {
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
      };
    },
  },
];

const SIZES = [256, 4096, 65536];
const GOALS: Record<string, number> = { GitHub: 1.15, Stripe: 1.15, Slack: 1.15 };
const goalOf = (scheme: string) => GOALS[scheme] ?? 1.25;

const us = (ns: number) => (ns / 1000).toFixed(2);

async function main(): Promise<void> {
  const rows: string[][] = [];
  let met = 0;
  let cells = 0;
  for (const scheme of SCHEMES) {
    for (const size of SIZES) {
      const body = new Uint8Array(size).fill(0x7b);
      for (const count of [1, 3]) {
        const made = scheme.make(count, body);
        for (const fn of [made.keyed, made.hand]) if (fn() === false) throw new Error("refused");
        const [k, h, kr, hr] = await timeInterleaved([
          made.keyed,
          made.hand,
          made.request,
          made.handRequest,
        ]);
        const goal = goalOf(scheme.name);
        for (const [ratio] of [[k / h], [kr / hr]]) {
          cells++;
          if (ratio <= goal) met++;
        }
        rows.push([
          scheme.name,
          `${size} B`,
          String(count),
          us(k),
          us(h),
          (k / h).toFixed(2),
          us(kr),
          us(hr),
          (kr / hr).toFixed(2),
          `≤ ${goal}`,
        ]);
        process.stderr.write(".");
      }
    }
  }
  process.stderr.write("\n");
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
  const table = [
    `| ${header.join(" | ")} |`,
    `|${header.map((_, i) => (i < 3 ? "---" : "---:")).join("|")}|`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ].join("\n");
  const cpu = cpus()[0]?.model.trim() ?? "unknown CPU";
  const text = [
    `The four webhook verifiers against the same check written by hand on node:crypto (\`node --import tsx bench/webhooks.ts\`; the hand-written checks are in the script): the secret decoded once at start-up, the header split, \`createHmac\` over the signed parts, \`timingSafeEqual\` against every candidate. keyed's verifiers also check the header's format, the timestamp, and every secret of a rotation list in constant time. Interleaved medians of 15 rounds of ~10 ms per cell, one process.`,
    `Machine: ${cpu}, ${cpus().length} cores, Node ${process.version}; ${new Date().toISOString().slice(0, 10)}. ${met} of ${cells} cells within their goal.`,
    table,
  ].join("\n\n");
  console.log(text);
  if (process.argv.includes("--write")) {
    const doc = join(dirname(dirname(fileURLToPath(import.meta.url))), "docs", "benchmarks.md");
    const start = "<!-- bench:webhooks:start -->";
    const end = "<!-- bench:webhooks:end -->";
    const current = readFileSync(doc, "utf8");
    const i = current.indexOf(start);
    const j = current.indexOf(end);
    if (i < 0 || j < i) throw new Error(`no ${start} … ${end} in ${doc}`);
    writeFileSync(doc, `${current.slice(0, i + start.length)}\n\n${text}\n\n${current.slice(j)}`);
  }
}

await main();
