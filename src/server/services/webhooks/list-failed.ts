import { and, desc, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { events, webhookDeliveries } from "@/server/db/schema";
import { requireMerchantId, type ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { decodeCursor, encodeCursor } from "./cursor";
import { listFailedDeliveriesInput, toDelivery, type ListFailedDeliveriesInput } from "./schemas";

/**
 * The merchant's failed deliveries, newest first. Keyset pagination on (created_at, id): the cursor names
 * the last row seen and the next page starts strictly after it, so page 10,000 costs what page 1 costs.
 */
export async function listFailedDeliveries({ ctx, input }: { ctx: ServiceContext; input: ListFailedDeliveriesInput }) {
  const merchantId = requireMerchantId(ctx);
  const { limit, cursor, eventType, since, until } = listFailedDeliveriesInput.parse(input);
  const conditions: SQL[] = [eq(webhookDeliveries.merchantId, merchantId), eq(webhookDeliveries.status, "failed")];
  if (cursor !== undefined) {
    const afterId = decodeCursor(cursor);
    if (afterId === null) throw new ServiceError("invalid_cursor", "The cursor is not one this endpoint returned.");
    // Compared with the stored row, not a timestamp carried in the cursor: no precision lost on the way.
    conditions.push(
      sql`(${webhookDeliveries.createdAt}, ${webhookDeliveries.id}) < (select d.created_at, d.id from ${webhookDeliveries} d where d.id = ${afterId} and d.merchant_id = ${merchantId})`,
    );
  }
  if (eventType && eventType.length > 0) conditions.push(inArray(events.type, eventType));
  if (since) conditions.push(gte(webhookDeliveries.createdAt, new Date(since)));
  if (until) conditions.push(lt(webhookDeliveries.createdAt, new Date(until)));

  const rows = await ctx.db
    .select({ delivery: webhookDeliveries, event: events })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(and(...conditions))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return {
    data: page.map((row) => toDelivery(row.delivery, row.event)),
    hasMore,
    nextCursor: hasMore ? encodeCursor(page.at(-1)!.delivery.id) : null,
  };
}
