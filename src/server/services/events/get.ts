import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { isId } from "@/lib/ids";
import { events, webhookDeliveries } from "@/server/db/schema";
import { recordStaffRead } from "../audit/record-staff-read";
import { requireMerchantScope, type ServiceContext } from "../context";
import { NotFoundError } from "../errors";
import { deliveryWithoutEventSchema, toDeliveryWithoutEvent } from "../webhooks/schemas";
import { eventSchema, toEvent } from "./schemas";

/** `GET event/{id}`: the Event with its deliveries (each without the event: it is the object around them). */
export const eventDetailSchema = eventSchema
  .extend({ deliveries: z.array(deliveryWithoutEventSchema).describe("One per endpoint it was sent to, oldest first.") })
  .meta({ id: "EventWithDeliveries" });
export type EventDetail = z.infer<typeof eventDetailSchema>;

/** One of the merchant's events with its deliveries (one per endpoint it went to); another merchant's → 404. */
export async function getEvent({ ctx, input }: { ctx: ServiceContext; input: { id: string } }): Promise<EventDetail> {
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
  return { ...toEvent(event), deliveries: deliveries.map((delivery) => toDeliveryWithoutEvent(delivery, event)) };
}
