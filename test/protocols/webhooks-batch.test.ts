/**
 * The batch verifiers (verifyGitHubMany, verifyStripeMany, verifySlackMany,
 * verifyStandardWebhookMany): (a) each answer is the one the single verifier gives the same
 * delivery, for batches that mix good, forged, tampered, stale and malformed deliveries, short and
 * long bodies, one secret or several; (b) with a replay store, accepted deliveries are claimed in
 * order (a copy later in the batch is `replayed`), forgeries never reach the store, and a failing
 * store refuses only what would have been accepted; (c) a programming error throws BAD_INPUT that
 * names the delivery; an empty batch is an empty answer.
 */
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { describe, it } from "node:test";
import fc from "fast-check";
import { SHA256 } from "../../src/hash/sha256.js";
import { Keyset, MemoryReplayStore } from "../../src/index.js";
import { HmacKernel } from "../../src/mac/hmac.js";
import { tagBatch } from "../../src/protocols/webhooks/common.js";
import {
  type HeaderSource,
  type SlackHeaders,
  signGitHub,
  signSlack,
  signStandardWebhook,
  signStripe,
  verifyGitHub,
  verifyGitHubMany,
  verifySlack,
  verifySlackMany,
  verifyStandardWebhook,
  verifyStandardWebhookMany,
  verifyStripe,
  verifyStripeMany,
  type WebhookResult,
  type WebhookSecrets,
} from "../../src/protocols/webhooks.js";
import { countingStore, throwsKeyed } from "../helpers.js";

const NOW = 1_700_000_000;
const TEXT = ["old-secret", "it's a secret to everybody"];
const STANDARD = [
  "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  `whsec_${btoa("another key, 32 bytes long......")}`,
];
/** A secret that is none of the scheme's: signs forgeries. */
const otherSecret = (scheme: Scheme) =>
  scheme.secrets === STANDARD ? `whsec_${btoa("a key nobody configured, 32 B..")}` : "not a secret";

type Delivery = { body: Uint8Array | string; header?: unknown; headers?: unknown };

/** One scheme's single and batch verifier, and a signer for a delivery of each kind. */
interface Scheme {
  name: string;
  secrets: readonly string[];
  single(secrets: WebhookSecrets, d: Delivery, options?: object): unknown;
  many(secrets: WebhookSecrets, ds: Delivery[], options?: object): unknown;
  /** A delivery of `body` signed under `secret` at `timestamp`, with message id `id`. */
  sign(secret: string, body: Uint8Array, timestamp: number, id: string): Delivery;
}

const SCHEMES: Scheme[] = [
  {
    name: "GitHub",
    secrets: TEXT,
    single: (s, d, o) => verifyGitHub(s, d.body, d.header as string, o),
    many: (s, ds, o) => verifyGitHubMany(s, ds as never, o),
    sign: (secret, body) => ({ body, header: signGitHub(secret, body) }),
  },
  {
    name: "Stripe",
    secrets: TEXT,
    single: (s, d, o) => verifyStripe(s, d.body, d.header as string, o),
    many: (s, ds, o) => verifyStripeMany(s, ds as never, o),
    sign: (secret, body, timestamp) => ({ body, header: signStripe(secret, body, { timestamp }) }),
  },
  {
    name: "Slack",
    secrets: TEXT,
    single: (s, d, o) => verifySlack(s, d.body, d.headers as SlackHeaders, o),
    many: (s, ds, o) => verifySlackMany(s, ds as never, o),
    sign: (secret, body, timestamp) => ({ body, headers: signSlack(secret, body, { timestamp }) }),
  },
  {
    name: "Standard Webhooks",
    secrets: STANDARD,
    single: (s, d, o) => verifyStandardWebhook(s, d.body, d.headers as HeaderSource, o),
    many: (s, ds, o) => verifyStandardWebhookMany(s, ds as never, o),
    sign: (secret, body, timestamp, id) => ({
      body,
      headers: signStandardWebhook(secret, { id, timestamp, body }),
    }),
  },
];

/** What can happen to a delivery on the way: nothing, or an attacker's or a clock's change. */
const KINDS = [
  "good",
  "good",
  "good",
  "other secret",
  "tampered body",
  "stale",
  "future",
  "no header",
  "garbage header",
  "text body",
] as const;
type Kind = (typeof KINDS)[number];

function deliveryOf(scheme: Scheme, kind: Kind, body: Uint8Array, n: number, secret: string) {
  const id = `msg_${n}`;
  const at = kind === "stale" ? NOW - 3600 : kind === "future" ? NOW + 3600 : NOW - (n % 200);
  const d = scheme.sign(kind === "other secret" ? otherSecret(scheme) : secret, body, at, id);
  switch (kind) {
    case "tampered body": {
      const changed = body.length === 0 ? Uint8Array.of(0) : body.slice();
      changed[0] ^= 1;
      return { ...d, body: changed };
    }
    case "no header":
      return "header" in d ? { ...d, header: undefined } : { ...d, headers: {} };
    case "garbage header":
      return "header" in d
        ? { ...d, header: `t=x,v1=${"z".repeat(64)}` }
        : { ...d, headers: { signature: "v1=nope", timestamp: "soon", "webhook-id": "a.b" } };
    case "text body": {
      const text = `{"n":${n},"é":"ü"}`;
      return { ...scheme.sign(secret, new TextEncoder().encode(text), at, id), body: text };
    }
    default:
      return d;
  }
}

const batchArb = fc.array(
  fc.record({
    kind: fc.constantFrom(...KINDS),
    // Mostly short bodies (the lanes), some past the node:crypto crossover.
    size: fc.oneof(fc.integer({ min: 0, max: 300 }), fc.constantFrom(1000, 2048, 5000)),
    secret: fc.nat(1),
  }),
  { maxLength: 24 },
);

describe("tagBatch: each signed content's HMAC-SHA256, lanes and node:crypto's crossover mixed", () => {
  it("tag i is node:crypto's over content i's joined parts, first use of the key or later", () => {
    const part = fc
      .constantFrom(0, 1, 20, 55, 64, 119, 300, 800, 2100, 5000)
      .chain((n) => fc.uint8Array({ minLength: n, maxLength: n }));
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 100 }),
        fc.array(fc.array(part, { minLength: 1, maxLength: 3 }), { maxLength: 11 }),
        fc.boolean(),
        (key, contents, usedBefore) => {
          const kernel = new HmacKernel(SHA256, key);
          if (usedBefore) kernel.compute(new Uint8Array(3), new Uint8Array(32));
          const out = new Uint8Array(contents.length * 32).fill(0xee);
          tagBatch(kernel, contents, out);
          contents.forEach((parts, i) => {
            const expected = createHmac("sha256", key);
            for (const p of parts) expected.update(p);
            const want = new Uint8Array(expected.digest());
            assert.deepEqual(out.subarray(i * 32, (i + 1) * 32), want, `content ${i}`);
          });
          kernel.wipe();
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe("batch verifiers: the single verifier's answer for each delivery", () => {
  for (const scheme of SCHEMES) {
    it(`${scheme.name}: mixed batches, one secret and a rotation list`, () => {
      fc.assert(
        fc.property(batchArb, fc.boolean(), (specs, rotation) => {
          const secrets = rotation ? [...scheme.secrets] : scheme.secrets[1];
          const ds = specs.map((s, n) =>
            deliveryOf(
              scheme,
              s.kind,
              new Uint8Array(s.size).fill(n),
              n,
              rotation ? scheme.secrets[s.secret] : scheme.secrets[1],
            ),
          );
          const many = scheme.many(secrets, ds, { now: NOW }) as WebhookResult[];
          const single = ds.map((d) => scheme.single(secrets, d, { now: NOW }));
          assert.deepEqual(many, single);
          // The batch must find what it should: the good ones, and only they.
          specs.forEach((s, n) => {
            const timeless =
              scheme.name === "GitHub" && (s.kind === "stale" || s.kind === "future");
            const good = s.kind === "good" || s.kind === "text body" || timeless;
            assert.equal(many[n].ok, good, `${s.kind} at ${n}`);
          });
        }),
        { numRuns: 60 },
      );
    });
  }

  it("a keyset's enabled keys verify a batch; a disabled key's deliveries are refused", () => {
    const ks = Keyset.generate("hmac-sha256", { prefix: "raw" });
    const a = ks.primaryId;
    const byA = { body: "one", header: signGitHub(ks, "one") };
    ks.setPrimary(ks.add("hmac-sha256", { prefix: "raw" }));
    const byB = { body: "two", header: signGitHub(ks, "two") };
    assert.deepEqual(
      verifyGitHubMany(ks, [byA, byB]).map((r) => r.ok),
      [true, true],
    );
    ks.disable(a);
    const [ra, rb] = verifyGitHubMany(ks, [byA, byB]);
    assert.equal(ra.ok === false && ra.reason, "signature_mismatch");
    assert.equal(rb.ok, true);
  });

  it("an empty batch is an empty answer (a Promise of one with a store)", async () => {
    for (const scheme of SCHEMES) {
      assert.deepEqual(scheme.many(scheme.secrets[0], []), []);
      const store = new MemoryReplayStore();
      assert.deepEqual(await scheme.many(scheme.secrets[0], [], { replayStore: store }), []);
    }
  });
});

describe("batch verifiers on attacker-made headers: refusals, never exceptions", () => {
  const text = fc.oneof(fc.string({ maxLength: 90 }), fc.string({ unit: "binary", maxLength: 90 }));
  for (const scheme of SCHEMES) {
    it(scheme.name, () => {
      fc.assert(
        fc.property(fc.array(fc.tuple(text, text, text), { maxLength: 12 }), (values) => {
          const ds = values.map(([a, b, c]) =>
            scheme.name === "GitHub" || scheme.name === "Stripe"
              ? { body: a, header: b }
              : {
                  body: a,
                  headers: {
                    signature: b,
                    timestamp: c,
                    "webhook-id": b,
                    "webhook-timestamp": c,
                    "webhook-signature": a,
                  },
                },
          );
          const many = scheme.many(scheme.secrets[0], ds, { now: NOW }) as WebhookResult[];
          assert.deepEqual(
            many,
            ds.map((d) => scheme.single(scheme.secrets[0], d, { now: NOW })),
          );
          for (const r of many) assert.equal(r.ok, false);
        }),
        { numRuns: 80 },
      );
    });
  }
});

describe("batch verifiers with a replay store", () => {
  it("Standard Webhooks: a message is claimed by its signed webhook-id, so a resend signed anew is replayed", async () => {
    // From now on: a new store refuses messages signed before it started (the epoch rule).
    const now = Math.floor(Date.now() / 1000) + 1;
    const body = '{"type":"ping"}';
    const first = signStandardWebhook(STANDARD[0], { id: "msg_once", timestamp: now, body });
    const resent = signStandardWebhook(STANDARD[0], { id: "msg_once", timestamp: now + 5, body });
    const other = signStandardWebhook(STANDARD[0], { id: "msg_other", timestamp: now, body });
    const { store } = countingStore();
    const batch = await verifyStandardWebhookMany(
      STANDARD[0],
      [
        { body, headers: first },
        { body, headers: resent },
        { body, headers: other },
      ],
      { replayStore: store },
    );
    assert.deepEqual(
      batch.map((r) => (r.ok ? r.id : r.reason)),
      ["msg_once", "replayed", "msg_other"],
    );
    const single = await verifyStandardWebhook(STANDARD[0], body, resent, { replayStore: store });
    assert.equal(single.ok === false && single.reason, "replayed");
  });

  for (const scheme of SCHEMES) {
    it(`${scheme.name}: claimed in order; copies replayed; forgeries never claimed`, async () => {
      const secret = scheme.secrets[0];
      const now = Math.floor(Date.now() / 1000);
      const body = (n: number) => new TextEncoder().encode(`{"n":${n}}`);
      const a = scheme.sign(secret, body(1), now, "msg_a");
      const b = scheme.sign(secret, body(2), now, "msg_b");
      const forged = scheme.sign(otherSecret(scheme), body(3), now, "msg_c");
      const counting = countingStore();
      const { store } = counting;
      const first = (await scheme.many(secret, [a, forged, b, a], {
        replayStore: store,
      })) as WebhookResult[];
      assert.deepEqual(
        first.map((r) => (r.ok ? "ok" : r.reason)),
        ["ok", "signature_mismatch", "ok", "replayed"],
      );
      assert.equal(counting.claims, 3, "the forgery reached the store");
      // A second batch, and the single verifier, see the same store.
      const again = (await scheme.many(secret, [b], { replayStore: store })) as WebhookResult[];
      assert.equal(again[0].ok === false && again[0].reason, "replayed");
      const single = (await scheme.single(secret, a, { replayStore: store })) as WebhookResult;
      assert.equal(single.ok === false && single.reason, "replayed");
      // Fail closed: a store that fails refuses what would have been accepted, and only that.
      counting.fail();
      const c = scheme.sign(secret, body(4), now, "msg_d");
      const down = (await scheme.many(secret, [c, forged], {
        replayStore: store,
      })) as WebhookResult[];
      assert.deepEqual(
        down.map((r) => (r.ok ? "ok" : r.reason)),
        ["store_unavailable", "signature_mismatch"],
      );
    });
  }
});

describe("batch verifiers: programming errors throw BAD_INPUT naming the delivery", () => {
  it("deliveries that are not an array of objects", () => {
    throwsKeyed(
      () => verifyGitHubMany("s", "body" as never),
      "BAD_INPUT",
      /deliveries must be an array/,
    );
    throwsKeyed(() => verifyStripeMany("s", [null] as never), "BAD_INPUT", /deliveries\[0\]/);
  });

  it("a hole in a sparse array is a delivery that is not an object", () => {
    const good = { body: "x", header: signGitHub("s", "x") };
    // biome-ignore lint/suspicious/noSparseArray: the hole is the point
    const sparse = [good, , good];
    throwsKeyed(() => verifyGitHubMany("s", sparse as never), "BAD_INPUT", /deliveries\[1\]/);
    throwsKeyed(() => verifyGitHubMany("s", new Array(2)), "BAD_INPUT", /deliveries\[0\]/);
  });

  it("every accepted answer is an object of its own (a caller may add to it)", () => {
    const d = { body: "x", header: signGitHub("s", "x") };
    const [a, b] = verifyGitHubMany("s", [d, d]);
    assert.ok(a.ok && b.ok);
    assert.notEqual(a, b);
    assert.notEqual(verifyGitHub("s", d.body, d.header), verifyGitHub("s", d.body, d.header));
  });

  it("a body of the wrong type names its index", () => {
    const good = { body: "x", header: signGitHub("s", "x") };
    throwsKeyed(
      () => verifyGitHubMany("s", [good, { body: 42, header: "" }] as never),
      "BAD_INPUT",
      /^deliveries\[1\]: body must be/,
    );
    throwsKeyed(
      () => verifySlackMany("s", [{ body: "x", headers: 5 }] as never),
      "BAD_INPUT",
      /^deliveries\[0\]: headers must be an object/,
    );
  });

  it("bad secrets and options throw as the single verifiers' do", () => {
    throwsKeyed(() => verifyGitHubMany("", []), "KEY_TOO_SHORT");
    throwsKeyed(() => verifyStripeMany("s", [], { tolerance: 5 } as never), "BAD_INPUT");
  });
});
