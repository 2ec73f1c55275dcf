import { and, eq } from "drizzle-orm";
import { events, merchants } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";
import { ServiceError } from "../errors";

/*
 * Where a retry sends a delivery. An event's delivery goes to the merchant's current webhook URL: the usual
 * reason to retry is that the endpoint was fixed or moved. A test send goes back to the URL it tested, which
 * `POST /webhook/test` lets the merchant choose per send: retrying it means repeating that test.
 */

/** The merchant's webhook URL, or 409 `webhook_url_missing`: a retry with nowhere to go must not be queued. */
export async function requireWebhookUrl(db: Executor, merchantId: string): Promise<string> {
  const [merchant] = await db.select({ webhookUrl: merchants.webhookUrl }).from(merchants).where(eq(merchants.id, merchantId));
  if (!merchant?.webhookUrl) {
    throw new ServiceError(
      "webhook_url_missing",
      "No webhook URL is configured, so there is nowhere to send this retry; nothing was re-queued. Set a webhook URL, then retry.",
    );
  }
  return merchant.webhookUrl;
}

export function isTestSend(event: { type: string }): boolean {
  return event.type === "webhook.test";
}

/** The merchant's `webhook.test` events, as a subquery: a delivery is a test send when its event is one. */
export function testEventIds(db: Executor, merchantId: string) {
  return db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.merchantId, merchantId), eq(events.type, "webhook.test")));
}
