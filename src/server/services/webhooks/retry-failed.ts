import { and, count, eq, gte, inArray, lt, type SQL } from "drizzle-orm";
import { events, merchants, webhookDeliveries } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { recordAudit } from "../audit/record";
import { inTransaction, requireMerchantId, type ServiceContext } from "../context";
import { retryFailedDeliveriesInput, type RetryFailedDeliveriesInput } from "./schemas";

/**
 * Re-queues every failed delivery of the merchant matching the filters (created in [since, until), of the
 * given event types), each as one manual attempt now. `dryRun` only counts them, so a merchant can see
 * what an outage cost before replaying it.
 */
export async function retryFailedDeliveries({ ctx, input }: { ctx: ServiceContext; input: RetryFailedDeliveriesInput }) {
  const merchantId = requireMerchantId(ctx);
  const { since, until, eventTypes, dryRun } = retryFailedDeliveriesInput.parse(input);
  const now = ctx.now();
  const conditions: SQL[] = [eq(webhookDeliveries.merchantId, merchantId), eq(webhookDeliveries.status, "failed")];
  if (since) conditions.push(gte(webhookDeliveries.createdAt, new Date(since)));
  if (until) conditions.push(lt(webhookDeliveries.createdAt, new Date(until)));
  if (eventTypes && eventTypes.length > 0) {
    const ofTypes = ctx.db
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.merchantId, merchantId), inArray(events.type, eventTypes)));
    conditions.push(inArray(webhookDeliveries.eventId, ofTypes));
  }

  if (dryRun) {
    const [row] = await ctx.db.select({ n: count() }).from(webhookDeliveries).where(and(...conditions));
    return { count: row?.n ?? 0, dryRun: true };
  }
  return withTransaction(ctx.db, async (tx) => {
    const [merchant] = await tx.select({ webhookUrl: merchants.webhookUrl }).from(merchants).where(eq(merchants.id, merchantId));
    const requeued = await tx
      .update(webhookDeliveries)
      .set({
        status: "pending",
        nextAttemptAt: now,
        nextTrigger: "manual",
        failedAt: null,
        updatedAt: now,
        ...(merchant?.webhookUrl ? { url: merchant.webhookUrl } : {}),
      })
      .where(and(...conditions))
      .returning({ id: webhookDeliveries.id });
    await recordAudit({
      ctx: inTransaction(ctx, tx),
      input: {
        action: "webhook_delivery.bulk_retried",
        targetType: "merchant",
        targetId: merchantId,
        merchantId,
        details: { count: requeued.length, since: since ?? null, until: until ?? null, eventTypes: eventTypes ?? null },
      },
    });
    return { count: requeued.length, dryRun: false };
  });
}
