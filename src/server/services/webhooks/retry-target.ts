import { and, eq, isNotNull, sql } from "drizzle-orm";
import { isTestSendEvent, TEST_SEND_EVENT } from "@/lib/event-types";
import { events, webhookEndpoints, type WebhookEndpointRow } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";
import { ServiceError } from "../errors";

/*
 * Where a retry sends a delivery. An event's delivery goes to its endpoint's current URL: the usual reason to
 * retry is that the endpoint was fixed or moved. A test send goes back to the URL it tested, which
 * `POST /webhook/test` lets the merchant choose per send: retrying it means repeating that test. A retry of a
 * disabled endpoint's delivery waits, deferred, until the endpoint is enabled (webhook-endpoints/state.ts).
 */

const MISSING =
  "No webhook URL is configured, so there is nowhere to send this retry; nothing was re-queued. Set a webhook URL, then retry.";

/** The delivery's endpoint, or 409 `webhook_url_missing` when it has no URL: a retry with nowhere to go must not be queued. */
export async function requireEndpointUrl(db: Executor, merchantId: string, endpointId: string): Promise<WebhookEndpointRow & { url: string }> {
  const [endpoint] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.merchantId, merchantId)));
  if (!endpoint?.url) throw new ServiceError("webhook_url_missing", MISSING);
  return { ...endpoint, url: endpoint.url };
}

/** 409 `webhook_url_missing` unless one of the merchant's endpoints has a URL (the bulk retry). */
export async function requireSomeEndpointUrl(db: Executor, merchantId: string): Promise<void> {
  const [some] = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.merchantId, merchantId), isNotNull(webhookEndpoints.url)))
    .limit(1);
  if (!some) throw new ServiceError("webhook_url_missing", MISSING);
}

/** The merchant's endpoints that have a URL, as a subquery (the deliveries a bulk retry can send). */
export function endpointsWithUrl(db: Executor, merchantId: string) {
  return db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.merchantId, merchantId), isNotNull(webhookEndpoints.url)));
}

/** SQL for a delivery row's endpoint column: its URL, and whether it is enabled (else the retry waits). */
export const endpointUrlOfDelivery = sql<string>`(select e.url from ${webhookEndpoints} e where e.id = "webhook_deliveries"."endpoint_id")`;
export const endpointEnabledOfDelivery = sql<boolean>`(select e.status = 'enabled' from ${webhookEndpoints} e where e.id = "webhook_deliveries"."endpoint_id")`;

export function isTestSend(event: { type: string }): boolean {
  return isTestSendEvent(event.type);
}

/** The merchant's `webhook.test` events, as a subquery: a delivery is a test send when its event is one. */
export function testEventIds(db: Executor, merchantId: string) {
  return db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.merchantId, merchantId), eq(events.type, TEST_SEND_EVENT)));
}
