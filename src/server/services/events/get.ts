import { and, asc, eq } from "drizzle-orm";
import { isId } from "@/lib/ids";
import { events, webhookDeliveries } from "@/server/db/schema";
import { recordStaffRead } from "../audit/record-staff-read";
import { requireMerchantScope, type ServiceContext } from "../context";
import { NotFoundError } from "../errors";
import { toDelivery } from "../webhooks/schemas";
import { renderEvent } from "./render";

/** One of the merchant's events with its deliveries (one per endpoint it went to); another merchant's → 404. */
export async function getEvent({ ctx, input }: { ctx: ServiceContext; input: { id: string } }) {
  const { merchantId, livemode } = requireMerchantScope(ctx);
  if (!isId("event", input.id)) throw new NotFoundError("event");
  const [event] = await ctx.db
    .select()
    .from(events)
    .where(and(eq(events.id, input.id), eq(events.merchantId, merchantId), eq(events.livemode, livemode)));
  if (!event) throw new NotFoundError("event");
  await recordStaffRead({ ctx, input: { view: "event", target: { type: "event", id: event.id } } });
  const deliveries = await ctx.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.eventId, event.id), eq(webhookDeliveries.merchantId, merchantId)))
    .orderBy(asc(webhookDeliveries.createdAt), asc(webhookDeliveries.id));
  return {
    ...renderEvent(event),
    // Without the event each would repeat: it is the object around them.
    deliveries: deliveries.map((delivery) => withoutEvent(toDelivery(delivery, event))),
  };
}

function withoutEvent<T extends { event: unknown }>(delivery: T): Omit<T, "event"> {
  const copy: Partial<T> = { ...delivery };
  delete copy.event;
  return copy as Omit<T, "event">;
}
