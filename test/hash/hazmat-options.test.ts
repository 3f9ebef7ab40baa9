/** The hazmat functions' options go through the one option checker too (issue 18). */
import { describe, it } from "node:test";
import { blake3, cshake, kmac, siphash, tupleHash } from "../../src/hazmat.js";
import { throwsKeyed } from "../helpers.js";

const m = new Uint8Array(4);

describe("hazmat options: a misspelt name is BAD_INPUT with a did-you-mean", () => {
  it("blake3, cshake, tupleHash, kmac, siphash", () => {
    throwsKeyed(() => blake3(m, { lenght: 16 } as never), "BAD_INPUT", /did you mean "length"/);
    throwsKeyed(
      () => cshake(128, m, 16, { custom: "x" } as never),
      "BAD_INPUT",
      /cshake options: unknown option "custom"/,
    );
    throwsKeyed(() => tupleHash(128, [m], 16, { xfo: true } as never), "BAD_INPUT", /"xof"/);
    throwsKeyed(
      () => kmac(128, new Uint8Array(32), m, 16, { customisation: "x" } as never),
      "BAD_INPUT",
      /did you mean "customization"/,
    );
    throwsKeyed(
      () => siphash(new Uint8Array(16), m, { outLen: 16 } as never),
      "BAD_INPUT",
      /siphash options/,
    );
  });
});
