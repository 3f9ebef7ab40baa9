/**
 * The one option checker and the one type describer. Every public function that takes an options
 * object passes it through `checkOptions`, so a misspelt name (`accesKeyId`, `signbody`) is a
 * BAD_INPUT with a "did you mean" instead of a check that silently did not happen.
 */
import { KeyedError } from "./errors.js";

/** A short, safe description of a value's type for error messages (never its contents). */
export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (typeof value === "string") return `a string of length ${value.length}`;
  if (Array.isArray(value)) return "an array";
  if (value instanceof ArrayBuffer) return "an ArrayBuffer";
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name}`;
  if (typeof value === "object") {
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === "string" && name !== "Object" ? `an object (${name})` : "an object";
  }
  return `a ${typeof value}`;
}

/** Edit distance (insertions, deletions, substitutions, adjacent swaps) between two short names. */
function distance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[(i - 1) * cols + j] + 1, d[i * cols + j - 1] + 1);
      best = Math.min(best, d[(i - 1) * cols + j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, d[(i - 2) * cols + j - 2] + 1);
      }
      d[i * cols + j] = best;
    }
  }
  return d[rows * cols - 1];
}

/**
 * The known name closest to `name`, when one is close enough to be a typo (case differences, or at
 * most a third of the letters wrong); undefined otherwise.
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const d = distance(lower, candidate.toLowerCase());
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  if (best === undefined) return undefined;
  return bestDistance <= Math.max(1, Math.floor(best.length / 3)) ? best : undefined;
}

/** " (did you mean "x"?)" when a known name is close to `name`, else "". */
export function didYouMean(name: string, known: readonly string[]): string {
  const close = closestName(name, known);
  return close === undefined ? "" : ` (did you mean "${close}"?)`;
}

const EMPTY: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * Checks that `options` is undefined or a plain object whose own names are all in `allowed`, and
 * returns it (an empty object for undefined). `where` names the function or option group in the
 * message, e.g. "verifyRequest options". Throws BAD_INPUT otherwise.
 */
export function checkOptions<T extends object = Record<string, unknown>>(
  options: unknown,
  allowed: readonly string[],
  where = "options",
): T {
  if (options === undefined) return EMPTY as T;
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new KeyedError(
      "BAD_INPUT",
      `${where} must be an object { ${allowed.join(", ")} }; got ${describeType(options)}.`,
    );
  }
  for (const name of Object.keys(options)) {
    if (!allowed.includes(name)) {
      throw new KeyedError(
        "BAD_INPUT",
        `${where}: unknown option "${name}"${didYouMean(name, allowed)}; the options are: ` +
          `${allowed.length === 0 ? "(none)" : allowed.join(", ")}.`,
      );
    }
  }
  return options as T;
}
