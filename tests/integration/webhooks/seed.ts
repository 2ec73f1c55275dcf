import { newId } from "../../../src/lib/ids";
import { events, webhookDeliveries } from "../../../src/server/db/schema";
import type { Executor } from "../../../src/server/db/types";

/** Queues `count` payment.confirmed events with a due delivery each, in bulk (what emitEvent writes, many at once). */
export async function seedDueDeliveries(db: Executor, input: { merchantId: string; url: string; count: number; now?: Date }) {
  const now = input.now ?? new Date();
  const eventRows = Array.from({ length: input.count }, (_, n) => ({
    id: newId("event"),
    merchantId: input.merchantId,
    type: "payment.confirmed" as const,
    data: { n },
    createdAt: now,
  }));
  const deliveryRows = eventRows.map((event) => ({
    id: newId("delivery"),
    merchantId: input.merchantId,
    eventId: event.id,
    url: input.url,
    nextAttemptAt: now,
    createdAt: now,
    updatedAt: now,
  }));
  for (let i = 0; i < eventRows.length; i += 500) {
    await db.insert(events).values(eventRows.slice(i, i + 500));
    await db.insert(webhookDeliveries).values(deliveryRows.slice(i, i + 500));
  }
  return { eventIds: eventRows.map((event) => event.id), deliveryIds: deliveryRows.map((delivery) => delivery.id) };
}
