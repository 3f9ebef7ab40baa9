/// <reference types="node" />
/** keyed list: the algorithms of this build with their key, tag and nonce sizes. */
import { macInfo, macNames } from "../index.js";
import { HELP_OPTION, parseCommand } from "./args.js";
import { EXIT_OK } from "./errors.js";
import type { Context } from "./io.js";
import { hasShortTags, minimumKeyLength } from "./policy.js";

export const LIST_HELP = `Usage: keyed list [--json]

Lists the MAC algorithms of this build. Sizes are in bytes:
  KEY      the key size it takes ("16+" for any size from 16)
  KEYGEN   the size keyed keygen makes
  TAG      the tag (authenticator) size
  NONCE    nonce bytes drawn per tag; keyed tag prints nonce || tag

Options:
      --json    a JSON array, one object per algorithm
  -h, --help    this help
`;

/** A table with left-aligned columns separated by two spaces. */
export function formatTable(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column])))
      .join("  ")
      .trimEnd(),
  );
}

export async function listCommand(argv: string[], context: Context): Promise<number> {
  const { values } = parseCommand("list", {
    args: argv,
    allowPositionals: false,
    options: { ...HELP_OPTION, json: { type: "boolean" } },
  });
  if (values.help) {
    process.stdout.write(LIST_HELP);
    return EXIT_OK;
  }
  const algorithms = macNames().map((name) => ({
    ...macInfo(name),
    minKeyLength: minimumKeyLength(name),
  }));
  if (values.json) {
    context.print(JSON.stringify(algorithms, null, 2));
    return EXIT_OK;
  }
  const rows = [["ALGORITHM", "KEY", "KEYGEN", "TAG", "NONCE", "NOTES"]];
  for (const info of algorithms) {
    const notes: string[] = [];
    if (info.nonceLength > 0) notes.push(`tags are nonce || tag (${info.tagLength} bytes)`);
    if (info.oneTime) notes.push("one-time key: one message per key");
    if (hasShortTags(info.name)) notes.push("64-bit tag: verify needs --allow-short-tags");
    rows.push([
      info.name,
      info.keyLength === undefined ? `${info.minKeyLength}+` : String(info.keyLength),
      String(info.recommendedKeyLength),
      String(info.tagLength - info.nonceLength),
      info.nonceLength > 0 ? String(info.nonceLength) : "-",
      notes.join("; "),
    ]);
  }
  for (const line of formatTable(rows)) context.print(line);
  return EXIT_OK;
}
