/// <reference types="node" />
/**
 * Where keys come from. Never from the command line by default: arguments are visible to every
 * user through ps and /proc, and stay in shell history. A file, an environment variable or stdin
 * keep the key out of sight; --key-hex exists for test vectors and warns.
 */
import { closeSync, openSync, readSync } from "node:fs";
import {
  base64ToBytes,
  hexToBytes,
  KeyedError,
  type MacName,
  type MacOptions,
  mac,
} from "../index.js";
import { CliError, describeFileError } from "./errors.js";

export interface KeyFlags {
  "key-file"?: string | undefined;
  "key-env"?: string | undefined;
  "key-stdin"?: boolean | undefined;
  "key-hex"?: string | undefined;
}

export interface LoadedKey {
  bytes: Uint8Array;
  /** Where the key came from, for messages: "--key-file k.bin". Never the key itself. */
  source: string;
}

/**
 * The most key bytes read from a key file or stdin. Real keys are at most a few hundred bytes;
 * more is the wrong file (or /dev/zero), and reading stops here rather than filling memory.
 */
export const MAX_KEY_BYTES = 64 * 1024;

export const KEY_SOURCES_HELP =
  "--key-file FILE (as keyed keygen -o writes it, or raw bytes), --key-env VAR (hex, or base64:…) or --key-stdin (raw bytes)";

/** What reads stdin for the key, for checkStdinUse; undefined when the key comes from elsewhere. */
export function keyUsesStdin(flags: KeyFlags): string | undefined {
  return flags["key-stdin"] === true ? "--key-stdin reads the key" : undefined;
}

function tooLong(source: string): CliError {
  return new CliError(
    `the key from ${source} is over ${MAX_KEY_BYTES / 1024} KiB, the most keyed reads: is it the right file?`,
  );
}

/** The bytes of `chunks` in one new array; the chunks are wiped. */
function joinAndWipe(chunks: Uint8Array[], length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk.subarray(0, length - offset), offset);
    offset += Math.min(chunk.length, length - offset);
    chunk.fill(0);
  }
  return bytes;
}

/** The key bytes on stdin, refused past MAX_KEY_BYTES without reading on. */
async function readKeyFromStdin(): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    length += (chunk as Buffer).length;
    if (length > MAX_KEY_BYTES) {
      joinAndWipe(chunks, 0);
      process.stdin.destroy();
      throw tooLong("--key-stdin");
    }
  }
  return joinAndWipe(chunks, length);
}

/**
 * The bytes of file `path`, at most `limit` + 1 of them (so a caller can tell "too long" without
 * reading on, whatever the file is: /dev/zero ends at once). `what` names the file in errors.
 */
export function readBoundedFile(path: string, limit: number, what: string): Uint8Array {
  const buffer = new Uint8Array(limit + 1);
  let length = 0;
  try {
    const fd = openSync(path, "r");
    try {
      for (;;) {
        const read = readSync(fd, buffer, length, buffer.length - length, null);
        if (read === 0) break;
        length += read;
        if (length === buffer.length) break;
      }
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    buffer.fill(0);
    throw new CliError(`cannot read ${what} ${describeFileError(path, error)}`);
  }
  return joinAndWipe([buffer], length);
}

/** The bytes of key file `path`, refused past MAX_KEY_BYTES without reading on. */
function readKeyFile(path: string): Uint8Array {
  const bytes = readBoundedFile(path, MAX_KEY_BYTES, "the key file");
  if (bytes.length > MAX_KEY_BYTES) {
    bytes.fill(0);
    throw tooLong(`--key-file ${path}`);
  }
  return bytes;
}

/** A key file's text form, as keygen and derive write it: "hex:…" or "base64:…", one line. */
const LABELLED_KEY = /^(hex|base64):([0-9A-Za-z+/=]+)\r?\n?$/;

/**
 * The key in a key file: the decoded key of a "hex:"/"base64:" line (the file's bytes are then
 * wiped), else the file's raw bytes as they are. A raw key that happens to read as such a line is
 * vanishingly unlikely (random bytes spelling "hex:" and then only hex digits).
 */
function decodeKeyFile(bytes: Uint8Array, path: string): Uint8Array {
  if (bytes.length < 5 || (bytes[0] !== 0x68 && bytes[0] !== 0x62)) return bytes;
  const match = LABELLED_KEY.exec(Buffer.from(bytes).toString("latin1"));
  if (match === null) return bytes;
  try {
    const decoded = match[1] === "hex" ? hexToBytes(match[2]) : base64ToBytes(match[2]);
    bytes.fill(0);
    return decoded;
  } catch {
    bytes.fill(0);
    throw new CliError(
      `the key file ${path} starts with "${match[1]}:" but what follows is not ${match[1]}`,
    );
  }
}

function decodeEnvKey(variable: string, text: string): Uint8Array {
  const value = text.trim();
  try {
    if (value.startsWith("base64:")) return base64ToBytes(value.slice("base64:".length));
    return hexToBytes(value.startsWith("hex:") ? value.slice("hex:".length) : value);
  } catch (error) {
    if (error instanceof KeyedError && error.code === "BAD_ENCODING") {
      throw new CliError(
        `the key in $${variable} is neither hex nor base64 after a "base64:" prefix`,
      );
    }
    throw error;
  }
}

/**
 * Reads the key from the one source given. `warn` receives warnings (--key-hex, a key file that
 * holds hex text).
 */
export async function loadKey(flags: KeyFlags, warn: (line: string) => void): Promise<LoadedKey> {
  const given: string[] = [];
  if (flags["key-file"] !== undefined) given.push("--key-file");
  if (flags["key-env"] !== undefined) given.push("--key-env");
  if (flags["key-stdin"] === true) given.push("--key-stdin");
  if (flags["key-hex"] !== undefined) given.push("--key-hex");
  if (given.length === 0) throw new CliError(`a key is needed: ${KEY_SOURCES_HELP}`);
  if (given.length > 1) throw new CliError(`give one key source, not ${given.join(" and ")}`);

  let key: LoadedKey;
  if (flags["key-file"] !== undefined) {
    const path = flags["key-file"];
    const bytes = readKeyFile(path);
    key = { bytes: decodeKeyFile(bytes, path), source: `--key-file ${path}` };
    if (key.bytes === bytes) {
      const text = Buffer.from(bytes).toString("latin1");
      if (/^[0-9a-fA-F]{32,}\r?\n?$/.test(text)) {
        warn(
          `warning: the key file ${path} holds bare hex text, and --key-file uses such a file's ` +
            `raw bytes (here ${bytes.length} bytes of ASCII); if the hex digits are the key, write ` +
            `"hex:" in front of them (as keyed keygen -o does)`,
        );
      }
    }
  } else if (flags["key-env"] !== undefined) {
    const variable = flags["key-env"];
    const text = process.env[variable];
    if (text === undefined || text.trim() === "") {
      throw new CliError(`the environment variable ${variable} (--key-env) is not set or empty`);
    }
    key = { bytes: decodeEnvKey(variable, text), source: `--key-env ${variable}` };
  } else if (flags["key-stdin"] === true) {
    if (process.stdin.isTTY) {
      throw new CliError("--key-stdin reads raw key bytes from stdin; pipe or redirect them in");
    }
    key = { bytes: await readKeyFromStdin(), source: "--key-stdin" };
  } else {
    warn(
      "warning: --key-hex puts the key on the command line, where other users can read it " +
        "(ps, /proc, shell history); prefer --key-file, --key-env or --key-stdin",
    );
    try {
      key = { bytes: hexToBytes(flags["key-hex"] ?? ""), source: "--key-hex" };
    } catch (error) {
      if (error instanceof KeyedError) throw new CliError("--key-hex takes hex digits");
      throw error;
    }
  }
  if (key.bytes.length === 0) throw new CliError(`the key from ${key.source} is empty`);
  return key;
}

/**
 * Checks that `key` fits algorithm `name` by preparing it once, and turns a key-size error into
 * a message that names the key's source and the way out.
 */
export function checkMacKey(name: MacName, key: LoadedKey, options: MacOptions): void {
  try {
    mac(name, key.bytes, options).destroy();
  } catch (error) {
    if (
      error instanceof KeyedError &&
      (error.code === "KEY_LENGTH" || error.code === "KEY_TOO_SHORT" || error.code === "KEY_WEAK")
    ) {
      const head = error.message
        .split(/\.\s/)[0]
        .replace(/;\s*got (\d+)\.?$/, `; the key from ${key.source} has $1 bytes`);
      const hint =
        error.code === "KEY_TOO_SHORT"
          ? `keyed keygen -a ${name} makes a good one; --allow-short-keys accepts short keys for test vectors`
          : `keyed keygen -a ${name} makes one`;
      throw new CliError(`${head} (${hint})`);
    }
    throw error;
  }
}
