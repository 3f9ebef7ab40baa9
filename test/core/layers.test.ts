/**
 * The layer rule (docs/architecture.md), checked over every import in src/: imports point down
 * core < hash, cipher < mac, aead, kdf < safe < protocols < cli; engine/ is imported by the
 * primitives (hash, cipher, mac, aead, kdf) and imports only core/; the entry files at src/'s top
 * level (index.ts, hazmat.ts) may import anything below cli. And no import cycle, neither between
 * modules nor between directories (mac/ → aead/ → mac/ is a cycle even when no module is on one).
 *
 * Imports are read with TypeScript's own pre-processor (static imports, re-exports, `import()`
 * and `import type`), so no syntax escapes a regular expression.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));
/** AssemblyScript sources compile to WebAssembly: not part of the TypeScript module graph. */
const NOT_MODULES = join("engine", "wasm", "assembly");

/** Where each directory stands; the entry files sit between protocols and cli. */
const RANK: Record<string, number> = {
  core: 0,
  hash: 1,
  cipher: 1,
  mac: 2,
  aead: 2,
  kdf: 2,
  safe: 3,
  protocols: 4,
  entry: 4.5,
  cli: 5,
};
/** The directories that may import engine/. */
const ENGINE_USERS = new Set(["hash", "cipher", "mac", "aead", "kdf", "engine", "entry"]);

/** Module path (relative to src/, with "/") → the modules it imports. */
type Graph = Map<string, string[]>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return relative(SRC, path) === NOT_MODULES ? [] : sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

const toKey = (path: string): string => relative(SRC, path).split("\\").join("/");

function importGraph(): Graph {
  const graph: Graph = new Map();
  for (const file of sourceFiles(SRC)) {
    const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const targets = info.importedFiles
      .map((f) => f.fileName)
      .filter((name) => name.startsWith("."))
      .map((name) => toKey(resolve(dirname(file), name.replace(/\.js$/, ".ts"))));
    graph.set(toKey(file), targets);
  }
  return graph;
}

/** The layer a module belongs to: its top directory, or "entry" for files at src/'s top. */
function layerOf(module: string): string {
  const slash = module.indexOf("/");
  return slash < 0 ? "entry" : module.slice(0, slash);
}

/** Every import that breaks the layer rule, as "from → to (why)". */
function layerViolations(graph: Graph): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) {
    const a = layerOf(from);
    for (const to of targets) {
      const b = layerOf(to);
      let why: string | undefined;
      if (b === "engine" && !ENGINE_USERS.has(a)) why = `${a}/ may not use engine/`;
      else if (a === "engine" && b !== "engine" && b !== "core") why = "engine/ imports only core/";
      else if (a !== "engine" && b !== "engine") {
        if (RANK[a] === undefined || RANK[b] === undefined) why = `unknown layer ${a} or ${b}`;
        else if (RANK[b] > RANK[a]) why = `${b}/ is above ${a}/`;
      }
      if (why !== undefined) found.push(`${from} → ${to} (${why})`);
    }
  }
  return found;
}

/** The cycles of a graph: each strongly connected component of more than one node, or a self-loop. */
function cycles(graph: Graph): string[][] {
  // Tarjan's algorithm, iterative over the recursion it replaces (the graph is small either way).
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    indices.set(node, index);
    low.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, indices.get(next) as number));
      }
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node))
        found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return found;
}

/** The graph of directories (layers): an edge wherever a module of one imports one of another. */
function directoryGraph(graph: Graph): Graph {
  const dirs: Graph = new Map();
  for (const [from, targets] of graph) {
    const a = layerOf(from);
    const edges = dirs.get(a) ?? [];
    for (const to of targets) {
      const b = layerOf(to);
      if (b !== a && !edges.includes(b)) edges.push(b);
    }
    dirs.set(a, edges);
  }
  return dirs;
}

describe("layers", () => {
  const graph = importGraph();

  it("reads the imports of every module in src/", () => {
    assert.ok(graph.size > 60, `${graph.size} modules`);
    assert.ok(graph.get("mac/registry.ts")?.includes("mac/hmac.ts"));
    // A dynamic import and an `import type` are edges too.
    assert.ok(graph.get("cli/main.ts")?.length);
    for (const targets of graph.values())
      for (const to of targets) assert.ok(graph.has(to), `${to} is a module in src/`);
  });

  it("no import runs up the layers", () => {
    assert.deepEqual(layerViolations(graph), []);
  });

  it("no cycle between modules", () => {
    assert.deepEqual(cycles(graph), []);
  });

  it("no cycle between directories", () => {
    assert.deepEqual(cycles(directoryGraph(graph)), []);
  });

  it("the checks find what they are for (the mac/ ↔ aead/ cycle this test was written on)", () => {
    const bad: Graph = new Map([
      ["mac/registry.ts", ["aead/chacha20poly1305.ts", "core/mac.ts"]],
      ["aead/chacha20poly1305.ts", ["mac/poly1305.ts", "engine/native.ts"]],
      ["mac/poly1305.ts", ["core/mac.ts"]],
      ["core/mac.ts", ["safe/keys.ts"]],
      ["safe/keys.ts", ["protocols/jwt.ts"]],
      ["protocols/jwt.ts", ["protocols/jwt.ts"]],
      ["engine/native.ts", ["hash/sha256.ts"]],
      ["hash/sha256.ts", []],
    ]);
    assert.deepEqual(cycles(directoryGraph(bad)), [["aead", "mac"]]);
    assert.deepEqual(cycles(bad), [["protocols/jwt.ts"]]);
    assert.deepEqual(layerViolations(bad), [
      "core/mac.ts → safe/keys.ts (safe/ is above core/)",
      "safe/keys.ts → protocols/jwt.ts (protocols/ is above safe/)",
      "engine/native.ts → hash/sha256.ts (engine/ imports only core/)",
    ]);
    assert.deepEqual(layerViolations(new Map([["safe/keys.ts", ["engine/native.ts"]]])), [
      "safe/keys.ts → engine/native.ts (safe/ may not use engine/)",
    ]);
  });
});
