import { KeyedError } from "../../core/errors.js";
import { describeType } from "../../core/options.js";
import type { HashFunction } from "../../hash/hash.js";
import { HASH_FUNCTIONS } from "../../hash/index.js";

/** The TCP-AO MAC algorithms: RFC 5926 section 3.2's two, and HMAC-SHA-256 truncated to 128 bits. */
export type TcpAoAlgorithm = "hmac-sha1-96" | "aes-128-cmac-96" | "hmac-sha256-128";

export interface AlgorithmSpec {
  /** Traffic key bytes: the KDF's Output_Length (RFC 5926 3.1.1). */
  readonly keyLength: number;
  /** MAC bytes carried in the option. */
  readonly macLength: number;
  readonly hash?: HashFunction;
}

const ALGORITHMS: Record<TcpAoAlgorithm, AlgorithmSpec> = {
  // RFC 5926 3.1.1.1 and 3.2.1: KDF_HMAC_SHA1, Output_Length 160; MAC truncated to 96 bits.
  "hmac-sha1-96": { keyLength: 20, macLength: 12, hash: HASH_FUNCTIONS.sha1 },
  // RFC 5926 3.1.1.2 and 3.2.2: KDF_AES_128_CMAC, Output_Length 128; AES-CMAC-96 (RFC 4494).
  "aes-128-cmac-96": { keyLength: 16, macLength: 12 },
  // The same KDF with HMAC-SHA-256 and Output_Length 256, MAC truncated to 128 bits (as Linux
  // builds it for "hmac(sha256)"; no RFC defines it).
  "hmac-sha256-128": { keyLength: 32, macLength: 16, hash: HASH_FUNCTIONS.sha256 },
};

export function algorithmSpec(algorithm: unknown): AlgorithmSpec {
  if (typeof algorithm !== "string" || !Object.hasOwn(ALGORITHMS, algorithm)) {
    throw new KeyedError(
      "UNKNOWN_ALGORITHM",
      `TCP-AO algorithm must be one of ${Object.keys(ALGORITHMS).join(", ")}; got ${typeof algorithm === "string" || typeof algorithm === "number" ? JSON.stringify(algorithm) : describeType(algorithm)}.`,
    );
  }
  return ALGORITHMS[algorithm as TcpAoAlgorithm];
}

/** TCP option kind of TCP-AO (RFC 5925 section 2.2). */
export const TCP_AO_OPTION_KIND = 29;
export const TCP_HEADER_LENGTH = 20;
export const TCP_PROTOCOL = 6;
export const MAX_UINT32 = 0xffffffff;
