/**
 * GitHub webhooks: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>` under the webhook
 * secret (GitHub Docs, "Validating webhook deliveries").
 */

import { type Bytes, bytesToHex } from "../../core/bytes.js";
import { checkOptions } from "../../core/options.js";
import { isRefusal, refuse } from "../../core/result.js";
import { durationSeconds, type TimeInput } from "../../core/time.js";
import type { HmacKernel } from "../../mac/hmac.js";
import type { Keyset } from "../../safe/keyset.js";
import type { ReplayStore } from "../../safe/store.js";
import type { HttpRequest, ReadBodyOptions } from "../http/body.js";
import { getHeader, type HeaderValue } from "../http/headers.js";
import {
  bodyBytes,
  clockOptions,
  decodeHex,
  headerValue,
  hmacSha256,
  type Parsed,
  parseDeliveries,
  type ReplayOptions,
  type RequestResult,
  readForVerify,
  SHA256_BYTES,
  secretKernel,
  secretKernels,
  type Verifier,
  verifyBatch,
  verifyOne,
  type WebhookBody,
  type WebhookResult,
  type WebhookSecret,
  type WebhookSecrets,
  withBody,
} from "./common.js";

const GITHUB_PREFIX = "sha256=";

/**
 * The `X-Hub-Signature-256` value GitHub sends: "sha256=" and the hex HMAC-SHA256 of the body
 * under the webhook secret.
 */
export function signGitHub(secret: WebhookSecret | Keyset, body: WebhookBody): string {
  const kernel = secretKernel(secret, "secret", "text");
  const tag = hmacSha256(kernel, [bodyBytes(body)]);
  return GITHUB_PREFIX + bytesToHex(tag);
}

/**
 * GitHub signs no time and no id (X-GitHub-Delivery is not signed: a replay could carry a fresh
 * one), so with a replay store a delivery is remembered by its tag for `replaySeconds`.
 */
export interface GitHubVerifyOptions {
  /** The current time: a Date or seconds since the epoch. Default: the system clock. */
  now?: TimeInput;
  /** Where accepted deliveries are remembered (docs/fleet.md); the verifier then answers with a Promise. */
  replayStore?: ReplayStore;
  /** With a replay store: how long a delivery stays remembered. Default 86,400 (a day). */
  replaySeconds?: number;
}

const GITHUB_OPTIONS = ["now", "replayStore", "replaySeconds"];
const DEFAULT_REPLAY_SECONDS = 86_400;

/** Checks an `X-Hub-Signature-256` header against the raw body. */
export function verifyGitHub(
  secret: WebhookSecrets,
  body: WebhookBody,
  header: HeaderValue,
  options: GitHubVerifyOptions & ReplayOptions,
): Promise<WebhookResult>;
export function verifyGitHub(
  secret: WebhookSecrets,
  body: WebhookBody,
  header: HeaderValue,
  options?: Omit<GitHubVerifyOptions, "replayStore" | "replaySeconds">,
): WebhookResult;
export function verifyGitHub(
  secret: WebhookSecrets,
  body: WebhookBody,
  header: HeaderValue,
  options?: GitHubVerifyOptions,
): WebhookResult | Promise<WebhookResult> {
  const keys = secretKernels(secret);
  const data = bodyBytes(body);
  return verifyOne(gitHubVerifier(keys, options, "verifyGitHub"), parseGitHub(data, header));
}

/** One delivery of a batch: the raw body and its `X-Hub-Signature-256` value. */
export interface GitHubDelivery {
  /** The raw body, exactly as received. */
  body: WebhookBody;
  /** The `X-Hub-Signature-256` value, as `verifyGitHub` takes it. */
  header: HeaderValue;
}

/**
 * Checks a batch of deliveries under the same secrets (a queue worker's batch, say): the answers
 * `verifyGitHub` gives each, in order, with the tags computed for the whole batch at once. Pays
 * for bodies under about 2 KiB (docs/benchmarks.md); with a replay store, a Promise.
 */
export function verifyGitHubMany(
  secret: WebhookSecrets,
  deliveries: readonly GitHubDelivery[],
  options: GitHubVerifyOptions & ReplayOptions,
): Promise<WebhookResult[]>;
export function verifyGitHubMany(
  secret: WebhookSecrets,
  deliveries: readonly GitHubDelivery[],
  options?: Omit<GitHubVerifyOptions, "replayStore" | "replaySeconds">,
): WebhookResult[];
export function verifyGitHubMany(
  secret: WebhookSecrets,
  deliveries: readonly GitHubDelivery[],
  options?: GitHubVerifyOptions,
): WebhookResult[] | Promise<WebhookResult[]> {
  const keys = secretKernels(secret);
  const verifier = gitHubVerifier(keys, options, "verifyGitHubMany");
  const parsed = parseDeliveries(deliveries, "{ body, header }", (d: GitHubDelivery) =>
    parseGitHub(bodyBytes(d.body), d.header),
  );
  return verifyBatch(verifier, parsed);
}

function gitHubVerifier(keys: HmacKernel[], options: unknown, where: string): Verifier {
  const o = checkOptions<GitHubVerifyOptions>(options, GITHUB_OPTIONS, `${where} options`);
  const clock = clockOptions({ now: o.now, replayStore: o.replayStore }, where);
  const replaySeconds =
    o.replaySeconds === undefined
      ? DEFAULT_REPLAY_SECONDS
      : durationSeconds(o.replaySeconds, "options.replaySeconds");
  return { scheme: "github", keys, clock, mismatch: MISMATCH, replaySeconds };
}

const MISMATCH = "the X-Hub-Signature-256 signature does not match.";

function parseGitHub(data: Bytes, header: HeaderValue): Parsed<object> {
  const value = headerValue(header, "header", "X-Hub-Signature-256");
  if (value === undefined) return refuse("missing_header", "no X-Hub-Signature-256 header.");
  if (isRefusal(value)) return value;
  const candidate = value.startsWith(GITHUB_PREFIX)
    ? decodeHex(value.slice(GITHUB_PREFIX.length), SHA256_BYTES)
    : undefined;
  if (candidate === undefined) {
    return refuse(
      "malformed_header",
      'X-Hub-Signature-256 must be "sha256=" followed by 64 hex digits.',
    );
  }
  // A fresh answer each time: callers may add to the object they get.
  return { parts: [data], candidates: [candidate], accepted: { ok: true } };
}

/** Reads the request's raw body once and checks its `X-Hub-Signature-256`. */
export async function verifyGitHubRequest(
  secret: WebhookSecrets,
  request: HttpRequest,
  options?: ReadBodyOptions & GitHubVerifyOptions,
): Promise<RequestResult> {
  secretKernels(secret);
  const o = checkOptions<GitHubVerifyOptions>(
    options,
    ["limit", ...GITHUB_OPTIONS],
    "verifyGitHubRequest options",
  );
  clockOptions({ now: o.now, replayStore: o.replayStore }, "verifyGitHubRequest");
  const read = await readForVerify(request, options, GITHUB_OPTIONS, "verifyGitHubRequest");
  if (isRefusal(read)) return read;
  const header = getHeader(request.headers, "x-hub-signature-256") as HeaderValue;
  return withBody(await verifyGitHub(secret, read.body, header, read.rest), read.body);
}
