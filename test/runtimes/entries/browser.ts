/**
 * Browsers: the conformance run on a page's main thread, or in a module Worker when the page's
 * address ends in `?worker` (the same file is the page's script and the worker's). The result is
 * left in `globalThis.conformance` for the test to read (test/runtimes/runtimes.test.ts).
 */
// A browser bundle carries the WebAssembly kernels only when asked (docs/bundle-size.md).
import "keyed/wasm";
import * as keyed from "keyed";
// @ts-expect-error: a plain JavaScript module, shared with the Node test (test/safe/webcrypto.test.ts).
import { webcryptoChecks } from "../../safe/webcrypto-checks.mjs";
import { type ConformanceInput, conformance } from "../conformance.js";

declare const CONFORMANCE_INPUT: ConformanceInput;

export interface BrowserReport {
  lines?: string[];
  /** The first run (wasm modules may still be compiling in the background) gave the same lines. */
  firstRunSame?: boolean;
  /** Whether this context may compile WebAssembly at all (a CSP without 'wasm-unsafe-eval' forbids it). */
  wasmCompiles?: boolean;
  /** The WebCrypto interop checks (macFromCryptoKey, toCryptoKey) against this browser's subtle. */
  webcrypto?: { name: string; ok: boolean; detail: string }[];
  error?: string;
}

function wasmCompiles(): boolean {
  try {
    new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
    return true;
  } catch {
    return false;
  }
}

async function report(): Promise<BrowserReport> {
  try {
    const first = await conformance(CONFORMANCE_INPUT);
    // Chrome compiles modules over 4 KiB in the background on the main thread: run again once
    // they are in, so both keyed's TypeScript and its WebAssembly kernels give the lines.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const lines = await conformance(CONFORMANCE_INPUT);
    return {
      lines,
      firstRunSame: first.join("\n") === lines.join("\n"),
      wasmCompiles: wasmCompiles(),
      webcrypto: await webcryptoChecks(keyed, crypto.subtle),
    };
  } catch (e) {
    return { error: e instanceof Error ? `${e.message}\n${e.stack}` : String(e) };
  }
}

const scope = globalThis as unknown as {
  document?: unknown;
  location: Location;
  conformance?: BrowserReport;
  postMessage(message: unknown): void;
};
if (scope.document === undefined) {
  report().then((r) => scope.postMessage(r));
} else if (scope.location.search === "?worker") {
  const worker = new Worker(new URL(import.meta.url), { type: "module" });
  worker.onmessage = (event: MessageEvent<BrowserReport>) => {
    scope.conformance = event.data;
  };
  worker.onerror = (event) => {
    scope.conformance = { error: `worker error: ${event.message}` };
  };
} else {
  report().then((r) => {
    scope.conformance = r;
  });
}
