import { and, asc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { isId } from "@/lib/ids";
import { events, invoices, payments, webhookDeliveries } from "@/server/db/schema";
import { requireMerchantScope, type ServiceContext } from "../context";
import { NotFoundError } from "../errors";
import { validateInput } from "../validate";
import { toDeliveryWithoutEvent } from "../webhooks/schemas";
import { eventDetailSchema } from "./get";
import { toEvent } from "./schemas";

export const listSubjectEventsInput = z.strictObject({ subjectId: z.string().min(1).max(100) });
export const subjectEventsSchema = z.object({ data: z.array(eventDetailSchema) });

/**
 * The events about one of the merchant's payments or invoices, oldest first, each with its
 * webhook deliveries: the history a payment's detail view shows. A payment that is not the merchant's
 * (another merchant's, the other mode's, or none) is a 404, as everywhere: an empty list would say less, and differently.
 */
export async function listEventsForSubject({ ctx, input }: { ctx: ServiceContext; input: { subjectId: string } }): Promise<z.infer<typeof subjectEventsSchema>> {
  const { merchantId, livemode } = requireMerchantScope(ctx);
  const { subjectId } = validateInput(listSubjectEventsInput, input);
  // Payments and invoices have histories; the id's prefix says which table scopes it to the merchant.
  const subject = isId("payment", subjectId) ? payments : isId("invoice", subjectId) ? invoices : undefined;
  if (!subject) throw new NotFoundError("payment");
  // One query: the subject, scoped to the merchant, joined to its events (none → one row of nulls).
  const joined = await ctx.db
    .select({ event: events })
    .from(subject)
    .leftJoin(events, and(eq(events.merchantId, subject.merchantId), eq(events.livemode, subject.livemode), eq(events.subjectId, subject.id)))
    .where(and(eq(subject.merchantId, merchantId), eq(subject.livemode, livemode), eq(subject.id, subjectId)))
    .orderBy(asc(events.createdAt), asc(events.id))
    .limit(200);
  if (joined.length === 0) throw new NotFoundError(subject === payments ? "payment" : "invoice");
  const rows = joined.flatMap(({ event }) => (event ? [event] : []));
  const deliveries = rows.length
    ? await ctx.db
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.merchantId, merchantId), eq(webhookDeliveries.livemode, livemode), inArray(webhookDeliveries.eventId, rows.map((row) => row.id))))
        .orderBy(asc(webhookDeliveries.createdAt))
    : [];
  return {
    data: rows.map((event) => ({
      ...toEvent(event),
      deliveries: deliveries.filter((delivery) => delivery.eventId === event.id).map((delivery) => toDeliveryWithoutEvent(delivery, event)),
    })),
  };
}
