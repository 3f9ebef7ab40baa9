/** The CLI's reading of the library's tag policy, with messages that say why and what to do. */
import { KeyedError, type MacName, mac, macInfo } from "../index.js";
import { CliError } from "./errors.js";

/** True when `name`'s full tag is shorter than the length keyed verifies without opting in. */
export function hasShortTags(name: MacName): boolean {
  const info = macInfo(name);
  return info.tagLength - info.nonceLength < info.minTagLength;
}

/** Refuses to verify `name`'s tags when they are short and --allow-short-tags was not given. */
export function checkShortTags(name: MacName, allowShortTags: boolean): void {
  if (!hasShortTags(name) || allowShortTags) return;
  const info = macInfo(name);
  const bytes = info.tagLength - info.nonceLength;
  throw new CliError(
    `${name} tags are ${bytes} bytes (${8 * bytes} bits), under the ${info.minTagLength}-byte ` +
      `minimum keyed verifies by default (RFC 2104 section 5): anyone who can submit guesses ` +
      `forges one with probability 2^-${8 * bytes} each. ${name} is meant for hash tables; use ` +
      `${name}-128 or an HMAC, or pass --allow-short-tags to verify anyway`,
  );
}

/** Refuses a one-time algorithm for more than one message. */
export function checkOneTime(name: MacName, messages: number, what: string): void {
  if (!macInfo(name).oneTime || messages <= 1) return;
  throw new CliError(
    `${name} keys are one-time: a key may authenticate one message, and ${messages} ${what} ` +
      "were given. Use one key per message, or chacha20-poly1305, which derives a fresh " +
      "Poly1305 key per message from a nonce",
  );
}

/**
 * The shortest key `name` takes without --allow-short-keys: its fixed size, else found by asking
 * the library (macInfo does not carry the minimum of variable-length keys).
 */
export function minimumKeyLength(name: MacName): number {
  const info = macInfo(name);
  if (info.keyLength !== undefined) return info.keyLength;
  for (let length = 1; length < info.recommendedKeyLength; length++) {
    try {
      mac(name, new Uint8Array(length)).destroy();
      return length;
    } catch (error) {
      if (!(error instanceof KeyedError && error.code === "KEY_TOO_SHORT")) throw error;
    }
  }
  return info.recommendedKeyLength;
}
