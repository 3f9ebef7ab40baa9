/**
 * Finds the shared test-vector folder: $KEYED_VECTORS, or ../shared/vectors beside the repository.
 * Vector files are never copied into the repository. When a file (or the whole folder) is absent,
 * the suites that need it are reported as skipped with the reason, except under CI (CI set to
 * anything but "", "0" or "false"): there a missing vector file is a failure naming the path, so
 * a green CI run has always checked the vectors.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { MacName } from "../src/core/mac.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export const VECTORS_DIR = process.env.KEYED_VECTORS
  ? resolve(process.env.KEYED_VECTORS)
  : resolve(repoRoot, "..", "shared", "vectors");

/** True when `ci` (the CI environment variable) asks for a CI run. */
export function isCi(ci: string | undefined): boolean {
  return ci !== undefined && ci !== "" && ci !== "0" && ci.toLowerCase() !== "false";
}

/** Whether a missing vector file fails the run (under CI) instead of skipping its suite. */
export const VECTORS_REQUIRED = isCi(process.env.CI);

/**
 * What to do about `relative` under `dir`: its absolute path when present; when absent, the reason
 * to skip, or (when `required`) an Error to throw. Pure, so the policy can be tested directly.
 */
export function locateVector(
  relative: string,
  dir: string,
  required: boolean,
): { path: string } | { skip: string } | { error: Error } {
  const path = join(dir, relative);
  if (existsSync(path)) return { path };
  const where = existsSync(dir)
    ? `vector file ${path} not found`
    : `vector folder ${dir} not found (looking for ${relative})`;
  if (required) {
    return {
      error: new Error(
        `${where}; CI is set, so missing vectors fail the run instead of skipping ` +
          "(set KEYED_VECTORS to the shared vectors folder).",
      ),
    };
  }
  return { skip: `${where} (set KEYED_VECTORS)` };
}

/** The absolute path of a vector file, or undefined when it is not there (throws under CI). */
export function vectorPath(relative: string): string | undefined {
  const found = locateVector(relative, VECTORS_DIR, VECTORS_REQUIRED);
  if ("error" in found) throw found.error;
  return "path" in found ? found.path : undefined;
}

/**
 * Why a suite is skipped, for node:test's `skip` option; false when the file is present. Under CI
 * a missing file throws instead, failing the suite that asked.
 */
export function skipUnless(relative: string): string | false {
  const found = locateVector(relative, VECTORS_DIR, VECTORS_REQUIRED);
  if ("error" in found) throw found.error;
  return "skip" in found ? found.skip : false;
}

export function readVectorJson<T>(relative: string): T {
  const path = vectorPath(relative);
  if (!path) throw new Error(`missing vector file ${join(VECTORS_DIR, relative)}`);
  return JSON.parse(readFileSync(path, "utf8")) as T;
}

// --- Wycheproof shapes (schemas/*.json) ---------------------------------------------------------

export interface WycheproofFile<G> {
  algorithm: string;
  numberOfTests: number;
  testGroups: G[];
}

export interface MacTestGroup {
  keySize: number;
  tagSize: number;
  tests: {
    tcId: number;
    comment: string;
    key: string;
    msg: string;
    tag: string;
    result: string;
    flags: string[];
  }[];
}

export interface HkdfTestGroup {
  keySize: number;
  tests: {
    tcId: number;
    comment: string;
    ikm: string;
    salt: string;
    info: string;
    size: number;
    okm: string;
    result: string;
    flags: string[];
  }[];
}

export interface MacWithIvTestGroup {
  keySize: number;
  ivSize: number;
  tagSize: number;
  tests: {
    tcId: number;
    comment: string;
    key: string;
    iv: string;
    msg: string;
    tag: string;
    result: string;
    flags: string[];
  }[];
}

export interface AeadTestGroup {
  keySize: number;
  ivSize: number;
  tagSize: number;
  tests: {
    tcId: number;
    comment: string;
    key: string;
    iv: string;
    aad: string;
    msg: string;
    ct: string;
    tag: string;
    result: string;
    flags: string[];
  }[];
}

/** The Wycheproof HMAC files and the MAC each one tests. */
export const WYCHEPROOF_HMAC_FILES: [string, MacName][] = [
  ["hmac_sha1_test.json", "hmac-sha1"],
  ["hmac_sha224_test.json", "hmac-sha224"],
  ["hmac_sha256_test.json", "hmac-sha256"],
  ["hmac_sha384_test.json", "hmac-sha384"],
  ["hmac_sha512_test.json", "hmac-sha512"],
  ["hmac_sha512_224_test.json", "hmac-sha512-224"],
  ["hmac_sha512_256_test.json", "hmac-sha512-256"],
  ["hmac_sha3_224_test.json", "hmac-sha3-224"],
  ["hmac_sha3_256_test.json", "hmac-sha3-256"],
  ["hmac_sha3_384_test.json", "hmac-sha3-384"],
  ["hmac_sha3_512_test.json", "hmac-sha3-512"],
];
