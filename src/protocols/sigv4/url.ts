/**
 * The request as it came: its URL parsed as it goes on the wire, its headers collected, checked
 * for what HTTP forbids (control characters, names that are not tokens).
 */
import { assertBytes, type Bytes } from "../../core/bytes.js";
import { describeType } from "../../core/options.js";
import { forEachHeader, type HeaderList } from "../http/headers.js";
import { badInput, hasControl, LONE_SURROGATE, quote, TOKEN, utf8 } from "./common.js";

/**
 * What is wrong with a request's content: its URL, method, header names or values, all of which
 * come off the wire. signRequest and presignUrl throw it as BAD_INPUT; verifyRequest answers it
 * with a refusal, since an attacker chose it. A wrong JavaScript type (a number for a header
 * value) is the caller's mistake, and throws everywhere.
 */
export class Malformed {
  constructor(readonly message: string) {}
}

export function orThrow<T>(value: T | Malformed): T {
  if (value instanceof Malformed) throw badInput(value.message);
  return value;
}

interface WireUrl {
  /** scheme://authority, as given. */
  origin: string;
  /** The Host header a client sends: lower case, default port left out. */
  host: string;
  /** The path as given; "/" when empty. */
  path: string;
  /** The query without "?", or undefined when the URL has none. */
  query: string | undefined;
  /** "#..." or "" (never sent, never signed). */
  fragment: string;
}

const URL_SHAPE = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(?:\?([^#]*))?(#.*)?$/s;
const AUTHORITY = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]@]+)(?::(\d*))?$/;
const DEFAULT_PORTS: Record<string, number> = { http: 80, https: 443 };

function parseUrl(url: unknown): WireUrl | Malformed {
  const text = url instanceof URL ? url.href : url;
  const accepted = "an absolute http: or https: URL (a string or a URL)";
  if (typeof text !== "string") {
    throw badInput(`request.url must be ${accepted}; got ${describeType(url)}.`);
  }
  if (hasControl(text) || LONE_SURROGATE.test(text)) {
    return new Malformed("request.url contains a control character or a lone surrogate.");
  }
  const shape = URL_SHAPE.exec(text);
  const scheme = shape?.[1].toLowerCase();
  if (!shape || (scheme !== "http" && scheme !== "https")) {
    return new Malformed(`request.url must be ${accepted}; got ${quote(text)}.`);
  }
  const authority = AUTHORITY.exec(shape[2]);
  if (!authority) {
    return new Malformed(
      `request.url must name a host (and optional port), without user:password@; got ${quote(shape[2])}.`,
    );
  }
  let host = authority[1].toLowerCase();
  if (authority[2]) {
    const port = Number(authority[2]);
    if (port > 65535) {
      return new Malformed(`request.url has port ${quote(authority[2])}; ports go up to 65535.`);
    }
    if (port !== DEFAULT_PORTS[scheme]) host += `:${port}`;
  }
  return {
    origin: `${shape[1]}://${shape[2]}`,
    host,
    path: shape[3] === "" ? "/" : shape[3],
    query: shape[4],
    fragment: shape[5] ?? "",
  };
}

/** Lower-case header name → its values, in the order given. */
export type HeaderMap = Map<string, string[]>;

/**
 * HTTP/2 request pseudo-headers (RFC 9113 8.3.1, RFC 8441 4) that node:http2 leaves in
 * req.headers. They are not header fields and are never signed; the method and URL come in their
 * own fields. :authority is read as Host.
 */
const PSEUDO_HEADERS = new Set([":method", ":scheme", ":path", ":protocol"]);
const AUTHORITY_PSEUDO_HEADER = ":authority";

function collectHeaders(headers: unknown): HeaderMap | Malformed {
  const map: HeaderMap = new Map();
  if (headers === undefined) return map;
  if (headers === null || typeof headers !== "object") {
    throw badInput(
      `request.headers must be an object of name → string (or string[]), or [name, value] pairs; got ${describeType(headers)}.`,
    );
  }
  let problem: Malformed | undefined;
  const add = (name: unknown, value: unknown, where: string) => {
    if (typeof name !== "string") {
      throw badInput(`${where} name must be a string; got ${describeType(name)}.`);
    }
    if (typeof value !== "string") {
      throw badInput(`${where} must be a string; got ${describeType(value)}.`);
    }
    if (problem) return;
    const key = name.toLowerCase();
    if (PSEUDO_HEADERS.has(key)) return;
    if (key !== AUTHORITY_PSEUDO_HEADER && !TOKEN.test(name)) {
      problem = new Malformed(`${where} name must be an HTTP header name (RFC 9110 token).`);
    } else if (hasControl(value) || LONE_SURROGATE.test(value)) {
      problem = new Malformed(
        `${where} contains a control character (CR, LF, NUL…) or a lone surrogate.`,
      );
    } else {
      const values = map.get(key);
      if (values) values.push(value);
      else map.set(key, [value]);
    }
  };
  forEachHeader(headers as HeaderList, add);
  return problem ?? authorityAsHost(map);
}

/**
 * :authority stands for Host when there is no Host; a Host that differs from it is malformed
 * (RFC 9113 8.3.1).
 */
function authorityAsHost(map: HeaderMap): HeaderMap | Malformed {
  const authority = map.get(AUTHORITY_PSEUDO_HEADER);
  if (authority === undefined) return map;
  map.delete(AUTHORITY_PSEUDO_HEADER);
  const host = map.get("host");
  if (authority.length !== 1) return new Malformed("request.headers has several :authority.");
  if (host === undefined) map.set("host", authority);
  else if (host.length !== 1 || host[0].toLowerCase() !== authority[0].toLowerCase()) {
    return new Malformed("request.headers has a Host that differs from :authority.");
  }
  return map;
}

interface PreparedRequest {
  method: string;
  url: WireUrl;
  headers: HeaderMap;
  body: Bytes;
}

export function prepareRequest(request: unknown): PreparedRequest | Malformed {
  if (request === null || typeof request !== "object") {
    throw badInput(
      `request must be an object { method, url, headers?, body? }; got ${describeType(request)}.`,
    );
  }
  const r = request as Record<string, unknown>;
  if (typeof r.method !== "string") {
    throw badInput(
      `request.method must be an HTTP method such as GET; got ${describeType(r.method)}.`,
    );
  }
  let body: Bytes;
  if (r.body === undefined) body = new Uint8Array(0);
  else if (typeof r.body === "string") body = utf8.encode(r.body);
  else if (r.body instanceof Uint8Array) {
    assertBytes(r.body, "request.body");
    body = r.body;
  } else {
    throw badInput(
      `request.body must be a Uint8Array, a string or absent; got ${describeType(r.body)}.`,
    );
  }
  // Every type is checked (and thrown) before any content problem is returned.
  const url = parseUrl(r.url);
  const headers = collectHeaders(r.headers);
  if (!TOKEN.test(r.method)) {
    return new Malformed(
      `request.method must be an HTTP method such as GET; got ${quote(r.method)}.`,
    );
  }
  if (url instanceof Malformed) return url;
  if (headers instanceof Malformed) return headers;
  return { method: r.method.toUpperCase(), url, headers, body };
}

/** Host first (when the caller did not set it), then the caller's headers in their order. */
export function withHost(headers: HeaderMap, url: WireUrl): HeaderMap {
  if (headers.has("host")) return headers;
  return new Map([["host", [url.host]], ...headers]);
}
