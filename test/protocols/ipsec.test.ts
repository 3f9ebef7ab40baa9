import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  IpsecIntegrity,
  type IpsecIntegrityAlgorithm,
  type IpsecPrfAlgorithm,
  ipsecIntegrity,
  ipsecPrf,
} from "../../src/protocols/ipsec.js";
import { atOffset, hex, notBytes, throwsKeyed, toHex } from "../helpers.js";
import { rfcSection } from "../rfc-text.js";
import { skipUnless, vectorPath } from "../vectors.js";

const RFC = "rfc/rfc4868_test_vectors.txt";

interface Rfc4868Case {
  name: string;
  fields: Map<string, string>;
}

/**
 * The "Test Case X:" blocks of RFC 4868 2.7: "Name = hex" fields (PRF-3 prints "Key" without
 * "="), continued on indented lines, closed by a blank line; comments in parentheses dropped.
 */
function rfc4868Cases(text: string): Rfc4868Case[] {
  const cases: Rfc4868Case[] = [];
  let current: Rfc4868Case | undefined;
  let field: string | undefined;
  for (const line of text.split("\n")) {
    const heading = /^\s+Test Case ([A-Z0-9-]+):/.exec(line);
    if (heading) {
      current = { name: heading[1], fields: new Map() };
      cases.push(current);
      field = undefined;
      continue;
    }
    if (!current) continue;
    const start =
      /^\s+(Key|Data|PRF-HMAC-SHA-\d+|HMAC-SHA-\d+-\d+)\s*=?\s+([0-9a-f]+)\s*(\(|$)/.exec(line);
    if (start) {
      field = start[1];
      current.fields.set(field, start[2]);
      continue;
    }
    const more = /^\s{10,}([0-9a-f]+)\s*(\(|$)/.exec(line);
    if (more && field) {
      current.fields.set(field, (current.fields.get(field) as string) + more[1]);
      continue;
    }
    field = undefined;
  }
  return cases;
}

const PRF_NAME: Record<string, IpsecPrfAlgorithm> = {
  "PRF-HMAC-SHA-256": "prf-hmac-sha256",
  "PRF-HMAC-SHA-384": "prf-hmac-sha384",
  "PRF-HMAC-SHA-512": "prf-hmac-sha512",
};

const AUTH_NAME: Record<string, IpsecIntegrityAlgorithm> = {
  "256": "hmac-sha256-128",
  "384": "hmac-sha384-192",
  "512": "hmac-sha512-256",
};

describe("IPsec: RFC 4868 section 2.7 test cases", () => {
  it("2.7.1 PRF-1 to PRF-6 and 2.7.2 AUTH256/384/512-1 to -4", { skip: skipUnless(RFC) }, () => {
    const cases = rfc4868Cases(rfcSection(vectorPath(RFC) as string, "2.7"));
    assert.deepEqual(
      cases.map((c) => c.name),
      [
        ...["1", "2", "3", "4", "5", "6"].map((n) => `PRF-${n}`),
        ...["256", "384", "512"].flatMap((h) => ["1", "2", "3", "4"].map((n) => `AUTH${h}-${n}`)),
      ],
    );
    const counts = { prf: 0, icv: 0 };
    for (const c of cases) {
      let key = hex(c.fields.get("Key") as string);
      const data = hex(c.fields.get("Data") as string);
      if (c.name === "AUTH512-4") {
        // The RFC prints 80 bytes of key under "(64 bytes)": its outputs belong to the last 64
        // (the first printed line, 0a0b..19, is extra). The exact-length rule refuses all 80.
        assert.equal(key.length, 80);
        throwsKeyed(() => ipsecIntegrity("hmac-sha512-256", key), "KEY_LENGTH", /exactly 64/);
        key = key.subarray(16);
      }
      for (const [field, value] of c.fields) {
        const prf = PRF_NAME[field];
        if (prf) {
          assert.equal(
            toHex(ipsecPrf(prf, key, data, { allowShortKeys: true })),
            value,
            `${c.name} ${field}`,
          );
          counts.prf++;
          continue;
        }
        const auth = /^HMAC-SHA-(\d+)-(\d+)$/.exec(field);
        if (!auth) continue;
        const algorithm = AUTH_NAME[auth[1]];
        const integrity = ipsecIntegrity(algorithm, key);
        // AUTH384-1 is labelled "HMAC-SHA-384-128" but prints 192 bits, as the others.
        assert.equal(value.length / 2, integrity.icvLength, `${c.name} ${field}`);
        assert.equal(toHex(integrity.icv(data)), value, `${c.name} ${field}`);
        assert.equal(integrity.verify(data, hex(value)), true, c.name);
        const bad = hex(value);
        bad[bad.length - 1] ^= 1;
        assert.equal(integrity.verify(data, bad), false, c.name);
        counts.icv++;
      }
    }
    // 6 PRF cases x 3 hashes, plus the PRF outputs printed with the 12 AUTH cases.
    assert.deepEqual(counts, { prf: 18 + 12, icv: 12 });
  });
});

describe("IPsec ICV against node:crypto (property tests)", () => {
  const specs: [IpsecIntegrityAlgorithm, string, number, number][] = [
    ["hmac-sha256-128", "sha256", 32, 16],
    ["hmac-sha384-192", "sha384", 48, 24],
    ["hmac-sha512-256", "sha512", 64, 32],
  ];
  for (const [algorithm, hash, keyLength, icvLength] of specs) {
    it(`${algorithm}: ICV with and without ESN (200 cases)`, () => {
      fc.assert(
        fc.property(
          fc.uint8Array({ minLength: keyLength, maxLength: keyLength }),
          fc.uint8Array({ maxLength: 2000 }),
          fc.option(fc.nat({ max: 0xffffffff }), { nil: undefined }),
          (key, data, esnHigh) => {
            const h = createHmac(hash, key).update(data);
            if (esnHigh !== undefined) {
              const high = Buffer.alloc(4);
              high.writeUInt32BE(esnHigh);
              h.update(high);
            }
            const want = new Uint8Array(h.digest().subarray(0, icvLength));
            const integrity = new IpsecIntegrity(algorithm, atOffset(key));
            assert.deepEqual(integrity.icv(atOffset(data), { esnHigh }), want);
            const out = new Uint8Array(icvLength);
            assert.equal(integrity.icv(data, { esnHigh }, out), out);
            assert.deepEqual(out, want);
            assert.equal(integrity.verify(data, atOffset(want), { esnHigh }), true);
            // The ESN high bits are covered: another value, or none, is refused.
            assert.equal(
              integrity.verify(data, want, { esnHigh: ((esnHigh ?? 0) + 1) >>> 0 }),
              false,
            );
            if (esnHigh !== undefined && esnHigh !== 0)
              assert.equal(integrity.verify(data, want), false);
          },
        ),
        { numRuns: 200 },
      );
    });
  }

  it("PRF keys of any length, hashed when longer than a block", () => {
    for (const [prf, hash] of [
      ["prf-hmac-sha256", "sha256"],
      ["prf-hmac-sha384", "sha384"],
      ["prf-hmac-sha512", "sha512"],
    ] as const) {
      for (const n of [16, 32, 64, 128, 129, 200]) {
        const key = Uint8Array.from({ length: n }, (_, i) => i);
        const data = new Uint8Array(33).fill(n);
        assert.equal(
          toHex(ipsecPrf(prf, atOffset(key), data)),
          createHmac(hash, key).update(data).digest("hex"),
        );
      }
    }
  });
});

describe("IPsec refusals and bad input", () => {
  const key = new Uint8Array(32).fill(1);
  const integrity = ipsecIntegrity("hmac-sha256-128", key);
  const data = new Uint8Array(40).fill(2);
  const icv = integrity.icv(data);

  it("wrong ICVs are false, never a throw", () => {
    assert.equal(integrity.verify(data, icv), true);
    assert.equal(integrity.verify(data, icv.subarray(0, 12)), false, "96-bit truncation");
    assert.equal(integrity.verify(data, new Uint8Array(32)), false);
    assert.equal(integrity.verify(data, new Uint8Array(0)), false);
    const full = createHmac("sha256", key).update(data).digest();
    assert.equal(integrity.verify(data, full), false, "the untruncated HMAC is not an ICV");
    for (let i = 0; i < data.length; i++) {
      const bad = data.slice();
      bad[i] ^= 1;
      assert.equal(integrity.verify(bad, icv), false);
    }
  });
  it("byte arguments that are not bytes", () => {
    for (const [, value] of notBytes()) {
      const v = value as Uint8Array;
      throwsKeyed(() => ipsecIntegrity("hmac-sha256-128", v), "BAD_INPUT", /^key /);
      throwsKeyed(() => integrity.icv(v), "BAD_INPUT", /^data /);
      throwsKeyed(() => integrity.verify(v, icv), "BAD_INPUT", /^data /);
      throwsKeyed(() => integrity.verify(data, v), "BAD_INPUT", /^icv /);
      throwsKeyed(() => ipsecPrf("prf-hmac-sha256", v, data), "BAD_INPUT", /^key /);
      throwsKeyed(() => ipsecPrf("prf-hmac-sha256", key, v), "BAD_INPUT", /^data /);
      if (v !== undefined) throwsKeyed(() => integrity.icv(data, {}, v), "BAD_INPUT", /^out /);
    }
  });
  it("key lengths: exact for integrity, 16 or more for the PRF unless allowed", () => {
    for (const [algorithm, n] of [
      ["hmac-sha256-128", 32],
      ["hmac-sha384-192", 48],
      ["hmac-sha512-256", 64],
    ] as const) {
      for (const wrong of [0, 16, n - 1, n + 1]) {
        throwsKeyed(
          () => ipsecIntegrity(algorithm, new Uint8Array(wrong)),
          "KEY_LENGTH",
          new RegExp(`exactly ${n}`),
        );
      }
    }
    throwsKeyed(() => ipsecPrf("prf-hmac-sha384", new Uint8Array(4), data), "KEY_TOO_SHORT");
    assert.equal(
      ipsecPrf("prf-hmac-sha384", new Uint8Array(4), data, { allowShortKeys: true }).length,
      48,
    );
    throwsKeyed(() => ipsecPrf("prf-hmac-sha256", key, data, 1 as never), "BAD_INPUT", /options/);
  });
  it("unknown algorithms, ESN out of range, options that are not objects", () => {
    throwsKeyed(
      () => ipsecIntegrity("hmac-sha1-96" as IpsecIntegrityAlgorithm, key),
      "UNKNOWN_ALGORITHM",
      /hmac-sha256-128/,
    );
    throwsKeyed(
      () => ipsecIntegrity("constructor" as IpsecIntegrityAlgorithm, key),
      "UNKNOWN_ALGORITHM",
    );
    throwsKeyed(
      () => ipsecPrf("prf-hmac-sha1" as IpsecPrfAlgorithm, key, data),
      "UNKNOWN_ALGORITHM",
      /prf-hmac-sha256/,
    );
    for (const esnHigh of [-1, 2 ** 32, 1.5, "1"]) {
      throwsKeyed(
        () => integrity.icv(data, { esnHigh: esnHigh as number }),
        "BAD_INPUT",
        /esnHigh/,
      );
      throwsKeyed(
        () => integrity.verify(data, icv, { esnHigh: esnHigh as number }),
        "BAD_INPUT",
        /esnHigh/,
      );
    }
    throwsKeyed(() => integrity.icv(data, 3 as never), "BAD_INPUT", /options/);
    throwsKeyed(
      () => integrity.icv(data, {}, new Uint8Array(32)),
      "BAD_INPUT",
      /exactly tagLength \(16\)/,
    );
  });
  it("destroy: later calls throw DESTROYED", () => {
    const i = ipsecIntegrity("hmac-sha512-256", new Uint8Array(64));
    i.destroy();
    throwsKeyed(() => i.icv(data), "DESTROYED");
    throwsKeyed(() => i.verify(data, icv, { esnHigh: 1 }), "DESTROYED");
  });
});
