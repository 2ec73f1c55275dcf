import { z } from "zod";
import { isoInstantInput, startNotAfterEnd } from "@/lib/iso-input";
import {
  attemptTriggers,
  deliveryStatuses,
  errorClasses,
  eventTypes,
  type DeliveryAttemptRow,
  type EventRow,
  type WebhookDeliveryRow,
} from "@/server/db/schema";
import { listSchema, pageQuery } from "../pagination";
import { SSRF_REASONS } from "@/server/webhooks/ssrf-guard";
import { VERIFY_REASONS } from "@/server/webhooks/signing";

/** Webhook schemas, written once: they validate REST and tRPC input, type the verbs and feed OpenAPI. */

// Kept as strings (not transformed to Date) so that parsing twice — adapter, then verb — is harmless;
// limited to the years the database can take (see iso-input.ts).
const isoDate = isoInstantInput({ offset: true });
const eventType = z.enum(eventTypes);

/**
 * `?eventType=a&eventType=b` or `?eventType=a,b`. A preprocess rather than a union + transform, so that the
 * OpenAPI document shows what is validated, an array of the event types (a repeated query parameter).
 */
const eventTypeList = z.preprocess(
  (value: string | string[]) =>
    typeof value === "string" || Array.isArray(value)
      ? [value].flat().flatMap((part) => (typeof part === "string" ? part.split(",") : [part])).filter((part) => part !== "")
      : value,
  z.array(eventType).max(eventTypes.length),
);

export const listFailedDeliveriesInput = z.strictObject({
  ...pageQuery,
  eventType: eventTypeList.optional(),
  since: isoDate.optional().describe("Deliveries created at or after this time."),
  until: isoDate.optional().describe("Deliveries created before this time."),
}).superRefine(startNotAfterEnd("since", "until"));
export type ListFailedDeliveriesInput = z.input<typeof listFailedDeliveriesInput>;

export const listDeliveriesInput = z.strictObject({
  ...pageQuery,
  status: z.preprocess(
    (value: string | string[]) => (typeof value === "string" ? value.split(",").filter((part) => part !== "") : value),
    z.array(z.enum(deliveryStatuses)).max(deliveryStatuses.length),
  ).optional().describe("One or more statuses (repeat the parameter, or separate with commas)."),
  eventType: eventTypeList.optional(),
  endpointId: z.string().max(100).optional(),
  eventId: z.string().max(100).optional().describe("The deliveries of one event."),
  since: isoDate.optional().describe("Deliveries created at or after this time."),
  until: isoDate.optional().describe("Deliveries created before this time."),
}).superRefine(startNotAfterEnd("since", "until"));
export type ListDeliveriesInput = z.input<typeof listDeliveriesInput>;

export const deliveryIdParams = z.strictObject({ id: z.string().max(100) });

export const retryFailedDeliveriesInput = z.strictObject({
  since: isoDate.optional(),
  until: isoDate.optional(),
  eventTypes: z.array(eventType).max(eventTypes.length).optional(),
  dryRun: z.boolean().default(false).describe("Only count what would be re-queued."),
}).superRefine(startNotAfterEnd("since", "until"));
export type RetryFailedDeliveriesInput = z.input<typeof retryFailedDeliveriesInput>;

export const sendTestWebhookInput = z.strictObject({
  url: z.string().max(2048).optional().describe("Defaults to the endpoint's URL."),
  endpointId: z.string().max(100).optional().describe("The endpoint whose secret signs the test (and whose URL it goes to unless `url` is given); defaults to the default endpoint."),
  dryRun: z.boolean().default(false).describe("Only check whether the URL is usable; send nothing."),
});
export type SendTestWebhookInput = z.input<typeof sendTestWebhookInput>;

export const verifyWebhookInput = z.strictObject({
  payload: z.string().describe("The raw request body, exactly as received."),
  headers: z
    .record(z.string().max(100), z.string().max(4096))
    .refine((headers) => Object.keys(headers).length <= 50, "at most 50 headers")
    .describe("At least webhook-id, webhook-timestamp and webhook-signature (names are case-insensitive)."),
});
export type VerifyWebhookInput = z.input<typeof verifyWebhookInput>;

const eventSummary = z.object({
  id: z.string(),
  type: eventType,
  createdAt: z.iso.datetime(),
  data: z.record(z.string(), z.unknown()),
});

/** `Delivery` (docs/api-contract.md, "Shapes"), with the event it carries. */
export const deliverySchema = z.object({
  id: z.string(),
  eventId: z.string(),
  eventType,
  endpointId: z.string().describe("The endpoint it goes to (`we_…`)."),
  status: z.enum(deliveryStatuses),
  url: z.string(),
  attemptCount: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  event: eventSummary,
}).meta({ id: "Delivery" });

export const attemptSchema = z.object({
  at: z.iso.datetime().describe("When the attempt was sent."),
  queuedAt: z.iso.datetime().describe("When it was due."),
  trigger: z.enum(attemptTriggers),
  statusCode: z.number().int().nullable(),
  errorClass: z.enum(errorClasses).nullable(),
  error: z.string().nullable(),
  latencyMs: z.number().int().nullable(),
  responseHeaders: z.record(z.string(), z.string()).nullable(),
  responseBody: z.string().nullable().describe("The first 16 KiB of the response body."),
});

export const deliveryDetailSchema = deliverySchema.extend({
  attempts: z.array(attemptSchema),
  payload: z.object({ type: eventType, timestamp: z.iso.datetime(), data: z.record(z.string(), z.unknown()) }),
});

export const deliveryListSchema = listSchema(deliverySchema);

export const retryCountSchema = z.object({ count: z.number().int() });

export const testWebhookResultSchema = z.object({
  url: z.string().nullable(),
  usable: z.boolean(),
  reason: z.enum([...SSRF_REASONS, "no_webhook_url"]).nullable(),
  message: z.string().nullable(),
  delivered: z.boolean(),
  statusCode: z.number().int().nullable(),
  latencyMs: z.number().int().nullable(),
  errorClass: z.enum(errorClasses).nullable(),
  responseSnippet: z.string().nullable(),
  deliveryId: z.string().nullable(),
});

export const verifyWebhookResultSchema = z.object({
  valid: z.boolean(),
  reason: z.enum(VERIFY_REASONS).nullable(),
  eventId: z.string().nullable(),
  timestamp: z.iso.datetime().nullable(),
});

/** The service's public keys for `v1a` signatures, as an RFC 7517 JWK Set; empty when none is configured. */
export const signingKeysSchema = z
  .object({
    keys: z
      .array(
        z.object({
          kty: z.literal("OKP"),
          crv: z.literal("Ed25519"),
          x: z.string(),
          kid: z.string().describe("RFC 7638 thumbprint."),
          use: z.literal("sig"),
          alg: z.literal("EdDSA"),
          whpk: z.string().describe("The same public key in Standard Webhooks form: `whpk_` + base64 of its 32 bytes."),
        }),
      )
      .describe(
        "The current key first. During a key rotation the outgoing key is listed too and every webhook carries a " +
          "`v1a` signature by each listed key: accept a webhook if any of them verifies.",
      ),
  })
  .meta({ id: "WebhookSigningKeys" });
export type SigningKeys = z.infer<typeof signingKeysSchema>;

export const rotateWebhookSecretResultSchema = z.object({
  webhookSecret: z.string().describe("Shown this once."),
  previousSecretExpiresAt: z.iso.datetime().describe("Until then deliveries carry signatures with both secrets."),
});

export type Delivery = ReturnType<typeof toDelivery>;

export function toDelivery(row: WebhookDeliveryRow, event: Pick<EventRow, "id" | "type" | "createdAt" | "data">) {
  return {
    id: row.id,
    eventId: row.eventId,
    eventType: event.type,
    endpointId: row.endpointId,
    status: row.status,
    url: row.url,
    attemptCount: row.attemptCount,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    nextAttemptAt: row.nextAttemptAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    event: { id: event.id, type: event.type, createdAt: event.createdAt, data: event.data },
  };
}

export function toAttempt(row: DeliveryAttemptRow) {
  return {
    at: row.sentAt,
    queuedAt: row.queuedAt,
    trigger: row.trigger,
    statusCode: row.statusCode,
    errorClass: row.errorClass,
    error: row.errorMessage,
    latencyMs: row.latencyMs,
    responseHeaders: row.responseHeaders,
    responseBody: row.responseBody,
  };
}
