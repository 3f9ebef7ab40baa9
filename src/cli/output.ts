/// <reference types="node" />
/** Writing secrets (keys) to stdout or to a file only the owner can read. */
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  openSync,
  renameSync,
  type Stats,
  unlinkSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { bytesToBase64, bytesToHex, randomBytes } from "../index.js";
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
 * The bytes of a key file for `secret`: raw bytes, or for the text formats one line that says
 * its own encoding ("hex:…", "base64:…"), so that --key-file reads back the same key whatever
 * keygen or derive wrote, and `KEY=$(cat FILE)` works with --key-env too.
 */
export function encodeSecretFile(secret: Uint8Array, format: SecretFormat): Uint8Array {
  if (format === "raw") return new Uint8Array(secret);
  const text = format === "hex" ? bytesToHex(secret) : bytesToBase64(secret);
  return new TextEncoder().encode(`${format}:${text}\n`);
}

/** Flags for writing a key file: never through a symbolic link, never blocking on a FIFO. */
function secretFileFlags(force: boolean): number {
  // O_NOFOLLOW makes open fail (ELOOP) on a symlink, closing the race with the lstat below;
  // Windows has neither flag (undefined), and there the lstat check stands alone.
  const { O_WRONLY, O_CREAT, O_EXCL, O_TRUNC, O_NOFOLLOW, O_NONBLOCK } = constants;
  return O_WRONLY | O_CREAT | (O_NOFOLLOW ?? 0) | (O_NONBLOCK ?? 0) | (force ? O_TRUNC : O_EXCL);
}

function refuseSymlink(path: string): never {
  throw new CliError(
    `${path} is a symbolic link; keyed writes keys only to a file named directly (remove the link, or name the file it points to)`,
  );
}

/**
 * Writes `data` to `path` with mode 0600 (owner read/write only). Refuses an existing file
 * unless `force`; an overwritten file is set to 0600 before the new key goes in. Refuses a
 * symbolic link (with or without `force`), so that a link planted at `path` can't redirect the
 * key to a file of the attacker's choosing, and anything but a regular file.
 */
export function writeSecretFile(path: string, data: Uint8Array, force: boolean): void {
  let existing: Stats | undefined;
  try {
    existing = lstatSync(path);
  } catch {
    existing = undefined; // absent (or unreachable: open says why)
  }
  if (existing?.isSymbolicLink()) refuseSymlink(path);
  if (existing !== undefined && !existing.isFile()) {
    throw new CliError(`${path} is not a regular file; keyed writes keys only to regular files`);
  }
  let fd: number;
  try {
    fd = openSync(path, secretFileFlags(force), 0o600);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "EEXIST") throw new CliError(`${path} already exists; --force overwrites it`);
    if (code === "ELOOP") refuseSymlink(path);
    throw new CliError(`cannot write ${describeFileError(path, error)}`);
  }
  try {
    if (!fstatSync(fd).isFile()) {
      throw new CliError(`${path} is not a regular file; keyed writes keys only to regular files`);
    }
    fchmodSync(fd, 0o600);
    let offset = 0;
    while (offset < data.length) offset += writeSync(fd, data, offset);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Replaces the existing key file `path` with `data`, atomically: a new 0600 file beside it (made
 * as writeSecretFile makes files), then a rename over the old one, so a crash or a full disk
 * never leaves a half-written keyset. `path` must be a regular file, not a symbolic link.
 */
export function replaceSecretFile(path: string, data: Uint8Array): void {
  let existing: Stats;
  try {
    existing = lstatSync(path);
  } catch (error) {
    throw new CliError(`cannot write ${describeFileError(path, error)}`);
  }
  if (existing.isSymbolicLink()) refuseSymlink(path);
  if (!existing.isFile()) {
    throw new CliError(`${path} is not a regular file; keyed writes keys only to regular files`);
  }
  const temporary = join(
    dirname(path),
    `.${basename(path)}.${bytesToHex(randomBytes(6))}.keyed-tmp`,
  );
  writeSecretFile(temporary, data, false);
  try {
    renameSync(temporary, path);
  } catch (error) {
    unlinkSync(temporary);
    throw new CliError(`cannot write ${describeFileError(path, error)}`);
  }
}

/** Writes `secret` to stdout; raw bytes are refused when stdout is a terminal. */
export function writeSecretStdout(secret: Uint8Array, format: SecretFormat, what: string): void {
  if (format === "raw") refuseBinaryToTerminal(what);
  process.stdout.write(encodeSecret(secret, format));
}
