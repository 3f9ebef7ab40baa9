import assert from "node:assert/strict";
import { KeyedError } from "../src/core/errors.js";

export const hex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h, "hex"));
export const toHex = (b: Uint8Array): string => Buffer.from(b).toString("hex");
export const ascii = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Asserts that `fn` throws a KeyedError with `code`, and optionally a message matching `text`. */
export function throwsKeyed(fn: () => unknown, code: string, text?: RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof KeyedError, `expected KeyedError, got ${String(error)}`);
    assert.equal(error.code, code, `code: ${error.message}`);
    if (text) assert.match(error.message, text);
    return true;
  });
}

function detachedBytes(): Uint8Array {
  const buffer = new ArrayBuffer(8);
  const view = new Uint8Array(buffer);
  structuredClone(buffer, { transfer: [buffer] });
  return view;
}

/** Values that are not bytes, each of which every byte argument must refuse with BAD_INPUT. */
export function notBytes(): [string, unknown][] {
  return [
    ["a string", "abc"],
    ["a number", 42],
    ["null", null],
    ["undefined", undefined],
    ["an ArrayBuffer", new ArrayBuffer(16)],
    ["a DataView", new DataView(new ArrayBuffer(16))],
    ["an Int8Array", new Int8Array(16)],
    ["a plain array", [1, 2, 3]],
    ["a detached Uint8Array", detachedBytes()],
  ];
}

/** `bytes` copied into a larger buffer at an odd offset, as a subarray view. */
export function atOffset(bytes: Uint8Array, offset = 3): Uint8Array {
  const backing = new Uint8Array(bytes.length + offset + 5).fill(0xee);
  backing.set(bytes, offset);
  return backing.subarray(offset, offset + bytes.length);
}
