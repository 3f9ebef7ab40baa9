/// <reference types="node" />
/** Writing secrets (keys) to stdout or to a file only the owner can read. */
import { closeSync, fchmodSync, openSync, writeSync } from "node:fs";
import { bytesToBase64, bytesToHex } from "../index.js";
import { refuseBinaryToTerminal } from "./args.js";
import { CliError, describeFileError } from "./errors.js";

export type SecretFormat = "hex" | "base64" | "raw";

/**
 * The bytes written for `secret` in `format` (text formats end with a newline), in a new array:
 * the caller may wipe `secret` while an asynchronous stdout still holds the output.
 */
export function encodeSecret(secret: Uint8Array, format: SecretFormat): Uint8Array {
  if (format === "raw") return new Uint8Array(secret);
  const text = format === "hex" ? bytesToHex(secret) : bytesToBase64(secret);
  return new TextEncoder().encode(`${text}\n`);
}

/**
 * Writes `data` to `path` with mode 0600 (owner read/write only). Refuses an existing file
 * unless `force`; an overwritten file is set to 0600 before the new key goes in.
 */
export function writeSecretFile(path: string, data: Uint8Array, force: boolean): void {
  let fd: number;
  try {
    fd = openSync(path, force ? "w" : "wx", 0o600);
  } catch (error) {
    if ((error as { code?: unknown }).code === "EEXIST") {
      throw new CliError(`${path} already exists; --force overwrites it`);
    }
    throw new CliError(`cannot write ${describeFileError(path, error)}`);
  }
  try {
    fchmodSync(fd, 0o600);
    let offset = 0;
    while (offset < data.length) offset += writeSync(fd, data, offset);
  } finally {
    closeSync(fd);
  }
}

/** Writes `secret` to stdout; raw bytes are refused when stdout is a terminal. */
export function writeSecretStdout(secret: Uint8Array, format: SecretFormat, what: string): void {
  if (format === "raw") refuseBinaryToTerminal(what);
  process.stdout.write(encodeSecret(secret, format));
}
