/**
 * The one shape of an answer to input from the wire. A verifier that reads attacker-controlled
 * bytes never throws on them: it returns `{ ok: true, …details }` or a `Refusal` whose `reason` is
 * one of a documented string union per module. Only the caller's own options throw (KeyedError).
 * Where the answer is yes or no only, a boolean serves (`Mac.verify`).
 */

/** A refused input: why (stable, safe to branch on) and a sentence for logs. */
export interface Refusal<R extends string = string> {
  /** Always false: the input was refused. */
  readonly ok: false;
  /** Why, as a stable string to branch on; `message` says it in words. */
  readonly reason: R;
  /** A sentence for logs; do not send it back to the caller. */
  readonly message: string;
}

/** `{ ok: true }` with what was authenticated, or a refusal with a reason from `R`. */
export type Verdict<T extends object, R extends string> =
  | ({
      /** The input was accepted. */
      readonly ok: true;
    } & T)
  | Refusal<R>;

/** A refusal (a fresh object: callers may attach it to logs). */
export function refuse<R extends string>(reason: R, message: string): Refusal<R> {
  return { ok: false, reason, message };
}

/** True for a refusal returned in place of a parsed value. */
export function isRefusal(value: unknown): value is Refusal {
  return typeof value === "object" && value !== null && (value as { ok?: unknown }).ok === false;
}
