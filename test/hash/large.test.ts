/**
 * Inputs past 2^32 bytes: the bit-length counter must not overflow a 32-bit integer (a classic
 * bug: `length << 3` wraps at 512 MiB, and a 32-bit byte counter at 4 GiB). 4.5 GiB of a repeating
 * pattern goes through SHA-256, SHA-512 and HMAC-SHA256, each compared with node:crypto.
 * Set KEYED_SKIP_LARGE=1 to skip it locally.
 */
import assert from "node:assert/strict";
import { createHash, createHmac } from "node:crypto";
import { it } from "node:test";
import { HASH_FUNCTIONS } from "../../src/hazmat.js";
import { mac } from "../../src/index.js";
import { toHex } from "../helpers.js";

const TOTAL = 4.5 * 2 ** 30;
// An odd chunk size, so block boundaries fall at every offset within chunks.
const CHUNK = (1 << 20) + 13;

it("SHA-256, SHA-512 and HMAC-SHA256 over 4.5 GiB match node:crypto", {
  skip: process.env.KEYED_SKIP_LARGE ? "KEYED_SKIP_LARGE is set" : false,
  timeout: 20 * 60_000,
}, () => {
  const chunk = Uint8Array.from({ length: CHUNK }, (_, i) => (i * 131 + (i >> 8)) & 255);
  const key = Uint8Array.from({ length: 32 }, (_, i) => 255 - i);
  const ours = {
    sha256: HASH_FUNCTIONS.sha256.create(),
    sha512: HASH_FUNCTIONS.sha512.create(),
    hmac: mac("hmac-sha256", key).stream(),
  };
  const theirs = {
    sha256: createHash("sha256"),
    sha512: createHash("sha512"),
    hmac: createHmac("sha256", key),
  };
  let fed = 0;
  while (fed < TOTAL) {
    const piece = fed + CHUNK <= TOTAL ? chunk : chunk.subarray(0, TOTAL - fed);
    ours.sha256.update(piece);
    ours.sha512.update(piece);
    ours.hmac.update(piece);
    theirs.sha256.update(piece);
    theirs.sha512.update(piece);
    theirs.hmac.update(piece);
    fed += piece.length;
  }
  assert.equal(fed, TOTAL);
  assert.equal(toHex(ours.sha256.digest()), theirs.sha256.digest("hex"));
  assert.equal(toHex(ours.sha512.digest()), theirs.sha512.digest("hex"));
  assert.equal(toHex(ours.hmac.digest()), theirs.hmac.digest("hex"));
});
