/**
 * Where the MACs find their node:crypto backends: one entry per family, or nothing in a build
 * that can never have node:crypto (a browser bundle: package.json's `browser` field swaps
 * native-built-in.js for an empty stand-in, so the backends' code is not in the bundle), and
 * keyed's own kernels serve. In Node, Deno, Bun and workerd every family is here, and each
 * backend still checks at run time that node:crypto exists (engine/native.ts).
 */
import { BUILT_IN, type NativeFamilies } from "./native-built-in.js";

/** The node:crypto backend of `family`, or undefined where this build carries none. */
export function nativeFamily<F extends keyof NativeFamilies>(
  family: F,
): NativeFamilies[F] | undefined {
  return BUILT_IN[family];
}
