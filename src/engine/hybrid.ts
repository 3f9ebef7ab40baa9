/**
 * A stream that starts out buffering and, once its input reaches the native crossover, hands
 * everything to node:crypto; if it finishes first, keyed's own kernel computes the tag. Both
 * give the same bytes, so the choice is invisible except in speed.
 */
import { type Bytes, copyBytes } from "../core/bytes.js";
import type { MacKernelState } from "../core/mac.js";
import { NATIVE_CROSSOVER, type NativeFamily, useNative } from "./select.js";

/** The native side of a stream: fed every byte, then asked for the tag. */
export interface NativeSink {
  update(chunk: Bytes): void;
  finish(out: Bytes): void;
}

export function hybridState(
  family: NativeFamily,
  startNative: (() => NativeSink) | undefined,
  startJs: () => MacKernelState,
): MacKernelState {
  if (startNative === undefined) return startJs();
  if (useNative(family, 0)) return adapt(startNative());
  const threshold = NATIVE_CROSSOVER[family];
  let pending: Bytes[] = [];
  let pendingLength = 0;
  let native: NativeSink | undefined;
  const drain = (into: { update(chunk: Bytes): void }) => {
    for (const chunk of pending) {
      into.update(chunk);
      chunk.fill(0);
    }
    pending = [];
  };
  return {
    update(chunk) {
      if (native !== undefined) return native.update(chunk);
      pending.push(copyBytes(chunk));
      pendingLength += chunk.length;
      if (pendingLength >= threshold) {
        native = startNative();
        drain(native);
      }
    },
    finish(out, nonce) {
      if (native !== undefined) return native.finish(out);
      const js = startJs();
      drain(js);
      js.finish(out, nonce);
    },
    wipe() {
      for (const chunk of pending) chunk.fill(0);
      pending = [];
    },
  };
}

function adapt(sink: NativeSink): MacKernelState {
  return {
    update: (chunk) => sink.update(chunk),
    finish: (out) => sink.finish(out),
    wipe: () => {},
  };
}
