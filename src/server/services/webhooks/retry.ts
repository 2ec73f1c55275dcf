import { and, eq } from "drizzle-orm";
import { webhookDeliveries } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { wakeForManualRetry } from "@/server/webhooks/wake";
import { recordAudit } from "../audit/record";
import { inTransaction, requireMerchantScope, type ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { getDeliveryForMerchant } from "./fetch";
import { isTestSend, requireEndpointUrl } from "./retry-target";
import { toDelivery } from "./schemas";

/**
 * Re-queues one failed delivery for an attempt now (`failed → pending`, trigger `manual`): an event's delivery
 * to its endpoint's current URL (409 `webhook_url_missing`, changing nothing, when there is none), a test send
 * to the URL it tested (retry-target.ts); while the endpoint is disabled, it waits for it to be enabled. A manual retry is one attempt: if it fails too, the
 * delivery is failed again.
 */
export async function retryDelivery({ ctx, input }: { ctx: ServiceContext; input: { id: string } }) {
  const scope = requireMerchantScope(ctx);
  const { merchantId } = scope;
  const now = ctx.now();
  return withTransaction(ctx.db, async (tx) => {
    const { delivery, event } = await getDeliveryForMerchant(tx, scope, input.id, { forUpdate: true });
    if (delivery.status !== "failed") {
      throw new ServiceError("delivery_not_failed", `Only failed deliveries can be retried; this one is ${delivery.status}.`);
    }
    const endpoint = isTestSend(event) ? null : await requireEndpointUrl(tx, merchantId, delivery.endpointId);
    const url = endpoint?.url ?? delivery.url;
    const nextAttemptAt = endpoint?.status === "disabled" ? null : now;
    const [updated] = await tx
      .update(webhookDeliveries)
      .set({ status: "pending", nextAttemptAt, nextTrigger: "manual", url, failedAt: null, updatedAt: now })
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.merchantId, merchantId)))
      .returning();
    await wakeForManualRetry(tx, { merchantId, now });
    await recordAudit({
      ctx: inTransaction(ctx, tx),
      input: { action: "webhook_delivery.retried", targetType: "webhook_delivery", targetId: delivery.id, merchantId },
    });
    return toDelivery(updated!, event);
  });
}
