/**
 * What protocol code (seal/open, JWT, webhooks) asks of a keyset, without importing the Keyset
 * class: a bundle that never builds a keyset then carries none of it (nor its Tink, JWK and JSON
 * readers). A Keyset answers `[KEYSET_ACCESS]()` with this view; anything else is not a keyset.
 */
import type { Bytes } from "../core/bytes.js";
import type { MacKernel, MacName } from "../core/mac.js";

/** The method a Keyset carries under this symbol (Symbol.for: one keyed, one symbol). */
export const KEYSET_ACCESS: unique symbol = Symbol.for("keyed.keyset.access.v1") as never;

/** One key as protocol code sees it: public facts only. */
export interface KeysetKeyView {
  readonly id: number;
  readonly kid: string;
  readonly algorithm: MacName | undefined;
  readonly status: "enabled" | "disabled" | "destroyed";
}

export interface KeysetView {
  readonly primaryId: number;
  /** Every key, in keyset order. */
  keys(): readonly KeysetKeyView[];
  /** The key with this id or kid, or undefined. */
  get(idOrKid: number | string): KeysetKeyView | undefined;
  /**
   * The prepared kernel of the enabled key with this id or kid: its full, untruncated output, for
   * protocols whose tag names its key elsewhere (a JWS `kid`). Owned by the keyset: never wipe it.
   */
  kernel(idOrKid: number | string): MacKernel | undefined;
  /** A copy of the enabled key's bytes, which the caller wipes; undefined when not enabled. */
  keyBytes(idOrKid: number | string): Bytes | undefined;
}

/** The keyset behind `value`, or undefined when `value` is not a keyset. */
export function keysetView(value: unknown): KeysetView | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const access = (value as { [KEYSET_ACCESS]?: unknown })[KEYSET_ACCESS];
  return typeof access === "function" ? (access.call(value) as KeysetView) : undefined;
}
