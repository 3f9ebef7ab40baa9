/**
 * HTTP headers as frameworks hand them over, read one way for every protocol module: a fetch
 * `Headers`, node:http's `IncomingHttpHeaders` (values `string | string[] | undefined`),
 * `req.headersDistinct`, AWS Lambda's `headers` / `multiValueHeaders`, a `Map` or [name, value]
 * pairs. Names are compared case-insensitively.
 */
import { KeyedError } from "../../core/errors.js";
import { describeType } from "../../core/options.js";

/**
 * One header's value as frameworks hand it over: the text, several texts (node:http's string[],
 * `req.headersDistinct`, AWS Lambda's `multiValueHeaders`), or null/undefined when absent.
 */
export type HeaderValue = string | readonly string[] | null | undefined;

/** An object of header values, such as node:http's `IncomingHttpHeaders` (names in any case). */
export type HeaderRecord = Readonly<Record<string, string | readonly string[] | undefined>>;

/** A fetch `Headers`, or anything with its `get`. */
export interface HeadersWithGet {
  get(name: string): string | null;
}

/** A fetch `Headers` object, or anything else with its `forEach`. */
export interface HeadersWithForEach {
  forEach(callback: (value: string, name: string) => void): void;
}

/** What `getHeader` reads: a fetch `Headers`, or an object of header values. */
export type HeaderSource = HeadersWithGet | HeaderRecord;

/** What `forEachHeader` reads: a `HeaderSource`, a `Map`, [name, value] pairs, or a `forEach`. */
export type HeaderList = HeaderRecord | Iterable<readonly [string, string]> | HeadersWithForEach;

/**
 * The value of header `name` (lower case) in `headers`. Values under names that differ only in
 * case (a Lambda event keeps the sender's spelling) are all returned, as the repeated header they
 * are.
 */
export function getHeader(headers: HeaderSource, name: string): unknown {
  if (typeof headers.get === "function") {
    return (headers as { get(name: string): unknown }).get(name);
  }
  const record = headers as Readonly<Record<string, unknown>>;
  const found: unknown[] = [];
  for (const key of Object.keys(record)) {
    const value = record[key];
    if (value !== undefined && value !== null && key.toLowerCase() === name) found.push(value);
  }
  if (found.length <= 1) return found[0];
  const values: unknown[] = [];
  for (const value of found) {
    if (Array.isArray(value)) values.push(...value);
    else values.push(value);
  }
  return values;
}

/** BAD_INPUT unless `headers` is an object a header source can be (a programming error). */
export function assertHeaderSource(headers: unknown, where = "headers"): asserts headers is object {
  if (headers === null || typeof headers !== "object") {
    throw new KeyedError(
      "BAD_INPUT",
      `${where} must be a fetch Headers or an object of header values (as node:http's req.headers); got ${describeType(headers)}.`,
    );
  }
}

/**
 * Calls `visit` for every (name, value) of `headers`, in order, arrays as one call per value and
 * absent (undefined) values skipped; `where` names the entry for messages. Entries that are not
 * pairs are BAD_INPUT; the types of names and values are for `visit` to check.
 */
export function forEachHeader(
  headers: HeaderList,
  visit: (name: unknown, value: unknown, where: string) => void,
): void {
  if (Symbol.iterator in headers) {
    let i = 0;
    for (const entry of headers as Iterable<unknown>) {
      if (!Array.isArray(entry) || entry.length !== 2) {
        throw new KeyedError(
          "BAD_INPUT",
          `request.headers entry ${i} must be a [name, value] pair.`,
        );
      }
      visit(entry[0], entry[1], `request.headers entry ${i}`);
      i++;
    }
  } else if (typeof (headers as HeadersWithForEach).forEach === "function") {
    (headers as HeadersWithForEach).forEach((value, name) => {
      visit(name, value, `request.headers ${quoteName(String(name))}`);
    });
  } else {
    for (const [name, value] of Object.entries(headers)) {
      const where = `request.headers[${quoteName(name)}]`;
      if (value === undefined) continue;
      if (Array.isArray(value)) {
        value.forEach((v: unknown, j) => {
          visit(name, v, `${where}[${j}]`);
        });
      } else {
        visit(name, value, where);
      }
    }
  }
}

/** At most 60 characters of attacker text, JSON-quoted, for a message. */
function quoteName(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}
