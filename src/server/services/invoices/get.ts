import { and, asc, eq } from "drizzle-orm";
import { payments } from "@/server/db/schema";
import { recordStaffRead } from "../audit/record-staff-read";
import { requireMerchantScope, type ServiceContext } from "../context";
import { NotFoundError } from "../errors";
import { validateInput } from "../validate";
import { toPayment } from "../payments/schemas";
import { findInvoice } from "./fetch";
import { invoiceIdInput, toInvoice, type InvoiceWithPayments } from "./schemas";
import { effectiveInvoice } from "./status";

/** One of the merchant's invoices with its attached payments; another merchant's id answers 404. */
export async function getInvoice({ ctx, input }: { ctx: ServiceContext; input: { id: string } }): Promise<InvoiceWithPayments> {
  const scope = requireMerchantScope(ctx);
  const { id } = validateInput(invoiceIdInput, input, "params");
  const row = await findInvoice(ctx.db, scope, id);
  if (!row) throw new NotFoundError("invoice");
  await recordStaffRead({ ctx, input: { view: "invoice", target: { type: "invoice", id: row.id } } });
  const attached = await ctx.db
    .select()
    .from(payments)
    .where(and(eq(payments.merchantId, row.merchantId), eq(payments.livemode, row.livemode), eq(payments.invoiceId, row.id)))
    .orderBy(asc(payments.createdAt), asc(payments.id));
  return { ...toInvoice(effectiveInvoice(row, ctx.now()), ctx.env.PUBLIC_BASE_URL), payments: attached.map(toPayment) };
}
