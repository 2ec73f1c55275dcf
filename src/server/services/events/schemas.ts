import { z } from "zod";
import { isoInstantInput, startNotAfterEnd } from "@/lib/iso-input";
import { createSelectSchema } from "drizzle-zod";
import { events, eventTypes, type EventRow } from "@/server/db/schema";
import { listSchema, pageQuery } from "../pagination";
import { isoTimestamps, jsonObject, rowShape } from "../row-shape";

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

/**
 * The Event as clients see it, in the event log, the event stream and inside a Delivery: the events table's row
 * less whose it is, its mode and its subject (a filter of the log, `subjectId`, not a field).
 */
export const eventSchema = createSelectSchema(events, {
  ...isoTimestamps(events),
  id: (id) => id.describe("`evt_…`: the webhook's `webhook-id`. Ids sort in the order events happened."),
  data: jsonObject.describe("The `data` of the webhook body: the payment, invoice, … it is about."),
})
  .omit({ merchantId: true, livemode: true, subjectId: true })
  .meta({ id: "Event" });
export type Event = z.infer<typeof eventSchema>;

export const toEvent = rowShape<typeof eventSchema, Pick<EventRow, keyof Event>>(eventSchema);

export const eventListSchema = listSchema(eventSchema);
