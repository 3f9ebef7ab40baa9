/**
 * A strict JSON reader for key files (RFC 8259, nothing more). `JSON.parse` is not strict enough
 * for key material: it keeps the last of two members with the same name, accepts lone UTF-16
 * surrogates, and turns 18446744073709551658 into a rounded double, so a key id could silently
 * change. Tink's own readers refuse all three (tink-java JsonKeysetReaderTest), and so does this
 * one. Numbers are kept as their text (`JsonNumber`) so that integer ranges are checked exactly.
 *
 * Every refusal is KEY_FORMAT with the offset; messages never quote the input (it holds keys).
 */
import { KeyedError } from "../core/errors.js";

/** A JSON number, as written: the reader never rounds it. */
export class JsonNumber {
  constructor(readonly text: string) {}
}

export type JsonValue =
  | null
  | boolean
  | string
  | JsonNumber
  | JsonValue[]
  | { readonly [name: string]: JsonValue };

/** Objects and arrays nest at most this deep: a keyset needs 4 levels. */
const MAX_DEPTH = 32;

class Reader {
  private i = 0;
  constructor(
    private readonly text: string,
    private readonly what: string,
  ) {}

  fail(why: string, at = this.i): never {
    if (this.text[at] === "/") why = "comments are not JSON";
    throw new KeyedError("KEY_FORMAT", `${this.what} is not valid JSON: ${why} at offset ${at}.`);
  }

  document(): JsonValue {
    if (this.text.charCodeAt(0) === 0xfeff) this.i = 1; // a byte order mark, as editors write
    const value = this.value(0);
    this.space();
    if (this.i < this.text.length) this.fail("text after the end of the document");
    return value;
  }

  private space(): void {
    const t = this.text;
    for (;;) {
      const c = t.charCodeAt(this.i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) this.i++;
      else return;
    }
  }

  private value(depth: number): JsonValue {
    this.space();
    const c = this.text[this.i];
    if (c === "{") return this.object(depth + 1);
    if (c === "[") return this.array(depth + 1);
    if (c === '"') return this.string();
    if (c === "-" || (c >= "0" && c <= "9")) return this.number();
    for (const [word, value] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (this.text.startsWith(word, this.i)) {
        this.i += word.length;
        return value;
      }
    }
    return this.fail(c === undefined ? "unexpected end" : "unexpected character");
  }

  private object(depth: number): JsonValue {
    if (depth > MAX_DEPTH) this.fail(`nesting deeper than ${MAX_DEPTH}`);
    this.i++;
    const members: Record<string, JsonValue> = Object.create(null);
    this.space();
    if (this.text[this.i] === "}") {
      this.i++;
      return members;
    }
    for (;;) {
      this.space();
      if (this.text[this.i] !== '"') this.fail("expected a quoted member name");
      const at = this.i;
      const name = this.string();
      if (Object.hasOwn(members, name)) this.fail("a member name appears twice", at);
      this.space();
      if (this.text[this.i] !== ":") this.fail('expected ":"');
      this.i++;
      members[name] = this.value(depth);
      this.space();
      const next = this.text[this.i++];
      if (next === "}") return members;
      if (next !== ",") this.fail('expected "," or "}"', this.i - 1);
    }
  }

  private array(depth: number): JsonValue {
    if (depth > MAX_DEPTH) this.fail(`nesting deeper than ${MAX_DEPTH}`);
    this.i++;
    const items: JsonValue[] = [];
    this.space();
    if (this.text[this.i] === "]") {
      this.i++;
      return items;
    }
    for (;;) {
      items.push(this.value(depth));
      this.space();
      const next = this.text[this.i++];
      if (next === "]") return items;
      if (next !== ",") this.fail('expected "," or "]"', this.i - 1);
    }
  }

  private number(): JsonNumber {
    const match = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
    match.lastIndex = this.i;
    const found = match.exec(this.text);
    if (found === null) this.fail("malformed number");
    this.i += found[0].length;
    return new JsonNumber(found[0]);
  }

  private string(): string {
    const t = this.text;
    const start = this.i;
    this.i++;
    let out = "";
    for (;;) {
      const c = t.charCodeAt(this.i);
      if (Number.isNaN(c)) this.fail("unterminated string", start);
      if (c === 0x22) {
        this.i++;
        return out;
      }
      if (c < 0x20) this.fail("a control character inside a string");
      if (c === 0x5c) {
        out += this.escape();
        continue;
      }
      if (c >= 0xd800 && c <= 0xdfff) {
        const low = t.charCodeAt(this.i + 1);
        if (c > 0xdbff || !(low >= 0xdc00 && low <= 0xdfff)) this.fail("a lone surrogate");
        out += t.slice(this.i, this.i + 2);
        this.i += 2;
        continue;
      }
      out += t[this.i++];
    }
  }

  private hex4(): number {
    const digits = this.text.slice(this.i, this.i + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(digits)) this.fail("a malformed \\u escape");
    this.i += 4;
    return Number.parseInt(digits, 16);
  }

  private escape(): string {
    const at = this.i;
    const c = this.text[this.i + 1];
    this.i += 2;
    const simple: Record<string, string> = {
      '"': '"',
      "\\": "\\",
      "/": "/",
      b: "\b",
      f: "\f",
      n: "\n",
      r: "\r",
      t: "\t",
    };
    if (c !== undefined && Object.hasOwn(simple, c)) return simple[c];
    if (c !== "u") this.fail("an unknown escape", at);
    const unit = this.hex4();
    if (unit >= 0xdc00 && unit <= 0xdfff) this.fail("a lone surrogate", at);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      if (this.text[this.i] !== "\\" || this.text[this.i + 1] !== "u") {
        this.fail("a lone surrogate", at);
      }
      this.i += 2;
      const low = this.hex4();
      if (low < 0xdc00 || low > 0xdfff) this.fail("a lone surrogate", at);
      return String.fromCharCode(unit, low);
    }
    return String.fromCharCode(unit);
  }
}

/** Parses `text` strictly (see the module comment); `what` names it in messages. */
export function parseStrictJson(text: string, what: string): JsonValue {
  return new Reader(text, what).document();
}

export function isJsonObject(value: JsonValue): value is { readonly [name: string]: JsonValue } {
  return (
    value !== null &&
    typeof value === "object" &&
    !Array.isArray(value) &&
    !(value instanceof JsonNumber)
  );
}

/** A short description of a JSON value's type for messages (never its contents). */
export function jsonType(value: JsonValue | undefined): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  if (value instanceof JsonNumber) return "a number";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}
