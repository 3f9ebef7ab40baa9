/// <reference types="node" />
/**
 * Reads a text file (or stdin) line by line in bounded memory, for `keyed check`'s sum files:
 * each byte is looked at once, and a line longer than MAX_LINE_BYTES is skipped to its end
 * rather than held, so a sum file of any size or shape costs time in proportion to its length.
 */
import { open } from "node:fs/promises";

/**
 * The longest sum-file line kept. A real line is an algorithm name, a tag of at most a few
 * hundred characters and a path (PATH_MAX is 4096 bytes on Linux, twice that escaped).
 */
export const MAX_LINE_BYTES = 64 * 1024;

const READ_SIZE = 64 * 1024;
const NEWLINE = 0x0a;

export interface Line {
  /** 1 for the first line. */
  number: number;
  /** The line without its "\n", decoded as UTF-8; undefined when over MAX_LINE_BYTES. */
  text: string | undefined;
}

async function* fileChunks(path: string): AsyncGenerator<Uint8Array> {
  const handle = await open(path, "r");
  try {
    // One buffer for every read: readLines copies what it keeps past a chunk.
    const buffer = new Uint8Array(READ_SIZE);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, READ_SIZE, null);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

async function* stdinChunks(): AsyncGenerator<Uint8Array> {
  for await (const chunk of process.stdin) yield chunk as Buffer;
}

/** The lines of `path` ("-": stdin). A last line without "\n" counts; a final "\n" ends none. */
export async function* readLines(path: string): AsyncGenerator<Line> {
  const decoder = new TextDecoder();
  let parts: Uint8Array[] = [];
  let length = 0;
  let tooLong = false;
  let number = 0;
  const take = (piece: Uint8Array) => {
    if (tooLong) return;
    length += piece.length;
    if (length > MAX_LINE_BYTES) {
      tooLong = true;
      parts = [];
    } else if (piece.length > 0) {
      parts.push(piece);
    }
  };
  const finish = (): Line => {
    let text: string | undefined;
    if (!tooLong) {
      text = parts.length === 1 ? decoder.decode(parts[0]) : decoder.decode(Buffer.concat(parts));
    }
    parts = [];
    length = 0;
    tooLong = false;
    return { number: ++number, text };
  };
  for await (const chunk of path === "-" ? stdinChunks() : fileChunks(path)) {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end >= 0; end = chunk.indexOf(NEWLINE, start)) {
      take(chunk.subarray(start, end));
      yield finish();
      start = end + 1;
    }
    // The head of a line that goes on in the next chunk: a copy, so that neither a reused read
    // buffer nor a large backing store of a small stdin chunk is kept alive.
    take(new Uint8Array(chunk.subarray(start)));
  }
  if (length > 0) yield finish();
}
