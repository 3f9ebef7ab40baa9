/**
 * Tag lines, as `keyed tag` prints them and `keyed check` reads them (docs/cli.md):
 *
 *     blake3:5c1d…e0  notes.txt
 *
 * the algorithm, a colon, the tag (hex, or base64 with --base64), two spaces, the file name — the
 * sha256sum layout with the algorithm in front of the tag. As in GNU coreutils, a name holding a
 * backslash, a newline or a carriage return is written with those escaped (\\, \n, \r) and the
 * line starts with a backslash.
 */
import { base64ToBytes, bytesToBase64, bytesToHex, hexToBytes } from "../index.js";

export type TagEncoding = "hex" | "base64";

export function encodeTag(tag: Uint8Array, encoding: TagEncoding): string {
  return encoding === "hex" ? bytesToHex(tag) : bytesToBase64(tag);
}

/**
 * Decodes a tag written in hex or base64. Hex when the text is all hex digits of the expected
 * length; otherwise base64 if it decodes, else hex of another length (which then fails to
 * verify). Undefined when it is neither.
 */
export function decodeTag(text: string, expectedLength: number): Uint8Array | undefined {
  const isHex = /^(?:[0-9a-fA-F]{2})+$/.test(text);
  if (isHex && text.length === 2 * expectedLength) return hexToBytes(text);
  try {
    return base64ToBytes(text);
  } catch {
    return isHex ? hexToBytes(text) : undefined;
  }
}

/** "alg:tag" → its two parts; "tag" alone → no algorithm. */
export function splitAlgorithm(token: string): { algorithm: string | undefined; tag: string } {
  const colon = token.indexOf(":");
  if (colon < 0) return { algorithm: undefined, tag: token };
  return { algorithm: token.slice(0, colon), tag: token.slice(colon + 1) };
}

/** True when a name must be written escaped (GNU coreutils' rule). */
function needsEscape(name: string): boolean {
  return /[\\\n\r]/.test(name);
}

function escapeName(name: string): string {
  return name.replace(/[\\\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\n" ? "\\n" : "\\r"));
}

/** Undoes escapeName; undefined for a backslash sequence escapeName never writes. */
function unescapeName(text: string): string | undefined {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== "\\") {
      out += c;
      continue;
    }
    const next = text[++i];
    if (next === "\\") out += "\\";
    else if (next === "n") out += "\n";
    else if (next === "r") out += "\r";
    else return undefined;
  }
  return out;
}

/** One tag line: `algorithm:tag  name`, escaped when the name needs it. */
/** A tag line; without `algorithm`, the sha256sum / b3sum form "TAG  FILE" (`--plain`). */
export function formatTagLine(
  algorithm: string | undefined,
  tagText: string,
  name: string,
): string {
  const tag = algorithm === undefined ? tagText : `${algorithm}:${tagText}`;
  return needsEscape(name) ? `\\${tag}  ${escapeName(name)}` : `${tag}  ${name}`;
}

/** A result line of `keyed check` / `keyed verify`: `name: OK`, escaped like tag lines. */
export function formatResultLine(name: string, result: string): string {
  return needsEscape(name) ? `\\${escapeName(name)}: ${result}` : `${name}: ${result}`;
}

export interface SumLine {
  /** The algorithm written before the colon, as written (not yet checked). */
  algorithm: string | undefined;
  /** The tag text after the colon. */
  tag: string;
  name: string;
}

/**
 * Parses one line of a sum file; undefined when it is improperly formatted. Also accepts the
 * " *name" (binary mode) separator of sha256sum and a trailing carriage return.
 */
export function parseSumLine(line: string): SumLine | undefined {
  let text = line.endsWith("\r") ? line.slice(0, -1) : line;
  const escaped = text.startsWith("\\");
  if (escaped) text = text.slice(1);
  const match = /^(\S+) [ *](.+)$/s.exec(text);
  if (match === null) return undefined;
  const name = escaped ? unescapeName(match[2]) : match[2];
  if (name === undefined || name === "") return undefined;
  const { algorithm, tag } = splitAlgorithm(match[1]);
  if (tag === "" || algorithm === "") return undefined;
  return { algorithm, tag, name };
}

/** True for lines `keyed check` skips: blank ones and # comments. */
export function isIgnoredLine(line: string): boolean {
  return line.trim() === "" || line.startsWith("#");
}
