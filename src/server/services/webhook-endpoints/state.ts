import { and, eq, isNull } from "drizzle-orm";
import { webhookDeliveries, webhookEndpointBreakers, webhookEndpoints, type EndpointDisabledReason, type WebhookEndpointRow } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";
import { isNotTestSendDelivery } from "@/server/webhooks/test-sends";
import { notifyDeliveriesDue } from "@/server/webhooks/wake";
import { writeEvent } from "../events/emit";
import { toEndpoint } from "./schemas";

/*
 * Disabling and enabling an endpoint (docs/webhooks.md, "Endpoint health"). A disabled endpoint gets no new
 * deliveries (events/emit.ts skips it), and its queued ones are deferred rather than failed: they stay `pending`
 * with no due time, which the worker's claim never takes (it wants `next_attempt_at <= now`), keeping their
 * attempt count. Enabling makes them due now, so "re-enabling sends what is pending".
 */

/** Disables an endpoint (the caller holds its row lock); for `failing` and `gone`, tells the merchant's other endpoints. */
export async function disableEndpoint(
  db: Executor,
  input: { endpoint: WebhookEndpointRow; reason: EndpointDisabledReason; now: Date },
): Promise<WebhookEndpointRow> {
  const { endpoint, reason, now } = input;
  const [row] = await db
    .update(webhookEndpoints)
    .set({ status: "disabled", disabledReason: reason, updatedAt: now })
    .where(and(eq(webhookEndpoints.id, endpoint.id), eq(webhookEndpoints.merchantId, endpoint.merchantId), eq(webhookEndpoints.status, "enabled")))
    .returning();
  if (!row) return endpoint;
  await db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: null, updatedAt: now })
    .where(and(eq(webhookDeliveries.endpointId, endpoint.id), eq(webhookDeliveries.status, "pending"), isNotTestSendDelivery));
  if (reason !== "manual") {
    await writeEvent(db, {
      merchantId: endpoint.merchantId,
      // The merchant's other endpoints of the same mode hear of it (docs/test-mode.md).
      livemode: endpoint.livemode,
      now,
      type: "webhook.endpoint_disabled",
      data: { endpoint: toEndpoint(row), reason },
      subjectId: endpoint.id,
      exceptEndpointId: endpoint.id,
    });
  }
  return row;
}

/** Enables an endpoint (the caller holds its row lock): its deferred deliveries become due now, breaker reset. */
export async function enableEndpoint(db: Executor, input: { endpoint: WebhookEndpointRow; now: Date }): Promise<WebhookEndpointRow> {
  const { endpoint, now } = input;
  if (endpoint.status === "enabled") return endpoint;
  const [row] = await db
    .update(webhookEndpoints)
    .set({ status: "enabled", disabledReason: null, failingSince: null, updatedAt: now })
    .where(and(eq(webhookEndpoints.id, endpoint.id), eq(webhookEndpoints.merchantId, endpoint.merchantId)))
    .returning();
  await db.delete(webhookEndpointBreakers).where(eq(webhookEndpointBreakers.endpointId, endpoint.id));
  const resumed = await db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: now, updatedAt: now })
    .where(and(eq(webhookDeliveries.endpointId, endpoint.id), eq(webhookDeliveries.status, "pending"), isNull(webhookDeliveries.nextAttemptAt)))
    .returning({ id: webhookDeliveries.id });
  if (resumed.length > 0) await notifyDeliveriesDue(db);
  return row!;
}
