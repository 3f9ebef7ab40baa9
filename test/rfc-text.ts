/**
 * Reads the hex dumps in an RFC's text (the shared copies under ../shared/vectors/rfc): each block
 * of lines like "016  36 e5 f6 ...", "1a:e1:0b:..." or "FF FF FF ..." becomes bytes, labelled with the nearest text
 * line above it ("Tag:", "The nonce:").
 */
import { readFileSync } from "node:fs";

export interface HexBlock {
  label: string;
  bytes: Uint8Array;
}

const DUMP = /^\s*[0-9a-f]{3}\s{2}((?:[0-9a-f]{2} ?)+)/;
const COLONS = /^\s*((?:[0-9a-f]{2}:)+[0-9a-f]{2}:?)\s*$/;
const SPACED = /^\s*((?:[0-9A-Fa-f]{2} )+[0-9A-Fa-f]{2})\s*$/;

export function hexBlocks(text: string): HexBlock[] {
  const blocks: HexBlock[] = [];
  let label = "";
  let current: string[] | undefined;
  const flush = () => {
    if (current)
      blocks.push({ label, bytes: Uint8Array.from(Buffer.from(current.join(""), "hex")) });
    current = undefined;
  };
  for (const line of text.split("\n")) {
    const dump = DUMP.exec(line) ?? COLONS.exec(line) ?? SPACED.exec(line);
    if (dump) {
      current ??= [];
      current.push(dump[1].replace(/[ :]/g, ""));
      continue;
    }
    if (line.trim() === "") continue; // blank lines and page breaks do not end a block
    if (/^(RFC \d+|.*\[Page \d+\])/.test(line.trim())) continue;
    flush();
    label = line.trim();
  }
  flush();
  return blocks;
}

/** The text of one "----- title -----" section of a shared RFC file. */
export function rfcSection(path: string, startsWith: string): string {
  const text = readFileSync(path, "utf8");
  const start = text.indexOf(`----- ${startsWith}`);
  if (start < 0) throw new Error(`no section ${startsWith} in ${path}`);
  const end = text.indexOf("\n----- ", start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}
