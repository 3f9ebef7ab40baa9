/**
 * The node:crypto backends a build carries: all of them, except in a browser bundle, which takes
 * native-built-in.browser.ts instead (package.json `browser` field). Node, Deno, Bun and
 * workerd's bundles ignore the `browser` field.
 */
import { NativeHmac } from "./native-hmac.js";

/** Every family's node:crypto backend. */
export interface NativeFamilies {
  hmac: typeof NativeHmac;
}

export const BUILT_IN: Partial<NativeFamilies> = { hmac: NativeHmac };
