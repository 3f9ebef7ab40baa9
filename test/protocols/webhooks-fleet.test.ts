/**
 * The webhook verifiers with keysets (their enabled HMAC-SHA256 keys are the secrets, the primary
 * signs) and with a replay store (each accepted message claimed once, for its validity; forgeries
 * never reach the store; a store that fails is a refusal).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Keyset } from "../../src/index.js";
import {
  signGitHub,
  signSlack,
  signStandardWebhook,
  signStripe,
  verifyGitHub,
  verifyGitHubRequest,
  verifySlack,
  verifyStandardWebhook,
  verifyStandardWebhookRequest,
  verifyStripe,
} from "../../src/protocols/webhooks.js";
import { countingStore, throwsKeyed } from "../helpers.js";

const body = '{"event":"ping"}';
const now = Math.floor(Date.now() / 1000);

describe("webhooks with a keyset", () => {
  it("the primary signs; every enabled HMAC-SHA256 key verifies; a disabled one does not", () => {
    const ks = Keyset.generate("hmac-sha256", { prefix: "raw" });
    const a = ks.primaryId;
    const byA = signGitHub(ks, body);
    const b = ks.add("hmac-sha256", { prefix: "raw" });
    ks.setPrimary(b);
    const byB = signGitHub(ks, body);
    assert.notEqual(byA, byB);
    for (const header of [byA, byB]) assert.ok(verifyGitHub(ks, body, header).ok);
    ks.disable(a);
    assert.equal(verifyGitHub(ks, body, byA).ok, false);
    assert.ok(verifyGitHub(ks, body, byB).ok);
    const stripe = signStripe(ks, body, { timestamp: now });
    assert.ok(verifyStripe(ks, body, stripe, { now }).ok);
    const slack = signSlack(ks, body, { timestamp: now });
    assert.ok(verifySlack(ks, body, slack, { now }).ok);
    const standard = signStandardWebhook(ks, { id: "msg_1", timestamp: now, body });
    assert.ok(verifyStandardWebhook(ks, body, standard, { now }).ok);
  });

  it("a keyset without an enabled HMAC-SHA256 key is the caller's mistake", () => {
    const ks = Keyset.generate("blake3");
    throwsKeyed(() => verifyGitHub(ks, body, "sha256=00"), "BAD_INPUT", /hmac-sha256/);
    throwsKeyed(() => signGitHub(ks, body), "BAD_INPUT", /HMAC-SHA256/);
  });
});

describe("webhooks with a replay store", () => {
  it("each scheme accepts a message once, then answers replayed", async () => {
    const { store } = countingStore();
    // The messages' time is read after the store is made: a memory store refuses messages valid
    // from before it existed (a restarted process cannot know what it accepted then), so the
    // file's `now`, read at load, fails this test whenever a second boundary falls in between.
    const now = Math.floor(Date.now() / 1000);
    const secret = "it's a secret to everybody";
    const whsec = `whsec_${Buffer.from("0123456789abcdef0123456789abcdef").toString("base64")}`;
    const cases: [string, () => Promise<{ ok: boolean; reason?: string }>][] = [
      [
        "github",
        () => verifyGitHub(secret, body, signGitHub(secret, body), { replayStore: store }),
      ],
      [
        "stripe",
        () =>
          verifyStripe(secret, body, signStripe(secret, body, { timestamp: now }), {
            now,
            replayStore: store,
          }),
      ],
      [
        "slack",
        () =>
          verifySlack(secret, body, signSlack(secret, body, { timestamp: now }), {
            now,
            replayStore: store,
          }),
      ],
      [
        "standard",
        () =>
          verifyStandardWebhook(
            whsec,
            body,
            signStandardWebhook(whsec, { id: "msg_7", timestamp: now, body }),
            { now, replayStore: store },
          ),
      ],
    ];
    for (const [name, verify] of cases) {
      const first = await verify();
      assert.equal(first.ok, true, name);
      const again = await verify();
      assert.equal(again.ok, false, name);
      assert.equal(again.reason, "replayed", name);
    }
  });

  it("a rotation list's extra v1 entries do not make a replay look new (Stripe)", async () => {
    const { store } = countingStore();
    const secrets = ["old-secret", "new-secret"];
    const header = signStripe(secrets[1], body, { timestamp: now });
    const v1 = header.split(",v1=")[1];
    assert.ok((await verifyStripe(secrets, body, header, { now, replayStore: store })).ok);
    const padded = `${header},v1=${"0".repeat(64)},v1=${v1}`;
    const r = await verifyStripe(secrets, body, padded, { now, replayStore: store });
    assert.equal(!r.ok && r.reason, "replayed");
  });

  it("forgeries and stale messages never reach the store; the answer is still a Promise", async () => {
    const counting = countingStore();
    const secret = "s3cret";
    const forged = verifyGitHub(secret, body, `sha256=${"ab".repeat(32)}`, {
      replayStore: counting.store,
    });
    assert.ok(forged instanceof Promise);
    assert.equal((await forged).ok, false);
    const stale = signStripe(secret, body, { timestamp: now - 1000 });
    const r = await verifyStripe(secret, body, stale, { now, replayStore: counting.store });
    assert.equal(!r.ok && r.reason, "timestamp_too_old");
    assert.equal(counting.claims, 0);
  });

  it("a store that fails is store_unavailable, never an acceptance", async () => {
    const counting = countingStore();
    counting.fail();
    const secret = "s3cret";
    const r = await verifyGitHub(secret, body, signGitHub(secret, body), {
      replayStore: counting.store,
    });
    assert.equal(!r.ok && r.reason, "store_unavailable");
  });

  it("the request helpers claim too, and a bad replayStore option throws before the body is read", async () => {
    const { store } = countingStore();
    const whsec = `whsec_${Buffer.from("0123456789abcdef0123456789abcdef").toString("base64")}`;
    const headers = signStandardWebhook(whsec, { id: "msg_9", timestamp: now, body });
    const request = () => new Request("https://h/", { method: "POST", headers, body });
    assert.ok(
      (await verifyStandardWebhookRequest(whsec, request(), { now, replayStore: store })).ok,
    );
    const again = await verifyStandardWebhookRequest(whsec, request(), { now, replayStore: store });
    assert.equal(!again.ok && again.reason, "replayed");
    const gh = new Request("https://h/", {
      method: "POST",
      headers: { "x-hub-signature-256": signGitHub("k", body) },
      body,
    });
    assert.ok((await verifyGitHubRequest("k", gh, { replayStore: store, replaySeconds: 60 })).ok);
    await assert.rejects(
      verifyGitHubRequest("k", request(), { replayStore: {} as never }),
      /replayStore must be a ReplayStore/,
    );
  });
});
