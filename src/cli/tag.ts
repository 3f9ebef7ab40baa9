/// <reference types="node" />
/** keyed tag: the tags of files, one `algorithm:tag  name` line each (docs/cli.md). */
import {
  ALGORITHM_OPTION,
  HELP_OPTION,
  KEY_OPTIONS,
  parseCommand,
  resolveAlgorithm,
} from "./args.js";
import { CliError, EXIT_OK, EXIT_USAGE } from "./errors.js";
import {
  checkStdinUse,
  chooseJobs,
  chooseTreeThreads,
  expandDirectories,
  inspectInput,
  knownTotal,
} from "./inputs.js";
import type { Context } from "./io.js";
import type { Job, MacSpec } from "./job.js";
import { checkMacKey, keyUsesStdin, loadKey } from "./keys.js";
import { KEYSET_LABEL, KEYSET_OPTION, keysetFromFlags } from "./keyset.js";
import { checkOneTime } from "./policy.js";
import { runJobs } from "./pool.js";
import { Progress } from "./progress.js";
import { encodeTag, formatTagLine, type TagEncoding } from "./sumfile.js";

export const TAG_HELP = `Usage: keyed tag -a ALGORITHM (--key-file FILE | --key-env VAR | --key-stdin) [options] [FILE... | -]
       keyed tag --keyset KEYSET [options] [FILE... | -]

Prints one line per file: ALGORITHM:TAG, two spaces, the file name (stdin is "-"), the
format keyed check reads back. With no FILE, or FILE "-", reads stdin. As with sha256sum,
a FILE that can't be read gets one line on stderr and the others are still tagged; the exit
status is then 2.

Key (one of; never on the command line by default):
      --key-file FILE    raw key bytes from FILE
      --key-env VAR      the key in environment variable VAR: hex, or base64 after "base64:"
      --key-stdin        raw key bytes from stdin (FILE can't then be "-")
      --key-hex HEX      the key as an argument: visible to other users, so it warns
      --allow-short-keys accept keys under 16 bytes (test vectors only)
      --keyset KEYSET    instead of -a and a key: tag with the keyset's primary key; lines
                         read "keyset:TAG  FILE", the tag carrying the key's id (keyed keyset)

Options:
  -a, --algorithm ALG    the MAC (keyed list shows them all)
  -r, --recursive        tag the files below each directory FILE (sorted; links to
                         directories are not followed); without it a directory is skipped
                         with a message, as sha256sum does
      --plain            lines "TAG  FILE", without the "ALGORITHM:" prefix, as sha256sum
                         and b3sum print them (keyed check -a ALGORITHM reads them back)
      --base64           tags in base64 instead of hex
      --json             one JSON object per line: {"file","algorithm","tag","encoding"}
  -j, --jobs N           worker threads for several files, or for one BLAKE3 file of
                         64 MiB or more (default: one per file, up to the number of
                         cores; small inputs stay on the main thread)
      --no-progress      no progress bar (it shows on a terminal for inputs over 64 MiB)
  -h, --help             this help

GMAC and ChaCha20-Poly1305 draw a random nonce per tag and print nonce || tag. Poly1305
keys are one-time: one file per key.

Examples:
  keyed keygen -a hmac-sha256 -o mac.key
  keyed tag -a blake3 --key-file mac.key -r src/ > src.tags
  keyed tag -a hmac-sha256 --key-file mac.key *.tar.gz > release.tags
  KEY=$(keyed keygen -a blake3) keyed tag -a blake3 --key-env KEY big.iso
  printf 'hello' | keyed tag -a blake3 --key-env KEY --base64
`;

export async function tagCommand(argv: string[], context: Context): Promise<number> {
  const { values, positionals } = parseCommand("tag", {
    args: argv,
    allowPositionals: true,
    options: {
      ...HELP_OPTION,
      ...ALGORITHM_OPTION,
      ...KEY_OPTIONS,
      ...KEYSET_OPTION,
      base64: { type: "boolean" },
      json: { type: "boolean" },
      plain: { type: "boolean" },
      recursive: { type: "boolean", short: "r" },
      jobs: { type: "string", short: "j" },
      "no-progress": { type: "boolean" },
    },
  });
  if (values.help) {
    process.stdout.write(TAG_HELP);
    return EXIT_OK;
  }
  const keyset = keysetFromFlags(values);
  const algorithm = keyset === undefined ? resolveAlgorithm(values.algorithm) : undefined;
  const label = algorithm ?? KEYSET_LABEL;
  if (values.plain && (values.json || keyset !== undefined)) {
    throw new CliError(
      values.json
        ? "--plain and --json are two output formats: choose one"
        : "--plain needs -a: a keyset's lines carry the keyset: prefix that keyed check reads",
    );
  }
  const given = positionals.length === 0 ? ["-"] : positionals;
  const paths = values.recursive ? expandDirectories(given) : given;
  checkStdinUse(paths, keyUsesStdin(values), "FILE");
  if (algorithm !== undefined) checkOneTime(algorithm, paths.length, "files");
  // As sha256sum does: every readable input is tagged, each unreadable one gets a line on
  // stderr, and the exit status says that some input could not be read.
  const inputs = paths.map(inspectInput);
  const readable = inputs.filter((input) => input.error === undefined);
  let status = EXIT_OK;
  for (const input of inputs) {
    if (input.error !== undefined) {
      context.warn(input.error);
      status = EXIT_USAGE;
    }
  }
  if (readable.length === 0) return status;

  const key =
    keyset === undefined
      ? await loadKey(values, context.warn)
      : { bytes: new Uint8Array(0), source: `--keyset ${keyset.loaded.path}` };
  const spec: MacSpec = {
    algorithm: algorithm ?? "hmac-sha256", // unused with a keyset
    key: key.bytes,
    allowShortKeys: values["allow-short-keys"] === true,
    allowShortTags: false,
    keyset: keyset?.spec,
  };
  if (algorithm !== undefined) checkMacKey(algorithm, key, { allowShortKeys: spec.allowShortKeys });
  const total = knownTotal(readable);
  const jobs = chooseJobs(values.jobs, readable.length, total);
  const treeThreads = chooseTreeThreads(values.jobs);
  const encoding: TagEncoding = values.base64 ? "base64" : "hex";
  const progress = new Progress(process.stderr, { total, enabled: !values["no-progress"] });
  const list: Job[] = readable.map((input, index) => ({ index, path: input.path, spec }));

  try {
    const onBytes = (bytes: number) => progress.add(bytes);
    await runJobs(list, { jobs, treeThreads, onBytes }, (outcome) => {
      progress.finish();
      const name = list[outcome.index].path;
      if (outcome.kind === "error") {
        context.warn(outcome.message);
        status = EXIT_USAGE;
      } else if (outcome.kind === "tag") {
        const text = encodeTag(outcome.tag, encoding);
        context.print(
          values.json
            ? JSON.stringify({ file: name, algorithm: label, tag: text, encoding })
            : formatTagLine(values.plain ? undefined : label, text, name),
        );
      }
    });
  } finally {
    progress.finish();
    key.bytes.fill(0);
    for (const k of keyset?.spec.keys ?? []) k.key?.fill(0);
  }
  return status;
}
