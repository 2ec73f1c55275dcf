import { sql } from "drizzle-orm";
import { newId } from "@/lib/ids";
import { events, merchants, webhookDeliveries, type EventRow, type EventType } from "@/server/db/schema";
import { rowsOf } from "@/server/db/rows";
import { traceParentOf, withSpan } from "@/server/tracing/span";
import { WAKE_CHANNEL } from "@/server/webhooks/wake";
import { livemodeOf, requireMerchantId, type ServiceContext } from "../context";

export interface EmitEventInput {
  type: EventType;
  /** The webhook body's `data`: a plain JSON object (dates as ISO strings). */
  data: Record<string, unknown>;
  /** The resource the event is about (payment id, …), for detail views. */
  subjectId?: string;
  /** The event's mode: its subject's (a test payment's events are test events); else the context's. */
  livemode?: boolean;
}

/**
 * Records an event and, when the merchant has a webhook URL subscribed to its type, the pending delivery
 * (the transactional outbox). Call it with the context of the transaction that made the change: both rows
 * commit or roll back with it, and the webhook worker picks the delivery up from there.
 *
 * One statement, on every hot write path (payment confirmation): the event is inserted in a CTE and the
 * delivery is inserted from the merchant's row only when its webhook settings ask for this type, where
 * the query builder would take three round trips (insert, read settings, insert). A delivery inserted also
 * notifies the webhook workers, which PostgreSQL sends at commit (webhooks/wake.ts): it is attempted at once.
 *
 * Test events (docs/test-mode.md) are recorded like live ones, and go to test endpoints only: the profile's
 * webhook URL is a live endpoint, so a test event makes no delivery to it.
 */
export function emitEvent({ ctx, input }: { ctx: ServiceContext; input: EmitEventInput }): Promise<{ event: EventRow; deliveryId: string | null }> {
  return withSpan("outbox.write", { attributes: { "event.type": input.type } }, async (span) => {
    const written = await writeEvent(ctx, input, traceParentOf(span));
    span?.setAttributes({ "event.id": written.event.id, "webhook.delivery_id": written.deliveryId ?? "" });
    return written;
  });
}

async function writeEvent(ctx: ServiceContext, input: EmitEventInput, traceParent: string | null): Promise<{ event: EventRow; deliveryId: string | null }> {
  const merchantId = requireMerchantId(ctx);
  const now = ctx.now();
  const livemode = input.livemode ?? livemodeOf(ctx);
  const event: EventRow = { id: newId("event"), merchantId, livemode, type: input.type, data: input.data, subjectId: input.subjectId ?? null, createdAt: now };
  const at = now.toISOString();
  const result = await ctx.db.execute(sql`
    with new_event as (
      insert into ${events} (id, merchant_id, livemode, type, data, subject_id, created_at)
      values (${event.id}, ${merchantId}, ${livemode}, ${event.type}, ${JSON.stringify(event.data)}::text::jsonb, ${event.subjectId}, ${at}::text::timestamptz)
    )
    insert into ${webhookDeliveries} (id, merchant_id, livemode, event_id, url, status, next_attempt_at, trace_parent, created_at, updated_at)
    select ${newId("delivery")}, m.id, ${livemode}, ${event.id}, m.webhook_url, 'pending', ${at}::text::timestamptz, ${traceParent}, ${at}::text::timestamptz, ${at}::text::timestamptz
    from ${merchants} m
    where m.id = ${merchantId} and ${livemode}::boolean and m.webhook_url is not null and ${event.type}::text = any(m.webhook_events)
    returning id, pg_notify(${WAKE_CHANNEL}, '')::text as woke`);
  const [delivery] = rowsOf<{ id: string }>(result);
  return { event, deliveryId: delivery?.id ?? null };
}
