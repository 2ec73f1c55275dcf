import { and, eq, sql } from "drizzle-orm";
import { invoices } from "@/server/db/schema";
import { addRefundedToPayment } from "@/server/db/sql/refunds";
import type { Executor } from "@/server/db/types";
import { namesInvoice } from "../invoices/attach-payment";
import type { RefundedPayment } from "./held";

/**
 * A refund that just succeeded moved on (move.ts): its amount added to the payment's `amountRefunded` (and
 * `refundStatus` set from it) and, when the payment has an invoice, to the invoice's `amountRefunded`. The payment's
 * lock is held; the invoice's is taken by its UPDATE (payment, then invoice: the order payment/confirm uses). A
 * refund recorded as succeeded adds to the payment in the statement that inserts it, and to the invoice here.
 */
export async function applyRefundedAmounts(db: Executor, payment: RefundedPayment, amount: string, now: Date): Promise<void> {
  await addRefundedToPayment(db, payment, amount, now);
  await addRefundedToInvoice(db, payment, amount, now);
}

/** Adds a succeeded refund's amount to the invoice of its payment, if it has one. */
export async function addRefundedToInvoice(db: Executor, payment: RefundedPayment, amount: string, now: Date): Promise<void> {
  if (!namesInvoice(payment.invoiceId)) return;
  await db
    .update(invoices)
    .set({ amountRefunded: sql`${invoices.amountRefunded} + ${amount}::numeric`, updatedAt: now })
    .where(and(eq(invoices.merchantId, payment.merchantId), eq(invoices.livemode, payment.livemode), eq(invoices.id, payment.invoiceId)));
}
