/**
 * The native backend: node:crypto, reached with `process.getBuiltinModule` (Node ≥ 20.16) so that
 * no `import "node:crypto"` exists for a browser bundler to trip on. Elsewhere it is absent and
 * keyed's own kernels serve. Only the few calls keyed needs are typed here.
 */

/** The parts of node:crypto keyed uses. */
export interface NativeCrypto {
  createSecretKey(key: Uint8Array): NativeKey;
  createHmac(algorithm: string, key: NativeKey): NativeHash;
  createCipheriv(
    algorithm: string,
    key: NativeKey,
    iv: Uint8Array | null,
    options?: { authTagLength: number },
  ): NativeCipher;
}
/** An opaque node:crypto KeyObject. */
export type NativeKey = object;
export interface NativeHash {
  update(data: Uint8Array): NativeHash;
  digest(): Uint8Array;
}
export interface NativeCipher {
  update(data: Uint8Array): Uint8Array;
  final(): Uint8Array;
  setAAD(data: Uint8Array, options?: { plaintextLength: number }): NativeCipher;
  setAutoPadding(on: boolean): NativeCipher;
  getAuthTag(): Uint8Array;
}

interface ProcessLike {
  getBuiltinModule?: (name: string) => unknown;
  env?: Record<string, string | undefined>;
}

const proc = (globalThis as { process?: ProcessLike }).process;

export type Backend = "js" | "wasm" | "native";

/** KEYED_BACKEND=js|wasm|native forces a backend (tests run every suite once per backend). */
export const FORCED_BACKEND: Backend | undefined = (() => {
  const value = proc?.env?.KEYED_BACKEND;
  return value === "js" || value === "wasm" || value === "native" ? value : undefined;
})();

/** node:crypto, or undefined in browsers, on old Node, or when another backend is forced. */
export const nativeCrypto: NativeCrypto | undefined =
  FORCED_BACKEND === "js" || FORCED_BACKEND === "wasm"
    ? undefined
    : (proc?.getBuiltinModule?.("node:crypto") as NativeCrypto | undefined);
