/**
 * The Mac contract's policy rules at their boundaries, on toy kernels so that each rule is tested
 * alone: key minimums, GCM-style allowed tag lengths, full tags under the safe minimum, nonces in
 * front of the tag, one-time keys, and option flags that are not booleans.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { inspect } from "node:util";
import { encodeFields, encodeFieldsTuple } from "../../src/core/fields.js";
import { ABSOLUTE_MIN_TAG_LENGTH, type MacAlgorithm } from "../../src/core/mac.js";
import { PreparedMac } from "../../src/core/prepared-mac.js";
import { throwsKeyed, toyMacAlgorithm as toy } from "../helpers.js";

const message = Uint8Array.from({ length: 20 }, (_, i) => i * 3 + 1);

const key16 = new Uint8Array(16).fill(0x42);

describe("key rules at their boundaries", () => {
  it("an algorithm's own minimum replaces the default 16 bytes", () => {
    const a = toy({ key: { kind: "variable", minimum: 32 } });
    throwsKeyed(() => new PreparedMac(a, new Uint8Array(31)), "KEY_TOO_SHORT", /32 bytes/);
    assert.equal(new PreparedMac(a, new Uint8Array(32)).tagLength, 16);
    assert.equal(new PreparedMac(a, new Uint8Array(31), { allowShortKeys: true }).tagLength, 16);
  });
  it("the default minimum is exactly 16 bytes", () => {
    throwsKeyed(
      () => new PreparedMac(toy(), new Uint8Array(15)),
      "KEY_TOO_SHORT",
      /16 bytes \(128 bits\); got 15/,
    );
    assert.equal(new PreparedMac(toy(), new Uint8Array(16)).tagLength, 16);
  });
  it("allowShortKeys and allowShortTags must be booleans", () => {
    for (const flag of ["allowShortKeys", "allowShortTags"]) {
      for (const bad of [1, "true", null, {}]) {
        throwsKeyed(
          () => new PreparedMac(toy(), key16, { [flag]: bad }),
          "BAD_INPUT",
          /true or false/,
        );
      }
      assert.equal(new PreparedMac(toy(), key16, { [flag]: false }).tagLength, 16);
    }
  });
});

describe("tag rules at their boundaries", () => {
  it("only the allowed lengths pass, whatever the flags", () => {
    const a = toy({ tag: { safeMinimum: 12, allowed: [16, 15, 14, 13, 12, 8, 4] } });
    for (const length of [16, 15, 12]) {
      assert.equal(new PreparedMac(a, key16, { tagLength: length }).tagLength, length);
    }
    for (const length of [11, 10, 9, 7, 5]) {
      throwsKeyed(
        () => new PreparedMac(a, key16, { tagLength: length, allowShortTags: true }),
        "TAG_LENGTH",
        /may be 16, 15, 14, 13, 12, 8, 4 bytes/,
      );
    }
    throwsKeyed(
      () => new PreparedMac(a, key16, { tagLength: 8 }),
      "TAG_LENGTH",
      /shorter than 12 bytes need allowShortTags.*probability 2\^-64\./,
    );
    assert.equal(new PreparedMac(a, key16, { tagLength: 8, allowShortTags: true }).tagLength, 8);
  });
  it("the maximum itself is accepted and one more is not", () => {
    assert.equal(new PreparedMac(toy(), key16, { tagLength: 16 }).tagLength, 16);
    throwsKeyed(() => new PreparedMac(toy(), key16, { tagLength: 17 }), "TAG_LENGTH", /at most 16/);
  });
  it(`${ABSOLUTE_MIN_TAG_LENGTH} bytes is the floor even when the rule allows less`, () => {
    const a = toy({ tag: { safeMinimum: 2 } });
    assert.equal(new PreparedMac(a, key16, { tagLength: 4 }).tagLength, 4);
    throwsKeyed(() => new PreparedMac(a, key16, { tagLength: 3 }), "TAG_LENGTH", /never/);
  });
  it("a full tag under the safe minimum tags, but verifies only with allowShortTags", () => {
    const a = toy({ tag: { full: 8, maximum: 8, safeMinimum: 10 } });
    const m = new PreparedMac(a, key16);
    const t = m.tag(message);
    assert.equal(t.length, 8);
    throwsKeyed(() => m.verify(message, t), "TAG_LENGTH", /too short to verify.*toy rule/);
    throwsKeyed(() => m.stream().update(message).verify(t), "TAG_LENGTH", /too short/);
    const allowed = new PreparedMac(a, key16, { allowShortTags: true });
    assert.equal(allowed.verify(message, t), true);
    assert.equal(allowed.stream().update(message).verify(t), true);
    // At the safe minimum itself no flag is needed.
    const at = new PreparedMac(toy({ tag: { full: 10, maximum: 10, safeMinimum: 10 } }), key16);
    assert.equal(at.verify(message, at.tag(message)), true);
  });
});

describe("nonce-carrying MACs", () => {
  const a = toy({ nonceLength: 12 });

  it("tag is nonce ‖ tag, fresh each time, and verify reads the nonce back", () => {
    const m = new PreparedMac(a, key16);
    assert.equal(m.tagLength, 28);
    const t1 = m.tag(message);
    const t2 = m.tag(message);
    assert.equal(t1.length, 28);
    assert.notDeepEqual(t1.subarray(0, 12), t2.subarray(0, 12));
    assert.equal(m.verify(message, t1), true);
    assert.equal(m.verify(message, t2), true);
    const s = m.stream().update(message.subarray(0, 5)).update(message.subarray(5)).digest();
    assert.equal(m.verify(message, s), true);
    assert.equal(m.stream().update(message).verify(t1), true);
  });
  it("the tagLength option sizes the tag part alone, and truncates it", () => {
    const m = new PreparedMac(a, key16, { tagLength: 12 });
    assert.equal(m.tagLength, 24);
    const t = m.tag(message);
    assert.equal(m.verify(message, t), true);
    assert.equal(new PreparedMac(a, key16).verify(message, t), false);
  });
  it("any changed byte, a cut, or an extension is false", () => {
    const m = new PreparedMac(a, key16);
    const t = m.tag(message);
    for (let i = 0; i < t.length; i++) {
      const bad = t.slice();
      bad[i] ^= 0x01;
      assert.equal(m.verify(message, bad), false, `byte ${i}`);
    }
    for (let n = 0; n < t.length; n++) assert.equal(m.verify(message, t.subarray(0, n)), false);
    assert.equal(m.verify(message, Uint8Array.of(...t, 0)), false);
  });
  it("writes into out, nonce included", () => {
    const m = new PreparedMac(a, key16);
    const out = new Uint8Array(28);
    assert.equal(m.tag(message, out), out);
    assert.equal(m.verify(message, out), true);
    const digestOut = new Uint8Array(28);
    assert.equal(m.stream().update(message).digest(digestOut), digestOut);
    assert.equal(m.verify(message, digestOut), true);
    throwsKeyed(() => m.tag(message, new Uint8Array(16)), "BAD_INPUT", /exactly tagLength \(28\)/);
    throwsKeyed(() => m.stream().digest(new Uint8Array(29)), "BAD_INPUT", /exactly/);
  });
});

describe("nonces in streams", () => {
  it("a stream's digest carries a fresh nonce too, which verify reads back", () => {
    const m = new PreparedMac(toy({ nonceLength: 12 }), key16);
    const d1 = m.stream().update(message).digest();
    const d2 = m.stream().update(message).digest();
    assert.notDeepEqual(d1.subarray(0, 12), d2.subarray(0, 12));
    assert.ok(d1.subarray(0, 12).some((b) => b !== 0));
    const zeroNonce = d1.slice();
    zeroNonce.fill(0, 0, 12);
    assert.equal(m.verify(message, d1), true);
    assert.equal(m.verify(message, zeroNonce), false);
  });
});

describe("field encodings", () => {
  it('tagFields uses the TupleHash form when the algorithm says "tuple", keyed\'s own otherwise', () => {
    const fields = ["a", Uint8Array.of(1, 2)];
    const tuple = new PreparedMac(toy({ fieldEncoding: "tuple" }), key16);
    assert.deepEqual(tuple.tagFields("p", fields), tuple.tag(encodeFieldsTuple("p", fields)));
    assert.equal(tuple.verifyFields("p", fields, tuple.tag(encodeFieldsTuple("p", fields))), true);
    const own = new PreparedMac(toy(), key16);
    assert.deepEqual(own.tagFields("p", fields), own.tag(encodeFields("p", fields)));
    assert.notDeepEqual(encodeFields("p", fields).length, encodeFieldsTuple("p", fields).length);
  });
});

describe("printing", () => {
  it("a Mac prints and serializes its name and tag length, never its key", () => {
    const m = new PreparedMac(toy({ tag: { full: 16 } }), key16, { tagLength: 12 });
    assert.equal(
      JSON.stringify(m),
      '{"algorithm":"hmac-sha256","tagLength":12,"key":"[redacted]"}',
    );
    assert.match(inspect(m), /^PreparedMac \{.*algorithm: 'hmac-sha256'.*tagLength: 12/s);
  });
});

describe("truncating without a nonce", () => {
  it("tag, out and stream agree, and only the leftmost bytes are kept", () => {
    const full = new PreparedMac(toy(), key16).tag(message);
    const m = new PreparedMac(toy(), key16, { tagLength: 12 });
    assert.deepEqual(m.tag(message), full.subarray(0, 12));
    const out = new Uint8Array(12);
    assert.deepEqual(m.tag(message, out), full.subarray(0, 12));
    assert.deepEqual(m.stream().update(message).digest(), full.subarray(0, 12));
    assert.equal(m.verify(message, full.subarray(0, 12)), true);
    assert.equal(m.verify(message, full), false);
  });
});

describe("one-time keys", () => {
  const a = toy({ oneTime: true });
  const uses: [string, (m: PreparedMac) => unknown][] = [
    ["tag", (m) => m.tag(message)],
    ["verify", (m) => m.verify(message, new Uint8Array(16))],
    ["stream", (m) => m.stream()],
    ["tagFields", (m) => m.tagFields("p", ["x"])],
  ];
  for (const [first, useFirst] of uses) {
    it(`after ${first}, every use is KEY_REUSED`, () => {
      const m = new PreparedMac(a, key16);
      useFirst(m);
      for (const [, again] of uses) throwsKeyed(() => again(m), "KEY_REUSED", /one message/);
    });
  }
  it("a refused call before the key is used does not use it up", () => {
    const m = new PreparedMac(a, key16);
    throwsKeyed(() => m.tag("x" as unknown as Uint8Array), "BAD_INPUT");
    throwsKeyed(() => m.tag(message, new Uint8Array(3)), "BAD_INPUT");
    assert.equal(m.tag(message).length, 16);
  });
  it("a key that is not one-time can be used again", () => {
    const m = new PreparedMac(toy(), key16);
    const t = m.tag(message);
    assert.deepEqual(m.tag(message), t);
    assert.equal(m.verify(message, t), true);
    assert.equal(m.verify(message, t), true);
  });
});

describe("destroy", () => {
  it("is idempotent and wipes the kernel once; a live stream then throws and stays refused", () => {
    let wipes = 0;
    const base = toy();
    const a: MacAlgorithm = {
      ...base,
      createKernel(k, n, o) {
        const kernel = base.createKernel(k, n, o);
        return {
          ...kernel,
          wipe: () => {
            wipes++;
            kernel.wipe();
          },
        };
      },
    };
    const m = new PreparedMac(a, key16);
    const s = m.stream().update(message);
    m.destroy();
    m.destroy();
    assert.equal(wipes, 1);
    throwsKeyed(() => s.update(message), "DESTROYED");
    throwsKeyed(() => s.digest(), "DESTROYED");
    throwsKeyed(() => s.verify(new Uint8Array(16)), "DESTROYED");
    throwsKeyed(() => m.verifyFields("p", [], new Uint8Array(16)), "DESTROYED");
  });
});
