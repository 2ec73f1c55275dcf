import { z } from "zod";
import { eventTypes, type EventRow } from "@/server/db/schema";

/** An event as the API shows it, in the event stream (and the event log): `{id, type, createdAt, data}`. */
export const renderedEventSchema = z.object({
  id: z.string().describe("`evt_…`: the webhook's `webhook-id`. Ids sort in the order events happened."),
  type: z.enum(eventTypes),
  createdAt: z.iso.datetime(),
  data: z.record(z.string(), z.unknown()).describe("The `data` of the webhook body: the payment, invoice, … it is about."),
}).meta({ id: "Event" });

export type RenderedEvent = z.infer<typeof renderedEventSchema>;

export function renderEvent(event: EventRow): RenderedEvent {
  return { id: event.id, type: event.type, createdAt: event.createdAt.toISOString(), data: event.data };
}
