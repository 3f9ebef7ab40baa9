/// <reference types="node" />
/** keyed derive: key derivation with HKDF (RFC 5869) or BLAKE3 derive_key. */
import { HASH_FUNCTIONS, type HashName } from "../hazmat.js";
import { deriveKey, hexToBytes, hkdf, KeyedError, utf8ToBytes } from "../index.js";
import { HELP_OPTION, KEY_SOURCE_OPTIONS, parseCommand, parseInteger } from "./args.js";
import { CliError, EXIT_OK } from "./errors.js";
import type { Context } from "./io.js";
import { loadKey } from "./keys.js";
import {
  encodeSecretFile,
  type SecretFormat,
  writeSecretFile,
  writeSecretStdout,
} from "./output.js";

export const DERIVE_HELP = `Usage: keyed derive hkdf [--hash HASH] [--length N] [--salt-hex HEX]
                         [--info TEXT | --info-hex HEX] KEY [output options]
       keyed derive blake3 --context CONTEXT [--length N] KEY [output options]

Derives N bytes (default 32) of key material from the input key material KEY:
  hkdf     HKDF (RFC 5869) with HMAC-HASH: extract with the salt, expand with the info
  blake3   BLAKE3 derive_key: CONTEXT is a hard-coded, globally unique string such as
           "example.com 2026-11-30 session tokens v1"; the key is the key material

Key material (one of): --key-file FILE (raw) | --key-env VAR (hex or base64:…) |
                       --key-stdin (raw) | --key-hex HEX (warns)

Options:
      --hash HASH       hkdf: sha256 (default), sha1, sha224, sha384, sha512, sha512-224,
                        sha512-256, sha3-224, sha3-256, sha3-384 or sha3-512
      --salt-hex HEX    hkdf: the salt, in hex (default: none, i.e. HashLen zero bytes)
      --info TEXT       hkdf: the info (context) string, as UTF-8
      --info-hex HEX    hkdf: the info, in hex
      --context CTX     blake3: the context string (required)
      --length N        bytes of output (default 32; hkdf: at most 255 x hash size)
  -o, --output FILE     write to FILE with mode 0600 (refused if it exists, unless --force)
      --raw | --base64  raw bytes or base64 instead of hex
      --force           overwrite FILE
  -h, --help            this help

Examples:
  keyed derive hkdf --hash sha256 --length 32 --salt-hex 000102 --info "api v1" --key-env MASTER
  keyed derive blake3 --context "example.com 2026 backups v1" --key-file master.key \\
    --raw -o backup.key
`;

export async function deriveCommand(argv: string[], context: Context): Promise<number> {
  const { values, positionals } = parseCommand("derive", {
    args: argv,
    allowPositionals: true,
    options: {
      ...HELP_OPTION,
      ...KEY_SOURCE_OPTIONS,
      hash: { type: "string" },
      "salt-hex": { type: "string" },
      info: { type: "string" },
      "info-hex": { type: "string" },
      context: { type: "string" },
      length: { type: "string" },
      output: { type: "string", short: "o" },
      raw: { type: "boolean" },
      base64: { type: "boolean" },
      force: { type: "boolean" },
    },
  });
  if (values.help) {
    process.stdout.write(DERIVE_HELP);
    return EXIT_OK;
  }
  const method = positionals[0];
  if (positionals.length !== 1 || (method !== "hkdf" && method !== "blake3")) {
    throw new CliError('give the method: "keyed derive hkdf …" or "keyed derive blake3 …"');
  }
  if (values.raw && values.base64) throw new CliError("give --raw or --base64, not both");
  const format: SecretFormat = values.raw ? "raw" : values.base64 ? "base64" : "hex";
  const length =
    values.length === undefined ? 32 : parseInteger("--length", values.length, 1, 65536);
  const decodeHex = (flag: string, text: string) => {
    try {
      return hexToBytes(text);
    } catch (error) {
      if (error instanceof KeyedError) throw new CliError(`${flag} takes hex digits`);
      throw error;
    }
  };

  let derive: (material: Uint8Array) => Uint8Array;
  if (method === "hkdf") {
    for (const flag of ["context"] as const) {
      if (values[flag] !== undefined) throw new CliError(`--${flag} is for derive blake3`);
    }
    const hash = (values.hash ?? "sha256").toLowerCase();
    if (!Object.hasOwn(HASH_FUNCTIONS, hash)) {
      throw new CliError(
        `unknown hash "${values.hash}"; hkdf takes: ${Object.keys(HASH_FUNCTIONS).join(", ")}`,
      );
    }
    if (values.info !== undefined && values["info-hex"] !== undefined) {
      throw new CliError("give --info or --info-hex, not both");
    }
    const salt =
      values["salt-hex"] === undefined ? undefined : decodeHex("--salt-hex", values["salt-hex"]);
    const info =
      values["info-hex"] !== undefined
        ? decodeHex("--info-hex", values["info-hex"])
        : values.info !== undefined
          ? utf8ToBytes(values.info)
          : undefined;
    derive = (material) =>
      hkdf(hash as HashName, material, {
        length,
        ...(salt === undefined ? {} : { salt }),
        ...(info === undefined ? {} : { info }),
      });
  } else {
    for (const flag of ["hash", "salt-hex", "info", "info-hex"] as const) {
      if (values[flag] !== undefined) throw new CliError(`--${flag} is for derive hkdf`);
    }
    const contextString = values.context;
    if (contextString === undefined || contextString === "") {
      throw new CliError('--context CONTEXT is required, e.g. "example.com 2026 backups v1"');
    }
    derive = (material) => deriveKey(contextString, material, length);
  }

  const key = await loadKey(values, context.warn);
  let output: Uint8Array | undefined;
  try {
    output = derive(key.bytes);
    if (values.output === undefined) {
      if (values.force) throw new CliError("--force goes with -o FILE");
      writeSecretStdout(output, format, "derived key material");
    } else {
      writeSecretFile(values.output, encodeSecretFile(output, format), values.force === true);
    }
  } finally {
    key.bytes.fill(0);
    output?.fill(0);
  }
  return EXIT_OK;
}
