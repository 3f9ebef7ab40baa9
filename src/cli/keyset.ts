/// <reference types="node" />
/**
 * keyed keyset: keyset files, and key rotation with them (docs/keysets.md). A keyset file holds
 * keys, so it is written as key files are (mode 0600, never through a symbolic link), replaced
 * atomically when it changes, and never printed: `list` shows ids, algorithms and states only.
 */
import { KeyedError, Keyset, type MacName, type OutputPrefix } from "../index.js";
import { isJsonObject, parseStrictJson } from "../safe/json.js";
import { keysetRecord } from "../safe/keyset.js";
import { type KeysetRecord, MAX_SERIALIZED } from "../safe/keyset-record.js";
import { HELP_OPTION, parseCommand, parseInteger, resolveAlgorithm } from "./args.js";
import { CliError, EXIT_OK } from "./errors.js";
import type { Context } from "./io.js";
import { readBoundedFile } from "./keys.js";
import { formatTable } from "./list.js";
import { replaceSecretFile, writeSecretFile } from "./output.js";

export const KEYSET_HELP = `Usage: keyed keyset new ALGORITHM --out FILE [--prefix P] [--tag-length N] [--format F]
       keyed keyset add FILE ALGORITHM [--prefix P] [--tag-length N] [--primary]
       keyed keyset promote|disable|enable|destroy FILE ID
       keyed keyset list FILE [--json]
       keyed keyset export FILE --format F --out OUT

Keysets hold several keys with 32-bit ids, one of them primary: tags are made with the
primary and carry its id; verify accepts every enabled key. Rotate without downtime: add a
key, promote it, and once no old tag is needed, disable then destroy the old one.

Subcommands:
  new        a keyset file with one fresh primary key of ALGORITHM (mode 0600)
  add        a fresh key (enabled, not primary); prints its id
  promote    make key ID the primary (it must be enabled)
  disable    key ID no longer verifies (kept; enable brings it back)
  enable     key ID verifies again
  destroy    key ID's bytes are removed from the file for good (the id stays listed)
  list       ids, algorithms, prefixes and states (never the keys)
  export     the keyset in another format, to OUT (mode 0600)

Options:
      --prefix P       tink (default: 0x01 || id || MAC), crunchy (0x00 || id || MAC),
                       legacy (as crunchy, MAC over message || 0x00) or raw (the MAC alone)
      --tag-length N   bytes of MAC per tag (default: the algorithm's full tag)
      --format F       keyed (default; every algorithm), tink (Tink's JSON), tink-binary, or
                       jwks (export only: JWK Set of the enabled HS256/384/512 keys)
  -o, --out FILE       the file to write (refused if it exists, unless --force)
      --force          overwrite FILE
      --primary        add: make the new key the primary at once
      --json           list: JSON instead of a table
  -h, --help           this help

Tag, verify and check with a keyset: --keyset FILE (instead of -a and a key). Keyset files
are read in keyed's format, Tink's JSON or binary format, or as a JWK Set.

Examples:
  keyed keyset new hmac-sha256 --out tags.keyset
  keyed tag --keyset tags.keyset release.tar.gz > release.tags
  ID=$(keyed keyset add tags.keyset hmac-sha256) && keyed keyset promote tags.keyset "$ID"
  keyed check --keyset tags.keyset release.tags          # old and new tags verify
  keyed keyset export tags.keyset --format tink --out tink-keyset.json
`;

export type KeysetFileFormat = "keyed" | "tink" | "tink-binary" | "jwks";
const FORMATS: readonly KeysetFileFormat[] = ["keyed", "tink", "tink-binary", "jwks"];
const PREFIXES: readonly OutputPrefix[] = ["tink", "legacy", "crunchy", "raw"];

export interface LoadedKeyset {
  keyset: Keyset;
  format: KeysetFileFormat;
  path: string;
}

/** The file's bytes, refused past the largest keyset keyed reads without reading on. */
function readLimited(path: string): Uint8Array {
  const bytes = readBoundedFile(path, MAX_SERIALIZED, "the keyset file");
  if (bytes.length > MAX_SERIALIZED) {
    bytes.fill(0);
    throw new CliError(`${path} is over 1 MiB, more than any keyset: is it the right file?`);
  }
  return bytes;
}

/** Which format a keyset file is in: JSON by its top-level members, anything else binary. */
function detect(bytes: Uint8Array, path: string): { format: KeysetFileFormat; text?: string } {
  let i = 0;
  while (
    i < bytes.length &&
    (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)
  )
    i++;
  if (bytes[i] !== 0x7b) return { format: "tink-binary" };
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { format: "tink-binary" };
  }
  let root: ReturnType<typeof parseStrictJson>;
  try {
    root = parseStrictJson(text, path);
  } catch (error) {
    throw new CliError(`${path}: ${(error as Error).message}`);
  }
  if (!isJsonObject(root)) throw new CliError(`${path} is not a keyset`);
  if (Object.hasOwn(root, "keyedKeyset")) return { format: "keyed", text };
  if (Object.hasOwn(root, "keys")) return { format: "jwks", text };
  return { format: "tink", text };
}

/** Reads a keyset file in any of the formats keyed reads. */
export function loadKeysetFile(path: string): LoadedKeyset {
  const bytes = readLimited(path);
  try {
    const { format, text } = detect(bytes, path);
    const keyset =
      format === "keyed"
        ? Keyset.fromKeyedJson(text as string)
        : format === "jwks"
          ? Keyset.fromJwks(text as string)
          : format === "tink"
            ? Keyset.fromTinkJson(text as string)
            : Keyset.fromTinkBinary(bytes);
    return { keyset, format, path };
  } catch (error) {
    if (error instanceof KeyedError) throw new CliError(`${path}: ${error.message}`);
    throw error;
  } finally {
    bytes.fill(0);
  }
}

/** The serialized keyset in `format`, as bytes to write (the caller wipes them). */
function serialize(keyset: Keyset, format: KeysetFileFormat): Uint8Array {
  try {
    if (format === "tink-binary") return keyset.toTinkBinary();
    const text =
      format === "keyed"
        ? keyset.toKeyedJson()
        : format === "tink"
          ? keyset.toTinkJson()
          : `${JSON.stringify(keyset.toJwks(), null, 2)}\n`;
    return new TextEncoder().encode(text);
  } catch (error) {
    if (error instanceof KeyedError && error.code === "KEY_UNSUPPORTED") {
      throw new CliError(
        `${error.message.replace(/ toKeyedJson\(\) writes every keyset\.$/, "")} (--format keyed holds every algorithm)`,
      );
    }
    throw error;
  }
}

/** The enabled keys of a keyset, for the jobs of tag, verify and check (sent to workers). */
export function keysetSpec(keyset: Keyset): KeysetRecord {
  const record = keysetRecord(keyset);
  for (const key of record.keys) if (key.status !== "enabled") key.key?.fill(0);
  return {
    primaryId: record.primaryId,
    keys: record.keys.filter((key) => key.status === "enabled"),
  };
}

function parsePrefix(text: string | undefined): OutputPrefix {
  const prefix = (text ?? "tink").toLowerCase();
  if (!(PREFIXES as readonly string[]).includes(prefix)) {
    throw new CliError(`--prefix takes ${PREFIXES.join(", ")}; got "${text}"`);
  }
  return prefix as OutputPrefix;
}

function parseFormat(
  text: string | undefined,
  allowed: readonly KeysetFileFormat[],
): KeysetFileFormat {
  const format = (text ?? "keyed").toLowerCase();
  if (!(allowed as readonly string[]).includes(format)) {
    throw new CliError(`--format takes ${allowed.join(", ")}; got "${text}"`);
  }
  return format as KeysetFileFormat;
}

function parseId(text: string | undefined): number {
  if (text === undefined) throw new CliError("give the key ID (keyed keyset list shows them)");
  return parseInteger("the key ID", text, 0, 0xffffffff);
}

/** Runs a library call on a keyset, turning its refusals into one-line CLI errors. */
function change<T>(body: () => T): T {
  try {
    return body();
  } catch (error) {
    if (error instanceof KeyedError) throw new CliError(error.message);
    throw error;
  }
}

/** Writes `keyset` back over its file, in the format it was read in. */
function save(loaded: LoadedKeyset): void {
  if (loaded.format === "jwks") {
    throw new CliError(
      `${loaded.path} is a JWK Set, which has no key states or primary key to change; ` +
        "make a keyed keyset of it first: keyed keyset export FILE --format keyed --out NEW",
    );
  }
  const data = serialize(loaded.keyset, loaded.format);
  try {
    replaceSecretFile(loaded.path, data);
  } finally {
    data.fill(0);
  }
}

const KEYSET_OPTIONS = {
  ...HELP_OPTION,
  prefix: { type: "string" },
  "tag-length": { type: "string" },
  format: { type: "string" },
  out: { type: "string", short: "o" },
  force: { type: "boolean" },
  primary: { type: "boolean" },
  json: { type: "boolean" },
} as const;

type Values = ReturnType<typeof parseCommand<{ options: typeof KEYSET_OPTIONS }>>["values"];

/** Refuses the flags `subcommand` does not take (parseArgs knows only the union of all). */
function only(values: Values, subcommand: string, allowed: readonly string[]): void {
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && name !== "help" && !allowed.includes(name)) {
      throw new CliError(`keyset ${subcommand} does not take --${name} (keyed keyset --help)`);
    }
  }
}

function keyOptions(values: Values): { prefix: OutputPrefix; tagLength?: number } {
  const prefix = parsePrefix(values.prefix);
  const tagLength =
    values["tag-length"] === undefined
      ? undefined
      : parseInteger("--tag-length", values["tag-length"], 1, 1024);
  return tagLength === undefined ? { prefix } : { prefix, tagLength };
}

export async function keysetCommand(argv: string[], context: Context): Promise<number> {
  const { values, positionals } = parseCommand("keyset", {
    args: argv,
    allowPositionals: true,
    options: KEYSET_OPTIONS,
  });
  if (values.help) {
    process.stdout.write(KEYSET_HELP);
    return EXIT_OK;
  }
  const [subcommand, ...rest] = positionals;
  const expect = (count: number, usage: string) => {
    if (rest.length !== count) throw new CliError(`usage: keyed keyset ${subcommand} ${usage}`);
  };
  switch (subcommand) {
    case "new": {
      only(values, "new", ["prefix", "tag-length", "format", "out", "force"]);
      expect(1, "ALGORITHM --out FILE");
      const algorithm: MacName = resolveAlgorithm(rest[0], "ALGORITHM");
      if (values.out === undefined)
        throw new CliError("keyset new needs --out FILE (keysets are never printed)");
      const format = parseFormat(values.format, ["keyed", "tink", "tink-binary"]);
      const keyset = change(() => Keyset.generate(algorithm, keyOptions(values)));
      const data = serialize(keyset, format);
      try {
        writeSecretFile(values.out, data, values.force === true);
      } finally {
        data.fill(0);
      }
      context.warn(
        `wrote a keyset with one ${algorithm} key, id ${keyset.primaryId} (primary), to ${values.out} (${format}, mode 0600)`,
      );
      return EXIT_OK;
    }
    case "add": {
      only(values, "add", ["prefix", "tag-length", "primary"]);
      expect(2, "FILE ALGORITHM [--prefix P] [--tag-length N] [--primary]");
      const loaded = loadKeysetFile(rest[0]);
      const algorithm = resolveAlgorithm(rest[1], "ALGORITHM");
      const id = change(() => loaded.keyset.add(algorithm, keyOptions(values)));
      if (values.primary) change(() => loaded.keyset.setPrimary(id));
      save(loaded);
      context.print(String(id));
      context.warn(
        `added ${algorithm} key ${id}${values.primary ? " as the primary" : ""} to ${loaded.path}`,
      );
      return EXIT_OK;
    }
    case "promote":
    case "disable":
    case "enable":
    case "destroy": {
      only(values, subcommand, []);
      expect(2, "FILE ID");
      const loaded = loadKeysetFile(rest[0]);
      const id = parseId(rest[1]);
      const keyset = loaded.keyset;
      change(() => {
        if (subcommand === "promote") keyset.setPrimary(id);
        else if (subcommand === "disable") keyset.disable(id);
        else if (subcommand === "enable") keyset.enable(id);
        else keyset.destroy(id);
      });
      save(loaded);
      const done = {
        promote: "is now the primary",
        disable: "is disabled",
        enable: "is enabled",
        destroy: "is destroyed (its bytes are gone from the file)",
      };
      context.warn(`key ${id} ${done[subcommand]} in ${loaded.path}`);
      return EXIT_OK;
    }
    case "list": {
      only(values, "list", ["json"]);
      expect(1, "FILE [--json]");
      const loaded = loadKeysetFile(rest[0]);
      const keys = loaded.keyset.keys();
      if (values.json) {
        context.print(
          JSON.stringify(
            { format: loaded.format, primaryId: loaded.keyset.primaryId, keys },
            null,
            2,
          ),
        );
        return EXIT_OK;
      }
      const rows = [["ID", "ALGORITHM", "TAG", "PREFIX", "STATUS", "KID"]];
      for (const key of keys) {
        rows.push([
          String(key.id),
          key.algorithm ?? "-",
          key.tagLength === undefined ? "-" : String(key.tagLength),
          key.prefix,
          key.primary ? `${key.status} (primary)` : key.status,
          key.kid === String(key.id) ? "" : key.kid,
        ]);
      }
      for (const line of formatTable(rows)) context.print(line);
      return EXIT_OK;
    }
    case "export": {
      only(values, "export", ["format", "out", "force"]);
      expect(1, "FILE --format F --out OUT");
      if (values.format === undefined)
        throw new CliError(`keyset export needs --format (${FORMATS.join(", ")})`);
      if (values.out === undefined)
        throw new CliError("keyset export needs --out OUT (keysets are never printed)");
      const format = parseFormat(values.format, FORMATS);
      const loaded = loadKeysetFile(rest[0]);
      const data = serialize(loaded.keyset, format);
      try {
        writeSecretFile(values.out, data, values.force === true);
      } finally {
        data.fill(0);
      }
      context.warn(`wrote ${loaded.path} to ${values.out} (${format}, mode 0600)`);
      return EXIT_OK;
    }
    case undefined:
      throw new CliError(
        "give a subcommand: new, add, promote, disable, enable, destroy, list or export (keyed keyset --help)",
      );
    default:
      throw new CliError(
        `unknown subcommand "${subcommand}"; keyset takes new, add, promote, disable, enable, destroy, list or export`,
      );
  }
}

/** The label of keyset tags in tag lines: `keyset:TAG  FILE`. */
export const KEYSET_LABEL = "keyset";

export const KEYSET_OPTION = { keyset: { type: "string" } } as const;

interface KeysetFlags {
  keyset?: string | undefined;
  algorithm?: string | undefined;
  "key-file"?: string | undefined;
  "key-env"?: string | undefined;
  "key-stdin"?: boolean | undefined;
  "key-hex"?: string | undefined;
  "allow-short-keys"?: boolean | undefined;
  "allow-short-tags"?: boolean | undefined;
}

/**
 * With --keyset FILE: the loaded keyset and the spec its jobs carry, after refusing the flags
 * that a keyset replaces (-a and the key sources). Undefined without --keyset.
 */
export function keysetFromFlags(
  flags: KeysetFlags,
): { loaded: LoadedKeyset; spec: KeysetRecord } | undefined {
  if (flags.keyset === undefined) return undefined;
  const conflicting = (
    [
      ["algorithm", "-a"],
      ["key-file", "--key-file"],
      ["key-env", "--key-env"],
      ["key-stdin", "--key-stdin"],
      ["key-hex", "--key-hex"],
      ["allow-short-keys", "--allow-short-keys"],
      ["allow-short-tags", "--allow-short-tags"],
    ] as const
  ).filter(([name]) => flags[name] !== undefined && flags[name] !== false);
  if (conflicting.length > 0) {
    throw new CliError(
      `--keyset FILE holds the keys and their algorithms; drop ${conflicting.map(([, flag]) => flag).join(" and ")}`,
    );
  }
  const loaded = loadKeysetFile(flags.keyset);
  return { loaded, spec: keysetSpec(loaded.keyset) };
}
