/**
 * The vector sample the conformance script checks in every runtime: up to `PER_FILE` cases spread
 * evenly over each Wycheproof MAC file (valid and invalid alike), read here by Node and handed to
 * the other runtimes inside their bundle. Files that are absent are left out; under CI
 * `vectorPath` fails instead (test/vectors.ts).
 */
import type { MacName, MacOptions } from "keyed";
import {
  type AeadTestGroup,
  type MacTestGroup,
  type MacWithIvTestGroup,
  readVectorJson,
  vectorPath,
  WYCHEPROOF_HMAC_FILES,
  type WycheproofFile,
} from "../vectors.js";
import type { ConformanceInput, VectorCase } from "./conformance.js";

const PER_FILE = 8;

const CMAC_BY_KEY_BITS: Record<number, MacName> = {
  128: "cmac-aes128",
  192: "cmac-aes192",
  256: "cmac-aes256",
};

/** Every `step`-th of `all`, at most PER_FILE. */
function spread<T>(all: T[]): T[] {
  const step = Math.max(1, Math.floor(all.length / PER_FILE));
  return all.filter((_, i) => i % step === 0).slice(0, PER_FILE);
}

function macFile(
  file: string,
  toCase: (group: MacTestGroup) => { name: MacName; options: MacOptions } | undefined,
): VectorCase[] {
  const data = readVectorJson<WycheproofFile<MacTestGroup>>(`wycheproof/${file}`);
  const cases: VectorCase[] = [];
  for (const group of data.testGroups) {
    const how = toCase(group);
    if (how === undefined) continue;
    for (const t of group.tests) {
      cases.push({
        kind: "mac",
        ...how,
        key: t.key,
        msg: t.msg,
        tag: t.tag,
        valid: t.result === "valid",
      });
    }
  }
  return spread(cases);
}

/** The sample, from the shared vector folder. */
export function vectorSample(): ConformanceInput {
  const files: [string, () => VectorCase[]][] = [];
  for (const [file, name] of WYCHEPROOF_HMAC_FILES) {
    files.push([
      file,
      () =>
        macFile(file, (g) => ({
          name,
          options: { tagLength: g.tagSize / 8, allowShortKeys: true, allowShortTags: true },
        })),
    ]);
  }
  files.push([
    "aes_cmac_test.json",
    () =>
      macFile("aes_cmac_test.json", (g) => {
        const name = CMAC_BY_KEY_BITS[g.keySize];
        return name && { name, options: { tagLength: g.tagSize / 8, allowShortTags: true } };
      }),
  ]);
  for (const [file, name] of [
    ["kmac128_no_customization_test.json", "kmac128"],
    ["kmac256_no_customization_test.json", "kmac256"],
  ] as const) {
    files.push([
      file,
      () =>
        macFile(file, (g) => ({
          name,
          options: { tagLength: g.tagSize / 8, allowShortKeys: true },
        })),
    ]);
  }
  for (const [file, name] of [
    ["siphash_2_4_test.json", "siphash-2-4"],
    ["siphash_1_3_test.json", "siphash-1-3"],
    ["siphashx_2_4_test.json", "siphash-2-4-128"],
  ] as const) {
    files.push([file, () => macFile(file, () => ({ name, options: { allowShortTags: true } }))]);
  }
  files.push([
    "aes_gmac_test.json",
    () => {
      const data = readVectorJson<WycheproofFile<MacWithIvTestGroup>>(
        "wycheproof/aes_gmac_test.json",
      );
      return spread(
        data.testGroups.flatMap((g) =>
          g.tests.map((t) => ({
            kind: "gmac" as const,
            key: t.key,
            iv: t.iv,
            msg: t.msg,
            tag: t.tag,
            valid: t.result === "valid",
          })),
        ),
      );
    },
  ]);
  for (const [file, kind] of [
    ["chacha20_poly1305_test.json", "aead"],
    ["xchacha20_poly1305_test.json", "xaead"],
  ] as const) {
    files.push([
      file,
      () => {
        const data = readVectorJson<WycheproofFile<AeadTestGroup>>(`wycheproof/${file}`);
        return spread(
          data.testGroups.flatMap((g) =>
            g.tests.map((t) => ({
              kind,
              key: t.key,
              iv: t.iv,
              aad: t.aad,
              msg: t.msg,
              ct: t.ct,
              tag: t.tag,
              valid: t.result === "valid",
            })),
          ),
        );
      },
    ]);
  }
  return {
    vectors: files
      .filter(([file]) => vectorPath(`wycheproof/${file}`) !== undefined)
      .map(([file, read]) => ({ file, cases: read() })),
  };
}
