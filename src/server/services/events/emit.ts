import { eq } from "drizzle-orm";
import { events, merchants, webhookDeliveries, type EventType } from "@/server/db/schema";
import { newId } from "@/lib/ids";
import { requireMerchantId, type ServiceContext } from "../context";

export interface EmitEventInput {
  type: EventType;
  /** The webhook body's `data`: a plain JSON object (dates as ISO strings). */
  data: Record<string, unknown>;
  /** The resource the event is about (payment id, …), for detail views. */
  subjectId?: string;
}

/**
 * Records an event and, when the merchant has a webhook URL subscribed to its type, the pending delivery
 * (the transactional outbox). Call it with the context of the transaction that made the change: both rows
 * commit or roll back with it, and the webhook worker picks the delivery up from there.
 */
export async function emitEvent({ ctx, input }: { ctx: ServiceContext; input: EmitEventInput }) {
  const merchantId = requireMerchantId(ctx);
  const now = ctx.now();
  const [event] = await ctx.db
    .insert(events)
    .values({
      id: newId("event"),
      merchantId,
      type: input.type,
      data: input.data,
      subjectId: input.subjectId ?? null,
      createdAt: now,
    })
    .returning();
  const [merchant] = await ctx.db
    .select({ webhookUrl: merchants.webhookUrl, webhookEvents: merchants.webhookEvents })
    .from(merchants)
    .where(eq(merchants.id, merchantId));
  let deliveryId: string | null = null;
  if (merchant?.webhookUrl && merchant.webhookEvents.includes(input.type)) {
    deliveryId = newId("delivery");
    await ctx.db.insert(webhookDeliveries).values({
      id: deliveryId,
      merchantId,
      eventId: event!.id,
      url: merchant.webhookUrl,
      status: "pending",
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    });
  }
  return { event: event!, deliveryId };
}
