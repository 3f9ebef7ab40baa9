/**
 * Webhook signatures: GitHub, Stripe, Slack and Standard Webhooks (standardwebhooks.com), all
 * HMAC-SHA256, always checked on the raw bytes of the request body; and small adapters that read
 * those bytes once, with a size limit, from a node:http request or a fetch `Request`.
 *
 * Every verifier answers `{ ok: true, … }` or `{ ok: false, reason, message }`: a wrong, missing,
 * malformed or stale signature is an answer, never an exception. KeyedError is thrown only for
 * programming errors: arguments of the wrong type, an empty secret, a body that was already read.
 *
 * The signature is checked before the timestamp, so a `timestamp_*` reason means the request is
 * authentic but outside the tolerance (a replay or a clock problem), not a forgery.
 *
 * Webhook secrets are often shorter than keyed's 16-byte key minimum (the provider chooses them),
 * so short secrets are accepted here; an empty one never is.
 *
 * One module per scheme under webhooks/; the body readers are shared with the other protocols
 * (http/body.ts).
 */
export {
  type FetchRequest,
  type HttpRequest,
  type HttpRequest as WebhookRequest,
  type NodeRequest,
  type ReadBodyOptions,
  readRawBody,
} from "./http/body.js";
export type { HeaderSource, HeaderValue } from "./http/headers.js";
export {
  PreparedWebhookKeys,
  preparedWebhookKeys,
  type ReplayOptions,
  type RequestOptions,
  type RequestResult,
  type SignTimestampOptions,
  type StandardWebhookSigned,
  type TimestampOptions,
  type VerifyOptions,
  type WebhookBody,
  type WebhookFailure,
  type WebhookRefusal,
  type WebhookResult,
  type WebhookSecret,
  type WebhookSecrets,
  type WebhookSigned,
} from "./webhooks/common.js";
export {
  type GitHubDelivery,
  type GitHubVerifyOptions,
  signGitHub,
  verifyGitHub,
  verifyGitHubMany,
  verifyGitHubRequest,
} from "./webhooks/github.js";
export {
  type SlackDelivery,
  type SlackHeaders,
  type SlackSignature,
  signSlack,
  verifySlack,
  verifySlackMany,
  verifySlackRequest,
} from "./webhooks/slack.js";
export {
  type StandardWebhookDelivery,
  type StandardWebhookHeaders,
  type StandardWebhookMessage,
  signStandardWebhook,
  verifyStandardWebhook,
  verifyStandardWebhookMany,
  verifyStandardWebhookRequest,
} from "./webhooks/standard.js";
export {
  type StripeDelivery,
  signStripe,
  verifyStripe,
  verifyStripeMany,
  verifyStripeRequest,
} from "./webhooks/stripe.js";
