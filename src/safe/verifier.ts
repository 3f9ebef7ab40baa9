/**
 * A verification policy around any Mac: the tag-length rules of the Mac contract plus a failure
 * budget. Each wrong guess at a t-bit tag succeeds with probability 2^-t, so a key that keeps
 * answering verification queries is eventually forgeable; SP 800-107r1 section 5.3.3 asks that
 * the key be retired before 2^t failures. The default budget is 2^(t/2) failures (at most 2^32):
 * within it, a forgery succeeds with probability at most 2^-(t/2) — 2^-64 for a 128-bit tag,
 * 2^-40 for an 80-bit one, 2^-16 for a 32-bit one.
 */

import type { Bytes } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import type { Field, Mac, MacName } from "../core/mac.js";
import { checkOptions, describeType } from "../core/options.js";
import { redactKeyMaterial } from "../core/redact.js";
import { refuse, type Verdict } from "../core/result.js";
import { macInfo } from "../mac/registry.js";

/**
 * Where a Verifier counts failures: in this process (`MemoryFailureBudget`, the default) or shared
 * by a fleet (`RedisFailureBudget` in `keyed/redis`). A budget answers synchronously (usable by
 * `Verifier.verify`) or with a Promise (only through `Verifier.check`).
 */
export interface FailureBudget {
  /** Failures after which the key is retired. */
  readonly maxFailures: number;
  /**
   * Records the outcome of one verification (a failure adds one) and answers how many failures
   * were counted before it, by every instance sharing the budget. A Promise that rejects (with
   * STORE_UNAVAILABLE) when the count cannot be had: the Verifier then refuses.
   */
  record(failed: boolean): number | Promise<number>;
}

/** A whole number of at least 1, for a failure budget. */
export function checkMaxFailures(max: unknown, name = "options.maxFailures"): number {
  if (typeof max !== "number" || !Number.isSafeInteger(max) || max < 1) {
    throw new KeyedError(
      "BAD_INPUT",
      `${name} must be a whole number of at least 1; got ${typeof max === "number" ? max : describeType(max)}.`,
    );
  }
  return max;
}

/** The failure budget of one process: a counter. */
export class MemoryFailureBudget implements FailureBudget {
  readonly maxFailures: number;
  private failures = 0;

  constructor(maxFailures: number) {
    this.maxFailures = checkMaxFailures(maxFailures, "maxFailures");
  }

  record(failed: boolean): number {
    const before = this.failures;
    if (failed) this.failures++;
    return before;
  }
}

/** Settings of `Verifier`. */
export interface VerifierOptions {
  /** Failed verifications after which the key is retired. Default: 2^(t/2), at most 2^32. */
  maxFailures?: number;
  /**
   * Where failures are counted (instead of `maxFailures`): a `MemoryFailureBudget`, or a
   * `RedisFailureBudget` shared by every instance (then verify with `check`).
   */
  budget?: FailureBudget;
}

/** Why `Verifier.check` refused. */
export type VerifierFailure =
  /** The tag does not match (or is not bytes of the tag's length). */
  | "tag_invalid"
  /** The budget is spent: the key is retired, whatever the tag. */
  | "key_retired"
  /** A shared budget could not be read or counted: refused whatever the tag. */
  | "store_unavailable";

/** What `Verifier.check` answers: `{ ok: true }` or a refusal (`VerifierFailure`). */
export type VerifierResult = Verdict<object, VerifierFailure>;

/** What `Verifier.status()` reports. */
export interface VerifierStatus {
  /** KEY_RETIRED once `failures` reached `maxFailures`: every later verify is false. */
  state: "ACTIVE" | "KEY_RETIRED";
  /** Failures counted (for a shared budget: as this instance last saw the count). */
  failures: number;
  /** Successes in this instance. */
  successes: number;
  /** The failure budget. */
  maxFailures: number;
}

/** The default failure budget for tags of `tagBytes` bytes (see the module comment). */
export function defaultMaxFailures(tagBytes: number): number {
  return 2 ** Math.min(32, Math.floor((8 * tagBytes) / 2));
}

const RETIRED = refuse("key_retired", "the key has had its failure budget and is retired.");

/**
 * A Mac's verify with a failure budget: after `maxFailures` wrong tags the key is retired and
 * every verification is false (see the module comment).
 */
export class Verifier {
  /** The wrapped Mac's algorithm. */
  readonly algorithm: MacName;
  private readonly mac: Mac;
  /** The failure budget: default `defaultMaxFailures(tagLength)`. */
  readonly maxFailures: number;
  private readonly budget: FailureBudget;
  /** Failures as last answered by the budget (this call's included). */
  private failures = 0;
  private successes = 0;
  /** A stand-in for a tag that is not bytes, so a malformed tag costs a full verification too. */
  private readonly blank: Uint8Array;

  constructor(mac: Mac, options: VerifierOptions = {}) {
    if (mac === null || typeof mac !== "object" || typeof mac.verify !== "function") {
      throw new KeyedError("BAD_INPUT", 'Verifier takes a Mac, such as mac("hmac-sha256", key).');
    }
    const o = checkOptions<VerifierOptions>(options, ["maxFailures", "budget"], "Verifier options");
    if (o.budget !== undefined) {
      const b = o.budget as Partial<FailureBudget> | null;
      if (b === null || typeof b !== "object" || typeof b.record !== "function") {
        throw new KeyedError(
          "BAD_INPUT",
          `options.budget must be a FailureBudget (MemoryFailureBudget, RedisFailureBudget); got ${describeType(b)}.`,
        );
      }
      if (o.maxFailures !== undefined) {
        throw new KeyedError(
          "BAD_INPUT",
          "give options.maxFailures or options.budget, not both (a budget has its own maxFailures).",
        );
      }
      checkMaxFailures(b.maxFailures, "options.budget.maxFailures");
      this.budget = o.budget;
    } else {
      // Nonce-carrying MACs count their nonce in tagLength; the budget is about the tag proper.
      const authBytes = mac.tagLength - macInfo(mac.algorithm).nonceLength;
      this.budget = new MemoryFailureBudget(
        checkMaxFailures(o.maxFailures ?? defaultMaxFailures(authBytes)),
      );
    }
    this.mac = mac;
    this.algorithm = mac.algorithm;
    this.maxFailures = this.budget.maxFailures;
    this.blank = new Uint8Array(mac.tagLength);
  }

  /**
   * True only for a valid tag while the key is active. Never throws for a wrong or malformed tag
   * (not bytes, wrong length): those are `false` and count as failures. The full verification runs
   * whatever is wrong, retired keys included, so the time does not tell which case it was. Needs a
   * budget that answers synchronously (the default); with a shared one, use `check`.
   */
  verify(message: Bytes, tag: unknown): boolean {
    const wellFormed = tag instanceof Uint8Array;
    const ok = this.mac.verify(message, wellFormed ? tag : this.blank) && wellFormed;
    return this.recordSync(ok);
  }

  /** `verify` for tags made with `tagFields`. */
  verifyFields(purpose: string, fields: readonly Field[], tag: unknown): boolean {
    const wellFormed = tag instanceof Uint8Array;
    const ok = this.mac.verifyFields(purpose, fields, wellFormed ? tag : this.blank) && wellFormed;
    return this.recordSync(ok);
  }

  /**
   * `verify` with any budget, shared ones included: `{ ok: true }` or a refusal (`tag_invalid`,
   * `key_retired`, `store_unavailable`). Never rejects. While a shared budget cannot be reached,
   * every tag is refused with `store_unavailable`, right or wrong, so an outage tells a guesser
   * nothing and lets no guess through.
   */
  check(message: Bytes, tag: unknown): Promise<VerifierResult> {
    const wellFormed = tag instanceof Uint8Array;
    const ok = this.mac.verify(message, wellFormed ? tag : this.blank) && wellFormed;
    return this.recordAsync(ok);
  }

  /** `check` for tags made with `tagFields`. */
  checkFields(purpose: string, fields: readonly Field[], tag: unknown): Promise<VerifierResult> {
    const wellFormed = tag instanceof Uint8Array;
    const ok = this.mac.verifyFields(purpose, fields, wellFormed ? tag : this.blank) && wellFormed;
    return this.recordAsync(ok);
  }

  /** Success only when the key was active before this call (see `FailureBudget.record`). */
  private decide(ok: boolean, before: number): boolean {
    this.failures = ok ? before : before + 1;
    if (ok && before < this.maxFailures) {
      this.successes++;
      return true;
    }
    return false;
  }

  private recordSync(ok: boolean): boolean {
    const before = this.budget.record(!ok);
    if (typeof before !== "number") {
      // A shared budget's Promise: keep its rejection handled, and say where to go.
      Promise.resolve(before).catch(() => {});
      throw new KeyedError(
        "BAD_INPUT",
        "this Verifier's budget answers asynchronously (a shared budget): use verifier.check().",
      );
    }
    return this.decide(ok, before);
  }

  private async recordAsync(ok: boolean): Promise<VerifierResult> {
    // Once retired, always retired here: no more store traffic for a spent key.
    if (this.failures >= this.maxFailures) {
      if (!ok) this.failures++;
      return RETIRED;
    }
    let before: unknown;
    try {
      before = await this.budget.record(!ok);
    } catch (error) {
      return refuse(
        "store_unavailable",
        `the failure budget did not answer: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (typeof before !== "number" || !Number.isSafeInteger(before) || before < 0) {
      return refuse(
        "store_unavailable",
        `the failure budget answered ${describeType(before)} where a count was expected.`,
      );
    }
    if (this.decide(ok, before)) return { ok: true };
    if (before >= this.maxFailures) return RETIRED;
    return refuse("tag_invalid", "the tag does not match.");
  }

  /** The counts so far, and whether the key is retired. */
  status(): VerifierStatus {
    return {
      state: this.failures >= this.maxFailures ? "KEY_RETIRED" : "ACTIVE",
      failures: this.failures,
      successes: this.successes,
      maxFailures: this.maxFailures,
    };
  }
}

redactKeyMaterial(Verifier, (v) => ({ algorithm: v.algorithm, ...v.status() }));
