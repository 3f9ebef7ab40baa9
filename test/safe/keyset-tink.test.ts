/**
 * Keysets against Google Tink's published data (../shared/vectors/tink, PROVENANCE.md there):
 * every MAC vector through a keyset built from its key, every published keyset and keyset vector,
 * the JSON reader's edge cases from tink-java's JsonKeysetReaderTest, and what Tink refuses. The
 * protobuf messages the tests build are encoded here by hand, apart from src/safe/protobuf.ts.
 */
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { bytesToBase64, Keyset, type MacName } from "../../src/index.js";
import { MAX_KEYS } from "../../src/safe/keyset-record.js";
import { ascii, cmacOracle, hex, throwsKeyed, toHex } from "../helpers.js";
import { skipUnless, vectorPath } from "../vectors.js";

const HASHES: Record<string, MacName> = {
  SHA1: "hmac-sha1",
  SHA224: "hmac-sha224",
  SHA256: "hmac-sha256",
  SHA384: "hmac-sha384",
  SHA512: "hmac-sha512",
};
const HASH_ENUM: Record<string, number> = { SHA1: 1, SHA384: 2, SHA256: 3, SHA512: 4, SHA224: 5 };
const HMAC_URL = "type.googleapis.com/google.crypto.tink.HmacKey";
const CMAC_URL = "type.googleapis.com/google.crypto.tink.AesCmacKey";

// --- an independent protobuf encoder for the test's own messages ---------------------------------

function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 128) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}
const vfield = (number: number, value: number) => [...varint(number * 8), ...varint(value)];
const lfield = (number: number, bytes: ArrayLike<number>) => [
  ...varint(number * 8 + 2),
  ...varint(bytes.length),
  ...Array.from(bytes),
];
const bytes = (...parts: number[][]) => Uint8Array.from(parts.flat());

function hmacKeyValue(hash: string, tagSize: number, key: Uint8Array): Uint8Array {
  return bytes(lfield(2, bytes(vfield(1, HASH_ENUM[hash]), vfield(2, tagSize))), lfield(3, key));
}
function cmacKeyValue(tagSize: number, key: Uint8Array): Uint8Array {
  return bytes(lfield(2, key), lfield(3, bytes(vfield(1, tagSize))));
}

interface JsonKeyOptions {
  typeUrl?: string;
  value: Uint8Array;
  id: number;
  status?: string;
  prefix?: string;
}
function jsonKey(o: JsonKeyOptions): Record<string, unknown> {
  return {
    keyData: {
      typeUrl: o.typeUrl ?? HMAC_URL,
      value: bytesToBase64(o.value),
      keyMaterialType: "SYMMETRIC",
    },
    status: o.status ?? "ENABLED",
    keyId: o.id,
    outputPrefixType: o.prefix ?? "TINK",
  };
}
const jsonKeyset = (primary: number, ...keys: Record<string, unknown>[]) =>
  JSON.stringify({ primaryKeyId: primary, key: keys });

/** Tink's tag under an HMAC or CMAC key, from node:crypto (the oracle). */
function tinkTag(
  algorithm: MacName,
  key: Uint8Array,
  message: Uint8Array,
  tagSize: number,
  prefix: string,
  id: number,
): string {
  const input = prefix === "LEGACY" ? Buffer.concat([message, Buffer.of(0)]) : message;
  const full = algorithm.startsWith("cmac")
    ? Buffer.from(cmacOracle(key, input))
    : createHmac(algorithm.slice(5), key).update(input).digest();
  const head =
    prefix === "RAW" ? "" : (prefix === "TINK" ? "01" : "00") + id.toString(16).padStart(8, "0");
  return head + full.subarray(0, tagSize).toString("hex");
}

// --- the vector files ----------------------------------------------------------------------------

interface MacVector {
  id: string;
  algorithm: "HMAC" | "AES_CMAC";
  hash: string | null;
  keySize: number;
  tagSize: number;
  outputPrefixType: "TINK" | "LEGACY" | "CRUNCHY" | "RAW";
  keyId: number | null;
  key: string;
  message: string;
  tag: string;
  tinkKeysetUsable?: boolean;
  expect?: string;
  name: string;
}

const MAC_FILE = "tink/tink_mac_vectors.json";
const read = <T>(relative: string): T =>
  JSON.parse(readFileSync(vectorPath(relative) as string, "utf8")) as T;

const algorithmOf = (v: MacVector): MacName =>
  v.algorithm === "HMAC"
    ? HASHES[v.hash as string]
    : v.keySize === 16
      ? "cmac-aes128"
      : "cmac-aes256";

function keysetFor(v: MacVector): Keyset {
  return Keyset.fromKey(algorithmOf(v), hex(v.key), {
    prefix: v.outputPrefixType.toLowerCase() as "tink",
    tagLength: v.tagSize,
    ...(v.keyId === null ? {} : { id: v.keyId }),
  });
}

/** The vector's key as a one-key Tink JSON keyset, encoded by this test. */
function tinkJsonFor(v: MacVector): string {
  const key = hex(v.key);
  const value =
    v.algorithm === "HMAC"
      ? hmacKeyValue(v.hash as string, v.tagSize, key)
      : cmacKeyValue(v.tagSize, key);
  const id = v.keyId ?? 0x2a;
  return jsonKeyset(
    id,
    jsonKey({
      typeUrl: v.algorithm === "HMAC" ? HMAC_URL : CMAC_URL,
      value,
      id,
      prefix: v.outputPrefixType,
    }),
  );
}

describe("tink_mac_vectors.json through keysets", { skip: skipUnless(MAC_FILE) }, () => {
  const file = skipUnless(MAC_FILE)
    ? undefined
    : read<{ vectors: MacVector[]; negativeVectors: MacVector[] }>(MAC_FILE);

  it("every valid vector verifies, and tagging reproduces its tag", () => {
    const vectors = file!.vectors;
    assert.equal(vectors.length, 29);
    const prefixes = new Set(vectors.map((v) => v.outputPrefixType));
    assert.deepEqual([...prefixes].sort(), ["CRUNCHY", "LEGACY", "RAW", "TINK"]);
    for (const v of vectors) {
      const ks = keysetFor(v);
      assert.equal(ks.verify(hex(v.message), hex(v.tag)), true, v.id);
      assert.equal(toHex(ks.tag(hex(v.message))), v.tag, v.id);
      const flipped = hex(v.tag);
      flipped[flipped.length - 1] ^= 0x80;
      assert.equal(ks.verify(hex(v.message), flipped), false, `${v.id} flipped`);
    }
  });

  it("each usable vector loads as a Tink JSON keyset; 16-byte AesCmacKeys are refused, as Tink does", () => {
    let loaded = 0;
    let refused = 0;
    for (const v of file!.vectors) {
      const json = tinkJsonFor(v);
      if (v.tinkKeysetUsable === false) {
        throwsKeyed(() => Keyset.fromTinkJson(json), "KEY_UNSUPPORTED", /32-byte keys only/);
        refused++;
        continue;
      }
      const ks = Keyset.fromTinkJson(json);
      assert.equal(ks.verify(hex(v.message), hex(v.tag)), true, v.id);
      assert.equal(toHex(ks.tag(hex(v.message))), v.tag, v.id);
      // And through the binary format, both ways.
      const again = Keyset.fromTinkBinary(ks.toTinkBinary());
      assert.equal(again.verify(hex(v.message), hex(v.tag)), true, `${v.id} binary`);
      loaded++;
    }
    assert.equal(refused, 13);
    assert.equal(loaded, 16);
  });

  it("every negative vector is refused", () => {
    const negatives = file!.negativeVectors;
    assert.equal(negatives.length, 6);
    for (const v of negatives) {
      const ks = keysetFor(v);
      assert.equal(ks.verify(hex(v.message), hex(v.tag)), false, v.id);
      assert.equal(
        typeof ks.verifyingStream(hex(v.tag)).update(hex(v.message)).verify(),
        "boolean",
      );
    }
  });

  it("MacWrapperTest: a RAW tag that looks like a TINK prefix falls through to the RAW key", () => {
    const v = file!.vectors.find((x) => x.id === "tink-mac-022")!;
    assert.equal(v.tag.slice(0, 10), "0152af9740");
    const ks = keysetFor(v);
    ks.add("hmac-sha1", { prefix: "tink", id: 0x52af9740, tagLength: 10 }); // a random key
    assert.equal(ks.verify(hex(v.message), hex(v.tag)), true);
  });
});

interface IndexFile {
  files: {
    file: string;
    primaryKeyId: number;
    verifiedTag?: { messageHex: string; tag: string };
    keys: {
      keyId: number;
      typeUrl: string;
      status: string;
      outputPrefixType: string;
      decodedValue: { hash?: string; tagSize: number; key: string };
    }[];
  }[];
}

const INDEX = "tink/keysets/index.json";

describe("the published Tink keysets (keysets/)", { skip: skipUnless(INDEX) }, () => {
  const index = skipUnless(INDEX) ? undefined : read<IndexFile>(INDEX);

  it("every JSON keyset loads, holds the keys the index decodes, and its tags verify", () => {
    let checked = 0;
    for (const entry of index!.files) {
      if (!entry.file.endsWith(".json")) continue;
      const text = readFileSync(vectorPath(`tink/${entry.file}`) as string, "utf8");
      if (entry.file.includes("URL_SAFE")) {
        // URL-safe base64 is read only by Java's JsonKeysetReader.withUrlSafeBase64(), not by
        // Tink's standard JSON format.
        throwsKeyed(() => Keyset.fromTinkJson(text), "KEY_FORMAT", /standard base64/);
        continue;
      }
      const ks = Keyset.fromTinkJson(text);
      assert.equal(ks.primaryId, entry.primaryKeyId, entry.file);
      const keys = ks.keys();
      assert.deepEqual(
        keys.map((k) => [k.id, k.status.toUpperCase(), k.prefix.toUpperCase()]),
        entry.keys.map((k) => [k.keyId, k.status, k.outputPrefixType]),
        entry.file,
      );
      const message = ascii("a message for every key");
      for (const k of entry.keys) {
        if (k.status !== "ENABLED") continue;
        const name: MacName =
          k.typeUrl === HMAC_URL ? HASHES[k.decodedValue.hash as string] : "cmac-aes256";
        const expected = tinkTag(
          name,
          hex(k.decodedValue.key),
          message,
          k.decodedValue.tagSize,
          k.outputPrefixType,
          k.keyId,
        );
        assert.equal(ks.verify(message, hex(expected)), true, `${entry.file} key ${k.keyId}`);
        assert.equal(ks.get(k.keyId)?.algorithm, name);
        assert.equal(ks.get(k.keyId)?.tagLength, k.decodedValue.tagSize);
      }
      if (entry.verifiedTag) {
        assert.equal(
          ks.verify(hex(entry.verifiedTag.messageHex), hex(entry.verifiedTag.tag)),
          true,
          `${entry.file}: published tag`,
        );
      }
      // Written and read back, in both formats, the keyset is the same.
      for (const again of [
        Keyset.fromTinkJson(ks.toTinkJson()),
        Keyset.fromTinkBinary(ks.toTinkBinary()),
      ]) {
        assert.deepEqual(again.keys(), ks.keys(), entry.file);
      }
      checked++;
    }
    assert.equal(checked, 12);
  });

  it("the multi-key keyset: its AES-CMAC primary tags, the others still verify", () => {
    const text = readFileSync(
      vectorPath(
        "tink/keysets/tink-java_MacTest_JSON_MAC_KEYSET_WITH_MULTIPLE_KEYS.json",
      ) as string,
      "utf8",
    );
    const ks = Keyset.fromTinkJson(text);
    const message = ascii("data");
    const tag = ks.tag(message);
    const cmacKey = hex("2da67fe905d87aa641f05e331d344953993a4c5e71be5497f5954b540d3d518d");
    assert.equal(toHex(tag), toHex(cmacOracle(cmacKey, message)));
  });

  it("the cross-language text-proto keyset reads as its derived JSON does (statuses kept)", () => {
    const textproto = readFileSync(
      vectorPath(
        "tink/keysets/tink-cross-lang-tests_keyset_read_write_test_SYMMETRIC_KEYSET.textproto",
      ) as string,
      "utf8",
    );
    const json = fromTextProto(textproto);
    const derived = readFileSync(
      vectorPath("tink/keysets/derived/cross-lang_SYMMETRIC_KEYSET.json") as string,
      "utf8",
    );
    const a = Keyset.fromTinkJson(json);
    const b = Keyset.fromTinkJson(derived);
    assert.deepEqual(a.keys(), b.keys());
    assert.deepEqual(
      a.keys().map((k) => k.status),
      ["enabled", "disabled", "enabled", "destroyed"],
    );
    // The destroyed key's bytes are not kept, so they are not written back either.
    const written = a.toTinkJson();
    assert.equal(
      written.includes("GiDzcRs3LKzDjST4eVLEYIZ1ZntWo7n3rOkcEKdNJ6Ar0BIEEBAIAw=="),
      false,
    );
    assert.match(written, /"status": "DESTROYED",\s+"keyId": 3173753038/);
    // The disabled LEGACY key keeps its bytes: enabled again, it verifies its tags.
    const disabledKey = hex(
      "8a7d136b4ba72ec018ff20e9d19c7d7246754af781b0622930b96b01762c1c3644f36d4dadbacf07e04d9564b85b88b2f2eaec34261f0528f8d019dd7dc9fc0a",
    );
    const m = ascii("m");
    const legacyTag = hex(tinkTag("hmac-sha512", disabledKey, m, 32, "LEGACY", 1021124131));
    assert.equal(a.verify(m, legacyTag), false);
    a.enable(1021124131);
    assert.equal(a.verify(m, legacyTag), true);
  });
});

/** The text-format keyset of tink-cross-lang-tests as Tink JSON (C escapes undone by hand). */
function fromTextProto(text: string): string {
  const keys: Record<string, unknown>[] = [];
  const primary = Number(/primary_key_id: (\d+)/.exec(text)![1]);
  for (const block of text.split(/\nkey \{/).slice(1)) {
    const quoted = /value: "((?:[^"\\]|\\.)*)"/.exec(block)![1];
    const out: number[] = [];
    for (let i = 0; i < quoted.length; i++) {
      const c = quoted[i];
      if (c !== "\\") {
        out.push(c.charCodeAt(0));
        continue;
      }
      const next = quoted[++i];
      if (/[0-7]/.test(next)) {
        out.push(Number.parseInt(quoted.slice(i, i + 3), 8));
        i += 2;
      } else {
        out.push({ n: 10, r: 13, t: 9 }[next as "n"] ?? next.charCodeAt(0));
      }
    }
    keys.push({
      keyData: {
        typeUrl: /type_url: "([^"]+)"/.exec(block)![1],
        value: Buffer.from(out).toString("base64"),
        keyMaterialType: /key_material_type: (\w+)/.exec(block)![1],
      },
      status: /status: (\w+)/.exec(block)![1],
      keyId: Number(/key_id: (\d+)/.exec(block)![1]),
      outputPrefixType: /output_prefix_type: (\w+)/.exec(block)![1],
    });
  }
  return JSON.stringify({ primaryKeyId: primary, key: keys });
}

const KEYSET_VECTORS = "tink/tink_keyset_vectors.json";

describe("tink_keyset_vectors.json", { skip: skipUnless(KEYSET_VECTORS) }, () => {
  interface KeysetVector {
    name: string;
    format: string;
    keysetHex?: string;
    keysetJson?: string;
    encryptedKeysetJson?: string;
    decryptedKeysetHex?: string;
    message: string;
    tag: string;
    matchedKeyId: number;
  }
  const file = skipUnless(KEYSET_VECTORS)
    ? undefined
    : read<{ vectors: KeysetVector[] }>(KEYSET_VECTORS);

  it("the cleartext keysets (and the decrypted ones) load and their tags verify", () => {
    assert.equal(file!.vectors.length, 5);
    for (const v of file!.vectors) {
      const keysets: Keyset[] = [];
      if (v.format === "binary") keysets.push(Keyset.fromTinkBinary(hex(v.keysetHex!)));
      if (v.format === "json") keysets.push(Keyset.fromTinkJson(v.keysetJson!));
      if (v.decryptedKeysetHex) keysets.push(Keyset.fromTinkBinary(hex(v.decryptedKeysetHex)));
      assert.ok(keysets.length > 0, v.name);
      for (const ks of keysets) {
        assert.equal(ks.verify(hex(v.message), hex(v.tag)), true, v.name);
        assert.equal(ks.primaryId, Number(v.matchedKeyId));
        assert.equal(toHex(ks.tag(hex(v.message))), v.tag, v.name);
      }
      if (v.encryptedKeysetJson) {
        throwsKeyed(
          () => Keyset.fromTinkJson(v.encryptedKeysetJson!),
          "KEY_UNSUPPORTED",
          /encrypted/,
        );
      }
    }
  });

  it("the published binary keyset writes back to an equivalent keyset in field-number order", () => {
    const v = file!.vectors[0];
    const ks = Keyset.fromTinkBinary(hex(v.keysetHex!));
    const written = ks.toTinkBinary();
    // Tink writes fields in number order (hmac_proto_structs_test.cc): params (2) before
    // key_value (3), where the published keyset has them the other way round.
    const published = hex(v.keysetHex!);
    assert.equal(written.length, published.length);
    assert.notEqual(toHex(written), toHex(published));
    assert.deepEqual(Keyset.fromTinkBinary(written).keys(), ks.keys());
    assert.equal(Keyset.fromTinkBinary(written).verify(hex(v.message), hex(v.tag)), true);
  });
});

const PARSE_CASES = "tink/tink_keyset_json_parse_cases.json";

describe("tink_keyset_json_parse_cases.json", { skip: skipUnless(PARSE_CASES) }, () => {
  interface ParseCase {
    name: string;
    json: string;
    java: string;
    uint32?: number;
  }
  it("keyed accepts what Tink Java accepts (ids as uint32) and refuses the rest with KEY_FORMAT", () => {
    const cases = read<{ cases: ParseCase[] }>(PARSE_CASES).cases;
    assert.equal(cases.length, 12);
    for (const c of cases) {
      if (c.java.startsWith("accept")) {
        const ks = Keyset.fromTinkJson(c.json);
        assert.equal(ks.primaryId, c.uint32, c.name);
        assert.equal(ks.keys()[0].id, c.uint32, c.name);
        // The key works, and is written back unsigned.
        assert.equal(ks.verify(ascii("m"), ks.tag(ascii("m"))), true);
        assert.match(ks.toTinkJson(), new RegExp(`"keyId": ${c.uint32}\\b`));
      } else {
        throwsKeyed(() => Keyset.fromTinkJson(c.json), "KEY_FORMAT");
      }
    }
  });
});

describe("what Tink refuses, keyed refuses (each with a code)", () => {
  const key = Uint8Array.from({ length: 32 }, (_, i) => i * 3);
  const good = hmacKeyValue("SHA256", 16, key);
  const one = (overrides: Partial<JsonKeyOptions> = {}, primary = 5) =>
    jsonKeyset(primary, jsonKey({ value: good, id: 5, ...overrides }));

  it("a good keyset loads (the baseline of the cases below)", () => {
    assert.equal(Keyset.fromTinkJson(one()).primaryId, 5);
  });

  it("malformed JSON: truncated, garbled, comments, repeated members, lone surrogates, deep nesting", () => {
    const text = one();
    for (const cut of [0, 1, 10, text.length / 2, text.length - 1]) {
      throwsKeyed(() => Keyset.fromTinkJson(text.slice(0, cut)), "KEY_FORMAT", /not valid JSON/);
    }
    throwsKeyed(() => Keyset.fromTinkJson(text.replace("{", "{{")), "KEY_FORMAT");
    throwsKeyed(() => Keyset.fromTinkJson(`${text},`), "KEY_FORMAT", /after the end/);
    throwsKeyed(
      () => Keyset.fromTinkJson(text.replace('"status"', '/* x */ "status"')),
      "KEY_FORMAT",
      /comments/,
    );
    throwsKeyed(
      () => Keyset.fromTinkJson(text.replace('"keyId":5', '"keyId":5,"keyId":6')),
      "KEY_FORMAT",
      /twice/,
    );
    throwsKeyed(
      () => Keyset.fromTinkJson(text.replace("HmacKey", "HmacKey\\udc00")),
      "KEY_FORMAT",
      /surrogate/,
    );
    throwsKeyed(
      () => Keyset.fromTinkJson(`${"[".repeat(10000)}${"]".repeat(10000)}`),
      "KEY_FORMAT",
      /nesting/,
    );
    throwsKeyed(() => Keyset.fromTinkJson("[]"), "KEY_FORMAT");
    throwsKeyed(
      () => Keyset.fromTinkJson('{"primaryKeyId": 1, "key": []}'),
      "KEY_FORMAT",
      /non-empty/,
    );
    throwsKeyed(() => Keyset.fromTinkJson(" ".repeat((1 << 20) + 1)), "KEY_FORMAT", /1 MiB/);
    // The messages never quote the key material.
    try {
      Keyset.fromTinkJson(text.replace("EgQI", "Eg!I"));
      assert.fail("no error");
    } catch (error) {
      assert.equal(String(error).includes(bytesToBase64(good).slice(8, 30)), false);
    }
  });

  it("missing and mistyped members", () => {
    const parsed = JSON.parse(one());
    for (const member of ["keyData", "status", "keyId", "outputPrefixType"]) {
      const copy = structuredClone(parsed);
      delete copy.key[0][member];
      throwsKeyed(
        () => Keyset.fromTinkJson(JSON.stringify(copy)),
        "KEY_FORMAT",
        new RegExp(member),
      );
    }
    for (const member of ["typeUrl", "value", "keyMaterialType"]) {
      const copy = structuredClone(parsed);
      delete copy.key[0].keyData[member];
      throwsKeyed(
        () => Keyset.fromTinkJson(JSON.stringify(copy)),
        "KEY_FORMAT",
        new RegExp(member),
      );
    }
    throwsKeyed(
      () => Keyset.fromTinkJson(one().replace('"keyId":5', '"keyId":"5"')),
      "KEY_FORMAT",
      /number/,
    );
    throwsKeyed(
      () => Keyset.fromTinkJson(one().replace('"keyId":5', '"keyId":5.0')),
      "KEY_FORMAT",
      /whole number/,
    );
    throwsKeyed(() => Keyset.fromTinkJson(one().replace('"keyId":5', '"keyId":5e0')), "KEY_FORMAT");
    throwsKeyed(
      () => Keyset.fromTinkJson(one().replace('"status":"ENABLED"', '"status":1')),
      "KEY_FORMAT",
      /string/,
    );
    throwsKeyed(
      () => Keyset.fromTinkJson(one().replace('"keyId":5', '"keyId":5,"extra":1')),
      "KEY_FORMAT",
      /unknown member/,
    );
  });

  it("unknown enum values and wrong type URLs", () => {
    throwsKeyed(() => Keyset.fromTinkJson(one({ status: "ENABLED_" })), "KEY_FORMAT", /status/);
    throwsKeyed(() => Keyset.fromTinkJson(one({ status: "UNKNOWN_STATUS" })), "KEY_FORMAT");
    throwsKeyed(() => Keyset.fromTinkJson(one({ prefix: "UNKNOWN_PREFIX" })), "KEY_FORMAT");
    throwsKeyed(
      () => Keyset.fromTinkJson(one({ prefix: "tink" })),
      "KEY_FORMAT",
      /outputPrefixType/,
    );
    throwsKeyed(
      () => Keyset.fromTinkJson(one({ prefix: "WITH_ID_REQUIREMENT" })),
      "KEY_UNSUPPORTED",
    );
    throwsKeyed(
      () => Keyset.fromTinkJson(one().replace('"SYMMETRIC"', '"ASYMMETRIC_PRIVATE"')),
      "KEY_UNSUPPORTED",
    );
    throwsKeyed(
      () => Keyset.fromTinkJson(one().replace('"SYMMETRIC"', '"SYMETRIC"')),
      "KEY_FORMAT",
    );
    throwsKeyed(
      () =>
        Keyset.fromTinkJson(one({ typeUrl: "type.googleapis.com/google.crypto.tink.AesGcmKey" })),
      "KEY_UNSUPPORTED",
      /type URL/,
    );
    throwsKeyed(() => Keyset.fromTinkJson(one({ typeUrl: `${HMAC_URL}x` })), "KEY_UNSUPPORTED");
    throwsKeyed(() => Keyset.fromTinkJson(one({ typeUrl: CMAC_URL })), "KEY_FORMAT"); // HMAC bytes
    // Unknown hash values in the HmacKey.
    throwsKeyed(
      () =>
        Keyset.fromTinkJson(
          one({ value: bytes(lfield(2, bytes(vfield(1, 0), vfield(2, 16))), lfield(3, key)) }),
        ),
      "KEY_FORMAT",
      /hash 0/,
    );
    throwsKeyed(
      () =>
        Keyset.fromTinkJson(
          one({ value: bytes(lfield(2, bytes(vfield(1, 9), vfield(2, 16))), lfield(3, key)) }),
        ),
      "KEY_FORMAT",
      /hash 9/,
    );
  });

  it("the HmacKey and AesCmacKey rules of Tink (version, params, key and tag sizes)", () => {
    const withValue =
      (value: Uint8Array, typeUrl = HMAC_URL) =>
      () =>
        Keyset.fromTinkJson(one({ value, typeUrl }));
    throwsKeyed(withValue(bytes(vfield(1, 1), Array.from(good))), "KEY_UNSUPPORTED", /version 1/);
    throwsKeyed(withValue(bytes(lfield(3, key))), "KEY_FORMAT", /no params/);
    throwsKeyed(withValue(hmacKeyValue("SHA256", 9, key)), "TAG_LENGTH");
    throwsKeyed(withValue(hmacKeyValue("SHA256", 33, key)), "TAG_LENGTH");
    throwsKeyed(withValue(hmacKeyValue("SHA1", 21, key)), "TAG_LENGTH");
    throwsKeyed(withValue(hmacKeyValue("SHA256", 16, key.subarray(0, 15))), "KEY_TOO_SHORT");
    assert.equal(
      Keyset.fromTinkJson(one({ value: hmacKeyValue("SHA512", 64, key) })).tagLength,
      69,
    );
    throwsKeyed(
      withValue(cmacKeyValue(16, key.subarray(0, 16)), CMAC_URL),
      "KEY_UNSUPPORTED",
      /32-byte/,
    );
    throwsKeyed(withValue(cmacKeyValue(16, key.subarray(0, 24)), CMAC_URL), "KEY_UNSUPPORTED");
    throwsKeyed(withValue(cmacKeyValue(9, key), CMAC_URL), "TAG_LENGTH");
    throwsKeyed(withValue(cmacKeyValue(17, key), CMAC_URL), "TAG_LENGTH");
    throwsKeyed(withValue(bytes(lfield(2, key)), CMAC_URL), "TAG_LENGTH"); // no params: tag size 0
    assert.equal(
      Keyset.fromTinkJson(one({ value: cmacKeyValue(10, key), typeUrl: CMAC_URL })).tagLength,
      15,
    );
  });

  it("duplicate ids, no primary, a disabled or destroyed primary, huge key lists", () => {
    const a = jsonKey({ value: good, id: 5 });
    const b = jsonKey({ value: good, id: 6 });
    throwsKeyed(() => Keyset.fromTinkJson(jsonKeyset(5, a, a)), "KEY_FORMAT", /twice/);
    throwsKeyed(() => Keyset.fromTinkJson(jsonKeyset(7, a, b)), "KEYSET_PRIMARY", /does not hold/);
    throwsKeyed(
      () => Keyset.fromTinkJson(JSON.stringify({ key: [a, b] })),
      "KEYSET_PRIMARY",
      /names no primary/,
    );
    throwsKeyed(
      () =>
        Keyset.fromTinkJson(jsonKeyset(5, jsonKey({ value: good, id: 5, status: "DISABLED" }), b)),
      "KEYSET_PRIMARY",
      /disabled/,
    );
    throwsKeyed(
      () =>
        Keyset.fromTinkJson(
          jsonKeyset(5, { status: "DESTROYED", keyId: 5, outputPrefixType: "TINK" }, b),
        ),
      "KEYSET_PRIMARY",
      /destroyed/,
    );
    const many = Array.from({ length: MAX_KEYS + 1 }, (_, i) =>
      jsonKey({ value: good, id: i + 1 }),
    );
    throwsKeyed(() => Keyset.fromTinkJson(jsonKeyset(1, ...many)), "KEY_FORMAT", /at most 1024/);
    // A list of 100,000 bare ids is refused before any key is read.
    const ids = Array.from({ length: 100_000 }, (_, i) => ({ keyId: i }));
    const started = performance.now();
    throwsKeyed(
      () => Keyset.fromTinkJson(JSON.stringify({ primaryKeyId: 1, key: ids })),
      "KEY_FORMAT",
    );
    assert.ok(performance.now() - started < 2000);
    // MAX_KEYS keys are fine.
    const full = Array.from({ length: MAX_KEYS }, (_, i) => jsonKey({ value: good, id: i + 1 }));
    assert.equal(Keyset.fromTinkJson(jsonKeyset(1, ...full)).keys().length, MAX_KEYS);
    // Ids 0 and 2^32 - 1 are ids like the others.
    assert.equal(Keyset.fromTinkJson(jsonKeyset(0, jsonKey({ value: good, id: 0 }))).primaryId, 0);
  });

  it("binary: truncation, bad varints, wrong wire types, groups; unknown fields skipped, repeats merged", () => {
    const keyData = bytes(lfield(1, ascii(HMAC_URL)), lfield(2, good), vfield(3, 1));
    const keyMessage = bytes(lfield(1, keyData), vfield(2, 1), vfield(3, 5), vfield(4, 1));
    const keyset = bytes(vfield(1, 5), lfield(2, keyMessage));
    const ks = Keyset.fromTinkBinary(keyset);
    assert.equal(ks.primaryId, 5);
    const m = ascii("m");
    const expected = tinkTag("hmac-sha256", key, m, 16, "TINK", 5);
    assert.equal(toHex(ks.tag(m)), expected);
    for (let cut = 1; cut < keyset.length; cut++) {
      assert.throws(
        () => Keyset.fromTinkBinary(keyset.subarray(0, cut)),
        (e: { code?: string }) =>
          [
            "KEY_FORMAT",
            "KEYSET_PRIMARY",
            "KEY_TOO_SHORT",
            "TAG_LENGTH",
            "KEY_UNSUPPORTED",
          ].includes(e.code ?? ""),
      );
    }
    throwsKeyed(() => Keyset.fromTinkBinary(new Uint8Array(0)), "KEY_FORMAT", /no keys/);
    throwsKeyed(
      () => Keyset.fromTinkBinary(bytes([0x08], Array(11).fill(0xff), [0x01])),
      "KEY_FORMAT",
      /varint/,
    );
    throwsKeyed(
      () =>
        Keyset.fromTinkBinary(bytes([0x08, 0xff, 0xff, 0xff, 0xff, 0x1f], lfield(2, keyMessage))),
      "KEY_FORMAT",
      /2\^32/,
    );
    throwsKeyed(
      () => Keyset.fromTinkBinary(bytes(vfield(1, 5), vfield(2, 7))),
      "KEY_FORMAT",
      /wire type/,
    );
    throwsKeyed(() => Keyset.fromTinkBinary(bytes([0x0b, 0x0c])), "KEY_FORMAT", /wire type 3/);
    throwsKeyed(() => Keyset.fromTinkBinary(bytes([0x00, 0x01])), "KEY_FORMAT", /field number 0/);
    throwsKeyed(
      () =>
        Keyset.fromTinkBinary(
          bytes(
            vfield(1, 5),
            lfield(2, bytes(lfield(1, keyData), vfield(2, 1), vfield(3, 5), vfield(4, 9))),
          ),
        ),
      "KEY_FORMAT",
      /output_prefix_type 9/,
    );
    throwsKeyed(
      () =>
        Keyset.fromTinkBinary(
          bytes(
            vfield(1, 5),
            lfield(2, bytes(lfield(1, keyData), vfield(2, 0), vfield(3, 5), vfield(4, 1))),
          ),
        ),
      "KEY_FORMAT",
      /status 0/,
    );
    // Unknown fields anywhere are skipped (proto3), fixed-size ones included.
    const noisy = bytes(
      [0x29, 1, 2, 3, 4, 5, 6, 7, 8], // field 5, fixed64
      vfield(1, 5),
      lfield(
        2,
        bytes(lfield(1, keyData), vfield(2, 1), vfield(3, 5), vfield(4, 1), lfield(9, [1, 2])),
      ),
      [0x7d, 1, 2, 3, 4], // field 15, fixed32
    );
    assert.equal(toHex(Keyset.fromTinkBinary(noisy).tag(m)), expected);
    // tink-cross-lang-tests' proto stress test: an unknown field 5 before, an unknown field 4 after
    // two concatenated HmacKey messages; the second one wins.
    const otherKey = key.map((x) => x ^ 0xff);
    const stressed = bytes(
      vfield(5, 99),
      Array.from(hmacKeyValue("SHA1", 20, key)),
      Array.from(hmacKeyValue("SHA256", 16, otherKey)),
      lfield(4, [7]),
    );
    const stressedKeyset = Keyset.fromTinkJson(one({ value: stressed }));
    assert.equal(stressedKeyset.get(5)?.algorithm, "hmac-sha256");
    assert.equal(toHex(stressedKeyset.tag(m)), tinkTag("hmac-sha256", otherKey, m, 16, "TINK", 5));
    // Both field orders of HmacKey and HmacParams.
    const reordered = bytes(lfield(3, key), lfield(2, bytes(vfield(2, 16), vfield(1, 3))));
    assert.equal(toHex(Keyset.fromTinkJson(one({ value: reordered })).tag(m)), expected);
  });

  it("writing: keys Tink has no type for are refused; destroyed keys are written without key data", () => {
    const ks = Keyset.generate("blake3");
    throwsKeyed(() => ks.toTinkJson(), "KEY_UNSUPPORTED", /toKeyedJson/);
    throwsKeyed(() => ks.toTinkBinary(), "KEY_UNSUPPORTED");
    throwsKeyed(() => Keyset.generate("cmac-aes128").toTinkJson(), "KEY_UNSUPPORTED");
    throwsKeyed(() => Keyset.generate("hmac-sha3-256").toTinkJson(), "KEY_UNSUPPORTED");
    const hmacs = Keyset.generate("hmac-sha256");
    const b = hmacs.add("hmac-sha256", { prefix: "legacy" });
    const c = hmacs.add("cmac-aes256", { prefix: "raw", tagLength: 12 });
    const d = hmacs.add("hmac-sha1", { prefix: "crunchy", tagLength: 10 });
    hmacs.destroy(b);
    hmacs.disable(c);
    for (const again of [
      Keyset.fromTinkJson(hmacs.toTinkJson()),
      Keyset.fromTinkBinary(hmacs.toTinkBinary()),
    ]) {
      assert.deepEqual(
        again.keys().map((k) => [k.id, k.status, k.prefix]),
        hmacs.keys().map((k) => [k.id, k.status, k.prefix]),
      );
      const m = ascii("rotation");
      again.enable(c);
      again.setPrimary(c);
      hmacs.enable(c);
      hmacs.setPrimary(c);
      assert.equal(toHex(again.tag(m)), toHex(hmacs.tag(m)));
      again.setPrimary(d);
      hmacs.setPrimary(d);
      assert.equal(toHex(again.tag(m)), toHex(hmacs.tag(m)));
      hmacs.disable(c);
    }
  });
});
