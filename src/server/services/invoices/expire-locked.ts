import { and, eq } from "drizzle-orm";
import { invoices, type InvoiceRow } from "@/server/db/schema";
import type { ServiceContext } from "../context";
import { emitInvoiceEvent } from "./emit";
import { expiredFields, isDue } from "./status";

/**
 * For a verb holding the invoice's row lock: when its time is up but the sweep has not expired it yet, expires
 * it now (with its `invoice.expired` event), so the verb works on what readers already see. The sweep's
 * UPDATE only matches open/processing rows, so the invoice still expires exactly once.
 */
export async function expireIfDue(ctx: ServiceContext, row: InvoiceRow): Promise<InvoiceRow> {
  if (!isDue(row, ctx.now())) return row;
  const [expired] = await ctx.db
    .update(invoices)
    .set(expiredFields(row))
    .where(and(eq(invoices.id, row.id), eq(invoices.merchantId, row.merchantId)))
    .returning();
  await emitInvoiceEvent(ctx, "invoice.expired", expired!);
  return expired!;
}
