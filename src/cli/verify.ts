/// <reference types="node" />
/** keyed verify: checks one file (or stdin) against one tag. */
import { macInfo } from "../index.js";
import {
  ALGORITHM_OPTION,
  HELP_OPTION,
  KEY_OPTIONS,
  parseCommand,
  resolveAlgorithm,
} from "./args.js";
import { CliError, EXIT_FAILED, EXIT_OK, EXIT_USAGE } from "./errors.js";
import { checkStdinUse, chooseTreeThreads, inspectInput } from "./inputs.js";
import type { Context } from "./io.js";
import { checkMacKey, keyUsesStdin, loadKey } from "./keys.js";
import { KEYSET_LABEL, KEYSET_OPTION, keysetFromFlags } from "./keyset.js";
import { MANUAL } from "./manual.js";
import { checkShortTags } from "./policy.js";
import { runJobs } from "./pool.js";
import { Progress } from "./progress.js";
import { decodeTag, formatResultLine, splitAlgorithm } from "./sumfile.js";

export const VERIFY_HELP = `Usage: keyed verify -a ALGORITHM --tag TAG (--key-file FILE | --key-env VAR | --key-stdin) [options] [FILE | -]
       keyed verify --keyset KEYSET --tag TAG [options] [FILE | -]

Checks FILE (or stdin) against TAG in constant time. Prints "FILE: OK" and exits 0, or
"FILE: FAILED" and exits 1. TAG is hex or base64, optionally with the "ALGORITHM:" prefix
keyed tag prints (then -a may be left out).

Key (one of): --key-file FILE | --key-env VAR | --key-stdin | --key-hex HEX (warns)
      --allow-short-keys accept keys under 16 bytes (test vectors only)
      --keyset KEYSET    instead of -a and a key: any enabled key of the keyset may have made
                         TAG (keyed tag --keyset prints "keyset:TAG")

Options:
  -a, --algorithm ALG    the MAC (keyed list shows them all)
      --tag TAG          the expected tag (for GMAC and ChaCha20-Poly1305: nonce || tag)
      --allow-short-tags verify 64-bit SipHash tags (guessable: see the manual)
  -q, --quiet            print nothing; the exit status tells
  -j, --jobs N           threads for a BLAKE3 file of 64 MiB or more (default: every core)
      --no-progress      no progress bar (it shows on a terminal for inputs over 64 MiB)
  -h, --help             this help

Examples:
  keyed verify -a hmac-sha256 --key-file mac.key --tag 8f2c…e1 release.tar.gz
  keyed verify --key-env KEY --tag "$(cut -d' ' -f1 big.iso.tag)" big.iso

Manual: ${MANUAL}
`;

export async function verifyCommand(argv: string[], context: Context): Promise<number> {
  const { values, positionals } = parseCommand("verify", {
    args: argv,
    allowPositionals: true,
    options: {
      ...HELP_OPTION,
      ...ALGORITHM_OPTION,
      ...KEY_OPTIONS,
      ...KEYSET_OPTION,
      tag: { type: "string" },
      "allow-short-tags": { type: "boolean" },
      quiet: { type: "boolean", short: "q" },
      jobs: { type: "string", short: "j" },
      "no-progress": { type: "boolean" },
    },
  });
  if (values.help) {
    process.stdout.write(VERIFY_HELP);
    return EXIT_OK;
  }
  if (values.tag === undefined) throw new CliError("--tag TAG is required");
  const written = splitAlgorithm(values.tag.trim());
  const keyset = keysetFromFlags(values);
  if (keyset !== undefined) {
    if (written.algorithm !== undefined && written.algorithm !== KEYSET_LABEL) {
      throw new CliError(
        `the tag is a ${written.algorithm} tag, but --keyset verifies keyset tags`,
      );
    }
  } else if (written.algorithm === KEYSET_LABEL) {
    throw new CliError("the tag is a keyset tag: verify it with --keyset FILE");
  }
  const algorithm =
    keyset === undefined ? resolveAlgorithm(values.algorithm ?? written.algorithm) : undefined;
  if (
    algorithm !== undefined &&
    written.algorithm !== undefined &&
    values.algorithm !== undefined
  ) {
    const named = resolveAlgorithm(written.algorithm);
    if (named !== algorithm) {
      throw new CliError(`the tag is a ${named} tag, but -a says ${algorithm}`);
    }
  }
  const allowShortTags = values["allow-short-tags"] === true;
  if (algorithm !== undefined) checkShortTags(algorithm, allowShortTags);
  const expectedLength =
    keyset === undefined ? macInfo(algorithm!).tagLength : keyset.loaded.keyset.tagLength;
  const expected = decodeTag(written.tag, expectedLength);
  if (expected === undefined) throw new CliError("--tag is neither hex nor base64");

  if (positionals.length > 1) {
    throw new CliError(
      `verify checks one file against one tag; got ${positionals.length} (keyed check takes a list)`,
    );
  }
  const path = positionals[0] ?? "-";
  checkStdinUse([path], keyUsesStdin(values), "FILE");
  const input = inspectInput(path);
  if (input.error !== undefined) {
    context.warn(input.error);
    return EXIT_USAGE;
  }

  const key =
    keyset === undefined
      ? await loadKey(values, context.warn)
      : { bytes: new Uint8Array(0), source: `--keyset ${keyset.loaded.path}` };
  const allowShortKeys = values["allow-short-keys"] === true;
  if (algorithm !== undefined) checkMacKey(algorithm, key, { allowShortKeys });
  const progress = new Progress(process.stderr, {
    total: input.size,
    enabled: !values["no-progress"],
  });
  let status = EXIT_USAGE;
  try {
    const spec = {
      algorithm: algorithm ?? "hmac-sha256", // unused with a keyset
      key: key.bytes,
      allowShortKeys,
      allowShortTags,
      keyset: keyset?.spec,
    } as const;
    const list = [{ index: 0, path, spec, expected }];
    const treeThreads = chooseTreeThreads(values.jobs);
    const onBytes = (bytes: number) => progress.add(bytes);
    await runJobs(list, { jobs: 1, treeThreads, onBytes }, (outcome) => {
      progress.finish();
      if (outcome.kind === "error") {
        context.warn(outcome.message);
      } else if (outcome.kind === "verify") {
        status = outcome.ok ? EXIT_OK : EXIT_FAILED;
        if (!values.quiet) context.print(formatResultLine(path, outcome.ok ? "OK" : "FAILED"));
      }
    });
  } finally {
    progress.finish();
    key.bytes.fill(0);
    for (const k of keyset?.spec.keys ?? []) k.key?.fill(0);
  }
  return status;
}
