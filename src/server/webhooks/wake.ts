import { and, eq, gt, inArray } from "drizzle-orm";
import { webhookEndpointBreakers, webhookEndpoints } from "@/server/db/schema";
import { notifyAtCommit } from "@/server/db/sql/notify";
import type { Executor } from "@/server/db/types";

/**
 * The PostgreSQL notification channel that wakes webhook workers. Notified inside the transaction that makes
 * a delivery due (an event's delivery, a retry), so PostgreSQL delivers it at commit — never before the row is
 * visible — to every listening worker, the web process's inline one included; polling stays as the safety net.
 */
export const WAKE_CHANNEL = "webhook_deliveries_due";

/** Wakes the workers once the caller's transaction commits (PostgreSQL sends one notification per transaction). */
export async function notifyDeliveriesDue(tx: Executor): Promise<void> {
  await notifyAtCommit(tx, WAKE_CHANNEL);
}

/**
 * A manual retry is attempted at once (docs/webhooks.md): wake the workers at commit and, should the merchant's
 * endpoints' breakers be open, let it probe now instead of after its cool-down (the retry is usually the merchant
 * saying the endpoint is fixed).
 */
export async function wakeForManualRetry(tx: Executor, input: { merchantId: string; now: Date }): Promise<void> {
  await tx
    .update(webhookEndpointBreakers)
    .set({ openUntil: input.now, updatedAt: input.now })
    .where(
      and(
        inArray(webhookEndpointBreakers.endpointId, tx.select({ id: webhookEndpoints.id }).from(webhookEndpoints).where(eq(webhookEndpoints.merchantId, input.merchantId))),
        gt(webhookEndpointBreakers.openUntil, input.now),
      ),
    );
  await notifyDeliveriesDue(tx);
}
