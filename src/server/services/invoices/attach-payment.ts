import { and, eq, sql } from "drizzle-orm";
import { invoices, payments, type InvoiceRow, type PaymentRow } from "@/server/db/schema";
import type { ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { emitInvoiceEvent } from "./emit";
import { expireIfDue } from "./expire-locked";
import { findInvoice } from "./fetch";
import { acceptsPayments, settle } from "./status";

/** Payments whose `invoiceId` starts with this name an invoice; any other value is a free-form reference. */
export const INVOICE_REFERENCE_PREFIX = "inv_";

export function namesInvoice(invoiceId: string | null | undefined): invoiceId is string {
  return invoiceId?.startsWith(INVOICE_REFERENCE_PREFIX) ?? false;
}

/**
 * Applies a payment that was just recorded or changed status to the invoice it names, inside the payment's
 * transaction (payments/confirm.ts), in the payment's mode: a test payment never names a live invoice, nor the reverse. Takes the invoice's row lock, then recomputes the sums from the attached
 * payments: concurrent payments on one invoice apply one after another, each seeing the others' committed
 * rows, so the amounts are exact and a status change (one `invoice.paid`) happens once. Lock order is always
 * payment row, then invoice row, so it cannot deadlock with another confirm.
 *
 * 404 invoice_not_found, 409 currency_mismatch, 409 invoice_not_payable (void, or expired past the grace
 * period; failed payments are always accepted) roll the payment back with it.
 */
export async function attachPaymentToInvoice(ctx: ServiceContext, payment: PaymentRow): Promise<InvoiceRow> {
  const locked = await findInvoice(ctx.db, payment, payment.invoiceId!, { forUpdate: true });
  if (!locked) throw new ServiceError("invoice_not_found", `No invoice ${payment.invoiceId} of yours; nothing was recorded.`);
  if (locked.currency !== payment.currency) {
    throw new ServiceError("currency_mismatch", `Invoice ${locked.id} is in ${locked.currency}; this payment is in ${payment.currency}.`);
  }
  const row = await expireIfDue(ctx, locked);
  const now = ctx.now();
  if (payment.status !== "failed" && !acceptsPayments(row, now, ctx.env.INVOICE_GRACE_PERIOD)) {
    throw new ServiceError("invoice_not_payable", `Invoice ${row.id} is ${row.status} and no longer accepts payments.`);
  }

  const [sums] = await ctx.db
    .select({
      paid: sql<string>`coalesce(sum(${payments.amount}) filter (where ${payments.status} = 'confirmed'), 0)::text`,
      pending: sql<string>`coalesce(sum(${payments.amount}) filter (where ${payments.status} = 'pending'), 0)::text`,
    })
    .from(payments)
    .where(and(eq(payments.merchantId, row.merchantId), eq(payments.livemode, row.livemode), eq(payments.invoiceId, row.id)));
  const next = settle(row, sums!.paid, sums!.pending, now);
  const [updated] = await ctx.db
    .update(invoices)
    .set({ amountPaid: sums!.paid, amountPending: sums!.pending, ...next, updatedAt: now })
    .where(and(eq(invoices.id, row.id), eq(invoices.merchantId, row.merchantId)))
    .returning();

  // A failed payment counts for nothing, but it is news: it may be the payer's only attempt, and a failed pending
  // payment moves a `processing` invoice back to `open` — without this event a merchant following webhooks would
  // never learn of that move.
  await emitInvoiceEvent(ctx, payment.status === "failed" ? "invoice.payment_failed" : "invoice.payment_received", updated!);
  if (updated!.status !== row.status && (updated!.status === "processing" || updated!.status === "paid")) {
    await emitInvoiceEvent(ctx, `invoice.${updated!.status}`, updated!);
  }
  return updated!;
}
