import { and, asc, eq, gte, inArray, lt, ne, notExists, type SQL } from "drizzle-orm";
import { newId } from "@/lib/ids";
import { isTestSendEvent, TEST_SEND_EVENT, type EventType } from "@/lib/event-types";
import { events, webhookDeliveries } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { notifyDeliveriesDue } from "@/server/webhooks/wake";
import { recordAudit } from "../audit/record";
import { inTransaction, livemodeOf, requireMerchantWriter, type ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { validateInput } from "../validate";
import { getEndpointForMerchant } from "./fetch";
import { recoverInput, type RecoverInput } from "./schemas";

/** Events one recover may send again: larger windows are recovered in parts, so no request writes without bound. */
export const MAX_RECOVERED_EVENTS = 10_000;
const INSERT_BATCH = 500;

/**
 * Sends an endpoint every event of the window [since, until) it subscribes to again, as new deliveries of the same
 * events (the same `webhook-id`, so a receiver that already has one drops it): Svix's "recover" (docs/webhooks.md,
 * "Recover"). Test sends are not events of the merchant's business and are left out, and so is an event the
 * endpoint still has a delivery of waiting (pending or in flight): it will get that one, and a second would only
 * be sent twice (so recovering a window again, or twenty times, queues nothing more). The deliveries follow the
 * retry schedule like any other; a disabled endpoint's wait until it is enabled. An endpoint without a URL
 * answers 409 `webhook_url_missing`, and a window of more than 10,000 events 422 `recover_window_too_large`:
 * nothing is queued. How often a merchant may call it is the adapters' rate limit (RECOVER_LIMIT).
 */
export async function recoverEndpoint({ ctx, input }: { ctx: ServiceContext; input: { id: string } & RecoverInput }) {
  const merchantId = requireMerchantWriter(ctx);
  const livemode = livemodeOf(ctx);
  const { id, ...body } = input;
  const { since, until } = validateInput(recoverInput, body, "body");
  const now = ctx.now();
  return withTransaction(ctx.db, async (tx) => {
    const endpoint = await getEndpointForMerchant(tx, { merchantId, livemode }, id, { forUpdate: true });
    if (!endpoint.url) {
      throw new ServiceError("webhook_url_missing", "This endpoint has no URL, so there is nowhere to send the events; nothing was queued.");
    }
    const conditions: (SQL | undefined)[] = [
      eq(events.merchantId, merchantId),
      eq(events.livemode, livemode),
      gte(events.createdAt, new Date(since)),
      lt(events.createdAt, until ? new Date(until) : now),
      endpoint.eventTypes === null ? ne(events.type, TEST_SEND_EVENT) : inArray(events.type, endpoint.eventTypes.filter((type) => !isTestSendEvent(type)) as EventType[]),
      notExists(
        tx
          .select({ id: webhookDeliveries.id })
          .from(webhookDeliveries)
          .where(and(eq(webhookDeliveries.eventId, events.id), eq(webhookDeliveries.endpointId, endpoint.id), inArray(webhookDeliveries.status, ["pending", "delivering"]))),
      ),
    ];
    const window = await tx
      .select({ id: events.id, createdAt: events.createdAt })
      .from(events)
      .where(and(...conditions))
      .orderBy(asc(events.createdAt), asc(events.id))
      .limit(MAX_RECOVERED_EVENTS + 1);
    if (window.length > MAX_RECOVERED_EVENTS) {
      const limit = MAX_RECOVERED_EVENTS.toLocaleString("en-US");
      throw new ServiceError("recover_window_too_large", `A recover sends at most ${limit} events; this window holds more. Recover it in smaller parts.`, {
        errors: [{ path: "body.since", message: `the window holds more than ${limit} events to send: move since later, or set until` }],
      });
    }
    const nextAttemptAt = endpoint.status === "enabled" ? now : null;
    for (let i = 0; i < window.length; i += INSERT_BATCH) {
      await tx.insert(webhookDeliveries).values(
        window.slice(i, i + INSERT_BATCH).map((event) => ({
          id: newId("delivery"),
          merchantId,
          eventId: event.id,
          eventCreatedAt: event.createdAt,
          endpointId: endpoint.id,
          url: endpoint.url!,
          nextAttemptAt,
          createdAt: now,
          updatedAt: now,
        })),
      );
    }
    if (window.length > 0 && nextAttemptAt) await notifyDeliveriesDue(tx);
    await recordAudit({
      ctx: inTransaction(ctx, tx),
      input: {
        action: "webhook_endpoint.recovered",
        targetType: "webhook_endpoint",
        targetId: endpoint.id,
        merchantId,
        details: { count: window.length, since, until: until ?? null },
      },
    });
    return { count: window.length };
  });
}
