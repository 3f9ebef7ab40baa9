/// <reference types="node" />
/** keyed keygen: a random key of the size an algorithm takes. */
import { fstatSync } from "node:fs";
import { generateKey, macInfo, randomBytes } from "../index.js";
import {
  ALGORITHM_OPTION,
  HELP_OPTION,
  parseCommand,
  parseInteger,
  resolveAlgorithm,
} from "./args.js";
import { CliError, EXIT_OK } from "./errors.js";
import type { Context } from "./io.js";
import {
  encodeSecretFile,
  type SecretFormat,
  writeSecretFile,
  writeSecretStdout,
} from "./output.js";
import { minimumKeyLength } from "./policy.js";

export const KEYGEN_HELP = `Usage: keyed keygen -a ALGORITHM [-o FILE] [--raw | --base64] [--force]

Writes a fresh random key (from the system's secure random source) of the size ALGORITHM
takes: its exact key size, else its full tag size (at least 16 bytes). Hex by default. A key
file (-o) in hex or base64 is one line that names its encoding ("hex:…", "base64:…");
--key-file reads every key file keygen writes back as the same key.

Options:
  -a, --algorithm ALG   the MAC the key is for (keyed list shows the sizes)
  -o, --output FILE     write to FILE, created with mode 0600 (owner only); an existing
                        FILE is refused unless --force
      --raw             raw bytes; refused on a terminal
      --base64          base64 text (for --key-env, after a "base64:" prefix)
      --length N        key size in bytes, for algorithms that take any size (HMAC, KMAC)
      --force           overwrite FILE
  -h, --help            this help

Examples:
  keyed keygen -a hmac-sha256 -o mac.key            # then: keyed tag --key-file mac.key …
  export KEY=$(keyed keygen -a blake3)               # then: keyed tag --key-env KEY …
`;

export async function keygenCommand(argv: string[], context: Context): Promise<number> {
  const { values } = parseCommand("keygen", {
    args: argv,
    allowPositionals: false,
    options: {
      ...HELP_OPTION,
      ...ALGORITHM_OPTION,
      output: { type: "string", short: "o" },
      raw: { type: "boolean" },
      base64: { type: "boolean" },
      length: { type: "string" },
      force: { type: "boolean" },
    },
  });
  if (values.help) {
    process.stdout.write(KEYGEN_HELP);
    return EXIT_OK;
  }
  const algorithm = resolveAlgorithm(values.algorithm);
  if (values.raw && values.base64) throw new CliError("give --raw or --base64, not both");
  const format: SecretFormat = values.raw ? "raw" : values.base64 ? "base64" : "hex";
  const info = macInfo(algorithm);
  let key: Uint8Array;
  if (values.length !== undefined) {
    if (info.keyLength !== undefined) {
      throw new CliError(`${algorithm} keys are exactly ${info.keyLength} bytes; drop --length`);
    }
    key = randomBytes(parseInteger("--length", values.length, minimumKeyLength(algorithm), 1024));
  } else {
    key = generateKey(algorithm);
  }
  try {
    if (values.output === undefined) {
      if (values.force) throw new CliError("--force goes with -o FILE");
      writeSecretStdout(key, format, "a key");
      if (format !== "raw" && stdoutIsFile()) {
        context.warn(
          `stdout is a file: it holds bare ${format} (for --key-env); -o FILE writes a key file ` +
            "that --key-file reads back as the same key",
        );
      }
    } else {
      writeSecretFile(values.output, encodeSecretFile(key, format), values.force === true);
      const use = `use it with --key-file ${values.output}`;
      context.warn(
        `wrote a ${key.length}-byte ${algorithm} key to ${values.output} (${format}, mode 0600); ${use}`,
      );
    }
  } finally {
    key.fill(0);
  }
  return EXIT_OK;
}

/** True when stdout was redirected to a regular file (`keyed keygen > k.key`). */
function stdoutIsFile(): boolean {
  try {
    return fstatSync(1).isFile();
  } catch {
    return false;
  }
}
