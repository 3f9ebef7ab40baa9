/// <reference types="node" />
/** What the commands need to know about their inputs before reading them. */
import { fstatSync, lstatSync, readdirSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { parseInteger } from "./args.js";
import { CliError, describeFileError } from "./errors.js";

export interface InputInfo {
  path: string;
  /** Size in bytes for regular files (stdin too, when redirected from one); else undefined. */
  size: number | undefined;
  /** Why the input cannot be read ("x: no such file or directory"), when it cannot. */
  error: string | undefined;
}

/** Stats `path` ("-" is stdin) without opening it. */
export function inspectInput(path: string): InputInfo {
  try {
    const stats = path === "-" ? fstatSync(0) : statSync(path);
    // As sha256sum says it; keyed tag -r walks directories instead (its help says so).
    if (stats.isDirectory()) return { path, size: undefined, error: `${path}: is a directory` };
    // Stdin may well be a socket (a pipe from a spawning process often is); a named one can't
    // be opened, and open(2) would only say ENXIO.
    if (stats.isSocket() && path !== "-") {
      return {
        path,
        size: undefined,
        error: `${path}: is a socket; keyed reads files, pipes and stdin`,
      };
    }
    return { path, size: stats.isFile() ? stats.size : undefined, error: undefined };
  } catch (error) {
    return { path, size: undefined, error: describeFileError(path, error) };
  }
}

/** The total size when every input's size is known, for the progress bar. */
export function knownTotal(inputs: readonly InputInfo[]): number | undefined {
  let total = 0;
  for (const input of inputs) {
    if (input.size === undefined) return undefined;
    total += input.size;
  }
  return total;
}

/** Under this many bytes in all, threads would cost more to start than they save. */
const SMALL_INPUT = 4 * 1024 * 1024;

/**
 * Worker threads to use: --jobs N when given; else min(files, available cores), or 1 (the main
 * thread) when the inputs are small.
 */
export function chooseJobs(jobsFlag: string | undefined, files: number, total: number | undefined) {
  if (jobsFlag !== undefined) return parseInteger("--jobs", jobsFlag, 1, 256);
  if (total !== undefined && total < SMALL_INPUT) return 1;
  return Math.max(1, Math.min(files, availableParallelism()));
}

/**
 * Threads for one large BLAKE3 file (the tree split across them): --jobs N when given, else every
 * available core.
 */
export function chooseTreeThreads(jobsFlag: string | undefined): number {
  if (jobsFlag !== undefined) return parseInteger("--jobs", jobsFlag, 1, 256);
  return availableParallelism();
}

/**
 * Checks the uses of stdin: at most one "-", and none when stdin already carries something else
 * (`takenBy`: "--key-stdin reads the key", …).
 */
export function checkStdinUse(paths: readonly string[], takenBy: string | undefined, what: string) {
  const dashes = paths.filter((path) => path === "-").length;
  if (dashes > 1) throw new CliError(`stdin ("-") can be read once; it was given ${dashes} times`);
  if (dashes === 1 && takenBy !== undefined) {
    throw new CliError(`${takenBy} from stdin, so ${what} can't be "-" (stdin); name a file`);
  }
}

/**
 * `paths` with every directory replaced by the files below it (`-r`), in sorted order: regular
 * files, and symbolic links to regular files; links to directories are not followed (no loops,
 * no leaving the tree). A path that is not a directory stays as it is, for inspectInput to judge.
 */
export function expandDirectories(paths: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const link = lstatSync(path);
      if (link.isDirectory()) walk(path);
      else if (link.isFile()) out.push(path);
      else if (link.isSymbolicLink()) {
        try {
          if (statSync(path).isFile()) out.push(path);
        } catch {
          out.push(path); // a dangling link: inspectInput reports it
        }
      }
    }
  };
  for (const path of paths) {
    let directory = false;
    try {
      directory = path !== "-" && statSync(path).isDirectory();
    } catch {
      // inspectInput reports what is wrong with it
    }
    if (directory) walk(path);
    else out.push(path);
  }
  return out;
}
