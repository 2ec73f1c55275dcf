import { newId } from "../../../src/lib/ids";
import { events, webhookDeliveries } from "../../../src/server/db/schema";
import type { Executor } from "../../../src/server/db/types";
import { getDefaultEndpoint } from "../../../src/server/services/webhook-endpoints/fetch";

/** The merchant's default endpoint's id: seeded deliveries go to it unless another is named. */
export async function defaultEndpointId(db: Executor, merchantId: string): Promise<string> {
  return (await getDefaultEndpoint(db, merchantId)).id;
}

/** Queues `count` payment.confirmed events with a due delivery each, in bulk (what emitEvent writes, many at once). */
export async function seedDueDeliveries(db: Executor, input: { merchantId: string; url: string; count: number; now?: Date; endpointId?: string }) {
  const now = input.now ?? new Date();
  const endpointId = input.endpointId ?? (await defaultEndpointId(db, input.merchantId));
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
    eventCreatedAt: now,
    endpointId,
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

/** One failed delivery (of a fresh payment.failed event) for a merchant, live unless `livemode: false`; returns the delivery id. */
export async function seedFailedDelivery(db: Executor, merchantId: string, { livemode = true } = {}): Promise<string> {
  const now = new Date();
  const eventId = newId("event");
  const id = newId("delivery");
  await db.insert(events).values({ id: eventId, merchantId, livemode, type: "payment.failed", data: {}, createdAt: now });
  await db.insert(webhookDeliveries).values({
    id,
    merchantId,
    livemode,
    eventId,
    eventCreatedAt: now,
    endpointId: await defaultEndpointId(db, merchantId),
    url: "https://hooks.example.com/in",
    status: "failed",
    attemptCount: 10,
    lastStatusCode: 500,
    lastError: "The endpoint answered HTTP 500.",
    failedAt: now,
    createdAt: now,
    updatedAt: now,
  });
  return id;
}
