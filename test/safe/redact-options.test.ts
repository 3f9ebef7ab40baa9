/**
 * The safe layer and the packet protocols: every options object goes through the one option
 * checker (unknown names are BAD_INPUT with a "did you mean"), and every object holding key
 * material prints and serializes redacted.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { inspect } from "node:util";
import { mac } from "../../src/index.js";
import { IpsecIntegrity, ipsecPrf } from "../../src/protocols/ipsec.js";
import { SrtcpAuth, SrtpAuth, srtpKdf, srtpSessionKeys } from "../../src/protocols/srtp.js";
import { SshMac, SshMacSequence } from "../../src/protocols/ssh.js";
import { TcpAoMac, tcpAoTrafficKey, tcpAoTrafficKeys } from "../../src/protocols/tcp-ao.js";
import { open, seal } from "../../src/safe/envelope.js";
import { deriveKeys } from "../../src/safe/keys.js";
import { ReplayWindow } from "../../src/safe/replay.js";
import { Verifier } from "../../src/safe/verifier.js";
import { throwsKeyed } from "../helpers.js";

/** Key bytes that stand out in any printout: 0xa5 is 165. */
const key = (n: number) => new Uint8Array(n).fill(0xa5);
const data = new Uint8Array(40).fill(7);
const context = {
  source: Uint8Array.of(10, 0, 0, 1),
  destination: Uint8Array.of(10, 0, 0, 2),
  sourcePort: 1,
  destinationPort: 2,
  sourceIsn: 3,
  destinationIsn: 4,
};
const connection = {
  localAddress: context.source,
  remoteAddress: context.destination,
  localPort: 1,
  remotePort: 2,
  localIsn: 3,
  remoteIsn: 4,
};
const token = seal(key(32), data, { purpose: "p" });

/** Each function that takes options, called with `options` in that place. */
const TAKERS: [string, string, (options: unknown) => unknown][] = [
  [
    "IpsecIntegrity#icv",
    "esnHigh",
    (o) => new IpsecIntegrity("hmac-sha256-128", key(32)).icv(data, o as never),
  ],
  [
    "IpsecIntegrity#verify",
    "esnHigh",
    (o) => new IpsecIntegrity("hmac-sha256-128", key(32)).verify(data, key(16), o as never),
  ],
  ["ipsecPrf", "allowShortKeys", (o) => ipsecPrf("prf-hmac-sha256", key(32), data, o as never)],
  [
    "SshMacSequence",
    "sequenceNumber",
    (o) => new SshMacSequence("hmac-sha2-256", key(32), o as never),
  ],
  ["srtpKdf", "keyDerivationRate", (o) => srtpKdf(key(16), key(14), 0, 16, o as never)],
  ["srtpSessionKeys", "srtcpIndex", (o) => srtpSessionKeys(key(16), key(14), o as never)],
  ["SrtpAuth", "tagLength", (o) => new SrtpAuth(key(20), o as never)],
  ["SrtcpAuth", "tagLength", (o) => new SrtcpAuth(key(20), o as never)],
  [
    "tcpAoTrafficKey",
    "allowShortKeys",
    (o) => tcpAoTrafficKey("hmac-sha1-96", key(16), context, o as never),
  ],
  [
    "tcpAoTrafficKeys",
    "allowShortKeys",
    (o) => tcpAoTrafficKeys("hmac-sha1-96", key(16), connection, o as never),
  ],
  ["TcpAoMac", "excludeOptions", (o) => new TcpAoMac("hmac-sha1-96", key(20), o as never)],
  ["Verifier", "maxFailures", (o) => new Verifier(mac("hmac-sha256", key(32)), o as never)],
  ["ReplayWindow", "size", (o) => new ReplayWindow(o as never)],
  ["seal", "purpose", (o) => seal(key(32), data, o as never)],
  ["open", "purpose", (o) => open(key(32), token, o as never)],
  ["deriveKeys", "purpose", (o) => deriveKeys(key(32), o as never)],
];

describe("options objects go through the one option checker", () => {
  for (const [name, known, call] of TAKERS) {
    it(`${name}: a misspelt name is BAD_INPUT with a "did you mean"`, () => {
      const typo = `${known.slice(0, -2)}${known.at(-1)}${known.at(-2)}`;
      throwsKeyed(() => call({ [typo]: 1 }), "BAD_INPUT", new RegExp(`did you mean "${known}"`));
      throwsKeyed(() => call({ bogus: true }), "BAD_INPUT", /unknown option "bogus"/);
    });
    it(`${name}: options that are not an object are BAD_INPUT naming what was given`, () => {
      for (const [value, described] of [
        [5, "a number"],
        ["x", "a string"],
        [null, "null"],
        [[], "an array"],
        [Object.create(null), "(none)"],
      ] as const) {
        if (described === "(none)") {
          // An object without a prototype is still an object: it is read, never stringified.
          try {
            call(value);
          } catch (error) {
            assert.equal((error as { name?: string }).name, "KeyedError", String(error));
          }
          continue;
        }
        throwsKeyed(() => call(value), "BAD_INPUT", new RegExp(`must be an object.*${described}`));
      }
    });
  }
});

/** What each class prints as JSON: its public summary and the redaction marker. */
const HOLDERS: [string, () => object, Record<string, unknown>][] = [
  [
    "IpsecIntegrity",
    () => new IpsecIntegrity("hmac-sha384-192", key(48)),
    { algorithm: "hmac-sha384-192", icvLength: 24 },
  ],
  [
    "SshMac",
    () => new SshMac("hmac-sha2-512", key(64)),
    { algorithm: "hmac-sha2-512", macLength: 64 },
  ],
  [
    "SshMacSequence",
    () => new SshMacSequence("hmac-sha2-256", key(32), { sequenceNumber: 7 }),
    { algorithm: "hmac-sha2-256", macLength: 32, sequenceNumber: 7 },
  ],
  ["SrtpAuth", () => new SrtpAuth(key(20), { tagLength: 4 }), { tagLength: 4 }],
  ["SrtcpAuth", () => new SrtcpAuth(key(20)), { tagLength: 10 }],
  [
    "TcpAoMac",
    () => new TcpAoMac("hmac-sha256-128", key(32), { excludeOptions: true }),
    { algorithm: "hmac-sha256-128", macLength: 16, excludeOptions: true },
  ],
  [
    "TcpAoMac",
    () => new TcpAoMac("aes-128-cmac-96", key(16)),
    { algorithm: "aes-128-cmac-96", macLength: 12, excludeOptions: false },
  ],
  [
    "Verifier",
    () => new Verifier(mac("hmac-sha256", key(32)), { maxFailures: 3 }),
    {
      algorithm: "hmac-sha256",
      state: "ACTIVE",
      failures: 0,
      successes: 0,
      maxFailures: 3,
    },
  ],
];

describe("objects holding key material print and serialize redacted", () => {
  for (const [name, make, summary] of HOLDERS) {
    it(`${name} ${JSON.stringify(summary)}`, () => {
      const holder = make();
      assert.deepEqual(JSON.parse(JSON.stringify(holder)), { ...summary, key: "[redacted]" });
      for (const text of [
        inspect(holder, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
        inspect({ nested: [holder] }, { depth: Number.POSITIVE_INFINITY }),
      ]) {
        assert.match(text, new RegExp(`${name} \\{`));
        assert.match(text, /key: '\[redacted\]'/);
        // No byte array, hash state or kernel: nothing key-derived is shown.
        assert.doesNotMatch(text, /Uint8Array|Uint32Array|Int32Array|State|Kernel|Sink|165/);
      }
    });
  }
  it("the TCP-AO MAC kernels are redacted too (reached through a TcpAoMac's fields)", () => {
    for (const algorithm of ["hmac-sha1-96", "aes-128-cmac-96"] as const) {
      const k = new TcpAoMac(algorithm, key(algorithm === "hmac-sha1-96" ? 20 : 16));
      const kernel = (k as unknown as { kernel: object }).kernel;
      const text = inspect(kernel, { depth: Number.POSITIVE_INFINITY, showHidden: true });
      assert.match(text, /^(HmacKernel|CmacKernel) \{/);
      assert.match(text, /key: '\[redacted\]'/);
      // Past the class name: no array, no state, no inner kernel, no key byte.
      const body = text.slice(text.indexOf("{"));
      assert.doesNotMatch(body, /Uint8Array|Uint32Array|State|Kernel|165/);
      assert.equal(JSON.stringify(kernel).includes("165"), false);
    }
  });
});

describe("a bad argument is described, never stringified", () => {
  // String() of an object without a prototype throws a TypeError; messages use describeType.
  const bare = () => Object.create(null) as never;
  const CASES: [string, string, () => unknown][] = [
    ["SshMac algorithm", "UNKNOWN_ALGORITHM", () => new SshMac(bare(), key(32))],
    ["IpsecIntegrity algorithm", "UNKNOWN_ALGORITHM", () => new IpsecIntegrity(bare(), key(32))],
    ["TcpAoMac algorithm", "UNKNOWN_ALGORITHM", () => new TcpAoMac(bare(), key(20))],
    [
      "seal algorithm",
      "UNKNOWN_ALGORITHM",
      () => seal(key(32), data, { purpose: "p", algorithm: bare() }),
    ],
    [
      "deriveKeys method",
      "BAD_INPUT",
      () => deriveKeys(key(32), { purpose: "p", names: ["a"], method: bare() }),
    ],
    ["ReplayWindow size", "BAD_INPUT", () => new ReplayWindow({ size: bare() })],
    [
      "Verifier maxFailures",
      "BAD_INPUT",
      () => new Verifier(mac("hmac-sha256", key(32)), { maxFailures: bare() }),
    ],
    ["SrtpAuth tagLength", "TAG_LENGTH", () => new SrtpAuth(key(20), { tagLength: bare() })],
  ];
  for (const [what, code, call] of CASES) {
    it(what, () => throwsKeyed(call, code, /got an object/));
  }
});
