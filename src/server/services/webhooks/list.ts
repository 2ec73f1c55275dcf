import { and, eq, gte, inArray, lt, type SQL } from "drizzle-orm";
import { afterPosition, keysetTimestamp, newestFirst } from "@/server/db/keyset";
import { events, webhookDeliveries } from "@/server/db/schema";
import type { z } from "zod";
import { recordStaffRead, type StaffView } from "../audit/record-staff-read";
import { requireMerchantScope, type ServiceContext } from "../context";
import { byCursorAt, decodeCursor, toPage } from "../pagination";
import { validateInput } from "../validate";
import { listDeliveriesInput, toDelivery, type ListDeliveriesInput } from "./schemas";

/**
 * Every delivery of the merchant, whatever its status (docs/webhooks.md, "All deliveries"), newest first,
 * keyset-paginated on (created_at, id); filters by status, event type, endpoint, event and creation time.
 * The failed list (list-failed.ts) is this list with `status=failed`, kept for round-1 clients.
 */
export async function listDeliveries({ ctx, input }: { ctx: ServiceContext; input: ListDeliveriesInput }) {
  return queryDeliveries(ctx, validateInput(listDeliveriesInput, input, "query"), { list: "deliveries", view: "deliveries" });
}

/** The query behind both lists; each has its own cursor scope and staff-read view. */
export async function queryDeliveries(
  ctx: ServiceContext,
  filters: z.output<typeof listDeliveriesInput>,
  names: { list: string; view: StaffView },
) {
  const { merchantId, livemode } = requireMerchantScope(ctx);
  const { limit, cursor, status, eventType, endpointId, eventId, since, until } = filters;
  const scope = `${names.list}:${merchantId}:${livemode ? "live" : "test"}`;
  const position = decodeCursor(ctx, scope, cursor);
  await recordStaffRead({ ctx, input: { view: names.view } });
  const conditions: (SQL | undefined)[] = [
    eq(webhookDeliveries.merchantId, merchantId),
    eq(webhookDeliveries.livemode, livemode),
    status && status.length > 0 ? inArray(webhookDeliveries.status, status) : undefined,
    eventType && eventType.length > 0 ? inArray(events.type, eventType) : undefined,
    endpointId ? eq(webhookDeliveries.endpointId, endpointId) : undefined,
    eventId ? eq(webhookDeliveries.eventId, eventId) : undefined,
    since ? gte(webhookDeliveries.createdAt, new Date(since)) : undefined,
    until ? lt(webhookDeliveries.createdAt, new Date(until)) : undefined,
    position ? afterPosition(webhookDeliveries.createdAt, webhookDeliveries.id, position) : undefined,
  ];
  const rows = await ctx.reader
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
