import { and, asc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { events, webhookDeliveries } from "@/server/db/schema";
import { requireMerchantId, type ServiceContext } from "../context";
import { fieldErrorsFromZod, ValidationError } from "../errors";

export const listSubjectEventsInput = z.strictObject({ subjectId: z.string().min(1).max(100) });

/**
 * The events about one resource of the merchant (a payment's pending/confirmed/failed), oldest first,
 * each with its webhook deliveries: the history a payment's detail view shows.
 */
export async function listEventsForSubject({ ctx, input }: { ctx: ServiceContext; input: { subjectId: string } }) {
  const merchantId = requireMerchantId(ctx);
  const parsed = listSubjectEventsInput.safeParse(input);
  if (!parsed.success) throw new ValidationError(fieldErrorsFromZod("input", parsed.error.issues));
  const rows = await ctx.db
    .select()
    .from(events)
    .where(and(eq(events.merchantId, merchantId), eq(events.subjectId, parsed.data.subjectId)))
    .orderBy(asc(events.createdAt), asc(events.id))
    .limit(100);
  const deliveries = rows.length
    ? await ctx.db
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.merchantId, merchantId), inArray(webhookDeliveries.eventId, rows.map((row) => row.id))))
        .orderBy(asc(webhookDeliveries.createdAt))
    : [];
  return {
    data: rows.map((event) => ({
      id: event.id,
      type: event.type,
      createdAt: event.createdAt.toISOString(),
      deliveries: deliveries
        .filter((delivery) => delivery.eventId === event.id)
        .map((delivery) => ({
          id: delivery.id,
          status: delivery.status,
          url: delivery.url,
          attemptCount: delivery.attemptCount,
          lastStatusCode: delivery.lastStatusCode,
          lastError: delivery.lastError,
          nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
          createdAt: delivery.createdAt.toISOString(),
          updatedAt: delivery.updatedAt.toISOString(),
        })),
    })),
  };
}
