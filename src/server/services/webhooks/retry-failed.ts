import { and, count, eq, gte, inArray, lt, notInArray, sql, type SQL } from "drizzle-orm";
import { events, webhookDeliveries } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { wakeForManualRetry } from "@/server/webhooks/wake";
import { recordAudit } from "../audit/record";
import { inTransaction, requireMerchantScope, type ServiceContext } from "../context";
import { validateInput } from "../validate";
import { endpointEnabledOfDelivery, endpointsWithUrl, endpointUrlOfDelivery, requireSomeEndpointUrl, testEventIds } from "./retry-target";
import { retryFailedDeliveriesInput, type RetryFailedDeliveriesInput } from "./schemas";

/**
 * Re-queues every failed delivery of the merchant matching the filters (created in [since, until), of the
 * given event types), each as one manual attempt now, to where a single retry would send it (retry-target.ts);
 * deliveries of an endpoint without a URL stay failed. `dryRun` only counts them, so a merchant can see what an
 * outage cost before replaying it. Both answer 409 `webhook_url_missing` when no endpoint has a URL: a count of
 * 0 would read as "nothing failed", and a dry run must predict the real run.
 */
export async function retryFailedDeliveries({ ctx, input }: { ctx: ServiceContext; input: RetryFailedDeliveriesInput }) {
  const { merchantId, livemode } = requireMerchantScope(ctx);
  const { since, until, eventTypes, dryRun } = validateInput(retryFailedDeliveriesInput, input, "body");
  const now = ctx.now();
  const conditions: SQL[] = [
    eq(webhookDeliveries.merchantId, merchantId),
    eq(webhookDeliveries.livemode, livemode),
    eq(webhookDeliveries.status, "failed"),
    inArray(webhookDeliveries.endpointId, endpointsWithUrl(ctx.db, merchantId)),
  ];
  if (since) conditions.push(gte(webhookDeliveries.createdAt, new Date(since)));
  if (until) conditions.push(lt(webhookDeliveries.createdAt, new Date(until)));
  if (eventTypes && eventTypes.length > 0) {
    const ofTypes = ctx.db
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.merchantId, merchantId), eq(events.livemode, livemode), inArray(events.type, eventTypes)));
    conditions.push(inArray(webhookDeliveries.eventId, ofTypes));
  }

  if (dryRun) {
    await requireSomeEndpointUrl(ctx.db, merchantId);
    const [row] = await ctx.db.select({ n: count() }).from(webhookDeliveries).where(and(...conditions));
    return { count: row?.n ?? 0, dryRun: true };
  }
  return withTransaction(ctx.db, async (tx) => {
    await requireSomeEndpointUrl(tx, merchantId);
    const requeue = { status: "pending", nextAttemptAt: now, nextTrigger: "manual", failedAt: null, updatedAt: now } as const;
    // A disabled endpoint's deliveries wait for it to be enabled (webhook-endpoints/state.ts).
    const dueUnlessDisabled = sql`case when ${endpointEnabledOfDelivery} then ${now.toISOString()}::text::timestamptz end`;
    const tests = testEventIds(tx, merchantId);
    const toEndpoint = await tx
      .update(webhookDeliveries)
      .set({ ...requeue, url: endpointUrlOfDelivery, nextAttemptAt: dueUnlessDisabled })
      .where(and(...conditions, notInArray(webhookDeliveries.eventId, tests)))
      .returning({ id: webhookDeliveries.id });
    const testSends = await tx
      .update(webhookDeliveries)
      .set(requeue)
      .where(and(...conditions, inArray(webhookDeliveries.eventId, tests)))
      .returning({ id: webhookDeliveries.id });
    const requeued = toEndpoint.length + testSends.length;
    if (requeued > 0) await wakeForManualRetry(tx, { merchantId, now });
    await recordAudit({
      ctx: inTransaction(ctx, tx),
      input: {
        action: "webhook_delivery.bulk_retried",
        targetType: "merchant",
        targetId: merchantId,
        merchantId,
        details: { count: requeued, since: since ?? null, until: until ?? null, eventTypes: eventTypes ?? null },
      },
    });
    return { count: requeued, dryRun: false };
  });
}
