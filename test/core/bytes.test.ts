import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  base64ToBytes,
  base64urlToBytes,
  bytesToBase64,
  bytesToBase64url,
  bytesToHex,
  bytesToUtf8,
  concatBytes,
  hexToBytes,
  utf8ToBytes,
} from "../../src/index.js";
import { ascii, atOffset, notBytes, throwsKeyed } from "../helpers.js";

describe("hex", () => {
  it("encodes and decodes both cases", () => {
    assert.equal(bytesToHex(Uint8Array.of(0, 1, 0xab, 0xff)), "0001abff");
    assert.deepEqual(hexToBytes("0001ABff"), Uint8Array.of(0, 1, 0xab, 0xff));
    assert.deepEqual(hexToBytes(""), new Uint8Array(0));
  });
  it("refuses odd lengths and non-hex characters", () => {
    throwsKeyed(() => hexToBytes("abc"), "BAD_ENCODING", /even/);
    for (const bad of ["0g", "0x00", " 0", "zz", "0/", "0:", "@0", "G0", "`0", "0\u0660"]) {
      throwsKeyed(() => hexToBytes(bad), "BAD_ENCODING");
    }
    throwsKeyed(() => hexToBytes(12 as unknown as string), "BAD_INPUT");
  });
  it("round-trips and matches Buffer", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const text = bytesToHex(bytes);
        assert.equal(text, Buffer.from(bytes).toString("hex"));
        assert.deepEqual(hexToBytes(text.toUpperCase()), bytes);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("base64 and base64url (RFC 4648)", () => {
  // RFC 4648 section 10.
  const cases: [string, string][] = [
    ["", ""],
    ["f", "Zg=="],
    ["fo", "Zm8="],
    ["foo", "Zm9v"],
    ["foob", "Zm9vYg=="],
    ["fooba", "Zm9vYmE="],
    ["foobar", "Zm9vYmFy"],
  ];
  it("matches the RFC 4648 section 10 test vectors", () => {
    for (const [plain, encoded] of cases) {
      assert.equal(bytesToBase64(ascii(plain)), encoded);
      assert.deepEqual(base64ToBytes(encoded), ascii(plain));
      assert.equal(bytesToBase64url(ascii(plain)), encoded.replace(/=+$/, ""));
      assert.deepEqual(base64urlToBytes(encoded.replace(/=+$/, "")), ascii(plain));
      assert.deepEqual(base64urlToBytes(encoded), ascii(plain));
    }
  });
  it("refuses malformed text", () => {
    for (const bad of [
      "Zg",
      "Zg=",
      "Z===",
      "Zm9v\n",
      "Zm 9v",
      "Zm-v",
      "Zm_v",
      "Zh==",
      "Zm9=",
      "====",
      "Zg==Zg==",
    ]) {
      throwsKeyed(() => base64ToBytes(bad), "BAD_ENCODING");
    }
    for (const bad of ["Zm+v", "Zm/v", "Z", "Zh", "Zm9", "Zg=", "Zg=a"]) {
      throwsKeyed(() => base64urlToBytes(bad), "BAD_ENCODING");
    }
  });
  it("round-trips and matches Buffer", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        assert.equal(bytesToBase64(bytes), Buffer.from(bytes).toString("base64"));
        assert.equal(bytesToBase64url(bytes), Buffer.from(bytes).toString("base64url"));
        assert.deepEqual(base64ToBytes(bytesToBase64(bytes)), bytes);
        assert.deepEqual(base64urlToBytes(bytesToBase64url(bytes)), bytes);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("utf8", () => {
  it("round-trips text and refuses malformed UTF-8", () => {
    assert.deepEqual(utf8ToBytes("h€"), Uint8Array.of(0x68, 0xe2, 0x82, 0xac));
    assert.equal(bytesToUtf8(Uint8Array.of(0x68, 0xe2, 0x82, 0xac)), "h€");
    throwsKeyed(() => bytesToUtf8(Uint8Array.of(0xc3)), "BAD_ENCODING");
    throwsKeyed(() => utf8ToBytes(Uint8Array.of(1) as unknown as string), "BAD_INPUT");
  });

  it("encodes as TextEncoder does: ASCII, other scripts, lone surrogates, short and long", () => {
    const encoder = new TextEncoder();
    const char = fc.oneof(
      fc.integer({ min: 0, max: 0x7f }),
      fc.integer({ min: 0x80, max: 0xffff }),
      fc.constantFrom(0xd800, 0xdbff, 0xdc00, 0xdfff),
    );
    fc.assert(
      fc.property(
        fc.array(char, { maxLength: 300 }),
        fc.integer({ min: 0, max: 300 }),
        (codes, asciiLength) => {
          // Mostly ASCII with the odd other character, around the short-text loop's limit.
          const text = "a".repeat(asciiLength) + String.fromCharCode(...codes);
          assert.deepEqual(utf8ToBytes(text), encoder.encode(text));
          assert.deepEqual(utf8ToBytes(text.slice(0, 128)), encoder.encode(text.slice(0, 128)));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("concatBytes", () => {
  it("joins views, honouring their offsets", () => {
    const joined = concatBytes(
      atOffset(Uint8Array.of(1, 2)),
      Uint8Array.of(),
      atOffset(Uint8Array.of(3)),
    );
    assert.deepEqual(joined, Uint8Array.of(1, 2, 3));
  });
  it("names the argument that is not bytes", () => {
    for (const [, value] of notBytes()) {
      throwsKeyed(
        () => concatBytes(Uint8Array.of(1), value as Uint8Array),
        "BAD_INPUT",
        /argument 1/,
      );
    }
  });
});

describe("byte arguments", () => {
  it("refuse every non-bytes value with BAD_INPUT naming the argument", () => {
    for (const [what, value] of notBytes()) {
      throwsKeyed(() => bytesToHex(value as Uint8Array), "BAD_INPUT", /bytes/);
      assert.ok(what);
    }
  });
  it("accept Node's Buffer", () => {
    assert.equal(bytesToHex(Buffer.from([1, 2])), "0102");
  });
});
