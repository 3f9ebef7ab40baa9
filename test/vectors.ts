/**
 * Finds the shared test-vector folder: $KEYED_VECTORS, or ../shared/vectors beside the repository.
 * Vector files are never copied into the repository; when the folder is absent, the suites that
 * need it are reported as skipped with the reason.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export const VECTORS_DIR = process.env.KEYED_VECTORS
  ? resolve(process.env.KEYED_VECTORS)
  : resolve(repoRoot, "..", "shared", "vectors");

/** The absolute path of a vector file, or undefined when it is not there. */
export function vectorPath(relative: string): string | undefined {
  const path = join(VECTORS_DIR, relative);
  return existsSync(path) ? path : undefined;
}

/** Why a suite is skipped, for node:test's `skip` option; false when the file is present. */
export function skipUnless(relative: string): string | false {
  return vectorPath(relative)
    ? false
    : `vector file ${relative} not found under ${VECTORS_DIR} (set KEYED_VECTORS)`;
}

export function readVectorJson<T>(relative: string): T {
  const path = vectorPath(relative);
  if (!path) throw new Error(`missing vector file ${relative}`);
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
