import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { inspect } from "node:util";
import { REDACTED, redactKeyMaterial } from "../../src/core/redact.js";
import { mac, macInfo, macNames } from "../../src/index.js";
import { toHex } from "../helpers.js";

/** Every way a 32-byte key could show up in printed text. */
function traces(key: Uint8Array): string[] {
  return [toHex(key), Buffer.from(key).toString("base64"), Array.from(key).join(", ")];
}

describe("redacted printing of key material", () => {
  it("a class opted in prints its summary and [redacted], never its fields", () => {
    class Holder {
      readonly name = "visible";
      readonly secret = Uint8Array.of(0xde, 0xad, 0xbe, 0xef);
    }
    redactKeyMaterial(Holder, (h) => ({ name: h.name }));
    const h = new Holder();
    assert.equal(inspect(h), `Holder { name: 'visible', key: '${REDACTED}' }`);
    assert.equal(JSON.stringify(h), `{"name":"visible","key":"${REDACTED}"}`);
    assert.equal(
      JSON.stringify({ nested: [h] }),
      `{"nested":[{"name":"visible","key":"${REDACTED}"}]}`,
    );
    assert.doesNotMatch(inspect(h, { showHidden: true, depth: Infinity }), /deadbeef|222/);
  });

  it("without util.inspect's helper (a console that calls the hook alone) it still redacts", () => {
    class Bare {
      readonly secret = Uint8Array.of(1, 2, 3);
    }
    redactKeyMaterial(Bare);
    const hook = (Bare.prototype as unknown as Record<symbol, (...a: unknown[]) => string>)[
      Symbol.for("nodejs.util.inspect.custom")
    ];
    assert.equal(hook.call(new Bare(), 2, {}), `Bare {"key":"${REDACTED}"}`);
  });

  it("no Mac prints or serializes its key, whichever backend served it", () => {
    for (const name of macNames()) {
      const info = macInfo(name);
      const key = Uint8Array.from({ length: info.recommendedKeyLength }, (_, i) => 0xa0 + i);
      const m = mac(name, key);
      const stream = info.oneTime ? undefined : m.stream().update(new Uint8Array(100));
      if (!info.oneTime) {
        m.tag(new Uint8Array(16)); // the first message of a key
        m.tag(new Uint8Array(4096)); // and a long one, where node:crypto may serve
      }
      const printed = [
        inspect(m),
        inspect(m, { showHidden: true, depth: Infinity }),
        JSON.stringify(m),
      ];
      if (stream) printed.push(inspect(stream, { showHidden: true, depth: Infinity }));
      for (const text of printed) {
        assert.match(text, /\[redacted\]/, name);
        for (const trace of traces(key))
          assert.ok(!text.includes(trace), `${name} printed its key`);
      }
    }
  });
});
