import { newId } from "@/lib/ids";
import type { EventRow, EventType } from "@/server/db/schema";
import { insertEventWithDeliveries } from "@/server/db/sql/events";
import type { Executor } from "@/server/db/types";
import { traceParentOf, withSpan } from "@/server/tracing/span";
import { WAKE_CHANNEL } from "@/server/webhooks/wake";
import { livemodeOf, requireMerchantId, type ServiceContext } from "../context";
import { MAX_ENDPOINTS_PER_MERCHANT } from "../webhook-endpoints/limits";

export interface EmitEventInput {
  type: EventType;
  /** The webhook body's `data`: a plain JSON object (dates as ISO strings). */
  data: Record<string, unknown>;
  /** The resource the event is about (payment id, …), for detail views. */
  subjectId?: string;
  /** Leave this endpoint out (the endpoint a `webhook.endpoint_disabled` event is about). */
  exceptEndpointId?: string;
  /** The event's mode: its subject's (a test payment's events are test events); else the context's. */
  livemode?: boolean;
}

/**
 * Records an event and one pending delivery per endpoint of the merchant that is enabled, has a URL and
 * subscribes to the type (the transactional outbox, docs/webhooks.md "Endpoints"). Call it with the context of
 * the transaction that made the change: every row commits or rolls back with it, and the webhook workers pick the
 * deliveries up from there.
 *
 * One statement (db/sql/events.ts), on every hot write path (payment confirmation): the event is inserted in a CTE
 * and the deliveries from the merchant's endpoint rows, where the query builder would take three round trips. Delivery
 * ids are made here (time-sortable ULIDs), one per possible endpoint, and handed out by the endpoints' order.
 * A delivery inserted also notifies the webhook workers, which PostgreSQL sends at commit (webhooks/wake.ts).
 *
 * Test events (docs/test-mode.md) go to the merchant's test endpoints only, live events to live endpoints only.
 */
export function emitEvent({ ctx, input }: { ctx: ServiceContext; input: EmitEventInput }): Promise<EmittedEvent> {
  return withSpan("outbox.write", { attributes: { "event.type": input.type } }, async (span) => {
    const written = await writeEvent(ctx.db, { ...input, merchantId: requireMerchantId(ctx), livemode: input.livemode ?? livemodeOf(ctx), now: ctx.now(), traceParent: traceParentOf(span) });
    span?.setAttributes({ "event.id": written.event.id, "webhook.delivery_id": written.deliveryId ?? "" });
    return written;
  });
}

export interface EmittedEvent {
  event: EventRow;
  /** The first of `deliveryIds` (null when no endpoint takes the event). */
  deliveryId: string | null;
  deliveryIds: string[];
}

/**
 * `emitEvent` where there is no service context: the delivery worker's own events (endpoint health), in the mode
 * of the endpoint they are about.
 */
export async function writeEvent(
  db: Executor,
  input: EmitEventInput & { merchantId: string; livemode: boolean; now: Date; traceParent?: string | null },
): Promise<EmittedEvent> {
  const { merchantId, livemode, now } = input;
  const event: EventRow = { id: newId("event"), merchantId, livemode, type: input.type, data: input.data, subjectId: input.subjectId ?? null, createdAt: now };
  const ids = Array.from({ length: MAX_ENDPOINTS_PER_MERCHANT }, () => newId("delivery"));
  const inserted = await insertEventWithDeliveries(db, {
    event,
    deliveryIds: ids,
    exceptEndpointId: input.exceptEndpointId ?? null,
    traceParent: input.traceParent ?? null,
    wakeChannel: WAKE_CHANNEL,
  });
  const deliveryIds = inserted.sort();
  return { event, deliveryId: deliveryIds[0] ?? null, deliveryIds };
}
