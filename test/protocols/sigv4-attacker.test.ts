/**
 * verifyRequest against an attacker, as properties:
 * (a) whatever an attacker puts in a field that comes off the wire (Host, path, query, header
 *     names and values, pseudo-headers, method, body, Authorization, the X-Amz-* parameters of a
 *     presigned URL), the answer is { ok: false, reason, message }, never an exception;
 * (b) any change to a signed part of a validly signed request is refused, and validly signed
 *     requests are accepted;
 * (c) time grows at most linearly with an attacker-controlled field's length: one 10 MB field takes
 *     less than 25 times one 1 MB field (assertLinearTime in test/helpers.ts).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  presignUrl,
  type SigV4Request,
  type SigV4Verification,
  type SigV4VerifyOptions,
  signRequest,
  verifyRequest,
} from "../../src/protocols/sigv4.js";
import { assertLinearTime } from "../helpers.js";

const ACCESS_KEY_ID = "AKIDEXAMPLE";
const SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
const DATE = new Date(Date.UTC(2015, 7, 30, 12, 36, 0));
const HOST = "api.example.com";

const signOptions = (service: string, secret = SECRET) => ({
  accessKeyId: ACCESS_KEY_ID,
  secretAccessKey: secret,
  region: "us-east-1",
  service,
  date: DATE,
});
/** A lookup, so that the access key id (which SigV4 does not sign) selects the secret. */
const verifyOptions = (service: string): SigV4VerifyOptions => ({
  secretAccessKey: (id) => (id === ACCESS_KEY_ID ? SECRET : undefined),
  region: "us-east-1",
  service,
  now: DATE,
});

/** Runs verifyRequest; an exception fails the property with what was sent. */
function verify(request: SigV4Request, options: SigV4VerifyOptions): SigV4Verification {
  let verdict: SigV4Verification;
  try {
    verdict = verifyRequest(request, options);
  } catch (error) {
    assert.fail(`verifyRequest threw ${String(error)} for ${JSON.stringify(request)}`);
  }
  if (!verdict.ok) {
    assert.equal(typeof verdict.reason, "string");
    assert.ok(verdict.reason.length > 0);
    assert.equal(typeof verdict.message, "string");
  }
  return verdict;
}

function refused(request: SigV4Request, options: SigV4VerifyOptions, what: string): void {
  // The message is built only on failure: (c) times this with 10 MB requests.
  if (verify(request, options).ok) assert.fail(`${what}: accepted ${JSON.stringify(request)}`);
}

// --- arbitraries ------------------------------------------------------------------------------------

/** Any UTF-16 code unit, lone surrogates and controls included. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
/** Text an attacker might send: anything, plus the characters the parsers split on. */
const anyText = fc.oneof(
  fc.string({ unit: "binary", maxLength: 24 }),
  fc.string({ unit: codeUnit, maxLength: 12 }),
  fc.string({
    unit: fc.constantFrom(..."%@:[]/?#&=;,. \t\r\n\u0000\u00e9\ud800aZ09-_~+".split("")),
    maxLength: 24,
  }),
  fc.constantFrom(
    "",
    "a@api.example.com",
    "api.example.com:99999",
    "[zz]",
    "[::1]:443",
    "%",
    "%zz",
    "%ff%fe",
    "UNSIGNED-PAYLOAD",
    "AWS4-HMAC-SHA256",
    "AWS4-HMAC-SHA256 Credential=,SignedHeaders=,Signature=",
    "20150830T123600Z",
    "99999999T999999Z",
    "host",
    ";;",
  ),
);
const anyBody = fc.oneof(fc.uint8Array({ maxLength: 64 }), anyText);

interface Base {
  service: string;
  method: string;
  target: string;
  headers: Record<string, string>;
  body: string;
}

/** A request signed with the Authorization header, as a node:http server would receive it. */
function signedBase(service: string, secret = SECRET): Base {
  const target = "/dir/object.txt?list-type=2&prefix=a%20b";
  const request = {
    method: "PUT",
    url: `https://${HOST}${target}`,
    headers: { "content-type": "text/plain", "x-amz-meta-owner": "alice" },
    body: "hello",
  };
  const signed = signRequest(request, {
    ...signOptions(service, secret),
    contentSha256Header: true,
  });
  return { service, method: "PUT", target, headers: signed.headers, body: "hello" };
}

const toRequest = (b: Base, host = HOST): SigV4Request => ({
  method: b.method,
  url: `https://${host}${b.target}`,
  headers: b.headers,
  body: b.body,
});

type Mutation = (b: Base) => SigV4Request;

/** One attacker field replaced by arbitrary content. */
const attackerField: fc.Arbitrary<[string, Mutation]> = fc.oneof(
  anyText.map((x): [string, Mutation] => [
    "host",
    (b) => toRequest({ ...b, headers: { ...b.headers, host: x } }, x),
  ]),
  anyText.map((x): [string, Mutation] => ["path", (b) => toRequest({ ...b, target: x })]),
  anyText.map((x): [string, Mutation] => ["query", (b) => toRequest({ ...b, target: `/o?${x}` })]),
  anyText.map((x): [string, Mutation] => ["method", (b) => toRequest({ ...b, method: x })]),
  anyBody.map((x): [string, Mutation] => ["body", (b) => ({ ...toRequest(b), body: x })]),
  fc
    .tuple(
      fc.constantFrom(
        "content-type",
        "x-amz-date",
        "x-amz-content-sha256",
        "authorization",
        "host",
        "x-amz-meta-owner",
        "x-other",
      ),
      anyText,
    )
    .map(([name, x]): [string, Mutation] => [
      `header ${name} value`,
      (b) => toRequest({ ...b, headers: { ...b.headers, [name]: x } }),
    ]),
  fc
    .tuple(
      fc.constantFrom("content-type", "x-amz-date", "authorization", "host"),
      fc.array(anyText, { maxLength: 3 }),
    )
    .map(([name, xs]): [string, Mutation] => [
      `header ${name} values`,
      (b) => ({ ...toRequest(b), headers: { ...b.headers, [name]: xs } }),
    ]),
  fc
    .tuple(anyText, anyText)
    .map(([name, value]): [string, Mutation] => [
      "header name",
      (b) => toRequest({ ...b, headers: { ...b.headers, [name]: value } }),
    ]),
  fc
    .tuple(anyText, anyText)
    .map(([name, value]): [string, Mutation] => [
      "header pair",
      (b) => ({ ...toRequest(b), headers: [...Object.entries(b.headers), [name, value]] }),
    ]),
  fc
    .tuple(
      fc.constantFrom(":authority", ":method", ":path", ":scheme", ":protocol", ":status", ":"),
      anyText,
    )
    .map(([name, x]): [string, Mutation] => [
      `pseudo-header ${name}`,
      (b) => ({ ...toRequest(b), headers: new Map([...Object.entries(b.headers), [name, x]]) }),
    ]),
  fc
    .tuple(fc.constantFrom("Credential", "SignedHeaders", "Signature"), anyText)
    .map(([field, x]): [string, Mutation] => [
      `Authorization ${field}`,
      (b) => {
        const authorization = b.headers.authorization.replace(
          new RegExp(`${field}=[^,]*`),
          () => `${field}=${x}`,
        );
        return toRequest({ ...b, headers: { ...b.headers, authorization } });
      },
    ]),
);

// --- (a) --------------------------------------------------------------------------------------------

describe("SigV4 attacker (a): any content in a wire field is a refusal, never a throw", () => {
  it("a request signed under another secret, one field replaced: refused", () => {
    fc.assert(
      fc.property(fc.constantFrom("s3", "service"), attackerField, (service, [what, mutate]) => {
        refused(mutate(signedBase(service, "not the secret")), verifyOptions(service), what);
      }),
      { numRuns: 600 },
    );
  });

  it("a validly signed request, one field replaced: never a throw", () => {
    fc.assert(
      fc.property(fc.constantFrom("s3", "service"), attackerField, (service, [, mutate]) => {
        verify(mutate(signedBase(service)), verifyOptions(service));
      }),
      { numRuns: 600 },
    );
  });

  it("a presigned URL with an X-Amz-* parameter replaced (raw or encoded): refused", () => {
    const names = [
      "X-Amz-Algorithm",
      "X-Amz-Credential",
      "X-Amz-Date",
      "X-Amz-Expires",
      "X-Amz-SignedHeaders",
      "X-Amz-Security-Token",
      "X-Amz-Signature",
    ];
    fc.assert(
      fc.property(
        fc.constantFrom("s3", "service"),
        fc.constantFrom(...names),
        anyText,
        fc.boolean(),
        fc.boolean(),
        (service, name, x, encode, wrongSecret) => {
          const { url } = presignUrl(
            { method: "GET", url: `https://${HOST}/o?a=1` },
            { ...signOptions(service, wrongSecret ? "not the secret" : SECRET), expiresIn: 60 },
          );
          const value = encode ? encodeURIComponent(x.replace(/[\ud800-\udfff]/g, "?")) : x;
          const [head, query] = url.split("?");
          const params = query.split("&").filter((p) => !p.startsWith(`${name}=`));
          const tampered = `${head}?${[...params, `${name}=${value}`].join("&")}`;
          const verdict = verify({ method: "GET", url: tampered }, verifyOptions(service));
          if (wrongSecret) assert.equal(verdict.ok, false, tampered);
        },
      ),
      { numRuns: 400 },
    );
  });
});

// --- (b) --------------------------------------------------------------------------------------------

/**
 * Replaces one letter or digit of `text` (the `at`-th, modulo their number) with another letter,
 * or appends one when there is none: a change no canonical form can undo.
 */
function changeOneCharacter(text: string, at: number): string {
  const positions: number[] = [];
  for (let i = 0; i < text.length; i++) if (/[A-Za-z0-9]/.test(text[i])) positions.push(i);
  if (positions.length === 0) return `${text}q`;
  const i = positions[at % positions.length];
  const replacement = text[i] === "q" ? "r" : "q";
  return `${text.slice(0, i)}${replacement}${text.slice(i + 1)}`;
}

describe("SigV4 attacker (b): a changed signed request is refused; a signed one is accepted", () => {
  const segment = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._~%$ é-]{0,7}$/);
  const queryText = fc.stringMatching(/^[A-Za-z0-9._~ +é-]{1,6}$/);
  const requestArb = fc.record({
    service: fc.constantFrom("service", "s3", "execute-api"),
    method: fc.constantFrom("GET", "PUT", "POST", "DELETE"),
    path: fc.array(segment, { minLength: 1, maxLength: 4 }),
    query: fc.array(fc.tuple(queryText, queryText), { maxLength: 4 }),
    headers: fc.dictionary(
      fc.stringMatching(/^x-(amz-meta-)?[a-z0-9]{1,8}$/),
      fc.stringMatching(/^[A-Za-z0-9][ -~]{0,15}$/),
      { maxKeys: 4 },
    ),
    body: fc.uint8Array({ maxLength: 64 }),
    signBody: fc.boolean(),
  });
  type Case = typeof requestArb extends fc.Arbitrary<infer T> ? T : never;

  function signCase(r: Case) {
    const query = r.query.map(([n, v]) => `${n}=${v}`).join("&");
    const request = {
      method: r.method,
      url: `https://${HOST}/${r.path.join("/")}${query ? `?${query}` : ""}`,
      headers: r.headers,
      body: r.body,
    };
    const signed = signRequest(request, { ...signOptions(r.service), signBody: r.signBody });
    const options = { ...verifyOptions(r.service), allowUnsignedPayload: true };
    return { request: { ...request, headers: signed.headers }, signed, options };
  }

  it("accepted as signed, with bodyAuthenticated as signed", () => {
    fc.assert(
      fc.property(requestArb, (r) => {
        const { request, options } = signCase(r);
        const verdict = verify(request, options);
        assert.equal(verdict.ok, true, JSON.stringify(verdict));
        if (verdict.ok) assert.equal(verdict.bodyAuthenticated, r.signBody);
      }),
      { numRuns: 200 },
    );
  });

  it("one character of any signed part changed: refused", () => {
    fc.assert(
      fc.property(requestArb, fc.nat(), fc.nat(), (r, pick, at) => {
        const { request, signed, options } = signCase(r);
        // The path and query as written (a URL object would re-encode them).
        const [before, search = ""] = request.url.split("?");
        const path = before.slice(`https://${HOST}`.length);
        const signedNames = signed.signedHeaders.split(";");
        const parts: [string, () => SigV4Request][] = [
          ["method", () => ({ ...request, method: r.method === "GET" ? "HEAD" : "GET" })],
          [
            "path",
            () => ({
              ...request,
              url: `https://${HOST}${changeOneCharacter(path, at)}${search ? `?${search}` : ""}`,
            }),
          ],
          [
            "host",
            () => ({
              ...request,
              url: request.url.replace(HOST, "api.examplf.com"),
              headers: { ...request.headers, host: "api.examplf.com" },
            }),
          ],
          [
            "authorization",
            () => ({
              ...request,
              headers: {
                ...request.headers,
                authorization: changeOneCharacter(signed.authorization, at),
              },
            }),
          ],
          ...signedNames.map((name): [string, () => SigV4Request] => [
            `header ${name}`,
            () => ({
              ...request,
              headers: {
                ...request.headers,
                [name]: changeOneCharacter(request.headers[name], at),
              },
            }),
          ]),
        ];
        if (search) {
          parts.push([
            "query",
            () => ({
              ...request,
              url: `${before}?${changeOneCharacter(search, at)}`,
            }),
          ]);
        }
        if (r.signBody) {
          const body =
            r.body.length === 0
              ? Uint8Array.of(0)
              : r.body.map((b, i) => (i === at % r.body.length ? b ^ 1 : b));
          parts.push(["body", () => ({ ...request, body })]);
        }
        const [what, make] = parts[pick % parts.length];
        refused(make(), options, what);
      }),
      { numRuns: 400 },
    );
  });

  it("an unsigned x-amz-* header added, or a signed header dropped: refused", () => {
    fc.assert(
      fc.property(
        requestArb,
        fc.nat(),
        fc.stringMatching(/^[a-z0-9-]{1,12}$/),
        (r, pick, suffix) => {
          const { request, signed, options } = signCase(r);
          const added = { ...request.headers, [`X-Amz-${suffix}`]: "1" };
          if (!(`x-amz-${suffix}` in request.headers))
            refused({ ...request, headers: added }, options, "added");
          // Host is left out: dropped, it is taken from the URL, which carries the same host.
          const droppable = [
            ...signed.signedHeaders.split(";").filter((n) => n !== "host"),
            "authorization",
          ];
          const name = droppable[pick % droppable.length];
          const { [name]: _dropped, ...rest } = request.headers;
          refused({ ...request, headers: rest }, options, `dropped ${name}`);
        },
      ),
      { numRuns: 300 },
    );
  });
});

// --- (c) --------------------------------------------------------------------------------------------

describe("SigV4 attacker (c): time grows at most linearly with a field's length", () => {
  const base = signedBase("service", "not the secret");
  const options = verifyOptions("service");
  const MB = 1 << 20;
  /** `size` characters of query: parameters of 32 characters, out of order (so the sort works). */
  const longQuery = (size: number) => {
    const parameters: string[] = [];
    for (let i = 0; i < size / 32; i++)
      parameters.push(`p${String((i * 7919) % 1e7).padStart(7, "0")}=${"v".repeat(22)}&`);
    return parameters.join("");
  };
  /** A field of `size` characters, as an attacker would shape it to hurt. */
  const fields: [string, (size: number) => SigV4Request][] = [
    [
      "a query of many parameters",
      (size) => toRequest({ ...base, target: `/o?${longQuery(size)}` }),
    ],
    [
      "a path of many dot segments",
      (size) => toRequest({ ...base, target: `${"/a/..".repeat(size / 5)}/o` }),
    ],
    [
      "a header value of spaces and tabs",
      (size) =>
        toRequest({
          ...base,
          headers: { ...base.headers, "content-type": ` \t${"a \t ".repeat(size / 4)}` },
        }),
    ],
    [
      "an Authorization header of many commas",
      (size) =>
        toRequest({
          ...base,
          headers: {
            ...base.headers,
            authorization: `AWS4-HMAC-SHA256 ${"a=b,".repeat(size / 4)}`,
          },
        }),
    ],
    [
      "a long host",
      (size) =>
        toRequest(
          { ...base, headers: { ...base.headers, host: "a".repeat(size) } },
          "a".repeat(size),
        ),
    ],
  ];
  for (const [what, make] of fields) {
    it(what, (t) => {
      const small = make(MB);
      const large = make(10 * MB);
      assertLinearTime(
        what,
        () => refused(small, options, what),
        () => refused(large, options, what),
        { diagnostic: (m) => t.diagnostic(m) },
      );
    });
  }
});
