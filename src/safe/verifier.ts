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
import { macInfo } from "../mac/registry.js";

/** Settings of `Verifier`. */
export interface VerifierOptions {
  /** Failed verifications after which the key is retired. Default: 2^(t/2), at most 2^32. */
  maxFailures?: number;
}

/** What `Verifier.status()` reports. */
export interface VerifierStatus {
  /** KEY_RETIRED once `failures` reached `maxFailures`: every later verify is false. */
  state: "ACTIVE" | "KEY_RETIRED";
  /** Verifications that failed so far. */
  failures: number;
  /** Verifications that succeeded so far. */
  successes: number;
  /** The failure budget. */
  maxFailures: number;
}

/** The default failure budget for tags of `tagBytes` bytes (see the module comment). */
export function defaultMaxFailures(tagBytes: number): number {
  return 2 ** Math.min(32, Math.floor((8 * tagBytes) / 2));
}

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
  private failures = 0;
  private successes = 0;
  /** A stand-in for a tag that is not bytes, so a malformed tag costs a full verification too. */
  private readonly blank: Uint8Array;

  constructor(mac: Mac, options: VerifierOptions = {}) {
    if (mac === null || typeof mac !== "object" || typeof mac.verify !== "function") {
      throw new KeyedError("BAD_INPUT", 'Verifier takes a Mac, such as mac("hmac-sha256", key).');
    }
    checkOptions(options, ["maxFailures"], "Verifier options");
    // Nonce-carrying MACs count their nonce in tagLength; the budget is about the tag proper.
    const authBytes = mac.tagLength - macInfo(mac.algorithm).nonceLength;
    const max = options.maxFailures ?? defaultMaxFailures(authBytes);
    if (!Number.isSafeInteger(max) || max < 1) {
      throw new KeyedError(
        "BAD_INPUT",
        `options.maxFailures must be a whole number of at least 1; got ${typeof max === "number" ? max : describeType(max)}.`,
      );
    }
    this.mac = mac;
    this.algorithm = mac.algorithm;
    this.maxFailures = max;
    this.blank = new Uint8Array(mac.tagLength);
  }

  /**
   * True only for a valid tag while the key is active. Never throws for a wrong or malformed tag
   * (not bytes, wrong length): those are `false` and count as failures. The full verification runs
   * whatever is wrong, retired keys included, so the time does not tell which case it was.
   */
  verify(message: Bytes, tag: unknown): boolean {
    const wellFormed = tag instanceof Uint8Array;
    const ok = this.mac.verify(message, wellFormed ? tag : this.blank) && wellFormed;
    return this.record(ok);
  }

  /** `verify` for tags made with `tagFields`. */
  verifyFields(purpose: string, fields: readonly Field[], tag: unknown): boolean {
    const wellFormed = tag instanceof Uint8Array;
    const ok = this.mac.verifyFields(purpose, fields, wellFormed ? tag : this.blank) && wellFormed;
    return this.record(ok);
  }

  private record(ok: boolean): boolean {
    const retired = this.failures >= this.maxFailures;
    if (ok && !retired) {
      this.successes++;
      return true;
    }
    if (!ok) this.failures++;
    return false;
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
