/**
 * The node:crypto backends a build carries: all of them, except in a browser bundle, which takes
 * native-built-in.browser.ts instead (package.json `browser` field). Node, Deno, Bun and
 * workerd's bundles ignore the `browser` field.
 */
import { NativeChaCha20Poly1305 } from "./native-chacha20poly1305.js";
import { NativeCmac } from "./native-cmac.js";
import { NativeGmac } from "./native-gmac.js";
import { NativeHmac } from "./native-hmac.js";

/** Every family's node:crypto backend. */
export interface NativeFamilies {
  "chacha20-poly1305": typeof NativeChaCha20Poly1305;
  cmac: typeof NativeCmac;
  gmac: typeof NativeGmac;
  hmac: typeof NativeHmac;
}

export const BUILT_IN: Partial<NativeFamilies> = {
  "chacha20-poly1305": NativeChaCha20Poly1305,
  cmac: NativeCmac,
  gmac: NativeGmac,
  hmac: NativeHmac,
};
