/// <reference types="node" />
/** Argument parsing (node:util parseArgs) and the checks shared by the commands. */
import { type ParseArgsConfig, parseArgs } from "node:util";
import { isMacName, type MacName, macNames } from "../index.js";
import { suggestMacName } from "../mac/registry.js";
import { CliError } from "./errors.js";

/**
 * The one parser of every command's flags (and of keyed's own, as command ""): parseArgs, always strict, so an unknown flag, a
 * missing value or a stray argument becomes a one-line CliError (exit 2).
 */
export function parseCommand<T extends ParseArgsConfig>(
  command: string,
  config: T,
): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs({ ...config, strict: true }) as ReturnType<typeof parseArgs<T>>;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const message = error instanceof Error ? error.message : String(error);
    const see = `${command === "" ? "keyed" : `keyed ${command}`} --help lists the options`;
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
      const option = /option '([^']*)'/i.exec(message)?.[1] ?? message;
      throw new CliError(`unknown option ${option} (${see})`);
    }
    if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") {
      const argument = /argument '([^']*)'/i.exec(message)?.[1] ?? message;
      throw new CliError(`unexpected argument '${argument}' (${see})`);
    }
    if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
      throw new CliError(`${message.charAt(0).toLowerCase()}${message.slice(1)} (${see})`);
    }
    throw error;
  }
}

/** -a/--algorithm, and the key sources every keyed command shares. */
export const ALGORITHM_OPTION = { algorithm: { type: "string", short: "a" } } as const;

export const KEY_SOURCE_OPTIONS = {
  "key-file": { type: "string" },
  "key-env": { type: "string" },
  "key-stdin": { type: "boolean" },
  "key-hex": { type: "string" },
} as const;

export const KEY_OPTIONS = {
  ...KEY_SOURCE_OPTIONS,
  "allow-short-keys": { type: "boolean" },
} as const;

export const HELP_OPTION = { help: { type: "boolean", short: "h" } } as const;

/**
 * An algorithm name from the command line, exactly as `mac()` takes it (lower case: one answer
 * to name case everywhere), or an error naming the one meant ("did you mean hmac-sha256") and
 * the list.
 */
export function resolveAlgorithm(text: string | undefined, flag = "-a"): MacName {
  if (text === undefined || text === "") {
    throw new CliError(`${flag} ALGORITHM is required; one of: ${macNames().join(", ")}`);
  }
  if (isMacName(text)) return text;
  const meant = suggestMacName(text);
  throw new CliError(
    `unknown algorithm "${text}"${meant === undefined ? "" : ` (did you mean "${meant}"?)`}; ` +
      `this build has: ${macNames().join(", ")} (keyed list shows their sizes)`,
  );
}

/** A whole number in [min, max] given to `flag`. */
export function parseInteger(flag: string, text: string, min: number, max: number): number {
  if (!/^[0-9]+$/.test(text)) {
    throw new CliError(`${flag} takes a whole number from ${min} to ${max}; got "${text}"`);
  }
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new CliError(`${flag} takes a whole number from ${min} to ${max}; got ${text}`);
  }
  return value;
}

const SIZE_UNITS: Record<string, number> = { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** A byte count such as 4096, 64K, 4M or 1G (binary units). */
export function parseSize(flag: string, text: string, min: number, max: number): number {
  const match = /^([0-9]+)([kmg]?)(?:i?b)?$/i.exec(text);
  if (match === null) {
    throw new CliError(`${flag} takes a size such as 4096, 64K, 4M or 1G; got "${text}"`);
  }
  const value = Number(match[1]) * SIZE_UNITS[match[2].toLowerCase()];
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new CliError(`${flag} must be from ${min} to ${max} bytes; got ${text}`);
  }
  return value;
}

/** Refuses a raw binary write to a terminal, where it would garble the screen. */
export function refuseBinaryToTerminal(what: string): void {
  if (process.stdout.isTTY) {
    throw new CliError(
      `refusing to write ${what} as raw bytes to a terminal; redirect stdout or use -o FILE`,
    );
  }
}
