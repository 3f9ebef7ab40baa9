/**
 * Webhook verification throughput (`node --import tsx bench/webhooks.ts`): verifications per
 * second for GitHub, Stripe and Standard Webhooks signatures over typical bodies, against a
 * hand-written node:crypto check (createHmac + timingSafeEqual), interleaved in one run.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import {
  signGitHub,
  signStandardWebhook,
  signStripe,
  verifyGitHub,
  verifyStandardWebhook,
  verifyStripe,
} from "../src/protocols/webhooks.js";

const secret = "it's a secret to everybody";
const whsec = `whsec_${Buffer.from("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").toString("base64")}`;
const now = 1_700_000_000;

function time(fn: () => unknown): number {
  for (let i = 0; i < 500; i++) fn();
  const samples: number[] = [];
  for (let s = 0; s < 9; s++) {
    let n = 0;
    const start = performance.now();
    while (performance.now() - start < 25) {
      for (let i = 0; i < 20; i++) fn();
      n += 20;
    }
    samples.push(((performance.now() - start) * 1e6) / n);
  }
  return samples.sort((a, b) => a - b)[4];
}

console.log(
  "| body | keyed verifyGitHub | node:crypto by hand | keyed verifyStripe | keyed verifyStandardWebhook |",
);
console.log("|---:|---:|---:|---:|---:|");
for (const size of [256, 4096, 65536]) {
  const body = new Uint8Array(size).fill(0x7b);
  const github = signGitHub(secret, body);
  const stripe = signStripe(secret, body, { timestamp: now });
  const standard = signStandardWebhook(whsec, { id: "msg_1", timestamp: now, body });
  const expected = Buffer.from(github.slice(7), "hex");
  const cells = [
    time(() => verifyGitHub(secret, body, github)),
    time(() => timingSafeEqual(createHmac("sha256", secret).update(body).digest(), expected)),
    time(() => verifyStripe(secret, body, stripe, { now })),
    time(() => verifyStandardWebhook(whsec, body, standard, { now })),
  ];
  const fmt = (ns: number) => `${(1e9 / ns / 1000).toFixed(0)}k/s (${(ns / 1000).toFixed(1)} µs)`;
  console.log(`| ${size} B | ${cells.map(fmt).join(" | ")} |`);
}
