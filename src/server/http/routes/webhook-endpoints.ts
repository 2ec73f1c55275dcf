import { EXAMPLE_SUBSCRIPTION } from "@/lib/event-types";
import { EXAMPLE_ENDPOINT, EXAMPLE_TIME, EXAMPLE_WEBHOOK_SECRET } from "@/server/openapi/examples";
import { createEndpoint } from "@/server/services/webhook-endpoints/create";
import { deleteEndpoint } from "@/server/services/webhook-endpoints/delete";
import { getEndpoint, listEndpoints } from "@/server/services/webhook-endpoints/list";
import { recoverEndpoint } from "@/server/services/webhook-endpoints/recover";
import { rotateEndpointSecretOf } from "@/server/services/webhook-endpoints/rotate-secret";
import {
  createdEndpointSchema,
  createEndpointInput,
  endpointIdParams,
  endpointListSchema,
  endpointSchema,
  recoverInput,
  recoverResultSchema,
  rotatedEndpointSecretSchema,
  updateEndpointInput,
} from "@/server/services/webhook-endpoints/schemas";
import { updateEndpoint } from "@/server/services/webhook-endpoints/update";
import { RECOVER_LIMIT } from "@/server/rate-limit/limits";
import { SECRET_SHOWN_ONCE } from "../idempotency";
import { defineRoute } from "../route";

const tags = ["Webhook endpoints"];

// POST /api/v1/webhook/endpoint – add an endpoint with its own secret
export const createEndpointRoute = defineRoute({
  operationId: "createWebhookEndpoint",
  method: "POST",
  path: "/webhook/endpoint",
  summary: "Add a webhook endpoint",
  description:
    "Adds an endpoint with its own URL, description, event types (null: all) and `whsec_` signing secret, returned this " +
    "once. At most 16 endpoints per merchant, the default one (the profile's `webhookUrl`) included.",
  tags,
  auth: "api_key",
  permission: "webhooks.write",
  body: createEndpointInput,
  bodyExample: { url: EXAMPLE_ENDPOINT.url, description: EXAMPLE_ENDPOINT.description, eventTypes: [...EXAMPLE_SUBSCRIPTION] },
  responses: { 201: { description: "The endpoint and its secret (shown once).", schema: createdEndpointSchema, example: { endpoint: EXAMPLE_ENDPOINT, secret: EXAMPLE_WEBHOOK_SECRET } } },
  errors: ["webhook_url_rejected", "too_many_endpoints"],
  idempotency: SECRET_SHOWN_ONCE,
  handler: async ({ ctx, body }) => ({ status: 201, body: await createEndpoint({ ctx, input: body }) }),
});

// GET /api/v1/webhook/endpoint – the merchant's endpoints
export const listEndpointsRoute = defineRoute({
  operationId: "listWebhookEndpoints",
  method: "GET",
  path: "/webhook/endpoint",
  summary: "List webhook endpoints",
  description: "Every endpoint of the merchant (at most 16, so one page), the default one first.",
  tags,
  auth: "api_key",
  permission: "webhooks.read",
  responses: { 200: { description: "The endpoints.", schema: endpointListSchema, example: { data: [EXAMPLE_ENDPOINT], hasMore: false, nextCursor: null } } },
  handler: async ({ ctx }) => ({ status: 200, body: await listEndpoints({ ctx }) }),
});

// GET /api/v1/webhook/endpoint/{id}
export const getEndpointRoute = defineRoute({
  operationId: "getWebhookEndpoint",
  method: "GET",
  path: "/webhook/endpoint/{id}",
  summary: "Get a webhook endpoint",
  tags,
  auth: "api_key",
  permission: "webhooks.read",
  params: endpointIdParams,
  responses: { 200: { description: "The endpoint.", schema: endpointSchema, example: EXAMPLE_ENDPOINT } },
  handler: async ({ ctx, params }) => ({ status: 200, body: await getEndpoint({ ctx, input: params }) }),
});

// PUT /api/v1/webhook/endpoint/{id}
export const updateEndpointRoute = defineRoute({
  operationId: "updateWebhookEndpoint",
  method: "PUT",
  path: "/webhook/endpoint/{id}",
  summary: "Change a webhook endpoint",
  description:
    "Changes its URL (queued deliveries follow), description or event types; `enabled: false` disables it (reason " +
    "`manual`: its deliveries wait), `enabled: true` enables it and sends what waited. The default endpoint's URL and " +
    "event types are the profile's `webhookUrl` and `webhookEvents`, which change with them.",
  tags,
  auth: "api_key",
  permission: "webhooks.write",
  params: endpointIdParams,
  body: updateEndpointInput,
  bodyExample: { enabled: true },
  responses: { 200: { description: "The endpoint.", schema: endpointSchema, example: EXAMPLE_ENDPOINT } },
  errors: ["webhook_url_rejected"],
  handler: async ({ ctx, params, body }) => ({ status: 200, body: await updateEndpoint({ ctx, input: { ...body, id: params.id } }) }),
});

// DELETE /api/v1/webhook/endpoint/{id}
export const deleteEndpointRoute = defineRoute({
  operationId: "deleteWebhookEndpoint",
  method: "DELETE",
  path: "/webhook/endpoint/{id}",
  summary: "Delete a webhook endpoint",
  description: "Deletes it with its secrets and deliveries (the events stay in the event log). The default endpoint cannot be deleted (409 `default_endpoint`).",
  tags,
  auth: "api_key",
  permission: "webhooks.write",
  params: endpointIdParams,
  responses: { 204: { description: "Deleted." } },
  errors: ["default_endpoint"],
  handler: async ({ ctx, params }) => {
    await deleteEndpoint({ ctx, input: params });
    return { status: 204 };
  },
});

// POST /api/v1/webhook/endpoint/{id}/rotate-secret
export const rotateEndpointSecretRoute = defineRoute({
  operationId: "rotateWebhookEndpointSecret",
  method: "POST",
  path: "/webhook/endpoint/{id}/rotate-secret",
  summary: "Rotate an endpoint's signing secret",
  description: "A new `whsec_` secret, shown this once. The previous one keeps signing too (two `v1` signatures) for 24 hours; a second rotation within them ends the older one at once.",
  tags,
  auth: "api_key",
  permission: "webhooks.write",
  params: endpointIdParams,
  responses: { 200: { description: "The new secret.", schema: rotatedEndpointSecretSchema, example: { secret: EXAMPLE_WEBHOOK_SECRET, previousSecretExpiresAt: EXAMPLE_TIME } } },
  idempotency: SECRET_SHOWN_ONCE,
  handler: async ({ ctx, params }) => ({ status: 200, body: await rotateEndpointSecretOf({ ctx, input: params }) }),
});

// POST /api/v1/webhook/endpoint/{id}/recover – send the events of a window again
export const recoverEndpointRoute = defineRoute({
  operationId: "recoverWebhookEndpoint",
  method: "POST",
  path: "/webhook/endpoint/{id}/recover",
  summary: "Send an endpoint the events of a time window again",
  description:
    "Every event created in [since, until) (until: now) that the endpoint subscribes to is sent to it again, as new " +
    "deliveries with the same `webhook-id`: after an outage of your endpoint, or to fill a new one. An event the " +
    "endpoint still has a delivery of pending is not queued again. At most 10,000 events per call (a larger window " +
    "answers 422 `recover_window_too_large`) and 10 calls an hour per merchant (429 `rate_limited`). A disabled " +
    "endpoint's deliveries wait until it is enabled.",
  tags,
  auth: "api_key",
  permission: "events.write",
  params: endpointIdParams,
  body: recoverInput,
  bodyExample: { since: EXAMPLE_TIME },
  responses: { 202: { description: "How many deliveries were queued.", schema: recoverResultSchema, example: { count: 42 } } },
  errors: ["webhook_url_missing", "recover_window_too_large", "rate_limited"],
  rateLimit: RECOVER_LIMIT,
  handler: async ({ ctx, params, body }) => ({ status: 202, body: await recoverEndpoint({ ctx, input: { ...body, id: params.id } }) }),
});

export const webhookEndpointRoutes = [
  createEndpointRoute,
  listEndpointsRoute,
  getEndpointRoute,
  updateEndpointRoute,
  deleteEndpointRoute,
  rotateEndpointSecretRoute,
  recoverEndpointRoute,
];
