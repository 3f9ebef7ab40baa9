/**
 * Keyset edges a mutation round (docs/assurance.md, fourth round) found untested: a wiped keyset
 * answers false and DESTROYED, never true or a TypeError; the key-id, kid and size rules; the
 * primary flag; destroyed keys stay destroyed; a document without a primary key is refused.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Keyset } from "../../src/index.js";
import { wipeKeyset } from "../../src/safe/keyset.js";
import { ascii, throwsKeyed } from "../helpers.js";

const key32 = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
const message = ascii("the message");

describe("Keyset: a wiped keyset", () => {
  it("verifies nothing (false, no exception) and refuses to tag (DESTROYED)", () => {
    const ks = Keyset.fromKey("hmac-sha256", key32, { id: 7 });
    const raw = ks.add("hmac-sha256", { prefix: "raw", id: 8 });
    const prefixed = ks.tag(message);
    ks.setPrimary(raw);
    const rawTag = ks.tag(message);
    assert.equal(ks.verify(message, prefixed), true);
    assert.equal(ks.verify(message, rawTag), true);
    wipeKeyset(ks);
    assert.equal(ks.verify(message, prefixed), false);
    assert.equal(ks.verify(message, rawTag), false);
    throwsKeyed(() => ks.tag(message), "DESTROYED");
    // Wiping again, or a keyset with a destroyed key, is no error.
    wipeKeyset(ks);
    const other = Keyset.fromKey("hmac-sha256", key32, { id: 1 });
    other.destroy(other.add("hmac-sha256", { id: 2 }));
    wipeKeyset(other);
  });
});

describe("Keyset: ids, kids and size", () => {
  it("refuses a key id already in the keyset", () => {
    const ks = Keyset.fromKey("hmac-sha256", key32, { id: 5 });
    throwsKeyed(() => ks.add("hmac-sha256", { id: 5 }), "BAD_INPUT", /already/);
  });

  it("takes a kid of 1 to 256 characters, and nothing else", () => {
    const ks = Keyset.fromKey("hmac-sha256", key32, { id: 1 });
    assert.equal(ks.get(ks.add("hmac-sha256", { kid: "k".repeat(256) }))?.kid, "k".repeat(256));
    for (const kid of ["", "k".repeat(257), 5, null]) {
      throwsKeyed(() => ks.add("hmac-sha256", { kid: kid as string }), "BAD_INPUT", /kid/);
    }
  });

  it("holds at most 1,024 keys", () => {
    const ks = Keyset.fromKey("hmac-sha256", key32, { id: 1 });
    for (let id = 2; id <= 1024; id++) ks.add("hmac-sha256", { id, key: key32 });
    assert.equal(ks.keys().length, 1024);
    throwsKeyed(() => ks.add("hmac-sha256", { id: 2000, key: key32 }), "BAD_INPUT", /1024/);
  });

  it("marks the primary key, and only it, as primary", () => {
    const ks = Keyset.fromKey("hmac-sha256", key32, { id: 1 });
    const second = ks.add("hmac-sha256", { id: 2 });
    assert.equal(ks.get(1)?.primary, true);
    assert.equal(ks.get(second)?.primary, false);
    ks.setPrimary(second);
    assert.deepEqual(
      ks.keys().map((k) => [k.id, k.primary]),
      [
        [1, false],
        [2, true],
      ],
    );
  });

  it("a destroyed key cannot be disabled or enabled again", () => {
    const ks = Keyset.fromKey("hmac-sha256", key32, { id: 1 });
    const gone = ks.add("hmac-sha256", { id: 2 });
    ks.destroy(gone);
    throwsKeyed(() => ks.disable(gone), "DESTROYED");
    throwsKeyed(() => ks.enable(gone), "DESTROYED");
  });

  it("answers false for tags no longer than a prefix, for prefixed and raw keys", () => {
    const ks = Keyset.fromKey("hmac-sha256", key32, { id: 1 });
    ks.add("hmac-sha256", { prefix: "raw", id: 2 });
    const tag = ks.tag(message);
    for (const length of [0, 1, 4, 5]) {
      assert.equal(ks.verify(message, tag.subarray(0, length)), false, `${length} bytes`);
    }
  });

  it("a keyed keyset document without a primary key is KEYSET_PRIMARY", () => {
    const ks = Keyset.fromKey("hmac-sha256", key32, { id: 1 });
    const document = JSON.parse(ks.toKeyedJson()) as { primaryKeyId?: number };
    delete document.primaryKeyId;
    throwsKeyed(() => Keyset.fromKeyedJson(JSON.stringify(document)), "KEYSET_PRIMARY");
  });
});
