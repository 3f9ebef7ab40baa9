/**
 * The browser build's stand-in for native-built-in.ts (package.json `browser` field): browsers
 * have no node:crypto, so no backend on it is carried; keyed's own kernels serve.
 */
import type { NativeFamilies } from "./native-built-in.js";

export type { NativeFamilies } from "./native-built-in.js";

export const BUILT_IN: Partial<NativeFamilies> = {};
