import { getDelivery } from "@/server/services/webhooks/get";
import { listDeliveries } from "@/server/services/webhooks/list";
import { listFailedDeliveries } from "@/server/services/webhooks/list-failed";
import { retryDelivery } from "@/server/services/webhooks/retry";
import { retryFailedDeliveries } from "@/server/services/webhooks/retry-failed";
import { sendTestWebhook } from "@/server/services/webhooks/send-test";
import { getSigningKeys } from "@/server/services/webhooks/signing-keys";
import { verifyWebhook } from "@/server/services/webhooks/verify";
import {
  deliveryDetailSchema,
  deliveryIdParams,
  deliveryListSchema,
  deliverySchema,
  listDeliveriesInput,
  listFailedDeliveriesInput,
  retryCountSchema,
  retryFailedDeliveriesInput,
  sendTestWebhookInput,
  signingKeysSchema,
  testWebhookResultSchema,
  verifyWebhookInput,
  verifyWebhookResultSchema,
} from "@/server/services/webhooks/schemas";
import { webhookExamples as examples } from "@/server/services/webhooks/examples";
import { TEST_SEND_LIMIT } from "@/server/rate-limit/limits";
import { defineRoute } from "../route";

const tags = ["Webhooks"];

// GET /api/v1/webhook/failed – the merchant's failed deliveries, newest first
export const listFailedDeliveriesRoute = defineRoute({
  operationId: "listFailedWebhookDeliveries",
  method: "GET",
  path: "/webhook/failed",
  summary: "List failed webhook deliveries",
  description: "Newest first, cursor-paginated; filter by event type (`eventType`, repeatable) and creation time (`since`, `until`).",
  tags,
  auth: "api_key",
  permission: "webhooks.read",
  query: listFailedDeliveriesInput,
  responses: { 200: { description: "A page of failed deliveries.", schema: deliveryListSchema, example: examples.failedList } },
  errors: ["invalid_cursor"],
  handler: async ({ ctx, query }) => ({ status: 200, body: await listFailedDeliveries({ ctx, input: query }) }),
});

// GET /api/v1/webhook/delivery – every delivery, whatever its status
export const listDeliveriesRoute = defineRoute({
  operationId: "listWebhookDeliveries",
  method: "GET",
  path: "/webhook/delivery",
  summary: "List webhook deliveries",
  description:
    "Every delivery (pending, delivering, delivered, failed), newest first, cursor-paginated; filters `status` and " +
    "`eventType` (repeatable), `endpointId`, `eventId`, `since` (inclusive), `until` (exclusive).",
  tags,
  auth: "api_key",
  permission: "webhooks.read",
  query: listDeliveriesInput,
  responses: { 200: { description: "A page of deliveries.", schema: deliveryListSchema, example: examples.failedList } },
  errors: ["invalid_cursor"],
  handler: async ({ ctx, query }) => ({ status: 200, body: await listDeliveries({ ctx, input: query }) }),
});

// POST /api/v1/webhook/failed/retry – re-queue every failed delivery matching the filters
export const retryFailedDeliveriesRoute = defineRoute({
  operationId: "retryFailedWebhookDeliveries",
  method: "POST",
  path: "/webhook/failed/retry",
  summary: "Retry failed deliveries in bulk",
  description:
    "Re-queues every failed delivery created in [since, until) of the given event types for one attempt now, as a single " +
    "retry would send it. `dryRun: true` only counts them. With no webhook URL configured, both answer 409 " +
    "`webhook_url_missing` and nothing is re-queued.",
  tags,
  auth: "api_key",
  permission: "webhooks.write",
  body: retryFailedDeliveriesInput,
  bodyExample: examples.bulkRetryBody,
  responses: {
    200: { description: "Dry run: how many would be re-queued.", schema: retryCountSchema, example: examples.bulkRetryResult },
    202: { description: "How many were re-queued.", schema: retryCountSchema, example: examples.bulkRetryResult },
  },
  errors: ["webhook_url_missing"],
  handler: async ({ ctx, body }) => {
    const { count, dryRun } = await retryFailedDeliveries({ ctx, input: body });
    return { status: dryRun ? 200 : 202, body: { count } };
  },
});

// GET /api/v1/webhook/{id} – one delivery with all its attempts
export const getDeliveryRoute = defineRoute({
  operationId: "getWebhookDelivery",
  method: "GET",
  path: "/webhook/{id}",
  summary: "Get a webhook delivery",
  description: "The delivery, its payload and every attempt (status code, error class, latency, response headers and the first 16 KiB of the body).",
  tags,
  auth: "api_key",
  permission: "webhooks.read",
  params: deliveryIdParams,
  responses: { 200: { description: "The delivery.", schema: deliveryDetailSchema, example: examples.delivery } },
  handler: async ({ ctx, params }) => ({ status: 200, body: await getDelivery({ ctx, input: params }) }),
});

// POST /api/v1/webhook/{id}/retry – re-queue one failed delivery now
export const retryDeliveryRoute = defineRoute({
  operationId: "retryWebhookDelivery",
  method: "POST",
  path: "/webhook/{id}/retry",
  summary: "Retry a failed delivery",
  description:
    "Re-queues a failed delivery for one attempt now, to the merchant's current webhook URL (409 `webhook_url_missing` " +
    "when none is configured). A failed test send (`webhook.test`) goes back to the URL it tested.",
  tags,
  auth: "api_key",
  permission: "webhooks.write",
  params: deliveryIdParams,
  responses: { 202: { description: "Re-queued.", schema: deliverySchema, example: examples.retried } },
  errors: ["delivery_not_failed", "webhook_url_missing"],
  handler: async ({ ctx, params }) => ({ status: 202, body: await retryDelivery({ ctx, input: params }) }),
});

// POST /api/v1/webhook/test – check a URL and send a signed webhook.test event to it
export const sendTestWebhookRoute = defineRoute({
  operationId: "sendTestWebhook",
  method: "POST",
  path: "/webhook/test",
  summary: "Send a test webhook",
  description:
    "Checks the URL (given, or the configured one) and, unless `dryRun`, sends a signed `webhook.test` event now. " +
    "A refused URL answers `usable: false` with the reason, and nothing is sent. Sends (not dry runs) are limited to " +
    "10 a minute per merchant.",
  tags,
  auth: "api_key",
  permission: "webhooks.write",
  body: sendTestWebhookInput,
  bodyExample: examples.testBody,
  responses: {
    200: { description: "What the check and the send found.", schema: testWebhookResultSchema, example: examples.testResult },
  },
  errors: ["rate_limited"],
  rateLimit: TEST_SEND_LIMIT,
  rateLimitWhen: (body) => !body.dryRun,
  handler: async ({ ctx, body }) => ({ status: 200, body: await sendTestWebhook({ ctx, input: body }) }),
});

// POST /api/v1/webhook/verify – check a received webhook's signature
export const verifyWebhookRoute = defineRoute({
  operationId: "verifyWebhook",
  method: "POST",
  path: "/webhook/verify",
  summary: "Verify a received webhook",
  description:
    "Checks the raw payload and the webhook-id, webhook-timestamp and webhook-signature headers against the merchant's " +
    "current and previous secrets, within ±5 minutes. Limited to 60 checks a minute per merchant, against signature probing.",
  tags,
  auth: "api_key",
  permission: "webhooks.read",
  body: verifyWebhookInput,
  bodyExample: examples.verifyBody,
  responses: {
    200: {
      description: "Whether the webhook is authentic, and why not.",
      schema: verifyWebhookResultSchema,
      example: examples.verifyResult,
    },
  },
  errors: ["rate_limited"],
  // Answers "is this signature valid": unlimited calls would let a stolen key probe signatures. Per merchant,
  // so that creating more keys (up to 20) does not multiply the tries.
  rateLimit: { name: "webhook_verify", by: "merchant", limit: 60, windowSeconds: 60 },
  handler: async ({ ctx, body }) => ({ status: 200, body: await verifyWebhook({ ctx, input: body }) }),
});

// GET /api/v1/webhook/signing-keys – the public keys of the service's v1a signatures (no auth)
export const webhookSigningKeysRoute = defineRoute({
  operationId: "getWebhookSigningKeys",
  method: "GET",
  path: "/webhook/signing-keys",
  summary: "The public keys of webhook v1a signatures (JWKS)",
  description:
    "When the service is configured with a signing key, every webhook's `webhook-signature` also carries a " +
    "Standard Webhooks `v1a,<base64 Ed25519 signature>` of `id.timestamp.body`. These are the public keys, as an " +
    "RFC 7517 JWK Set (and, in `whpk`, in Standard Webhooks form), so a receiver can verify without a shared " +
    "secret. Usually one key; during a key rotation the current key comes first and the outgoing one after it, " +
    "each signing every webhook (one `v1a` entry per key), so a receiver holding either keeps verifying. An " +
    "empty set means deliveries carry only the `v1` HMAC signatures. Public and cacheable.",
  tags,
  auth: "none",
  responses: {
    200: { description: "The JWK Set (empty when v1a signatures are off).", schema: signingKeysSchema, example: examples.signingKeys },
  },
  handler: async ({ ctx }) => ({
    status: 200,
    body: getSigningKeys({ ctx }),
    headers: { "cache-control": "public, max-age=300" },
  }),
});

export const webhookRoutes = [
  listDeliveriesRoute,
  listFailedDeliveriesRoute,
  retryFailedDeliveriesRoute,
  getDeliveryRoute,
  retryDeliveryRoute,
  sendTestWebhookRoute,
  verifyWebhookRoute,
  webhookSigningKeysRoute,
];
