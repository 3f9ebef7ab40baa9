/**
 * The chacha20-poly1305 and xchacha20-poly1305 MAC streams run in constant memory: the nonce is
 * drawn when the stream starts, and the message goes straight into Poly1305 (RFC 8439 2.8 with an
 * empty ciphertext). Before, a stream kept the whole input: 256 MiB through `keyed tag` peaked at
 * 580 MB RSS.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createCipheriv } from "node:crypto";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { mac } from "../../src/index.js";
import { throwsKeyed, toHex } from "../helpers.js";

const MiB = 1024 * 1024;
const index = fileURLToPath(new URL("../../src/index.ts", import.meta.url));

/** node:crypto's tag over `message` as AAD with an empty plaintext. */
function nodeTag(key: Uint8Array, nonce: Uint8Array, message: Uint8Array): string {
  const cipher = createCipheriv("chacha20-poly1305", key, nonce, { authTagLength: 16 });
  cipher.setAAD(message, { plaintextLength: 0 });
  cipher.final();
  return toHex(cipher.getAuthTag());
}

describe("ChaCha20-Poly1305 MAC streams", () => {
  it("stream 64 MiB in 64 KiB chunks with under 40 MB of RSS growth; tags check out", () => {
    const script = `
      import { createCipheriv } from "node:crypto";
      import { mac } from ${JSON.stringify(index)};
      const key = new Uint8Array(32).map((_, i) => i * 7);
      const chunk = new Uint8Array(65536);
      const fill = (i) => chunk.fill(i & 0xff);
      const result = {};
      for (const name of ["chacha20-poly1305", "xchacha20-poly1305"]) {
        globalThis.gc?.();
        const before = process.memoryUsage().rss;
        const s = mac(name, key).stream();
        for (let i = 0; i < 1024; i++) s.update(fill(i));
        const tag = s.digest();
        result[name] = { growth: process.memoryUsage().rss - before, tag: Buffer.from(tag).toString("hex") };
        // The whole message, only now, for the one-shot and node:crypto checks.
        const message = new Uint8Array(1024 * 65536);
        for (let i = 0; i < 1024; i++) message.fill(i & 0xff, i * 65536, (i + 1) * 65536);
        result[name].verifies = mac(name, key).verify(message, tag);
        if (name === "chacha20-poly1305") {
          const c = createCipheriv(name, key, tag.subarray(0, 12), { authTagLength: 16 });
          c.setAAD(message, { plaintextLength: 0 });
          c.final();
          result[name].node = Buffer.from(c.getAuthTag()).equals(Buffer.from(tag.subarray(12)));
        }
      }
      process.stdout.write(JSON.stringify(result));
    `;
    const run = spawnSync(
      process.execPath,
      ["--expose-gc", "--import", "tsx", "--input-type=module", "-e", script],
      { encoding: "utf8", maxBuffer: MiB },
    );
    assert.equal(run.status, 0, run.stderr);
    const r = JSON.parse(run.stdout);
    for (const name of ["chacha20-poly1305", "xchacha20-poly1305"]) {
      const growth = r[name].growth / MiB;
      assert.ok(growth < 40, `${name}: RSS grew ${growth.toFixed(1)} MiB over a 64 MiB stream`);
      assert.equal(r[name].verifies, true, `${name}: the one-shot verify accepts the stream's tag`);
    }
    assert.equal(r["chacha20-poly1305"].node, true, "node:crypto computes the same tag");
  });

  it("any split of the message gives node:crypto's tag (digest) and verifies (300 cases)", () => {
    const key = new Uint8Array(32).map((_, i) => 255 - i);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 700 }), fc.array(fc.nat(700)), (message, cuts) => {
        const points = [...new Set(cuts.map((c) => c % (message.length + 1)))].sort(
          (a, b) => a - b,
        );
        const s = mac("chacha20-poly1305", key).stream();
        let at = 0;
        for (const p of [...points, message.length]) {
          s.update(message.subarray(at, p));
          at = p;
        }
        const tag = s.digest();
        assert.equal(toHex(tag.subarray(12)), nodeTag(key, tag.subarray(0, 12), message));
        const v = mac("chacha20-poly1305", key).stream();
        v.update(message.subarray(0, 3)).update(message.subarray(3));
        assert.equal(v.verify(tag), true);
        const x = mac("xchacha20-poly1305", key);
        const xs = x.stream().update(message);
        assert.equal(x.verify(message, xs.digest()), true);
      }),
      { numRuns: 300 },
    );
  });

  it("a verifying stream refuses a wrong tag, and past its buffer limit says why", () => {
    const key = new Uint8Array(32).fill(9);
    const m = mac("chacha20-poly1305", key);
    const message = new Uint8Array(1000).fill(1);
    const tag = m.tag(message);
    tag[20] ^= 1;
    assert.equal(m.stream().update(message).verify(tag), false);
    const big = m.stream();
    const chunk = new Uint8Array(MiB);
    for (let i = 0; i < 17; i++) big.update(chunk);
    throwsKeyed(() => big.verify(m.tag(new Uint8Array(17 * MiB))), "LENGTH", /nonce/);
  });
});
