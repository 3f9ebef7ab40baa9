/**
 * The one time convention. A point in time (`now`, `timestamp`, `date`) is accepted everywhere as a
 * `Date` or as Unix seconds (a number); durations are seconds, in options named `…Seconds`. The
 * tolerated clock difference is `toleranceSeconds` in every module; the older names
 * (`clockSkewSeconds`, `leewaySeconds`) are accepted as aliases for one release.
 */
import { KeyedError } from "./errors.js";
import { describeType } from "./options.js";

/** A point in time: a Date, or seconds since 1970-01-01T00:00:00Z. */
export type TimeInput = Date | number;

/**
 * Seconds past which a number is taken for milliseconds: 10^11 s is the year 5138, while
 * `Date.now()` has been above 10^12 since 2001.
 */
const MILLISECONDS_LIKELY = 1e11;

/**
 * Unix seconds from a Date or a number of seconds; BAD_INPUT for anything else, for negative or
 * non-finite values, and (with a hint) for what looks like milliseconds.
 */
export function toUnixSeconds(value: unknown, name: string): number {
  if (value instanceof Date) {
    const ms = value.getTime();
    if (Number.isFinite(ms) && ms >= 0) return Math.floor(ms / 1000);
    throw new KeyedError("BAD_INPUT", `${name} is an invalid Date or one before 1970.`);
  }
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new KeyedError(
      "BAD_INPUT",
      `${name} must be a Date or seconds since the epoch (a non-negative number); got ${
        typeof value === "number" ? value : describeType(value)
      }.`,
    );
  }
  if (value >= MILLISECONDS_LIKELY) {
    throw new KeyedError(
      "BAD_INPUT",
      `${name} is ${value}, which looks like milliseconds: keyed counts time in seconds. ` +
        "Pass Math.floor(Date.now() / 1000), or a Date.",
    );
  }
  return value;
}

/**
 * Whole Unix seconds for a time that is written into a message (a token, a header): a Date
 * (rounded down) or a whole number of seconds; `toUnixSeconds`'s refusals otherwise.
 */
export function toWholeSeconds(value: unknown, name: string): number {
  if (typeof value === "number" && !Number.isSafeInteger(value) && Number.isFinite(value)) {
    throw new KeyedError("BAD_INPUT", `${name} must be whole seconds; got ${value}.`);
  }
  return toUnixSeconds(value, name);
}

/** `toUnixSeconds` of `value`, or the system clock in whole seconds when it is undefined. */
export function nowSeconds(value: unknown, name = "options.now"): number {
  return value === undefined ? Math.floor(Date.now() / 1000) : toUnixSeconds(value, name);
}

/** A duration in seconds: a finite number ≥ 0; BAD_INPUT otherwise. */
export function durationSeconds(value: unknown, name: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new KeyedError(
      "BAD_INPUT",
      `${name} must be a non-negative number of seconds; got ${
        typeof value === "number" ? value : describeType(value)
      }.`,
    );
  }
  return value;
}

/** The option names that mean the tolerated clock difference, the current one first. */
export const TOLERANCE_OPTION = "toleranceSeconds";

/**
 * The tolerated clock difference from `options.toleranceSeconds` or one older alias (`aliases`,
 * e.g. "clockSkewSeconds"), or `fallback`. Two of them with different values are BAD_INPUT.
 */
export function toleranceSeconds(
  options: object,
  aliases: readonly string[],
  fallback: number,
): number {
  let chosen: string | undefined;
  let value: unknown;
  for (const name of [TOLERANCE_OPTION, ...aliases]) {
    const v = (options as Record<string, unknown>)[name];
    if (v === undefined) continue;
    if (chosen !== undefined && v !== value) {
      throw new KeyedError(
        "BAD_INPUT",
        `options.${chosen} and options.${name} name the same tolerance with different values; ` +
          `give ${TOLERANCE_OPTION} only.`,
      );
    }
    chosen ??= name;
    value = v;
  }
  return chosen === undefined ? fallback : durationSeconds(value, `options.${chosen}`);
}
