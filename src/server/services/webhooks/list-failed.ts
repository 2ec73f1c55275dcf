import { and, eq, gte, inArray, lt, type SQL } from "drizzle-orm";
import { afterPosition, keysetTimestamp, newestFirst } from "@/server/db/keyset";
import { events, webhookDeliveries } from "@/server/db/schema";
import { recordStaffRead } from "../audit/record-staff-read";
import { requireMerchantScope, type ServiceContext } from "../context";
import { byCursorAt, decodeCursor, toPage } from "../pagination";
import { validateInput } from "../validate";
import { listFailedDeliveriesInput, toDelivery, type ListFailedDeliveriesInput } from "./schemas";

/**
 * The merchant's failed deliveries, newest first, keyset-paginated on (created_at, id) with the shared
 * signed cursors: page 10,000 costs what page 1 costs, and a cursor only works on this merchant's list.
 */
export async function listFailedDeliveries({ ctx, input }: { ctx: ServiceContext; input: ListFailedDeliveriesInput }) {
  const { merchantId, livemode } = requireMerchantScope(ctx);
  const { limit, cursor, eventType, since, until } = validateInput(listFailedDeliveriesInput, input, "query");
  const scope = `failed-deliveries:${merchantId}:${livemode ? "live" : "test"}`;
  const position = decodeCursor(ctx, scope, cursor);
  await recordStaffRead({ ctx, input: { view: "failedDeliveries" } });

  const conditions: (SQL | undefined)[] = [
    eq(webhookDeliveries.merchantId, merchantId),
    eq(webhookDeliveries.livemode, livemode),
    eq(webhookDeliveries.status, "failed"),
    eventType && eventType.length > 0 ? inArray(events.type, eventType) : undefined,
    since ? gte(webhookDeliveries.createdAt, new Date(since)) : undefined,
    until ? lt(webhookDeliveries.createdAt, new Date(until)) : undefined,
    position ? afterPosition(webhookDeliveries.createdAt, webhookDeliveries.id, position) : undefined,
  ];
  const rows = await ctx.db
    .select({ delivery: webhookDeliveries, event: events, cursorAt: keysetTimestamp(webhookDeliveries.createdAt) })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(and(...conditions))
    .orderBy(...newestFirst(webhookDeliveries.createdAt, webhookDeliveries.id))
    .limit(limit + 1);
  return toPage(
    ctx,
    scope,
    rows.map((row) => ({ ...row, id: row.delivery.id })),
    limit,
    (row) => toDelivery(row.delivery, row.event),
    byCursorAt,
  );
}
