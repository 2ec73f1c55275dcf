import { createSelectSchema } from "drizzle-zod";
import { z } from "zod";
import { isoInstantInput, startNotAfterEnd } from "@/lib/iso-input";
import { endpointDisabledReasons, eventTypes, webhookEndpoints, type WebhookEndpointRow } from "@/server/db/schema";
import { listSchema } from "../pagination";

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
 * `Endpoint`, derived from the table: every column but the merchant and the health bookkeeping, timestamps as
 * ISO strings. `url` is null only on the default endpoint while the profile has no webhook URL.
 */
export const endpointSchema = createSelectSchema(webhookEndpoints, {
  // Empty only on the default endpoint, when the profile's `webhookEvents` is `[]` (round 1 allowed it: no events).
  eventTypes: z
    .array(eventType)
    .max(eventTypes.length)
    .nullable()
    .describe("The event types sent to this endpoint; null for every type, new ones included. Empty only on the default endpoint whose profile `webhookEvents` is `[]`."),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
})
  .omit({ merchantId: true, livemode: true, failingSince: true })
  .extend({
    isDefault: z.boolean().describe("The profile's webhookUrl/webhookEvents and the registration secret."),
    disabledReason: z.enum(endpointDisabledReasons).nullable().describe("Why it is disabled: by you, failing for too long, or it answered 410 Gone."),
  })
  .meta({ id: "WebhookEndpoint" });

export const endpointListSchema = listSchema(endpointSchema);

export const createdEndpointSchema = z.object({
  endpoint: endpointSchema,
  secret: z.string().describe("The endpoint's signing secret (`whsec_…`), shown this once."),
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
  secret: z.string().describe("The new secret, shown this once."),
  previousSecretExpiresAt: z.iso.datetime().describe("Until then deliveries carry signatures with both secrets."),
});

export type Endpoint = ReturnType<typeof toEndpoint>;

export function toEndpoint(row: WebhookEndpointRow) {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: row.eventTypes as (typeof eventTypes)[number][] | null,
    status: row.status,
    disabledReason: row.disabledReason,
    isDefault: row.isDefault,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
