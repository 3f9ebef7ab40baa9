/**
 * GitHub webhooks: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>` under the webhook
 * secret (GitHub Docs, "Validating webhook deliveries").
 */
import { bytesToHex } from "../../core/bytes.js";
import { isRefusal, refuse } from "../../core/result.js";
import type { HttpRequest, ReadBodyOptions } from "../http/body.js";
import { getHeader, type HeaderValue } from "../http/headers.js";
import {
  anyMatches,
  bodyBytes,
  decodeHex,
  headerValue,
  hmacSha256,
  type RequestResult,
  readForVerify,
  SHA256_BYTES,
  secretKernel,
  secretKernels,
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
export function signGitHub(secret: WebhookSecret, body: WebhookBody): string {
  const kernel = secretKernel(secret, "secret", "text");
  const tag = hmacSha256(kernel, [bodyBytes(body)]);
  return GITHUB_PREFIX + bytesToHex(tag);
}

/** Checks an `X-Hub-Signature-256` header against the raw body. */
export function verifyGitHub(
  secret: WebhookSecrets,
  body: WebhookBody,
  header: HeaderValue,
): WebhookResult {
  const keys = secretKernels(secret);
  const data = bodyBytes(body);
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
  if (!anyMatches(keys, [data], [candidate])) {
    return refuse("signature_mismatch", "the X-Hub-Signature-256 signature does not match.");
  }
  return { ok: true };
}

/** Reads the request's raw body once and checks its `X-Hub-Signature-256`. */
export async function verifyGitHubRequest(
  secret: WebhookSecrets,
  request: HttpRequest,
  options?: ReadBodyOptions,
): Promise<RequestResult> {
  secretKernels(secret);
  const read = await readForVerify(request, options, [], "verifyGitHubRequest");
  if (isRefusal(read)) return read;
  const header = getHeader(request.headers, "x-hub-signature-256") as HeaderValue;
  return withBody(verifyGitHub(secret, read.body, header), read.body);
}
