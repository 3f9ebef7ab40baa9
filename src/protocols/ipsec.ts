/**
 * HMAC-SHA-256, -384 and -512 in IPsec (RFC 4868): the ESP/AH integrity algorithms, whose ICV is
 * the HMAC truncated to half its length, and the IKEv2 PRFs, which keep the whole output.
 *
 * | algorithm         | key (RFC 4868 2.1.1) | ICV (2.3)          |
 * | ----------------- | -------------------- | ------------------ |
 * | hmac-sha256-128   | 32 bytes             | 16 bytes (128 bits) |
 * | hmac-sha384-192   | 48 bytes             | 24 bytes (192 bits) |
 * | hmac-sha512-256   | 64 bytes             | 32 bytes (256 bits) |
 *
 * With extended sequence numbers (ESN), the high-order 32 bits of the sequence number are part of
 * the ICV's input, after the packet, though never sent (RFC 4303 2.2.1 and 3.3.2.2 for ESP,
 * RFC 4302 3.3.3.2.2 for AH): pass them as `esnHigh`.
 */
import { assertBytes, assertInteger, type Bytes } from "../core/bytes.js";
import { KeyedError } from "../core/errors.js";
import type { Mac } from "../core/mac.js";
import { checkOptions, describeType } from "../core/options.js";
import { redactKeyMaterial } from "../core/redact.js";
import { hmac } from "../mac/hmac.js";

/** The ESP/AH integrity algorithms of RFC 4868 (HMAC-SHA-256/384/512, truncated to half). */
export type IpsecIntegrityAlgorithm = "hmac-sha256-128" | "hmac-sha384-192" | "hmac-sha512-256";
/** The IKEv2 PRFs of RFC 4868 (the untruncated HMAC). */
export type IpsecPrfAlgorithm = "prf-hmac-sha256" | "prf-hmac-sha384" | "prf-hmac-sha512";

const INTEGRITY: Record<
  IpsecIntegrityAlgorithm,
  { hash: "sha256" | "sha384" | "sha512"; keyLength: number; icvLength: number }
> = {
  "hmac-sha256-128": { hash: "sha256", keyLength: 32, icvLength: 16 },
  "hmac-sha384-192": { hash: "sha384", keyLength: 48, icvLength: 24 },
  "hmac-sha512-256": { hash: "sha512", keyLength: 64, icvLength: 32 },
};

const PRF: Record<IpsecPrfAlgorithm, "sha256" | "sha384" | "sha512"> = {
  "prf-hmac-sha256": "sha256",
  "prf-hmac-sha384": "sha384",
  "prf-hmac-sha512": "sha512",
};

function lookup<T>(table: Record<string, T>, name: unknown, what: string): T {
  if (typeof name !== "string" || !Object.hasOwn(table, name)) {
    throw new KeyedError(
      "UNKNOWN_ALGORITHM",
      `${what} must be one of ${Object.keys(table).join(", ")}; got ${typeof name === "string" || typeof name === "number" ? JSON.stringify(name) : describeType(name)}.`,
    );
  }
  return table[name];
}

/** Settings of one `icv` or `verify` call. */
export interface IpsecIcvOptions {
  /** The high 32 bits of a 64-bit extended sequence number, when the SA uses ESN. */
  esnHigh?: number;
}

const ICV_OPTIONS = ["esnHigh"];

/** An ESP or AH integrity key: computes and checks ICVs. */
export class IpsecIntegrity {
  /** The integrity algorithm. */
  readonly algorithm: IpsecIntegrityAlgorithm;
  /** ICV bytes: half the hash output (RFC 4868 2.3). */
  readonly icvLength: number;
  private readonly mac: Mac;
  private readonly high = new Uint8Array(4);

  /** `key` must be exactly the hash output length (RFC 4868 2.1.1): 32, 48 or 64 bytes. */
  constructor(algorithm: IpsecIntegrityAlgorithm, key: Bytes) {
    const spec = lookup(INTEGRITY, algorithm, "algorithm");
    assertBytes(key, "key");
    if (key.length !== spec.keyLength) {
      throw new KeyedError(
        "KEY_LENGTH",
        `${algorithm} takes a key of exactly ${spec.keyLength} bytes (RFC 4868 2.1.1); got ${key.length}.`,
      );
    }
    this.algorithm = algorithm;
    this.icvLength = spec.icvLength;
    this.mac = hmac(spec.hash, key, { tagLength: spec.icvLength });
  }

  private esn(options: IpsecIcvOptions | undefined): Uint8Array | undefined {
    if (options === undefined) return undefined;
    const { esnHigh } = checkOptions<IpsecIcvOptions>(options, ICV_OPTIONS, "IPsec ICV options");
    if (esnHigh === undefined) return undefined;
    const high = assertInteger(esnHigh, "options.esnHigh", 0, 0xffffffff);
    const b = this.high;
    b[0] = high >>> 24;
    b[1] = high >>> 16;
    b[2] = high >>> 8;
    b[3] = high;
    return b;
  }

  /**
   * The ICV of `data`: for ESP, the ESP header ‖ payload ‖ padding ‖ pad length ‖ next header
   * (RFC 4303 2.8); for AH, the packet with mutable fields and the ICV zeroed (RFC 4302 3.3.3).
   */
  icv(data: Bytes, options?: IpsecIcvOptions, out?: Bytes): Bytes {
    assertBytes(data, "data");
    const esn = this.esn(options);
    if (esn === undefined) return this.mac.tag(data, out);
    return this.mac.stream().update(data).update(esn).digest(out);
  }

  /** Constant-time check; false for a wrong ICV or one of the wrong length. */
  verify(data: Bytes, icv: Bytes, options?: IpsecIcvOptions): boolean {
    assertBytes(data, "data");
    assertBytes(icv, "icv");
    const esn = this.esn(options);
    if (esn === undefined) return this.mac.verify(data, icv);
    return this.mac.stream().update(data).update(esn).verify(icv);
  }

  /** Wipes the key; later calls throw DESTROYED. */
  destroy(): void {
    this.mac.destroy();
  }
}

redactKeyMaterial(IpsecIntegrity, (k) => ({ algorithm: k.algorithm, icvLength: k.icvLength }));

/** `new IpsecIntegrity(algorithm, key)`. */
export function ipsecIntegrity(algorithm: IpsecIntegrityAlgorithm, key: Bytes): IpsecIntegrity {
  return new IpsecIntegrity(algorithm, key);
}

/** Settings of `ipsecPrf`. */
export interface IpsecPrfOptions {
  /**
   * Accept keys under 16 bytes. IKEv2 keys its PRF with nonces and shared secrets, never that
   * short; RFC 4868's PRF-2 test case uses the 4-byte key "Jefe".
   */
  allowShortKeys?: boolean;
}

/**
 * PRF-HMAC-SHA-256/384/512 (RFC 4868 2.1.2): the untruncated HMAC, for IKEv2. Keys of any length
 * (from 16 bytes without `allowShortKeys`); longer than a block, they are hashed first (RFC 2104).
 */
export function ipsecPrf(
  algorithm: IpsecPrfAlgorithm,
  key: Bytes,
  data: Bytes,
  options?: IpsecPrfOptions,
): Bytes {
  const hash = lookup(PRF, algorithm, "algorithm");
  assertBytes(key, "key");
  assertBytes(data, "data");
  const { allowShortKeys } = checkOptions<IpsecPrfOptions>(
    options,
    ["allowShortKeys"],
    "ipsecPrf options",
  );
  const mac = hmac(hash, key, { allowShortKeys });
  try {
    return mac.tag(data);
  } finally {
    mac.destroy();
  }
}
