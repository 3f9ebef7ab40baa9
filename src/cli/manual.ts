/**
 * Where the manual is: docs/cli.md, shipped in the package beside dist/ (package.json `files`),
 * so the path the help prints exists in a registry install as in a clone.
 */
import { fileURLToPath } from "node:url";

/** The absolute path of docs/cli.md in this installation. */
export const MANUAL = fileURLToPath(new URL("../../docs/cli.md", import.meta.url));
