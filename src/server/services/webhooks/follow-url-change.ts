import { and, eq, notInArray } from "drizzle-orm";
import { webhookDeliveries } from "@/server/db/schema";
import type { Transaction } from "@/server/db/types";
import { testEventIds } from "./retry-target";

export const URL_REMOVED_ERROR = "Not attempted: the webhook URL was removed. Set a URL and retry the delivery.";

/**
 * Keeps an endpoint's queued deliveries in step with its URL (call it in the transaction that changes the URL).
 * A new URL: deliveries waiting for their next scheduled attempt go there, as manual retries already do — a
 * merchant who moves their endpoint expects the retries to follow. No URL any more (the default endpoint, when
 * the profile's URL is removed): they fail at once, so nothing is sent to an endpoint the merchant gave up, and
 * they show among the failed deliveries to retry once a URL is set again. Attempts in flight, finished deliveries
 * (history) and test sends (their target was chosen per send; found by their event, so a retried test send
 * stays put too) are left as they are.
 */
export async function followWebhookUrlChange(tx: Transaction, input: { merchantId: string; endpointId: string; url: string | null; now: Date }) {
  const { merchantId, endpointId, url, now } = input;
  const queued = and(
    eq(webhookDeliveries.merchantId, merchantId),
    eq(webhookDeliveries.endpointId, endpointId),
    eq(webhookDeliveries.status, "pending"),
    notInArray(webhookDeliveries.eventId, testEventIds(tx, merchantId)),
  );
  if (url) {
    await tx.update(webhookDeliveries).set({ url, updatedAt: now }).where(queued);
  } else {
    await tx
      .update(webhookDeliveries)
      .set({ status: "failed", nextAttemptAt: null, lastError: URL_REMOVED_ERROR, failedAt: now, updatedAt: now })
      .where(queued);
  }
}
