/// <reference types="node" />
/**
 * The keyed command: tags, verifies and checks files with any MAC of the library, in the habits
 * of sha256sum, b3sum --keyed and openssl mac. bin/keyed.js calls `main`; docs/cli.md documents
 * every command.
 */
import { readFileSync } from "node:fs";
import { HELP_OPTION, parseCommand } from "./args.js";
import { benchCommand } from "./bench.js";
import { checkCommand } from "./check.js";
import { deriveCommand } from "./derive.js";
import { CliError, describeError, EXIT_OK, EXIT_USAGE } from "./errors.js";
import { type Context, createContext, prefix } from "./io.js";
import { keygenCommand } from "./keygen.js";
import { keysetCommand } from "./keyset.js";
import { listCommand } from "./list.js";
import { MANUAL } from "./manual.js";
import { tagCommand } from "./tag.js";
import { verifyCommand } from "./verify.js";

type Command = (argv: string[], context: Context) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  tag: tagCommand,
  verify: verifyCommand,
  check: checkCommand,
  keygen: keygenCommand,
  keyset: keysetCommand,
  derive: deriveCommand,
  list: listCommand,
  bench: benchCommand,
};

export const MAIN_HELP = `Usage: keyed <command> [options]

Message authentication codes for files, in the habits of sha256sum and b3sum --keyed.

Commands:
  tag      print the tags of files: "ALGORITHM:TAG  FILE" lines
  verify   check one file against one tag (exit 1 when it does not match)
  check    check a file of tag lines, like sha256sum -c
  keygen   make a random key for an algorithm
  keyset   keysets: several keys with ids, for rotation without downtime
  derive   derive keys with HKDF or BLAKE3 derive_key
  list     the algorithms, with key, tag and nonce sizes
  bench    tags per second and MB/s; --files: 1 vs 2 worker threads on many files

Keys never come from the command line by default (ps would show them to everyone):
  --key-file FILE   the key in FILE, as keyed keygen -o FILE writes it (or raw bytes)
  --key-env VAR     hex from environment variable VAR, or base64 after "base64:"
  --key-stdin       raw key bytes from stdin
  --key-hex HEX     the key as an argument, for test vectors; prints a warning
  --keyset FILE     tag, verify, check: the keys of a keyset file (keyed keyset --help)

Exit status: 0 success, 1 verification failed, 2 usage or input error.

  keyed <command> --help    the options of a command, with examples
  keyed --version           the version

Manual: ${MANUAL}

Example:
  keyed keygen -a hmac-sha256 -o mac.key
  keyed tag -a hmac-sha256 --key-file mac.key *.tar.gz > SHA256MAC
  keyed check --key-file mac.key SHA256MAC
`;

function version(): string {
  const url = new URL("../../package.json", import.meta.url);
  const pkg = JSON.parse(readFileSync(url, "utf8")) as { version?: unknown };
  return typeof pkg.version === "string" ? pkg.version : "unknown";
}

/** Exits quietly when stdout is closed early (keyed tag … | head -1), as coreutils do. */
function handleClosedStdout(): void {
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? EXIT_OK);
    throw error;
  });
}

/** Runs the keyed command with `argv` (without node and the script); returns the exit status. */
export async function main(argv: string[]): Promise<number> {
  handleClosedStdout();
  const status = await run(argv);
  // For tests: the peak resident set size at exit. An environment variable, not a flag, so
  // that every flag goes through parseCommand and a file may be named anything.
  if (process.env.KEYED_REPORT_RSS === "1") {
    process.stderr.write(`keyed: max RSS ${process.resourceUsage().maxRSS} KiB\n`);
  }
  return status;
}

async function run(args: string[]): Promise<number> {
  const [first, ...rest] = args;
  if (first === undefined) {
    process.stderr.write(MAIN_HELP);
    return EXIT_USAGE;
  }
  if (first.startsWith("-")) return topLevelFlag(first);
  if (first === "help") {
    if (rest.length === 0) {
      process.stdout.write(MAIN_HELP);
      return EXIT_OK;
    }
    return run([rest[0], "--help"]);
  }
  return runCommand(first, async (context) => {
    if (context.command === "") {
      throw new CliError(
        `unknown command "${first}"; the commands are ${Object.keys(COMMANDS).join(", ")} (keyed --help)`,
      );
    }
    return await COMMANDS[first](rest, context);
  });
}

/** keyed --help or keyed --version, parsed as every command's flags are (parseCommand). */
function topLevelFlag(flag: string): Promise<number> {
  return runCommand("", async () => {
    const { values } = parseCommand("", {
      args: [flag],
      allowPositionals: false,
      options: { ...HELP_OPTION, version: { type: "boolean", short: "V" } },
    });
    process.stdout.write(values.help ? MAIN_HELP : `keyed ${version()}\n`);
    return EXIT_OK;
  });
}

/** Runs `body` for `name` (a command, else ""), turning any error into one line and a status. */
async function runCommand(
  name: string,
  body: (context: Context) => Promise<number>,
): Promise<number> {
  const context = createContext(Object.hasOwn(COMMANDS, name) ? name : "");
  try {
    return await body(context);
  } catch (error) {
    process.stderr.write(`${prefix(context.command)}: ${describeError(error)}\n`);
    if (process.env.KEYED_DEBUG && error instanceof Error && !(error instanceof CliError)) {
      process.stderr.write(`${error.stack}\n`);
    }
    return error instanceof CliError ? error.exitCode : EXIT_USAGE;
  }
}
