/**
 * Reading a request's raw body once, with a size limit, from a node:http `IncomingMessage` or a
 * fetch `Request` (Node, Deno, Bun, Workers). A MAC is checked on the bytes as received, so every
 * protocol's request helper reads them here, before any body parser could change them.
 */
import { assertInteger, type Bytes } from "../../core/bytes.js";
import { KeyedError } from "../../core/errors.js";
import { checkOptions, describeType } from "../../core/options.js";
import { type Refusal, refuse } from "../../core/result.js";
import { getHeader } from "./headers.js";
/** A node:http `IncomingMessage`, or anything with its shape. */
export interface NodeRequest {
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly readableEnded?: boolean;
  on(event: "data", listener: (chunk: Uint8Array | string) => void): unknown;
  on(event: "end" | "close", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  removeListener(event: string, listener: (...args: never[]) => void): unknown;
}

/** A fetch `Request` (Node 18+, Deno, Bun, Workers), or anything with its shape. */
export interface FetchRequest {
  readonly headers: { get(name: string): string | null };
  readonly body: ReadableStream<Uint8Array> | null;
  readonly bodyUsed: boolean;
}

/** A request whose raw body can be read: node:http's or fetch's. */
export type HttpRequest = NodeRequest | FetchRequest;

export interface ReadBodyOptions {
  /** Largest body accepted, in bytes. Default 1 MiB. */
  limit?: number;
}

const DEFAULT_LIMIT = 1024 * 1024;

function isFetchRequest(request: HttpRequest): request is FetchRequest {
  return "bodyUsed" in request && typeof request.headers?.get === "function";
}

/** Errors that mean the client went away mid-body: the request helpers answer body_incomplete. */
const incompleteBodies = new WeakSet<Error>();

function incomplete(error: Error): Error {
  incompleteBodies.add(error);
  return error;
}

function tooLarge(limit: number): KeyedError {
  return new KeyedError("LENGTH", `the request body is larger than the limit of ${limit} bytes.`);
}

function alreadyRead(): KeyedError {
  return new KeyedError(
    "BAD_INPUT",
    "the request body was already read (by a body parser?). Verify on the raw bytes: read them " +
      "first (readRawBody, express.raw(), …) and parse JSON after verifying.",
  );
}

/** Throws LENGTH early when the declared Content-Length is over the limit. */
function checkDeclaredLength(value: unknown, limit: number): void {
  if (typeof value === "string" && /^[0-9]+$/.test(value) && Number(value) > limit) {
    throw tooLarge(limit);
  }
}

function concatChunks(chunks: Uint8Array[], total: number): Bytes {
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

async function readFetchBody(request: FetchRequest, limit: number): Promise<Bytes> {
  if (request.bodyUsed) throw alreadyRead();
  checkDeclaredLength(request.headers.get("content-length") ?? undefined, limit);
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch (error) {
      throw incomplete(error instanceof Error ? error : new Error(String(error)));
    }
    const { done, value } = next;
    if (done) break;
    if (!(value instanceof Uint8Array)) {
      await reader.cancel();
      throw new KeyedError("BAD_INPUT", "the request body stream must yield Uint8Array chunks.");
    }
    total += value.length;
    if (total > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return concatChunks(chunks, total);
}

function readNodeBody(request: NodeRequest, limit: number): Promise<Bytes> {
  if (request.readableEnded === true) return Promise.reject(alreadyRead());
  try {
    checkDeclaredLength(getHeader(request.headers, "content-length"), limit);
  } catch (error) {
    return Promise.reject(error);
  }
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let total = 0;
    let settled = false;
    const finish = (error: Error | undefined) => {
      if (settled) return;
      settled = true;
      request.removeListener("data", onData);
      request.removeListener("end", onEnd);
      request.removeListener("error", onError);
      request.removeListener("close", onClose);
      if (error) reject(error);
      else resolve(concatChunks(chunks, total));
    };
    // Over the limit, the rest of the body is let through unread, so that the caller can still
    // answer 413 (with "Connection: close") on the same connection.
    const onData = (chunk: Uint8Array | string) => {
      if (typeof chunk === "string") {
        finish(
          new KeyedError(
            "BAD_INPUT",
            "the request yields text (setEncoding was called): the raw bytes are needed.",
          ),
        );
        return;
      }
      total += chunk.length;
      if (total > limit) finish(tooLarge(limit));
      else chunks.push(chunk);
    };
    const onEnd = () => finish(undefined);
    const onError = (error: Error) => finish(incomplete(error));
    const onClose = () =>
      finish(
        incomplete(new KeyedError("BAD_INPUT", "the request closed before its body was complete.")),
      );
    request.on("data", onData);
    request.on("end", onEnd);
    request.on("error", onError);
    request.on("close", onClose);
  });
}

/**
 * The raw body of a node:http request or a fetch `Request`, read once, as bytes. Throws LENGTH
 * (before reading when Content-Length says so) if it is larger than `limit`, and BAD_INPUT if
 * the body was already consumed; when the client goes away mid-body, rejects with the stream's
 * error (or BAD_INPUT if the stream just closed).
 */
export async function readRawBody(request: HttpRequest, options?: ReadBodyOptions): Promise<Bytes> {
  const o = checkOptions<ReadBodyOptions>(options, ["limit"], "readRawBody options");
  const limit =
    o.limit === undefined
      ? DEFAULT_LIMIT
      : assertInteger(o.limit, "options.limit", 0, Number.MAX_SAFE_INTEGER);
  if (request === null || typeof request !== "object" || typeof request.headers !== "object") {
    throw new KeyedError(
      "BAD_INPUT",
      `request must be a node:http IncomingMessage or a fetch Request; got ${describeType(request)}.`,
    );
  }
  if (isFetchRequest(request)) return readFetchBody(request, limit);
  if (typeof (request as NodeRequest).on !== "function") {
    throw new KeyedError(
      "BAD_INPUT",
      "request must be a node:http IncomingMessage or a fetch Request.",
    );
  }
  return readNodeBody(request as NodeRequest, limit);
}

/** Why a request helper could not read the body it was to check. */
export type BodyFailure =
  /** The request body is larger than the `limit` of the request helpers. */
  | "body_too_large"
  /** The request helpers could not read the body to its end (the client went away). */
  | "body_incomplete";

/**
 * The raw body for a request helper, or a refusal when it is too large or the client went away,
 * so that nothing the client does makes a request helper throw. `limit`: bytes, or undefined for
 * the default. A body that was already read, or a request of the wrong type, still throws
 * BAD_INPUT: those are the server's mistakes.
 */
export async function readBodyOrRefuse(
  request: HttpRequest,
  limit: unknown,
): Promise<Bytes | Refusal<BodyFailure>> {
  try {
    return await readRawBody(request, limit === undefined ? {} : { limit: limit as number });
  } catch (error) {
    if (error instanceof KeyedError && error.code === "LENGTH") {
      return refuse("body_too_large", error.message);
    }
    if (error instanceof Error && incompleteBodies.has(error)) {
      return refuse("body_incomplete", `the request body could not be read: ${error.message}`);
    }
    throw error;
  }
}
