/**
 * seal / open with a keyset (issue 14): the primary seals and the token carries its key id; open
 * picks the key by that id. Rotation, refusals, and what stays the caller's mistake.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Keyset, open, seal, tryOpen } from "../../src/index.js";
import { ascii, throwsKeyed } from "../helpers.js";

const payload = ascii("user=42");

describe("seal and open with a keyset", () => {
  it("the token carries the primary's id; open reports it and gives the payload", () => {
    const ks = Keyset.generate("hmac-sha256", { prefix: "raw" });
    const token = seal(ks, payload, { purpose: "session" });
    assert.equal(token[2] & 4, 4);
    assert.equal(new DataView(token.buffer).getUint32(3), ks.primaryId);
    const opened = open(ks, token, { purpose: "session" });
    assert.deepEqual([...opened.payload], [...payload]);
    assert.equal(opened.keyId, ks.primaryId);
  });

  it("rotation: old tokens open until their key is disabled; new ones carry the new id", () => {
    const ks = Keyset.generate("hmac-sha256");
    const a = ks.primaryId;
    const old = seal(ks, payload, { purpose: "p", timestamp: 1_700_000_000 });
    const b = ks.add("blake3");
    ks.setPrimary(b);
    const fresh = seal(ks, payload, { purpose: "p" });
    assert.equal(
      tryOpen(ks, fresh, { purpose: "p" }).ok && open(ks, fresh, { purpose: "p" }).keyId,
      b,
    );
    assert.equal(open(ks, old, { purpose: "p" }).keyId, a);
    ks.disable(a);
    const r = tryOpen(ks, old, { purpose: "p" });
    assert.equal(!r.ok && r.reason, "unknown_key");
    throwsKeyed(() => open(ks, old, { purpose: "p" }), "KEY_NOT_FOUND");
    ks.enable(a);
    assert.ok(tryOpen(ks, old, { purpose: "p" }).ok);
    ks.destroy(a);
    assert.equal(tryOpen(ks, old, { purpose: "p" }).ok, false);
  });

  it("the key id is authenticated: naming another key of the keyset is tag_invalid", () => {
    const ks = Keyset.generate("hmac-sha256");
    const other = ks.add("hmac-sha256");
    const token = seal(ks, payload, { purpose: "p" });
    new DataView(token.buffer).setUint32(3, other);
    const r = tryOpen(ks, token, { purpose: "p" });
    assert.equal(!r.ok && r.reason, "tag_invalid");
  });

  it("tokens and keys that do not go together are refusals, never exceptions", () => {
    const ks = Keyset.generate("hmac-sha256");
    const key = new Uint8Array(32).fill(3);
    const plain = seal(key, payload, { purpose: "p" });
    const byKeyset = seal(ks, payload, { purpose: "p" });
    for (const [k, t, reason] of [
      [ks, plain, "unknown_key"],
      [key, byKeyset, "tag_invalid"],
      [ks, new Uint8Array(0), "unknown_key"],
      [ks, Uint8Array.of(1, 1, 4, 0, 0), "unknown_key"],
      [Keyset.generate("hmac-sha256"), byKeyset, "unknown_key"],
    ] as const) {
      const r = tryOpen(k, t, { purpose: "p" });
      assert.equal(!r.ok && r.reason, reason);
    }
  });

  it("the caller's own mistakes throw: algorithm with a keyset, a primary that cannot seal", () => {
    const ks = Keyset.generate("hmac-sha256");
    throwsKeyed(() => seal(ks, payload, { purpose: "p", algorithm: "blake3" }), "BAD_INPUT");
    throwsKeyed(() => open(ks, payload, { purpose: "p", algorithm: "blake3" }), "BAD_INPUT");
    const siphash = Keyset.generate("hmac-sha224");
    throwsKeyed(() => seal(siphash, payload, { purpose: "p" }), "UNKNOWN_ALGORITHM", /seal takes/);
  });
});
