import { and, eq } from "drizzle-orm";
import { merchants, webhookDeliveries } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { recordAudit } from "../audit/record";
import { inTransaction, requireMerchantId, type ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { getDeliveryForMerchant } from "./fetch";
import { toDelivery } from "./schemas";

/**
 * Re-queues one failed delivery for an attempt now (`failed → pending`, trigger `manual`). It goes to the
 * merchant's current webhook URL — the usual reason to retry is that the endpoint was fixed or moved.
 * A manual retry is one attempt: if it fails too, the delivery is failed again.
 */
export async function retryDelivery({ ctx, input }: { ctx: ServiceContext; input: { id: string } }) {
  const merchantId = requireMerchantId(ctx);
  const now = ctx.now();
  return withTransaction(ctx.db, async (tx) => {
    const { delivery, event } = await getDeliveryForMerchant(tx, merchantId, input.id, { forUpdate: true });
    if (delivery.status !== "failed") {
      throw new ServiceError("delivery_not_failed", `Only failed deliveries can be retried; this one is ${delivery.status}.`);
    }
    const [merchant] = await tx.select({ webhookUrl: merchants.webhookUrl }).from(merchants).where(eq(merchants.id, merchantId));
    const [updated] = await tx
      .update(webhookDeliveries)
      .set({
        status: "pending",
        nextAttemptAt: now,
        nextTrigger: "manual",
        url: merchant?.webhookUrl ?? delivery.url,
        failedAt: null,
        updatedAt: now,
      })
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.merchantId, merchantId)))
      .returning();
    await recordAudit({
      ctx: inTransaction(ctx, tx),
      input: { action: "webhook_delivery.retried", targetType: "webhook_delivery", targetId: delivery.id, merchantId },
    });
    return toDelivery(updated!, event);
  });
}
