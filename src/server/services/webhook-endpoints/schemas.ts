import { createSelectSchema } from "drizzle-zod";
import { z } from "zod";
import { isoInstantInput, startNotAfterEnd } from "@/lib/iso-input";
import { eventTypes, webhookEndpoints, type WebhookEndpointRow } from "@/server/db/schema";
import { listSchema } from "../pagination";
import { describeFields, isoTimestamps, rowShape } from "../row-shape";

/** Webhook endpoint schemas (docs/webhooks.md, "Endpoints"): REST and tRPC input, the verbs' types, OpenAPI. */

const eventType = z.enum(eventTypes);
const eventTypeFilter = z
  .array(eventType)
  .min(1)
  .max(eventTypes.length)
  .nullable()
  .describe("The event types sent to this endpoint; null (the default) for every type, new ones included.");
const url = z.string().min(1).max(2048);
const description = z.string().max(500).nullable();

/**
 * The Endpoint as clients see it (docs/webhooks.md, "Endpoints"): the webhook_endpoints row less whose it is, its
 * mode and the health bookkeeping. `url` is null only on the default endpoint while the profile has no webhook URL.
 */
export const endpointSchema = describeFields(
  createSelectSchema(webhookEndpoints, {
    ...isoTimestamps(webhookEndpoints),
    // Empty only on the default endpoint, when the profile's `webhookEvents` is `[]` (round 1 allowed it: no events).
    eventTypes: () => z.array(eventType).max(eventTypes.length),
  }).omit({ merchantId: true, livemode: true, failingSince: true }),
  {
    eventTypes:
      "The event types sent to this endpoint; null for every type, new ones included. Empty only on the default endpoint whose profile `webhookEvents` is `[]`.",
    isDefault: "The profile's webhookUrl/webhookEvents and the registration secret.",
    disabledReason: "Why it is disabled: by you, failing for too long, or it answered 410 Gone.",
  },
).meta({ id: "WebhookEndpoint" });
export type Endpoint = z.infer<typeof endpointSchema>;

export const toEndpoint = rowShape<typeof endpointSchema, WebhookEndpointRow>(endpointSchema);

export const endpointListSchema = listSchema(endpointSchema);

export const createdEndpointSchema = z.object({
  endpoint: endpointSchema,
  secret: z.string().nullable().describe("The endpoint's signing secret (`whsec_…`), shown this once: null in its replay for the same Idempotency-Key."),
});

export const createEndpointInput = z.strictObject({
  url,
  description: description.optional(),
  eventTypes: eventTypeFilter.optional(),
  enabled: z.boolean().default(true),
});
export type CreateEndpointInput = z.input<typeof createEndpointInput>;

export const updateEndpointInput = z.strictObject({
  url: url.optional(),
  description: description.optional(),
  eventTypes: eventTypeFilter.optional(),
  enabled: z.boolean().optional().describe("false disables it (reason `manual`); true enables it and sends what waited."),
});
export type UpdateEndpointInput = z.input<typeof updateEndpointInput>;

export const endpointIdParams = z.strictObject({ id: z.string().max(100) });

export const recoverInput = z
  .strictObject({
    since: isoInstantInput({ offset: true }).describe("Events created at or after this time."),
    until: isoInstantInput({ offset: true }).optional().describe("Events created before this time (default: now)."),
  })
  .superRefine(startNotAfterEnd("since", "until"));
export type RecoverInput = z.input<typeof recoverInput>;

export const recoverResultSchema = z.object({ count: z.number().int().describe("Deliveries queued.") });

export const rotatedEndpointSecretSchema = z.object({
  secret: z.string().nullable().describe("The new secret, shown this once: null in the replay for the same Idempotency-Key (which rotates nothing)."),
  previousSecretExpiresAt: z.iso.datetime().describe("Until then deliveries carry signatures with both secrets."),
});
