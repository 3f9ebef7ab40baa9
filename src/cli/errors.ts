/// <reference types="node" />
/** Exit statuses and the one-line error messages of the keyed command. */
import { KeyedError } from "../index.js";

/** Exit statuses, as sha256sum and openssl use them. */
export const EXIT_OK = 0;
/** A tag did not verify (or a listed file could not be read by `keyed check`). */
export const EXIT_FAILED = 1;
/** Bad flags, an unknown algorithm, a missing file, a key of the wrong size, … */
export const EXIT_USAGE = 2;

/** An error meant for the user: printed as one line on stderr, without a stack trace. */
export class CliError extends Error {
  readonly exitCode: number;

  constructor(message: string, exitCode: number = EXIT_USAGE) {
    super(message);
    this.name = "CliError";
    this.exitCode = exitCode;
  }
}

const SYSTEM_REASONS: Record<string, string> = {
  ENOENT: "no such file or directory",
  EISDIR: "is a directory",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  ENOTDIR: "a component of the path is not a directory",
  EEXIST: "already exists",
  ELOOP: "too many symbolic links",
  ENAMETOOLONG: "name too long",
  EMFILE: "too many open files",
  EIO: "input/output error",
  // open(2) on a Unix socket, or on a device file with no device behind it.
  ENXIO: "is a socket or a device with nothing behind it; keyed reads files, pipes and stdin",
  EOPNOTSUPP: "is a socket; keyed reads files, pipes and stdin",
};

function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === "string";
}

/** "name: no such file or directory" for a failed fs call on `name`, else the error's message. */
export function describeFileError(name: string, error: unknown): string {
  if (isSystemError(error) && error.code !== undefined && error.code in SYSTEM_REASONS) {
    return `${name}: ${SYSTEM_REASONS[error.code]}`;
  }
  // Node refuses a path holding a NUL byte before any system call; no file is named so.
  if (name.includes("\0")) return `${JSON.stringify(name)}: a file name can't hold a NUL byte`;
  if (error instanceof KeyedError || error instanceof CliError) return error.message;
  return `${name}: ${error instanceof Error ? error.message : String(error)}`;
}

/** The one line printed for any error that reaches the top level. */
export function describeError(error: unknown): string {
  if (error instanceof CliError || error instanceof KeyedError) return error.message;
  if (isSystemError(error) && error.code !== undefined && error.code in SYSTEM_REASONS) {
    return describeFileError(error.path ?? "", error);
  }
  const message = error instanceof Error ? error.message : String(error);
  return `unexpected error: ${message} (set KEYED_DEBUG=1 for the stack trace)`;
}
