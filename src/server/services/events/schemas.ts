import { z } from "zod";
import { isoInstantInput, startNotAfterEnd } from "@/lib/iso-input";
import { eventTypes } from "@/server/db/schema";
import { listSchema, pageQuery } from "../pagination";
import { deliverySchema } from "../webhooks/schemas";
import { renderedEventSchema } from "./render";

/** Event log schemas (docs/webhooks.md, "Event log"). */

const typePrefixes = [...new Set(eventTypes.map((type) => type.split(".")[0]!))];

/** `type`: one event type, or every type under a prefix, `payment.*`. */
export const eventTypeFilter = z
  .string()
  .max(100)
  .refine((value) => (eventTypes as readonly string[]).includes(value) || typePrefixes.some((prefix) => value === `${prefix}.*`), {
    message: `must be an event type or one of ${typePrefixes.map((prefix) => `${prefix}.*`).join(", ")}`,
  })
  .describe("An event type (`invoice.paid`) or a prefix with `.*` (`invoice.*`).");

export const listEventsInput = z
  .strictObject({
    ...pageQuery,
    type: eventTypeFilter.optional(),
    since: isoInstantInput({ offset: true }).optional().describe("Events created at or after this time."),
    until: isoInstantInput({ offset: true }).optional().describe("Events created before this time."),
    subjectId: z.string().min(1).max(100).optional().describe("Events about this payment, invoice, endpoint, …"),
  })
  .superRefine(startNotAfterEnd("since", "until"));
export type ListEventsInput = z.input<typeof listEventsInput>;

export const eventIdParams = z.strictObject({ id: z.string().max(100) });

/** `Event`: `{id, type, createdAt, data}`, the one schema of render.ts (the event stream shows the same). */
const eventSchema = renderedEventSchema;

export const eventListSchema = listSchema(eventSchema);

export const eventDetailSchema = eventSchema
  .extend({ deliveries: z.array(deliverySchema.omit({ event: true })).describe("One per endpoint it was sent to, oldest first.") })
  .meta({ id: "EventWithDeliveries" });
