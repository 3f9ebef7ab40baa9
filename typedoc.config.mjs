// The API reference (`npm run docs`, into dist-api/): every entry point in package.json's
// `exports`, from its TypeScript source. An undocumented public export is an error.
import { readFileSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));
const entryPoints = Object.values(pkg.exports)
  .map((target) => (typeof target === "string" ? target : target.default))
  .filter((path) => path.endsWith(".js"))
  .map((path) => path.replace(/^\.\/dist\//, "./src/").replace(/\.js$/, ".ts"));

/** @type {Partial<import("typedoc").TypeDocOptions>} */
export default {
  entryPoints,
  out: "dist-api",
  tsconfig: "tsconfig.build.json",
  name: "keyed",
  readme: "README.md",
  excludePrivate: true,
  excludeInternal: true,
  validation: { notExported: true, invalidLink: true, notDocumented: true },
  // Machinery behind public types: PreparedMac and MacAlgorithm are how every algorithm becomes
  // a `Mac` (the public contract), HMAC_HASHES and HmacName spell out `HmacHash`; the shared
  // header and body shapes of src/protocols/http are spelled out in the protocols' own types.
  intentionallyNotExported: [
    "PreparedMac",
    "MacAlgorithm",
    "HMAC_HASHES",
    "HmacName",
    "HeaderList",
    "HeaderRecord",
    "HeadersWithGet",
    "BodyFailure",
  ],
  treatWarningsAsErrors: true,
  // No public repository URL yet: links to a source host would be broken (and a clone's origin is
  // a local path TypeDoc warns about), so the reference names files without linking them.
  disableSources: true,
  githubPages: false,
  hideGenerator: true,
};
