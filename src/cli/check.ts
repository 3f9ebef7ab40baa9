/// <reference types="node" />
/** keyed check: checks a file of tag lines, as sha256sum -c does (docs/cli.md). */
import { type MacName, macInfo } from "../index.js";
import {
  ALGORITHM_OPTION,
  HELP_OPTION,
  KEY_OPTIONS,
  parseCommand,
  resolveAlgorithm,
} from "./args.js";
import { CliError, describeFileError, EXIT_FAILED, EXIT_OK } from "./errors.js";
import { checkStdinUse, chooseJobs, chooseTreeThreads, inspectInput } from "./inputs.js";
import type { Context } from "./io.js";
import type { Job } from "./job.js";
import { checkMacKey, keyUsesStdin, loadKey } from "./keys.js";
import { KEYSET_LABEL, KEYSET_OPTION, keysetFromFlags } from "./keyset.js";
import { MAX_LINE_BYTES, readLines } from "./lines.js";
import { MANUAL } from "./manual.js";
import { checkOneTime, checkShortTags } from "./policy.js";
import { runJobs } from "./pool.js";
import { Progress } from "./progress.js";
import { decodeTag, formatResultLine, isIgnoredLine, parseSumLine } from "./sumfile.js";

export const CHECK_HELP = `Usage: keyed check (--key-file FILE | --key-env VAR | --key-stdin) [options] [SUMFILE | -]
       keyed check --keyset KEYSET [options] [SUMFILE | -]

Reads lines "ALGORITHM:TAG  FILE" (as keyed tag prints them) from SUMFILE or stdin, and
checks each FILE against its TAG: prints "FILE: OK" or "FILE: FAILED" per line and a summary
on stderr. Blank lines and lines starting with # are skipped; a line over 64 KiB is
improperly formatted. File names are relative to the current directory, as with sha256sum -c.

Exit status: 0 when every listed file verified; 1 when any tag failed, any file could not
be read or any line is improperly formatted; 2 on a usage or input error, including a sum
file with no properly formatted line at all, short tags without --allow-short-tags and
several lines of a one-time algorithm (poly1305).

Key (one of): --key-file FILE | --key-env VAR | --key-stdin | --key-hex HEX (warns)
      --allow-short-keys accept keys under 16 bytes (test vectors only)
      --keyset KEYSET    instead of a key: check "keyset:TAG  FILE" lines (keyed tag --keyset)
                         against every enabled key of the keyset

Options:
  -a, --algorithm ALG    the algorithm of lines written without the "ALGORITHM:" prefix;
                         lines naming another algorithm then count as improperly formatted
      --allow-short-tags verify 64-bit SipHash tags (guessable: see the manual)
      --ignore-missing   skip listed files that do not exist
  -q, --quiet            no line for files that are OK
      --status           print nothing; the exit status tells
  -j, --jobs N           worker threads (default: one per file, up to the number of cores;
                         one BLAKE3 file of 64 MiB or more: every core)
      --no-progress      no progress bar (it shows on a terminal for inputs over 64 MiB)
  -h, --help             this help

Examples:
  keyed tag -a hmac-sha256 --key-file mac.key *.tar.gz > release.tags
  keyed check --key-file mac.key release.tags

Manual: ${MANUAL}
`;

interface Entry {
  algorithm: MacName;
  tag: Uint8Array;
  name: string;
}

/** With --keyset: a "keyset:TAG  FILE" line (or "TAG  FILE") as an entry, or why not. */
function parseKeysetEntry(line: string, tagLength: number): Entry | string {
  const parsed = parseSumLine(line);
  if (parsed === undefined) return 'expected "keyset:TAG  FILE"';
  if (parsed.algorithm !== undefined && parsed.algorithm !== KEYSET_LABEL) {
    return `a ${parsed.algorithm} tag, but --keyset checks keyset tags`;
  }
  const tag = decodeTag(parsed.tag, tagLength);
  if (tag === undefined) return "the tag is neither hex nor base64";
  return { algorithm: "hmac-sha256", tag, name: parsed.name }; // the algorithm is the keyset's
}

/** One sum-file line as an entry, or why it is improperly formatted. */
function parseEntry(line: string, fallback: MacName | undefined): Entry | string {
  const parsed = parseSumLine(line);
  if (parsed === undefined) return 'expected "ALGORITHM:TAG  FILE"';
  const written = parsed.algorithm;
  if (written === KEYSET_LABEL) return "a keyset tag: check it with --keyset FILE";
  if (written === undefined && fallback === undefined) {
    return 'no algorithm (write "ALGORITHM:TAG" or give -a)';
  }
  let algorithm: MacName;
  try {
    algorithm = resolveAlgorithm(written ?? fallback);
  } catch {
    return `unknown algorithm "${written}" (keyed list shows them)`;
  }
  if (fallback !== undefined && algorithm !== fallback) {
    return `a ${algorithm} tag, but -a says ${fallback}`;
  }
  const tag = decodeTag(parsed.tag, macInfo(algorithm).tagLength);
  if (tag === undefined) return "the tag is neither hex nor base64";
  return { algorithm, tag, name: parsed.name };
}

/** Improper lines held back until the first proper one; more are counted, not listed. */
const MAX_HELD_LINES = 100;

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

export async function checkCommand(argv: string[], context: Context): Promise<number> {
  const { values, positionals } = parseCommand("check", {
    args: argv,
    allowPositionals: true,
    options: {
      ...HELP_OPTION,
      ...ALGORITHM_OPTION,
      ...KEY_OPTIONS,
      ...KEYSET_OPTION,
      "allow-short-tags": { type: "boolean" },
      "ignore-missing": { type: "boolean" },
      quiet: { type: "boolean", short: "q" },
      status: { type: "boolean" },
      jobs: { type: "string", short: "j" },
      "no-progress": { type: "boolean" },
    },
  });
  if (values.help) {
    process.stdout.write(CHECK_HELP);
    return EXIT_OK;
  }
  if (positionals.length > 1) {
    throw new CliError(`check reads one SUMFILE; got ${positionals.length}`);
  }
  const sumFile = positionals[0] ?? "-";
  const keyFromStdin = keyUsesStdin(values);
  checkStdinUse([sumFile], keyFromStdin, "SUMFILE");
  const keyset = keysetFromFlags(values);
  const fallback = values.algorithm === undefined ? undefined : resolveAlgorithm(values.algorithm);
  const parse = (text: string) =>
    keyset === undefined
      ? parseEntry(text, fallback)
      : parseKeysetEntry(text, keyset.loaded.keyset.tagLength);
  const silent = values.status === true;
  const report = (message: string) => {
    if (!silent) context.warn(message);
  };

  // Parse every line first: an unknown algorithm or a malformed tag is reported before any work.
  // The file is read line by line, so its size costs time, not memory.
  const entries: Entry[] = [];
  let improper = 0;
  let firstImproper = "";
  const held: string[] = []; // improper lines before the first proper one (exit 2 if none)
  try {
    for await (const { number, text } of readLines(sumFile)) {
      if (text !== undefined && isIgnoredLine(text)) continue;
      const entry = text === undefined ? `longer than ${MAX_LINE_BYTES / 1024} KiB` : parse(text);
      if (typeof entry !== "string") {
        if (entries.length === 0) {
          for (const line of held) report(line);
          if (improper > held.length) {
            report(
              `${improper - held.length} more improperly formatted lines before line ${number}`,
            );
          }
        }
        entries.push(entry);
        continue;
      }
      const line = `${sumFile}:${number}: improperly formatted line: ${entry}`;
      improper++;
      if (improper === 1) firstImproper = line;
      if (entries.length > 0) report(line);
      else if (held.length < MAX_HELD_LINES) held.push(line);
    }
  } catch (error) {
    if (typeof (error as { code?: unknown }).code !== "string") throw error;
    throw new CliError(describeFileError(sumFile, error));
  }
  if (entries.length === 0) {
    const first =
      improper > 0
        ? ` (${plural(improper, "improperly formatted line", "improperly formatted lines")}; the first: ${firstImproper})`
        : "";
    throw new CliError(`${sumFile}: no properly formatted "ALGORITHM:TAG  FILE" lines${first}`);
  }

  const allowShortTags = values["allow-short-tags"] === true;
  const allowShortKeys = values["allow-short-keys"] === true;
  const algorithms =
    keyset === undefined ? [...new Set(entries.map((entry) => entry.algorithm))] : [];
  for (const algorithm of algorithms) {
    checkShortTags(algorithm, allowShortTags);
    checkOneTime(algorithm, entries.filter((e) => e.algorithm === algorithm).length, "lines");
  }
  checkStdinUse(
    entries.map((entry) => entry.name),
    keyFromStdin ?? (sumFile === "-" ? "the sum file is read" : undefined),
    "a listed file",
  );
  const key =
    keyset === undefined
      ? await loadKey(values, context.warn)
      : { bytes: new Uint8Array(0), source: `--keyset ${keyset.loaded.path}` };
  for (const algorithm of algorithms) checkMacKey(algorithm, key, { allowShortKeys });

  let total = 0;
  for (const entry of entries) total += inspectInput(entry.name).size ?? 0;
  const jobs = chooseJobs(values.jobs, entries.length, total);
  const treeThreads = chooseTreeThreads(values.jobs);
  const progress = new Progress(process.stderr, { total, enabled: !values["no-progress"] });
  const list: Job[] = entries.map((entry, index) => ({
    index,
    path: entry.name,
    spec: {
      algorithm: entry.algorithm,
      key: key.bytes,
      allowShortKeys,
      allowShortTags,
      keyset: keyset?.spec,
    },
    expected: entry.tag,
  }));

  let ok = 0;
  let failed = 0;
  let unreadable = 0;
  let missing = 0;
  try {
    const onBytes = (bytes: number) => progress.add(bytes);
    await runJobs(list, { jobs, treeThreads, onBytes }, (outcome) => {
      progress.finish();
      const name = entries[outcome.index].name;
      if (outcome.kind === "error") {
        if (outcome.missing && values["ignore-missing"]) {
          missing++;
          return;
        }
        unreadable++;
        report(outcome.message);
        if (!silent) context.print(formatResultLine(name, "FAILED open or read"));
      } else if (outcome.kind === "verify") {
        if (outcome.ok) ok++;
        else failed++;
        if (silent || (outcome.ok && values.quiet)) return;
        context.print(formatResultLine(name, outcome.ok ? "OK" : "FAILED"));
      }
    });
  } finally {
    progress.finish();
    key.bytes.fill(0);
    for (const k of keyset?.spec.keys ?? []) k.key?.fill(0);
  }

  const problems = failed + unreadable + improper;
  if (ok + failed + unreadable === 0) {
    report(`${sumFile}: no file was verified (all ${missing} listed files are missing)`);
    return EXIT_FAILED;
  }
  if (!values.quiet || problems > 0) {
    const parts = [`${ok} OK`];
    if (failed > 0) parts.push(`${failed} FAILED (tag did not match)`);
    if (unreadable > 0) parts.push(plural(unreadable, "unreadable file", "unreadable files"));
    if (improper > 0) {
      parts.push(plural(improper, "improperly formatted line", "improperly formatted lines"));
    }
    if (missing > 0) parts.push(`${missing} missing (ignored)`);
    report(parts.join(", "));
  }
  if (ok === 0 && failed > 0 && failed === entries.length - missing) {
    report(
      keyset === undefined
        ? `no tag matched: is the key (from ${key.source}) the one the tags were made with, and ${algorithms.join(", ")} their algorithm?`
        : `no tag matched: were the tags made with a key of this keyset (${key.source})?`,
    );
  }
  return problems > 0 ? EXIT_FAILED : EXIT_OK;
}
