import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import {
  type NodeRequest,
  readRawBody,
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
  type WebhookResult,
} from "../../src/protocols/webhooks.js";
import { ascii, atOffset, notBytes, throwsKeyed } from "../helpers.js";

/** Independent oracle: node:crypto's HMAC-SHA256. */
const hmacHex = (key: string | Uint8Array, ...parts: (string | Uint8Array)[]): string => {
  const h = createHmac("sha256", key);
  for (const part of parts) h.update(part);
  return h.digest("hex");
};
const hmacBase64 = (key: Uint8Array, data: string): string =>
  createHmac("sha256", key).update(data).digest("base64");

function refused(result: WebhookResult, reason: string): void {
  assert.equal(result.ok, false, `expected a refusal (${reason})`);
  if (!result.ok) {
    assert.equal(result.reason, reason, result.message);
    assert.ok(result.message.length > 0);
  }
}

/** Values that are neither a string nor bytes: refused as a secret or a body. */
const notSecret = (): [string, unknown][] => [
  ...notBytes().filter(([name]) => name !== "a string"),
  ["an object", { text: "{}" }],
];

const text = fc.string({ unit: "grapheme" });
const bodyArb = fc.oneof(fc.uint8Array({ maxLength: 300 }), text);
const secretArb = fc.oneof(
  fc.string({ minLength: 1 }),
  fc.uint8Array({ minLength: 1, maxLength: 80 }),
);
const NOW = 1_700_000_000;

describe("GitHub X-Hub-Signature-256", () => {
  // docs.github.com, "Validating webhook deliveries": the worked example.
  const secret = "It's a Secret to Everybody";
  const expected = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";

  it("reproduces GitHub's published example", () => {
    assert.equal(signGitHub(secret, "Hello, World!"), expected);
    assert.equal(signGitHub(ascii(secret), ascii("Hello, World!")), expected);
    assert.deepEqual(verifyGitHub(secret, "Hello, World!", expected), { ok: true });
    assert.deepEqual(
      verifyGitHub(
        secret,
        ascii("Hello, World!"),
        expected.toUpperCase().replace("SHA256=", "sha256="),
      ),
      { ok: true },
    );
  });

  it("equals node:crypto's HMAC, and sign-then-verify holds (property)", () => {
    fc.assert(
      fc.property(secretArb, bodyArb, (key, body) => {
        const header = signGitHub(key, body);
        assert.equal(header, `sha256=${hmacHex(key, body)}`);
        assert.equal(verifyGitHub(key, body, header).ok, true);
      }),
    );
  });

  it("refuses a tampered body and a wrong secret (property)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 200 }), fc.nat(), (body, at) => {
        const header = signGitHub(secret, body);
        const tampered = body.slice();
        tampered[at % body.length] ^= 1;
        refused(verifyGitHub(secret, tampered, header), "signature_mismatch");
        refused(verifyGitHub(`${secret}!`, body, header), "signature_mismatch");
      }),
    );
  });

  it("refuses missing, malformed and truncated headers", () => {
    const body = "Hello, World!";
    for (const missing of [undefined, null, ""]) {
      refused(verifyGitHub(secret, body, missing), "missing_header");
    }
    for (const bad of [
      expected.slice(7), // no prefix
      `sha1=${expected.slice(7)}`,
      `sha256=${expected.slice(7, 69)}`, // truncated (even length)
      `sha256=${expected.slice(7, 70)}`, // odd length
      `${expected}00`, // too long
      `sha256=${"z".repeat(64)}`,
      ` ${expected}`,
      "sha256=",
    ]) {
      refused(verifyGitHub(secret, body, bad), "malformed_header");
    }
  });

  it("accepts any of several secrets (rotation), and short secrets; refuses empty ones", () => {
    const header = signGitHub("new secret", "x");
    assert.equal(verifyGitHub(["old secret", "new secret"], "x", header).ok, true);
    refused(verifyGitHub(["old secret", "other"], "x", header), "signature_mismatch");
    assert.equal(verifyGitHub("k", "x", signGitHub("k", "x")).ok, true); // 1-byte secret
    throwsKeyed(() => signGitHub("", "x"), "KEY_TOO_SHORT", /secret is empty/);
    throwsKeyed(() => verifyGitHub(new Uint8Array(0), "x", header), "KEY_TOO_SHORT");
    throwsKeyed(() => verifyGitHub(["ok", ""], "x", header), "KEY_TOO_SHORT", /secret\[1\]/);
    throwsKeyed(() => verifyGitHub([], "x", header), "BAD_INPUT", /empty array/);
  });

  it("reads bytes at an offset, and refuses arguments of the wrong type", () => {
    const body = ascii("Hello, World!");
    assert.equal(verifyGitHub(atOffset(ascii(secret)), atOffset(body), expected).ok, true);
    for (const [name, value] of notSecret()) {
      throwsKeyed(() => signGitHub(value as string, body), "BAD_INPUT", /^secret /);
      throwsKeyed(() => verifyGitHub(secret, value as string, expected), "BAD_INPUT", /^body /);
      throwsKeyed(() => signGitHub(secret, value as string), "BAD_INPUT", /^body /);
      if (name !== "undefined" && name !== "null") {
        // A plain array is a list of secrets: its first element is then named secret[0].
        throwsKeyed(
          () => verifyGitHub(value as string, body, expected),
          "BAD_INPUT",
          /^secret(\[0\])? /,
        );
      }
    }
    throwsKeyed(
      () => verifyGitHub(secret, { parsed: true } as never, expected),
      "BAD_INPUT",
      /re-serialized/,
    );
    throwsKeyed(() => verifyGitHub(secret, body, 42 as never), "BAD_INPUT", /^header /);
    throwsKeyed(() => verifyGitHub(secret, body, [expected, 42] as never), "BAD_INPUT", /^header /);
  });

  it("reads an array header as the wire does: one value is that value, several are refused", () => {
    const body = "Hello, World!";
    assert.deepEqual(verifyGitHub(secret, body, [expected]), { ok: true });
    refused(verifyGitHub(secret, body, []), "missing_header");
    refused(verifyGitHub(secret, body, [""]), "missing_header");
    refused(verifyGitHub(secret, body, [expected, expected]), "malformed_header");
    const twice = verifyGitHub(secret, body, [expected, `sha256=${"0".repeat(64)}`]);
    refused(twice, "malformed_header");
    assert.match(twice.ok ? "" : twice.message, /X-Hub-Signature-256 appears 2 times/);
  });
});

describe("Stripe-Signature", () => {
  const secret = "whsec_test_0123456789abcdef";
  const body = '{"id":"evt_1","object":"event"}';
  const v1 = (t: number, key = secret, data: string | Uint8Array = body) =>
    hmacHex(key, `${t}.`, data);

  it('signs t=…,v1=HMAC(secret as UTF-8, t + "." + body), as node:crypto computes it', () => {
    assert.equal(signStripe(secret, body, { timestamp: NOW }), `t=${NOW},v1=${v1(NOW)}`);
    fc.assert(
      fc.property(
        secretArb,
        bodyArb,
        fc.integer({ min: 0, max: 1e11 - 1 }) /* seconds: keyed refuses millisecond-sized times */,
        (key, data, t) => {
          const header = signStripe(key, data, { timestamp: t });
          assert.equal(header, `t=${t},v1=${hmacHex(key, `${t}.`, data)}`);
          const result = verifyStripe(key, data, header, { now: t });
          assert.deepEqual(result, { ok: true, timestamp: t });
        },
      ),
    );
  });

  it("accepts when any v1 matches, under any secret; ignores v0 and unknown schemes", () => {
    const good = v1(NOW);
    const other = v1(NOW, "whsec_other");
    const header = `t=${NOW},v1=${other},v0=${good},v1=${good},v2=abc,v1=nothex`;
    assert.deepEqual(verifyStripe(secret, body, header, { now: NOW }), {
      ok: true,
      timestamp: NOW,
    });
    assert.equal(
      verifyStripe(["whsec_old", secret], body, `t=${NOW},v1=${good}`, { now: NOW }).ok,
      true,
    );
    refused(
      verifyStripe(secret, body, `t=${NOW},v1=${other},v1=${"0".repeat(64)}`, { now: NOW }),
      "signature_mismatch",
    );
    refused(
      verifyStripe(secret, body, `t=${NOW},v0=${good}`, { now: NOW }),
      "no_supported_signature",
    );
    // A signature for another timestamp is no signature for this one.
    refused(
      verifyStripe(secret, body, `t=${NOW + 1},v1=${good}`, { now: NOW }),
      "signature_mismatch",
    );
  });

  it("refuses a tampered body, a wrong secret and a truncated signature", () => {
    const header = signStripe(secret, body, { timestamp: NOW });
    refused(verifyStripe(secret, `${body} `, header, { now: NOW }), "signature_mismatch");
    refused(verifyStripe("whsec_wrong", body, header, { now: NOW }), "signature_mismatch");
    refused(verifyStripe(secret, body, header.slice(0, -2), { now: NOW }), "signature_mismatch");
  });

  it("applies the tolerance both ways (default 300 s, injectable)", () => {
    const header = signStripe(secret, body, { timestamp: NOW });
    assert.equal(verifyStripe(secret, body, header, { now: NOW + 300 }).ok, true);
    assert.equal(verifyStripe(secret, body, header, { now: NOW - 300 }).ok, true);
    refused(verifyStripe(secret, body, header, { now: NOW + 301 }), "timestamp_too_old");
    refused(verifyStripe(secret, body, header, { now: NOW - 301 }), "timestamp_in_future");
    assert.equal(
      verifyStripe(secret, body, header, { now: NOW + 3600, toleranceSeconds: 3600 }).ok,
      true,
    );
    refused(
      verifyStripe(secret, body, header, { now: NOW + 1, toleranceSeconds: 0 }),
      "timestamp_too_old",
    );
    // The system clock by default: a fresh signature passes, an old one does not.
    assert.equal(verifyStripe(secret, body, signStripe(secret, body)).ok, true);
    refused(verifyStripe(secret, body, header), "timestamp_too_old");
  });

  it("refuses missing and malformed headers", () => {
    const good = v1(NOW);
    for (const missing of [undefined, null, ""]) {
      refused(verifyStripe(secret, body, missing, { now: NOW }), "missing_header");
    }
    for (const bad of [
      `v1=${good}`, // no t
      `t=${NOW},t=${NOW},v1=${good}`,
      `t=abc,v1=${good}`,
      `t=-5,v1=${good}`,
      `t=${NOW}.5,v1=${good}`,
      `t=,v1=${good}`,
      `t=${NOW},,v1=${good}`,
      `t=${NOW};v1=${good}`,
      "garbage",
    ]) {
      refused(verifyStripe(secret, body, bad, { now: NOW }), "malformed_header");
    }
  });

  it("refuses bad arguments and options", () => {
    const header = signStripe(secret, body, { timestamp: NOW });
    throwsKeyed(
      () => verifyStripe(secret, body, header, { tolerance: 5 } as never),
      "BAD_INPUT",
      /unknown option "tolerance"/,
    );
    throwsKeyed(
      () => verifyStripe(secret, body, header, { toleranceSeconds: -1 }),
      "BAD_INPUT",
      /toleranceSeconds/,
    );
    throwsKeyed(
      () => verifyStripe(secret, body, header, { now: Number.NaN }),
      "BAD_INPUT",
      /options.now/,
    );
    throwsKeyed(
      () => verifyStripe(secret, body, header, "x" as never),
      "BAD_INPUT",
      /options must be/,
    );
    throwsKeyed(
      () => signStripe(secret, body, { timestamp: 1.5 }),
      "BAD_INPUT",
      /options.timestamp/,
    );
    throwsKeyed(
      () => signStripe(secret, body, { timestamp: -1 }),
      "BAD_INPUT",
      /options.timestamp/,
    );
    throwsKeyed(() => verifyStripe([secret, 7] as never, body, header), "BAD_INPUT", /secret\[1\]/);
    for (const [, value] of notSecret()) {
      throwsKeyed(() => verifyStripe(secret, value as string, header), "BAD_INPUT", /^body /);
      throwsKeyed(() => signStripe(value as string, body), "BAD_INPUT", /^secret /);
    }
  });
});

describe("Slack X-Slack-Signature", () => {
  // docs.slack.dev, "Verifying requests from Slack": the worked example.
  const docSecret = "8f742231b10e8888abcd99yyyzzz85a5";
  const docTimestamp = "1531420618";
  const docBody =
    "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";
  const docSignature = "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503";
  const at = Number(docTimestamp);

  it("reproduces Slack's published example", () => {
    assert.deepEqual(signSlack(docSecret, docBody, { timestamp: at }), {
      signature: docSignature,
      timestamp: docTimestamp,
    });
    const headers = { signature: docSignature, timestamp: docTimestamp };
    assert.deepEqual(verifySlack(docSecret, docBody, headers, { now: at + 60 }), {
      ok: true,
      timestamp: at,
    });
    assert.equal(
      verifySlack(docSecret, docBody, { signature: docSignature, timestamp: at }, { now: at }).ok,
      true,
    );
  });

  it("equals node:crypto's HMAC over v0:timestamp:body; sign-then-verify (property)", () => {
    fc.assert(
      fc.property(
        secretArb,
        bodyArb,
        fc.integer({ min: 0, max: 1e11 - 1 }) /* seconds: keyed refuses millisecond-sized times */,
        (key, body, t) => {
          const signed = signSlack(key, body, { timestamp: t });
          assert.equal(signed.signature, `v0=${hmacHex(key, `v0:${t}:`, body)}`);
          assert.equal(verifySlack(key, body, signed, { now: t }).ok, true);
        },
      ),
    );
  });

  it("refuses tampering, a wrong secret, stale and future timestamps", () => {
    const headers = { signature: docSignature, timestamp: docTimestamp };
    refused(verifySlack(docSecret, `${docBody}&x=1`, headers, { now: at }), "signature_mismatch");
    refused(verifySlack(`${docSecret}x`, docBody, headers, { now: at }), "signature_mismatch");
    // The timestamp is signed: changing it breaks the signature.
    refused(
      verifySlack(docSecret, docBody, { signature: docSignature, timestamp: at + 1 }, { now: at }),
      "signature_mismatch",
    );
    refused(verifySlack(docSecret, docBody, headers, { now: at + 301 }), "timestamp_too_old");
    refused(verifySlack(docSecret, docBody, headers, { now: at - 301 }), "timestamp_in_future");
    refused(verifySlack(docSecret, docBody, headers), "timestamp_too_old"); // system clock, 2018 timestamp
  });

  it("refuses missing and malformed headers", () => {
    const now = { now: at };
    refused(
      verifySlack(docSecret, docBody, { signature: undefined, timestamp: docTimestamp }, now),
      "missing_header",
    );
    refused(
      verifySlack(docSecret, docBody, { signature: docSignature, timestamp: null }, now),
      "missing_header",
    );
    refused(
      verifySlack(docSecret, docBody, { signature: "", timestamp: "" }, now),
      "missing_header",
    );
    refused(
      verifySlack(docSecret, docBody, { signature: docSignature, timestamp: "soon" }, now),
      "malformed_header",
    );
    refused(
      verifySlack(
        docSecret,
        docBody,
        { signature: docSignature.slice(0, 40), timestamp: docTimestamp },
        now,
      ),
      "malformed_header",
    );
    refused(
      verifySlack(
        docSecret,
        docBody,
        { signature: docSignature.slice(3), timestamp: docTimestamp },
        now,
      ),
      "malformed_header",
    );
    refused(
      verifySlack(
        docSecret,
        docBody,
        { signature: `v1=${docSignature.slice(3)}`, timestamp: docTimestamp },
        now,
      ),
      "no_supported_signature",
    );
    throwsKeyed(
      () => verifySlack(docSecret, docBody, null as never),
      "BAD_INPUT",
      /^headers must be/,
    );
    throwsKeyed(
      () => verifySlack(docSecret, docBody, { signature: 1, timestamp: docTimestamp } as never),
      "BAD_INPUT",
      /headers.signature/,
    );
    throwsKeyed(
      () => verifySlack(docSecret, docBody, { signature: docSignature, timestamp: 1.5 }),
      "BAD_INPUT",
      /headers.timestamp/,
    );
  });
});

describe("Standard Webhooks", () => {
  // The reference library's sign test (standard-webhooks/standard-webhooks, libraries/javascript).
  const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  const id = "msg_p5jXN8AQM9LWM0D4loKWxJek";
  const timestamp = 1614265330;
  const body = '{"test": 2432232314}';
  const expected = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";
  const key = Uint8Array.from(Buffer.from("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "base64"));
  const headers = {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": expected,
  };
  const now = { now: timestamp };

  it("reproduces the reference library's example, and node:crypto", () => {
    assert.equal(`v1,${hmacBase64(key, `${id}.${timestamp}.${body}`)}`, expected);
    assert.deepEqual(signStandardWebhook(secret, { id, timestamp, body }), headers);
    // The prefix is optional; raw key bytes are accepted too.
    assert.deepEqual(
      signStandardWebhook(secret.slice(6), { id, timestamp, body: ascii(body) }),
      headers,
    );
    assert.deepEqual(signStandardWebhook(key, { id, timestamp, body }), headers);
    assert.deepEqual(verifyStandardWebhook(secret, body, headers, now), {
      ok: true,
      id,
      timestamp,
    });
    assert.equal(verifyStandardWebhook(key, ascii(body), new Headers(headers), now).ok, true);
  });

  it("sign-then-verify holds, and equals node:crypto (property)", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
        fc.integer({ min: 0, max: 1e11 - 1 }) /* seconds: keyed refuses millisecond-sized times */,
        bodyArb,
        (k, msgId, t, data) => {
          const whsec = `whsec_${Buffer.from(k).toString("base64")}`;
          const h = signStandardWebhook(whsec, { id: msgId, timestamp: t, body: data });
          const oracle = createHmac("sha256", k)
            .update(`${msgId}.${t}.`)
            .update(data)
            .digest("base64");
          assert.equal(h["webhook-signature"], `v1,${oracle}`);
          assert.deepEqual(verifyStandardWebhook(whsec, data, h, { now: t }), {
            ok: true,
            id: msgId,
            timestamp: t,
          });
        },
      ),
    );
  });

  it("accepts a list where one v1 signature is valid; ignores v1a and v2", () => {
    const wrong = "v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=";
    const list = [wrong, `v2,${expected.slice(3)}`, expected, "v1a,AAAA", wrong, "v1,***"].join(
      " ",
    );
    assert.equal(
      verifyStandardWebhook(secret, body, { ...headers, "webhook-signature": list }, now).ok,
      true,
    );
    refused(
      verifyStandardWebhook(
        secret,
        body,
        { ...headers, "webhook-signature": `${wrong} ${wrong}` },
        now,
      ),
      "signature_mismatch",
    );
    refused(
      verifyStandardWebhook(
        secret,
        body,
        { ...headers, "webhook-signature": `v1a,${expected.slice(3)}` },
        now,
      ),
      "no_supported_signature",
    );
    refused(
      verifyStandardWebhook(
        secret,
        body,
        { ...headers, "webhook-signature": expected.slice(0, 20) },
        now,
      ),
      "signature_mismatch",
    );
    refused(
      verifyStandardWebhook(secret, body, { ...headers, "webhook-signature": "v1," }, now),
      "signature_mismatch",
    );
    // Rotation on the receiving side: several secrets.
    assert.equal(
      verifyStandardWebhook(["whsec_AAAAAAAAAAAAAAAAAAAAAAAA", secret], body, headers, now).ok,
      true,
    );
  });

  it("refuses tampered content: body, id, timestamp", () => {
    refused(verifyStandardWebhook(secret, `${body} `, headers, now), "signature_mismatch");
    refused(
      verifyStandardWebhook(secret, body, { ...headers, "webhook-id": `${id}x` }, now),
      "signature_mismatch",
    );
    refused(
      verifyStandardWebhook(
        secret,
        body,
        { ...headers, "webhook-timestamp": String(timestamp + 1) },
        { now: timestamp },
      ),
      "signature_mismatch",
    );
    refused(
      verifyStandardWebhook("whsec_AAAAAAAAAAAAAAAAAAAAAAAA", body, headers, now),
      "signature_mismatch",
    );
  });

  it("applies the 5-minute tolerance both ways", () => {
    assert.equal(verifyStandardWebhook(secret, body, headers, { now: timestamp + 300 }).ok, true);
    refused(
      verifyStandardWebhook(secret, body, headers, { now: timestamp + 301 }),
      "timestamp_too_old",
    );
    refused(
      verifyStandardWebhook(secret, body, headers, { now: timestamp - 301 }),
      "timestamp_in_future",
    );
    refused(verifyStandardWebhook(secret, body, headers), "timestamp_too_old");
  });

  it("refuses missing, repeated and malformed headers", () => {
    for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"] as const) {
      const { [name]: _, ...without } = headers;
      refused(verifyStandardWebhook(secret, body, without, now), "missing_header");
      refused(
        verifyStandardWebhook(secret, body, { ...headers, [name]: "" }, now),
        "missing_header",
      );
      refused(
        verifyStandardWebhook(
          secret,
          body,
          { ...headers, [name]: [headers[name], headers[name]] },
          now,
        ),
        "malformed_header",
      );
    }
    refused(
      verifyStandardWebhook(secret, body, { ...headers, "webhook-timestamp": "1614265330.0" }, now),
      "malformed_header",
    );
    refused(
      verifyStandardWebhook(secret, body, { ...headers, "webhook-id": "a.b" }, now),
      "malformed_header",
    );
    // Header names are case-insensitive, in a plain object as in Headers.
    const upper = {
      "Webhook-Id": id,
      "WEBHOOK-TIMESTAMP": String(timestamp),
      "webhook-Signature": expected,
    };
    assert.equal(verifyStandardWebhook(secret, body, upper, now).ok, true);
    assert.equal(
      verifyStandardWebhook(secret, body, { ...headers, "webhook-id": [id] }, now).ok,
      true,
    );
  });

  it("refuses bad secrets and arguments", () => {
    throwsKeyed(
      () => signStandardWebhook("whsec_not base64!", { id, body }),
      "BAD_ENCODING",
      /whsec_/,
    );
    throwsKeyed(() => verifyStandardWebhook("whsec_", body, headers), "KEY_TOO_SHORT");
    throwsKeyed(() => signStandardWebhook(secret, { id: "a.b", body }), "BAD_INPUT", /message.id/);
    throwsKeyed(() => signStandardWebhook(secret, { id: "", body }), "BAD_INPUT", /message.id/);
    throwsKeyed(
      () => signStandardWebhook(secret, { id, body, timestamp: -1 }),
      "BAD_INPUT",
      /message.timestamp/,
    );
    throwsKeyed(() => signStandardWebhook(secret, null as never), "BAD_INPUT", /^message must be/);
    throwsKeyed(
      () => verifyStandardWebhook(secret, body, null as never),
      "BAD_INPUT",
      /^headers must be/,
    );
    throwsKeyed(
      () => verifyStandardWebhook(secret, body, { "webhook-id": 5 } as never),
      "BAD_INPUT",
      /webhook-id/,
    );
    for (const [, value] of notSecret()) {
      throwsKeyed(
        () => verifyStandardWebhook(secret, value as string, headers),
        "BAD_INPUT",
        /^body /,
      );
      throwsKeyed(
        () => signStandardWebhook(value as string, { id, body }),
        "BAD_INPUT",
        /^secret /,
      );
    }
    const recent = signStandardWebhook(key, { id, body });
    assert.equal(verifyStandardWebhook(atOffset(key), atOffset(ascii(body)), recent).ok, true);
  });
});

// --- request adapters --------------------------------------------------------------------------------

describe("request adapters on a node:http server (127.0.0.1)", () => {
  const secret = "gh-secret";
  let server: Server;
  let base: string;

  before(async () => {
    server = createServer((req, res) => {
      const limit = Number(req.headers["x-test-limit"] ?? 1024 * 1024);
      verifyGitHubRequest(secret, req, { limit }).then(
        (result) => {
          const status = result.ok ? 200 : result.reason === "body_too_large" ? 413 : 401;
          if (status === 413) res.setHeader("connection", "close");
          res.writeHead(status, { "content-type": "application/json" });
          res.end(
            JSON.stringify(
              result.ok ? { body: Buffer.from(result.body).toString("base64") } : result,
            ),
          );
        },
        (error: Error) => {
          res.writeHead(500);
          res.end(error.message);
        },
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("verifies a signed POST and returns the exact bytes sent", async () => {
    const body = Uint8Array.from([0x7b, 0x22, 0xe2, 0x82, 0xac, 0x22, 0x7d, 0xff, 0x00, 0x0a]);
    const response = await fetch(base, {
      method: "POST",
      body,
      headers: { "x-hub-signature-256": signGitHub(secret, body) },
    });
    assert.equal(response.status, 200);
    const echoed = (await response.json()) as { body: string };
    assert.deepEqual(new Uint8Array(Buffer.from(echoed.body, "base64")), body);
  });

  it("answers 401 for a wrong or missing signature", async () => {
    const wrong = await fetch(base, {
      method: "POST",
      body: "{}",
      headers: { "x-hub-signature-256": signGitHub("other", "{}") },
    });
    assert.equal(wrong.status, 401);
    assert.equal(((await wrong.json()) as { reason: string }).reason, "signature_mismatch");
    const missing = await fetch(base, { method: "POST", body: "{}" });
    assert.equal(((await missing.json()) as { reason: string }).reason, "missing_header");
  });

  it("answers 413 over the limit, from Content-Length and from a chunked body", async () => {
    const big = new Uint8Array(5000).fill(0x61);
    const declared = await fetch(base, {
      method: "POST",
      body: big,
      headers: { "x-hub-signature-256": signGitHub(secret, big), "x-test-limit": "4096" },
    });
    assert.equal(declared.status, 413);
    await declared.arrayBuffer();
    // Chunked (no Content-Length): the limit is met while reading.
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        `${base}`,
        { method: "POST", headers: { "x-test-limit": "4096", "x-hub-signature-256": "sha256=00" } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.write(big.subarray(0, 3000));
      setTimeout(() => req.end(big.subarray(3000)), 20);
    });
    assert.equal(status, 413);
  });

  it("answers body_incomplete, without throwing, when the client goes away mid-body", async () => {
    let answered: (result: unknown) => void = () => {};
    const answer = new Promise((resolve) => {
      answered = resolve;
    });
    const probe = createServer((req, res) => {
      verifyGitHubRequest(secret, req).then(answered, answered);
      res.on("error", () => {});
    });
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    try {
      const port = (probe.address() as AddressInfo).port;
      const req = httpRequest(`http://127.0.0.1:${port}/`, {
        method: "POST",
        headers: { "content-length": "1000", "x-hub-signature-256": signGitHub(secret, "x") },
      });
      req.on("error", () => {});
      req.write("only part of it");
      setTimeout(() => req.destroy(), 30);
      const result = (await answer) as WebhookResult;
      refused(result, "body_incomplete");
    } finally {
      probe.closeAllConnections();
      await new Promise<void>((resolve) => probe.close(() => resolve()));
    }
  });

  it("the other schemes' request helpers read node requests too", async () => {
    const stripeSecret = "whsec_stripe";
    const probe = createServer((req, res) => {
      verifyStripeRequest(stripeSecret, req).then((result) => {
        res.end(result.ok ? `ok ${Buffer.from(result.body).toString()}` : result.reason);
      });
    });
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/`;
    try {
      const good = await fetch(url, {
        method: "POST",
        body: '{"a":1}',
        headers: { "stripe-signature": signStripe(stripeSecret, '{"a":1}') },
      });
      assert.equal(await good.text(), 'ok {"a":1}');
      const bad = await fetch(url, {
        method: "POST",
        body: '{"a":2}',
        headers: { "stripe-signature": signStripe(stripeSecret, '{"a":1}') },
      });
      assert.equal(await bad.text(), "signature_mismatch");
    } finally {
      await new Promise<void>((resolve) => probe.close(() => resolve()));
    }
  });
});

describe("readRawBody on node-style streams", () => {
  const fake = (chunks: (Uint8Array | string)[], headers: Record<string, string> = {}) =>
    Object.assign(Readable.from(chunks, { objectMode: true }), { headers }) as Readable &
      NodeRequest;

  it("concatenates the chunks", async () => {
    const body = await readRawBody(fake([ascii("ab"), ascii(""), ascii("cde")]));
    assert.deepEqual(body, ascii("abcde"));
    assert.deepEqual(await readRawBody(fake([])), new Uint8Array(0));
  });

  it("refuses text chunks, a consumed stream, and one closed early", async () => {
    await assert.rejects(readRawBody(fake(["text"])), {
      code: "BAD_INPUT",
      message: /setEncoding/,
    });
    const consumed = fake([ascii("x")]);
    consumed.resume();
    await new Promise((resolve) => consumed.on("end", resolve));
    await assert.rejects(readRawBody(consumed), { code: "BAD_INPUT", message: /already read/ });
    const early = new Readable({ read() {} });
    const closing = Object.assign(early, { headers: {} }) as Readable & NodeRequest;
    const pending = readRawBody(closing);
    early.push(ascii("partial"));
    setTimeout(() => early.destroy(), 5);
    await assert.rejects(pending, { code: "BAD_INPUT", message: /closed before/ });
    const failing = new Readable({ read() {} });
    const erroring = readRawBody(Object.assign(failing, { headers: {} }) as Readable & NodeRequest);
    setTimeout(() => failing.destroy(new Error("connection reset")), 5);
    await assert.rejects(erroring, /connection reset/);
  });

  it("a fetch body stream that fails gives body_incomplete to the request helpers", async () => {
    const failing = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(ascii("partial"));
        controller.error(new Error("network gone"));
      },
    });
    const request = new Request("http://127.0.0.1/hook", {
      method: "POST",
      body: failing,
      headers: { "x-hub-signature-256": signGitHub("s", "partial") },
      duplex: "half",
    } as RequestInit);
    refused(await verifyGitHubRequest("s", request), "body_incomplete");
  });

  it("enforces the limit, and checks its arguments", async () => {
    await assert.rejects(
      readRawBody(fake([new Uint8Array(10), new Uint8Array(10)]), { limit: 15 }),
      {
        code: "LENGTH",
      },
    );
    assert.equal((await readRawBody(fake([new Uint8Array(15)]), { limit: 15 })).length, 15);
    await assert.rejects(readRawBody(fake([], { "content-length": "99" }), { limit: 10 }), {
      code: "LENGTH",
    });
    await assert.rejects(readRawBody(fake([]), { limit: -1 }), {
      code: "BAD_INPUT",
      message: /options.limit/,
    });
    await assert.rejects(readRawBody(fake([]), { max: 1 } as never), {
      code: "BAD_INPUT",
      message: /unknown option/,
    });
    await assert.rejects(readRawBody(null as never), {
      code: "BAD_INPUT",
      message: /^request must be/,
    });
    await assert.rejects(readRawBody({ headers: {} } as never), {
      code: "BAD_INPUT",
      message: /^request must be/,
    });
  });
});

describe("request adapters on fetch Request", () => {
  const post = (body: BodyInit | null, headers: Record<string, string>) =>
    new Request("http://127.0.0.1/hook", { method: "POST", body, headers });

  it("verifies each scheme and returns the body", async () => {
    const body = '{"event":"ping"}';
    const github = await verifyGitHubRequest(
      "s",
      post(body, { "x-hub-signature-256": signGitHub("s", body) }),
    );
    assert.ok(github.ok);
    assert.deepEqual(github.body, ascii(body));

    const stripe = await verifyStripeRequest(
      "whsec_x",
      post(body, { "stripe-signature": signStripe("whsec_x", body, { timestamp: NOW }) }),
      { now: NOW + 10 },
    );
    assert.ok(stripe.ok);
    assert.equal(stripe.timestamp, NOW);

    const slack = signSlack("slack", body, { timestamp: NOW });
    const slackResult = await verifySlackRequest(
      "slack",
      post(body, {
        "X-Slack-Signature": slack.signature,
        "X-Slack-Request-Timestamp": slack.timestamp,
      }),
      { now: NOW },
    );
    assert.ok(slackResult.ok);

    const whsec = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const standard = signStandardWebhook(whsec, { id: "msg_1", timestamp: NOW, body });
    const standardResult = await verifyStandardWebhookRequest(whsec, post(body, { ...standard }), {
      now: NOW,
      limit: 100,
    });
    assert.ok(standardResult.ok);
    assert.equal(standardResult.id, "msg_1");
    assert.deepEqual(standardResult.body, ascii(body));
  });

  it("refuses wrong signatures and stale timestamps as results", async () => {
    const body = "{}";
    refused(
      await verifyGitHubRequest("s", post(body, { "x-hub-signature-256": signGitHub("t", body) })),
      "signature_mismatch",
    );
    refused(
      await verifyStripeRequest(
        "whsec_x",
        post(body, { "stripe-signature": signStripe("whsec_x", body, { timestamp: NOW }) }),
        { now: NOW + 301 },
      ),
      "timestamp_too_old",
    );
    refused(await verifySlackRequest("slack", post(body, {})), "missing_header");
    refused(await verifyStandardWebhookRequest("whsec_AAAA", post(body, {})), "missing_header");
  });

  it("reads the body once, with a limit, streamed or declared", async () => {
    const body = "x".repeat(2000);
    const header = { "x-hub-signature-256": signGitHub("s", body) };
    refused(await verifyGitHubRequest("s", post(body, header), { limit: 1999 }), "body_too_large");
    assert.equal((await verifyGitHubRequest("s", post(body, header), { limit: 2000 })).ok, true);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 4; i++) controller.enqueue(new Uint8Array(600).fill(0x78));
        controller.close();
      },
    });
    const streamed = new Request("http://127.0.0.1/hook", {
      method: "POST",
      body: stream,
      headers: header,
      duplex: "half",
    } as RequestInit);
    refused(await verifyGitHubRequest("s", streamed, { limit: 1000 }), "body_too_large");

    const used = post(body, header);
    await used.text();
    await assert.rejects(verifyGitHubRequest("s", used), {
      code: "BAD_INPUT",
      message: /already read/,
    });
    const empty = await readRawBody(new Request("http://127.0.0.1/hook"));
    assert.equal(empty.length, 0);
  });

  it("checks the secret and options before reading the body", async () => {
    const request = post("{}", {});
    await assert.rejects(verifyGitHubRequest("", request), { code: "KEY_TOO_SHORT" });
    await assert.rejects(verifyStripeRequest("s", request, { toleranceSeconds: -1 }), {
      code: "BAD_INPUT",
    });
    await assert.rejects(verifySlackRequest("s", request, { nope: 1 } as never), {
      code: "BAD_INPUT",
    });
    await assert.rejects(verifyStandardWebhookRequest("whsec_***", request), {
      code: "BAD_ENCODING",
    });
    assert.equal(request.bodyUsed, false);
  });
});
