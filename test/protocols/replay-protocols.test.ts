/**
 * A replay store on verifyJwt (jti) and SigV4's verifyRequest (the signature): accepted once, then
 * replayed; never claimed for a refused input; a failing store is a refusal.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MemoryReplayStore, type ReplayStore } from "../../src/index.js";
import { signJwt, verifyJwt } from "../../src/protocols/jwt.js";
import { signRequest, verifyRequest } from "../../src/protocols/sigv4.js";
import { throwsKeyed } from "../helpers.js";

const now = Math.floor(Date.now() / 1000);
const key = new Uint8Array(32).fill(9);
const down: ReplayStore = { claim: () => Promise.reject(new Error("down")) };

describe("verifyJwt with a replay store", () => {
  const options = (replayStore: ReplayStore) => ({
    algorithms: ["HS256"] as const,
    now,
    replayStore,
  });

  it("a jti is accepted once; another jti, or the same jti from another issuer, is new", async () => {
    const store = new MemoryReplayStore();
    const token = signJwt({ jti: "t-1", iss: "a", iat: now, exp: now + 60 }, key, { alg: "HS256" });
    assert.ok((await verifyJwt(token, key, options(store))).ok);
    const again = await verifyJwt(token, key, options(store));
    assert.equal(!again.ok && again.reason, "replayed");
    for (const claims of [
      { jti: "t-2", iss: "a", exp: now + 60 },
      { jti: "t-1", iss: "b", exp: now + 60 },
    ]) {
      assert.ok((await verifyJwt(signJwt(claims, key, { alg: "HS256" }), key, options(store))).ok);
    }
  });

  it("no jti, or no bound on validity, is refused; refused tokens are never claimed", async () => {
    let claims = 0;
    const counting: ReplayStore = {
      claim: (...args) => {
        claims++;
        return new MemoryReplayStore().claim(...args);
      },
    };
    for (const [payload, reason] of [
      [{ exp: now + 60 }, "missing_claim"],
      [{ jti: "x" }, "missing_claim"],
      [{ jti: "x", exp: now - 10 }, "expired"],
    ] as const) {
      const r = await verifyJwt(signJwt(payload, key, { alg: "HS256" }), key, options(counting));
      assert.equal(!r.ok && r.reason, reason);
    }
    const forged = signJwt({ jti: "x", exp: now + 60 }, new Uint8Array(32), { alg: "HS256" });
    assert.equal((await verifyJwt(forged, key, options(counting))).ok, false);
    assert.equal(claims, 0);
    const withMaxAge = signJwt({ jti: "y", iat: now }, key, { alg: "HS256" });
    const r = await verifyJwt(withMaxAge, key, { ...options(counting), maxAgeSeconds: 60 });
    assert.ok(r.ok);
    assert.equal(claims, 1);
  });

  it("with a replay store every answer is a Promise, a refusal too (as the overload says)", async () => {
    const store = new MemoryReplayStore();
    const expired = signJwt({ jti: "e", exp: now - 10 }, key, { alg: "HS256" });
    for (const token of ["not.a.jwt", "", expired]) {
      const answer = verifyJwt(token, key, options(store));
      assert.ok(answer instanceof Promise, `${JSON.stringify(token)} answered synchronously`);
      assert.equal((await answer).ok, false);
    }
  });

  it("a failing store is store_unavailable; a store that is not one is BAD_INPUT", async () => {
    const token = signJwt({ jti: "z", exp: now + 60 }, key, { alg: "HS256" });
    const r = await verifyJwt(token, key, options(down));
    assert.equal(!r.ok && r.reason, "store_unavailable");
    throwsKeyed(() => verifyJwt(token, key, options({} as never)), "BAD_INPUT", /replayStore/);
  });
});

describe("verifyRequest with a replay store", () => {
  const credentials = { accessKeyId: "AKID", secretAccessKey: "secret", region: "r", service: "s" };
  const request = { method: "GET", url: "https://h.example/x" };
  const verifyOptions = (replayStore: ReplayStore) => ({
    secretAccessKey: "secret",
    region: "r",
    service: "s",
    now,
    replayStore,
  });

  it("a signed request is accepted once within its window, then replayed", async () => {
    const store = new MemoryReplayStore();
    const { headers } = signRequest(request, { ...credentials, date: now });
    assert.ok((await verifyRequest({ ...request, headers }, verifyOptions(store))).ok);
    const again = await verifyRequest({ ...request, headers }, verifyOptions(store));
    assert.equal(!again.ok && again.reason, "replayed");
    const y = { ...request, url: "https://h.example/y" };
    const other = signRequest(y, { ...credentials, date: now }).headers;
    assert.ok((await verifyRequest({ ...y, headers: other }, verifyOptions(store))).ok);
  });

  it("refused requests are not claimed; a failing store is store_unavailable", async () => {
    const { headers } = signRequest(request, { ...credentials, date: now });
    const bad = {
      ...headers,
      authorization: headers.authorization.replace(/.$/, (c) => (c === "0" ? "1" : "0")),
    };
    const forged = await verifyRequest({ ...request, headers: bad }, verifyOptions(down));
    assert.equal(!forged.ok && forged.reason, "signature_mismatch");
    const r = await verifyRequest({ ...request, headers }, verifyOptions(down));
    assert.equal(!r.ok && r.reason, "store_unavailable");
  });
});
