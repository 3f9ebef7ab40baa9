/** Every MAC this build offers, by name: `mac(name, key, options)` builds any of them. */

import { assertString, type Bytes } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import {
  type Mac,
  type MacAlgorithm,
  type MacName,
  type MacOptions,
  MIN_KEY_LENGTH,
} from "../core/mac.js";
import { closestName } from "../core/options.js";
import { PreparedMac } from "../core/prepared-mac.js";
import { HASH_FUNCTIONS } from "../hash/index.js";
import { BLAKE3_ALGORITHM } from "./blake3.js";
import { CHACHA_MAC_ALGORITHMS } from "./chacha20poly1305.js";
import { CMAC_ALGORITHMS } from "./cmac.js";
import { GMAC_ALGORITHMS } from "./gmac.js";
import { HMAC_HASHES, type HmacName, hmacAlgorithm } from "./hmac.js";
import { KMAC_ALGORITHMS } from "./kmac.js";
import { POLY1305_ALGORITHM } from "./poly1305.js";
import { SIPHASH_ALGORITHMS } from "./siphash.js";

const HMAC_ALGORITHMS = Object.fromEntries(
  Object.entries(HMAC_HASHES).map(([name, hash]) => [name, hmacAlgorithm(HASH_FUNCTIONS[hash])]),
) as Record<HmacName, MacAlgorithm>;

const ALGORITHMS: Partial<Record<MacName, MacAlgorithm>> = {
  ...HMAC_ALGORITHMS,
  ...CMAC_ALGORITHMS,
  ...GMAC_ALGORITHMS,
  poly1305: POLY1305_ALGORITHM,
  ...CHACHA_MAC_ALGORITHMS,
  ...KMAC_ALGORITHMS,
  blake3: BLAKE3_ALGORITHM,
  ...SIPHASH_ALGORITHMS,
};

/** A Map: a lookup costs a fraction of a big object literal's (which V8 keeps as a dictionary). */
const BY_NAME: ReadonlyMap<string, MacAlgorithm> = new Map(Object.entries(ALGORITHMS));

/**
 * True when `name` is a MAC this build offers, exactly as `macNames()` spells it (lower case): a
 * type guard, so that `mac(process.env.ALG, key)` needs no cast once checked.
 */
export function isMacName(name: unknown): name is MacName {
  return typeof name === "string" && BY_NAME.has(name);
}

/**
 * The MAC name someone probably meant by `name`: the same in lower case ("HMAC-SHA256"), the HMAC
 * over a hash given alone ("sha256"), or a close spelling; undefined when none is close.
 */
export function suggestMacName(name: string): MacName | undefined {
  const names = macNames();
  const lower = name.toLowerCase();
  if (isMacName(lower)) return lower;
  if (isMacName(`hmac-${lower}`)) return `hmac-${lower}` as MacName;
  return closestName(name, names) as MacName | undefined;
}

/** macAlgorithm's last answer (until the first, a name no caller can pass). */
let lastName: unknown = Symbol("none yet");
let lastAlgorithm: MacAlgorithm = POLY1305_ALGORITHM;

/** The algorithm record for `name`, or UNKNOWN_ALGORITHM (with a "did you mean"). */
export function macAlgorithm(name: MacName): MacAlgorithm {
  // A service names one or two MACs, over and over: the last one found costs a string compare
  // (~1 ns), where the map's lookup costs ~10 ns of a ~400 ns one-time-key tag.
  if (name === lastName) return lastAlgorithm;
  const algorithm = typeof name === "string" ? BY_NAME.get(name) : undefined;
  // Refused elsewhere, so that this lookup stays small enough for V8 to inline into its callers.
  if (algorithm === undefined) throw unknownMac(name);
  lastName = name;
  lastAlgorithm = algorithm;
  return algorithm;
}

/** macAlgorithm's refusal: BAD_INPUT for a name that is not a string, else UNKNOWN_ALGORITHM. */
function unknownMac(name: unknown): KeyedError {
  assertString(name, "name");
  const suggestion = suggestMacName(name);
  return new KeyedError(
    "UNKNOWN_ALGORITHM",
    `no MAC named "${name}" in this build${suggestion ? ` (did you mean "${suggestion}"?)` : ""}; ` +
      `names are lower case, as macNames() lists them: ${macNames().join(", ")}.`,
  );
}

/** A prepared key for the MAC named `name`. */
export function mac(name: MacName, key: Bytes, options?: MacOptions): Mac {
  return new PreparedMac(macAlgorithm(name), key, options);
}

/** The MAC names this build offers. */
export function macNames(): MacName[] {
  return Object.keys(ALGORITHMS) as MacName[];
}

/** Sizes and rules of one MAC, from `macInfo(name)`. */
export interface MacInfo {
  /** The algorithm's name, as `mac()` takes it. */
  name: MacName;
  /** Exact key size in bytes, or undefined for any length (16 bytes at least by default). */
  keyLength: number | undefined;
  /** The key size generateKey() uses: the exact size, else the full tag length, at least 16. */
  recommendedKeyLength: number;
  /** Default tag length in bytes (nonce included, for MACs that carry one). */
  tagLength: number;
  /** Bytes of nonce at the front of each tag (GMAC, ChaCha20-Poly1305), else 0. */
  nonceLength: number;
  /** Shortest tag accepted without allowShortTags. */
  minTagLength: number;
  /** One message per key (Poly1305): a second use throws KEY_REUSED. */
  oneTime: boolean;
}

/** Key and tag sizes of a MAC, for tools and documentation. */
export function macInfo(name: MacName): MacInfo {
  const a = macAlgorithm(name);
  return {
    name: a.name,
    keyLength: a.key.kind === "fixed" ? a.key.length : undefined,
    recommendedKeyLength:
      a.key.kind === "fixed" ? a.key.length : Math.max(a.key.minimum ?? MIN_KEY_LENGTH, a.tag.full),
    tagLength: (a.nonceLength ?? 0) + a.tag.full,
    nonceLength: a.nonceLength ?? 0,
    minTagLength: a.tag.safeMinimum,
    oneTime: a.oneTime === true,
  };
}
