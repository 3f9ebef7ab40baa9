/**
 * keyed keyset and --keyset, run as a user runs them (node bin/keyed.js against dist/): rotation
 * step by step, the file's mode and format, exports read back by the library, refusals, and the
 * key-file round trip (whatever keygen and derive write, --key-file reads back as the same key).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  base64ToBytes,
  bytesToBase64,
  deriveKey,
  generateKey,
  hexToBytes,
  Keyset,
  mac,
} from "../../src/index.js";
import { keysetKeyBytes } from "../../src/safe/keyset.js";
import { toHex } from "../helpers.js";
import { vectorPath } from "../vectors.js";
import { BIN, keyed, parseTagLines, type RunResult, skipUnlessBuilt } from "./run.js";

let dir = "";
const path = (name: string) => join(dir, name);
const message = new TextEncoder().encode("release 1.2.3\n");

function ok(result: RunResult): RunResult {
  assert.equal(result.status, 0, `exit ${result.status}; stderr: ${result.stderr}`);
  return result;
}

function usageError(result: RunResult, pattern: RegExp): void {
  assert.equal(result.status, 2, `exit ${result.status}; stderr: ${result.stderr}`);
  const lines = result.stderr.trimEnd().split("\n");
  assert.equal(lines.length, 1, `one line on stderr:\n${result.stderr}`);
  assert.match(lines[0], pattern);
  assert.doesNotMatch(result.stderr, /\n\s+at /);
}

/** No trace of any key of `keyset` (hex, base64) in what a command printed. */
function assertNoKeys(keyset: Keyset, ...results: RunResult[]): void {
  for (const key of keyset.keys()) {
    const bytes = keysetKeyBytes(keyset, key.id);
    if (bytes === undefined) continue;
    for (const result of results) {
      for (const text of [result.stdout, result.stderr]) {
        assert.equal(text.includes(toHex(bytes)), false, "hex key printed");
        assert.equal(text.includes(bytesToBase64(bytes)), false, "base64 key printed");
      }
    }
  }
}

describe("keyed keyset", { skip: skipUnlessBuilt }, () => {
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "keyed-keyset-"));
    writeFileSync(path("release.tar"), message);
    writeFileSync(path("notes.txt"), "notes\n");
  });
  after(() => {
    if (dir !== "") rmSync(dir, { recursive: true, force: true });
  });

  it("rotation, step by step: new, tag, add, promote, check, disable, destroy", async () => {
    const file = path("rotation.keyset");
    const created = ok(await keyed(["keyset", "new", "hmac-sha256", "--out", file]));
    assert.equal(created.stdout, "", "a keyset is never printed");
    assert.match(
      created.stderr,
      /wrote a keyset with one hmac-sha256 key, id \d+ \(primary\).*mode 0600/,
    );
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const first = Keyset.fromKeyedJson(readFileSync(file, "utf8"));
    const a = first.primaryId;

    const tagA = ok(await keyed(["tag", "--keyset", file, path("release.tar")]));
    const [lineA] = parseTagLines(tagA.stdout);
    assert.equal(lineA.algorithm, "keyset");
    assert.equal(lineA.tag, toHex(first.tag(message)), "the library's tag, prefix and all");
    assert.equal(lineA.tag.slice(2, 10), a.toString(16).padStart(8, "0"));
    writeFileSync(path("old.tags"), tagA.stdout);

    const added = ok(await keyed(["keyset", "add", file, "hmac-sha256"]));
    const b = Number(added.stdout.trim());
    assert.ok(Number.isInteger(b) && b > 0 && b !== a);
    assert.equal(statSync(file).mode & 0o777, 0o600, "still 0600 after a change");
    ok(await keyed(["keyset", "promote", file, String(b)]));
    const tagB = ok(await keyed(["tag", "--keyset", file, path("release.tar")]));
    assert.equal(parseTagLines(tagB.stdout)[0].tag.slice(2, 10), b.toString(16).padStart(8, "0"));
    writeFileSync(path("all.tags"), tagA.stdout + tagB.stdout);
    const both = ok(await keyed(["check", "--keyset", file, path("all.tags")]));
    assert.equal(both.stdout, `${path("release.tar")}: OK\n${path("release.tar")}: OK\n`);

    const listed = ok(await keyed(["keyset", "list", file]));
    assert.match(listed.stdout, /^ID\s+ALGORITHM\s+TAG\s+PREFIX\s+STATUS/);
    assert.match(listed.stdout, new RegExp(`\\n${a}\\s+hmac-sha256\\s+32\\s+tink\\s+enabled\\n`));
    assert.match(
      listed.stdout,
      new RegExp(`\\n${b}\\s+hmac-sha256\\s+32\\s+tink\\s+enabled \\(primary\\)`),
    );

    ok(await keyed(["keyset", "disable", file, String(a)]));
    const refused = await keyed(["check", "--keyset", file, path("all.tags")]);
    assert.equal(refused.status, 1);
    assert.equal(refused.stdout, `${path("release.tar")}: FAILED\n${path("release.tar")}: OK\n`);
    const verifyOld = await keyed([
      "verify",
      "--keyset",
      file,
      "--tag",
      `keyset:${lineA.tag}`,
      path("release.tar"),
    ]);
    assert.equal(verifyOld.status, 1);

    const before = Keyset.fromKeyedJson(readFileSync(file, "utf8"));
    const aKey = keysetKeyBytes(first, a)!;
    ok(await keyed(["keyset", "destroy", file, String(a)]));
    const text = readFileSync(file, "utf8");
    assert.equal(text.includes(bytesToBase64(aKey)), false, "A's bytes are gone from the file");
    const after = Keyset.fromKeyedJson(text);
    assert.equal(after.get(a)?.status, "destroyed");
    assert.equal(after.verify(message, hexToBytes(lineA.tag)), false);
    assert.equal(before.get(b)?.primary, true);
    const json = JSON.parse(ok(await keyed(["keyset", "list", file, "--json"])).stdout);
    assert.deepEqual(
      json.keys.map((k: { id: number; status: string }) => [k.id, k.status]),
      [
        [a, "destroyed"],
        [b, "enabled"],
      ],
    );
    assertNoKeys(first, created, tagA, added, listed, both);
    assertNoKeys(after, tagB, refused);
  });

  it("export: Tink JSON, Tink binary and JWK Set, read back by the library", async () => {
    const file = path("export.keyset");
    ok(await keyed(["keyset", "new", "hmac-sha256", "--prefix", "raw", "--out", file]));
    ok(
      await keyed([
        "keyset",
        "add",
        file,
        "hmac-sha512",
        "--prefix",
        "crunchy",
        "--tag-length",
        "32",
      ]),
    );
    const original = Keyset.fromKeyedJson(readFileSync(file, "utf8"));
    const readers = {
      tink: (p: string) => Keyset.fromTinkJson(readFileSync(p, "utf8")),
      "tink-binary": (p: string) => Keyset.fromTinkBinary(readFileSync(p)),
      keyed: (p: string) => Keyset.fromKeyedJson(readFileSync(p, "utf8")),
    };
    for (const [format, read] of Object.entries(readers)) {
      const out = path(`export.${format}`);
      const result = ok(await keyed(["keyset", "export", file, "--format", format, "--out", out]));
      assert.equal(result.stdout, "");
      assert.equal(statSync(out).mode & 0o777, 0o600);
      assert.deepEqual(read(out).keys(), original.keys(), format);
      // And every format reads back through --keyset.
      const tagged = ok(await keyed(["tag", "--keyset", out, path("release.tar")]));
      assert.equal(parseTagLines(tagged.stdout)[0].tag, toHex(original.tag(message)), format);
    }
    // The JWK Set holds only the HS256/384/512 keys with full tags: the truncated one is refused.
    usageError(
      await keyed(["keyset", "export", file, "--format", "jwks", "--out", path("x.jwks")]),
      /no JWK form/,
    );
    const hs = path("hs.keyset");
    ok(await keyed(["keyset", "new", "hmac-sha384", "--prefix", "raw", "--out", hs]));
    ok(await keyed(["keyset", "export", hs, "--format", "jwks", "--out", path("hs.jwks")]));
    const jwks = JSON.parse(readFileSync(path("hs.jwks"), "utf8"));
    assert.equal(jwks.keys[0].alg, "HS384");
    const fromJwks = Keyset.fromJwks(jwks);
    const hsKeyset = Keyset.fromKeyedJson(readFileSync(hs, "utf8"));
    assert.equal(toHex(fromJwks.tag(message)), toHex(hsKeyset.tag(message)));
    // Non-Tink algorithms are refused by the Tink formats, with the way out.
    const b3 = path("b3.keyset");
    ok(await keyed(["keyset", "new", "blake3", "--out", b3]));
    usageError(
      await keyed(["keyset", "export", b3, "--format", "tink", "--out", path("b3.tink")]),
      /no Tink key type.*--format keyed/,
    );
    assert.equal(existsSync(path("b3.tink")), false);
  });

  it("a published Tink keyset tags through --keyset, and changes keep its format", async () => {
    const source = vectorPath("tink/keysets/tink-java_JsonKeysetReaderTest_JSON_KEYSET.json");
    if (source === undefined) return;
    const file = path("tink.json");
    writeFileSync(file, readFileSync(source), { mode: 0o600 });
    const result = ok(
      await keyed(
        ["verify", "--keyset", file, "--tag", "0120a4107f3549e4fb3137415a63f5c8a0524f8ca7", "-"],
        {
          input: "data",
        },
      ),
    );
    assert.equal(result.stdout, "-: OK\n");
    ok(await keyed(["keyset", "add", file, "hmac-sha256", "--primary"]));
    const again = Keyset.fromTinkJson(readFileSync(file, "utf8"));
    assert.equal(again.keys().length, 2);
    assert.notEqual(again.primaryId, 547623039);
    usageError(await keyed(["keyset", "add", file, "blake3"]), /no Tink key type/);
  });

  it("checks many files on worker threads with a keyset", async () => {
    const file = path("workers.keyset");
    ok(await keyed(["keyset", "new", "blake3", "--out", file]));
    const names: string[] = [];
    for (let i = 0; i < 4; i++) {
      const name = path(`big-${i}.bin`);
      writeFileSync(name, new Uint8Array(3 << 20).fill(i + 1));
      names.push(name);
    }
    const tags = ok(await keyed(["tag", "--keyset", file, "-j", "2", ...names]));
    const keyset = Keyset.fromKeyedJson(readFileSync(file, "utf8"));
    const lines = parseTagLines(tags.stdout);
    lines.forEach((line, i) => {
      assert.equal(line.tag, toHex(keyset.tag(readFileSync(names[i]))));
    });
    writeFileSync(path("big.tags"), tags.stdout);
    const checked = ok(await keyed(["check", "--keyset", file, "-j", "2", path("big.tags")]));
    assert.equal(checked.stdout.split("\n").filter((l) => l.endsWith(": OK")).length, 4);
  });

  it("refusals: flags, subcommands, files, formats and symbolic links", async () => {
    const file = path("refusals.keyset");
    ok(await keyed(["keyset", "new", "hmac-sha256", "--out", file]));
    usageError(
      await keyed(["keyset", "new", "hmac-sha256", "--out", file]),
      /already exists; --force/,
    );
    usageError(
      await keyed(["keyset", "new", "hmac-sha256"]),
      /needs --out FILE \(keysets are never printed\)/,
    );
    usageError(await keyed(["keyset", "new", "poly1305", "--out", path("p")]), /one-time/);
    usageError(await keyed(["keyset", "new", "gmac-aes128", "--out", path("g")]), /nonce/);
    usageError(
      await keyed(["keyset", "new", "hmac-sha256", "--prefix", "weird", "--out", path("w")]),
      /--prefix takes/,
    );
    usageError(await keyed(["keyset", "frobnicate", file]), /unknown subcommand "frobnicate"/);
    usageError(await keyed(["keyset"]), /give a subcommand/);
    usageError(await keyed(["keyset", "promote", file, "12"]), /no key with id 12/);
    usageError(await keyed(["keyset", "promote", file, "x"]), /whole number/);
    const primary = Keyset.fromKeyedJson(readFileSync(file, "utf8")).primaryId;
    usageError(
      await keyed(["keyset", "destroy", file, String(primary)]),
      /is the primary; promote another key/,
    );
    usageError(await keyed(["keyset", "list", file, "--prefix", "raw"]), /does not take --prefix/);
    usageError(
      await keyed(["tag", "--keyset", file, "-a", "blake3", path("notes.txt")]),
      /drop -a/,
    );
    usageError(
      await keyed(["tag", "--keyset", file, "--key-env", "K", path("notes.txt")], {
        env: { K: "00" },
      }),
      /drop --key-env/,
    );
    writeFileSync(path("garbled.keyset"), '{"keyedKeyset": 1, "keys": [');
    usageError(
      await keyed(["tag", "--keyset", path("garbled.keyset"), path("notes.txt")]),
      /garbled.keyset: .*not valid JSON/,
    );
    writeFileSync(path("binary.keyset"), new Uint8Array([0x12, 0x40, 1, 2]));
    usageError(await keyed(["keyset", "list", path("binary.keyset")]), /binary.keyset: .*protobuf/);
    usageError(
      await keyed(["keyset", "list", path("missing.keyset")]),
      /cannot read the keyset file .*no such file/,
    );
    // A keyset tag checked with a key, or a key's tag with a keyset, says which to use.
    writeFileSync(path("keyset.tags"), `keyset:${"ab".repeat(37)}  ${path("notes.txt")}\n`);
    const key = toHex(generateKey("hmac-sha256"));
    const wrongWay = await keyed(
      ["check", "-a", "hmac-sha256", "--key-env", "K", path("keyset.tags")],
      { env: { K: key } },
    );
    assert.match(wrongWay.stderr, /a keyset tag: check it with --keyset FILE/);
    // Changes never go through a symbolic link, and --out never follows one.
    const link = path("link.keyset");
    symlinkSync(file, link);
    usageError(await keyed(["keyset", "add", link, "hmac-sha256"]), /symbolic link/);
    const target = path("target");
    const outLink = path("out-link");
    symlinkSync(target, outLink);
    usageError(
      await keyed(["keyset", "new", "hmac-sha256", "--out", outLink, "--force"]),
      /symbolic link/,
    );
    usageError(
      await keyed(["keyset", "export", file, "--format", "tink", "--out", outLink, "--force"]),
      /symbolic link/,
    );
    assert.equal(existsSync(target), false);
    // A JWK Set has no states: it is read, not changed.
    const jwks = path("set.jwks");
    ok(await keyed(["keyset", "export", file, "--format", "keyed", "--out", path("copy.keyset")]));
    writeFileSync(jwks, JSON.stringify(Keyset.generate("hmac-sha256", { prefix: "raw" }).toJwks()));
    usageError(
      await keyed(["keyset", "add", jwks, "hmac-sha256"]),
      /JWK Set, which has no key states/,
    );
    ok(await keyed(["keyset", "list", jwks]));
  });

  it("keyed keyset --help and keyed --help name the keyset commands", async () => {
    const help = ok(await keyed(["keyset", "--help"]));
    assert.match(help.stdout, /^Usage: keyed keyset new ALGORITHM --out FILE/);
    assert.match(ok(await keyed(["--help"])).stdout, /keyset\s+keysets/);
    assert.match(ok(await keyed(["tag", "--help"])).stdout, /--keyset KEYSET/);
  });
});

describe("key files: whatever keygen and derive write, --key-file reads back", {
  skip: skipUnlessBuilt,
}, () => {
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "keyed-keyfile-"));
    writeFileSync(path("a.txt"), message);
  });
  after(() => {
    if (dir !== "") rmSync(dir, { recursive: true, force: true });
  });

  for (const algorithm of ["blake3", "hmac-sha256", "kmac128"] as const) {
    for (const format of [[], ["--base64"], ["--raw"]]) {
      it(`keygen -a ${algorithm} ${format.join(" ") || "(hex)"} -o FILE, then tag --key-file FILE`, async () => {
        const file = path(`${algorithm}${format.join("")}.key`);
        ok(await keyed(["keygen", "-a", algorithm, ...format, "-o", file]));
        const written = readFileSync(file);
        const key =
          format[0] === "--raw"
            ? new Uint8Array(written)
            : format[0] === "--base64"
              ? base64ToBytes(/^base64:(\S+)\n$/.exec(written.toString("latin1"))![1])
              : hexToBytes(/^hex:([0-9a-f]+)\n$/.exec(written.toString("latin1"))![1]);
        assert.equal(key.length, algorithm === "kmac128" ? 32 : 32);
        const tagged = ok(await keyed(["tag", "-a", algorithm, "--key-file", file, path("a.txt")]));
        assert.equal(tagged.stderr, "", "no warning");
        assert.equal(parseTagLines(tagged.stdout)[0].tag, toHex(mac(algorithm, key).tag(message)));
        // The same file works with --key-env too: KEY=$(cat FILE).
        if (format[0] !== "--raw") {
          const viaEnv = ok(
            await keyed(["tag", "-a", algorithm, "--key-env", "K", path("a.txt")], {
              env: { K: written.toString("latin1").trim() },
            }),
          );
          assert.equal(viaEnv.stdout, tagged.stdout);
        }
      });
    }
  }

  it("derive -o FILE (hex) is read back by --key-file as the derived bytes", async () => {
    const material = generateKey("blake3");
    const file = path("derived.key");
    ok(
      await keyed(
        ["derive", "blake3", "--context", "keyed test v1", "--key-env", "K", "-o", file],
        {
          env: { K: toHex(material) },
        },
      ),
    );
    const derived = deriveKey("keyed test v1", material, 32);
    const tagged = ok(await keyed(["tag", "-a", "blake3", "--key-file", file, path("a.txt")]));
    assert.equal(tagged.stderr, "");
    assert.equal(parseTagLines(tagged.stdout)[0].tag, toHex(mac("blake3", derived).tag(message)));
  });

  it("keygen > FILE (stdout redirected to a file) says -o FILE makes a key file", () => {
    const file = path("redirected.key");
    const fd = openSync(file, "w");
    const result = spawnSync(process.execPath, [BIN, "keygen", "-a", "blake3"], {
      stdio: ["ignore", fd, "pipe"],
      encoding: "utf8",
    });
    closeSync(fd);
    assert.equal(result.status, 0);
    assert.match(readFileSync(file, "utf8"), /^[0-9a-f]{64}\n$/, "bare hex, as before");
    assert.match(result.stderr, /stdout is a file: .*-o FILE writes a key file/);
  });

  it("a key file that says hex: but holds no hex is an error, not a key", async () => {
    writeFileSync(path("broken.key"), "hex:zz\n");
    usageError(
      await keyed(["tag", "-a", "blake3", "--key-file", path("broken.key"), path("a.txt")]),
      /starts with "hex:" but what follows is not hex/,
    );
  });
});
