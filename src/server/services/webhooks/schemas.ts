import { z } from "zod";
import { isoInstantInput, startNotAfterEnd } from "@/lib/iso-input";
import { createSelectSchema } from "drizzle-zod";
import {
  deliveryAttempts,
  deliveryStatuses,
  errorClasses,
  eventTypes,
  webhookDeliveries,
  type DeliveryAttemptRow,
  type EventRow,
  type WebhookDeliveryRow,
} from "@/server/db/schema";
import { eventSchema, toEvent, type Event } from "../events/schemas";
import { listSchema, pageQuery } from "../pagination";
import { describeFields, isoTimestamp, isoTimestamps, jsonObject, rowShape } from "../row-shape";
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

/**
 * The Delivery as clients see it (docs/api-contract.md, "Shapes"): the webhook_deliveries row less whose it is,
 * its mode, the worker's bookkeeping (lease, next trigger, trace, when it ended) and the partition key copied from
 * its event (`eventCreatedAt`: the event carries its own `createdAt`), with the event it carries.
 */
export const deliverySchema = describeFields(
  createSelectSchema(webhookDeliveries, isoTimestamps(webhookDeliveries))
    .omit({
      merchantId: true,
      livemode: true,
      nextTrigger: true,
      leaseExpiresAt: true,
      deliveredAt: true,
      failedAt: true,
      traceParent: true,
      eventCreatedAt: true,
    })
    .extend({ eventType: z.enum(eventTypes), event: eventSchema }),
  { endpointId: "The endpoint it goes to (`we_…`)." },
).meta({ id: "Delivery" });
export type Delivery = z.infer<typeof deliverySchema>;

/** A Delivery listed under its event (`GET event/{id}`), where the event would repeat the object around it. */
export const deliveryWithoutEventSchema = deliverySchema.omit({ event: true });

type DeliverySource = WebhookDeliveryRow & Pick<Delivery, "eventType" | "event">;
const deliveryShape = rowShape<typeof deliverySchema, DeliverySource>(deliverySchema);
const deliveryWithoutEventShape = rowShape<typeof deliveryWithoutEventSchema, Omit<DeliverySource, "event">>(deliveryWithoutEventSchema);

export function toDelivery(row: WebhookDeliveryRow, event: Pick<EventRow, keyof Event>): Delivery {
  return deliveryShape({ ...row, eventType: event.type, event: toEvent(event) });
}

export function toDeliveryWithoutEvent(row: WebhookDeliveryRow, event: Pick<EventRow, "type">) {
  return deliveryWithoutEventShape({ ...row, eventType: event.type });
}

const attemptRowSchema = createSelectSchema(deliveryAttempts, {
  ...isoTimestamps(deliveryAttempts),
  responseHeaders: () => z.record(z.string(), z.string()),
});

/** One attempt of a delivery: the delivery_attempts row less its keys, `sentAt` shown as `at` and `errorMessage` as `error`. */
export const attemptSchema = describeFields(
  attemptRowSchema
    .omit({ id: true, deliveryId: true, merchantId: true, eventCreatedAt: true, createdAt: true, sentAt: true, errorMessage: true })
    .extend({ at: attemptRowSchema.shape.sentAt, error: attemptRowSchema.shape.errorMessage }),
  { at: "When the attempt was sent.", queuedAt: "When it was due.", responseBody: "The first 16 KiB of the response body." },
);
export type Attempt = z.infer<typeof attemptSchema>;

const attemptShape = rowShape<typeof attemptSchema, DeliveryAttemptRow & { at: Date; error: string | null }>(attemptSchema);

export function toAttempt(row: DeliveryAttemptRow): Attempt {
  return attemptShape({ ...row, at: row.sentAt, error: row.errorMessage });
}

/** The webhook body, `{type, timestamp, data}` (webhooks/payload.ts); each event type's in the OpenAPI `webhooks`. */
export const webhookPayloadSchema = z.object({
  type: eventType,
  timestamp: isoTimestamp.describe("When the event happened (ISO 8601 UTC); the same on every retry."),
  data: jsonObject,
});

export const deliveryDetailSchema = deliverySchema
  .extend({ attempts: z.array(attemptSchema), payload: webhookPayloadSchema })
  .meta({ id: "DeliveryWithAttempts" });

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
