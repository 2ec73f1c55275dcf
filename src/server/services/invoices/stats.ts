import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { invoices } from "@/server/db/schema";
import { recordStaffRead } from "../audit/record-staff-read";
import { requireMerchantScope, type ServiceContext } from "../context";

export const invoiceStatsSchema = z.object({
  open: z.number().int(),
  processing: z.number().int(),
  paid: z.number().int(),
  expired: z.number().int(),
  void: z.number().int(),
  paidShare: z.number().min(0).max(1).nullable().describe("paid / (paid + expired): of the invoices that finished, the share paid; null before any."),
});
export type InvoiceStats = z.infer<typeof invoiceStatsSchema>;

/** The merchant's invoices in the caller's mode counted by status as readers see it (a due open invoice counts as expired). */
export async function getInvoiceStats({ ctx }: { ctx: ServiceContext }): Promise<InvoiceStats> {
  const { merchantId, livemode } = requireMerchantScope(ctx);
  await recordStaffRead({ ctx, input: { view: "invoices" } });
  const now = ctx.now().toISOString();
  const due = sql`${invoices.expiresAt} <= ${now}::timestamptz`;
  const [row] = await ctx.reader
    .select({
      open: sql<number>`count(*) filter (where ${invoices.status} = 'open' and not (${due}))::int`,
      processing: sql<number>`count(*) filter (where ${invoices.status} = 'processing' and not (${due}))::int`,
      paid: sql<number>`count(*) filter (where ${invoices.status} = 'paid')::int`,
      expired: sql<number>`count(*) filter (where ${invoices.status} = 'expired' or (${invoices.status} in ('open', 'processing') and ${due}))::int`,
      void: sql<number>`count(*) filter (where ${invoices.status} = 'void')::int`,
    })
    .from(invoices)
    .where(and(eq(invoices.merchantId, merchantId), eq(invoices.livemode, livemode)));
  const counts = { open: row!.open, processing: row!.processing, paid: row!.paid, expired: row!.expired, void: row!.void };
  const finished = counts.paid + counts.expired;
  return { ...counts, paidShare: finished === 0 ? null : counts.paid / finished };
}
