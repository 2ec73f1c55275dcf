import type { EventRow } from "@/server/db/schema";

/**
 * The `Event` every reader of the event log gets (docs/webhooks.md, "Event log"): `GET event`, `GET event/{id}`
 * and the event stream render it here and nowhere else. `data` is the webhook body's `data`, as sent.
 */
export function renderEvent(row: Pick<EventRow, "id" | "type" | "createdAt" | "data">) {
  return { id: row.id, type: row.type, createdAt: row.createdAt.toISOString(), data: row.data };
}

export type RenderedEvent = ReturnType<typeof renderEvent>;
