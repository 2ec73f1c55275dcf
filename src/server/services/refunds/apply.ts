import { and, eq, sql } from "drizzle-orm";
import { currencyExponent } from "@/lib/currencies";
import { compareDecimals, withDecimals } from "@/lib/money";
import { invoices, payments, refunds, type RefundState } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";
import { namesInvoice } from "../invoices/attach-payment";
import { findInvoice } from "../invoices/fetch";
import type { RefundedPayment } from "./held";

/**
 * Recomputes the payment's `amountRefunded` and `refundStatus` from its succeeded refunds, and its invoice's
 * `amountRefunded` when it has one, after a refund succeeded. The payment's lock is held; the invoice's is taken
 * here (payment, then invoice: the order payment/confirm uses).
 */
export async function applyRefundedAmounts(db: Executor, payment: RefundedPayment, now: Date): Promise<void> {
  const succeeded = await succeededSum(db, payment.merchantId, eq(refunds.paymentId, payment.id));
  const exponent = currencyExponent(payment.currency) ?? 0;
  await db
    .update(payments)
    .set({ amountRefunded: withDecimals(succeeded, exponent), refundStatus: refundStateOf(payment.amount, succeeded), updatedAt: now })
    .where(and(eq(payments.merchantId, payment.merchantId), eq(payments.id, payment.id)));
  if (!namesInvoice(payment.invoiceId)) return;
  const invoice = await findInvoice(db, payment, payment.invoiceId, { forUpdate: true });
  if (!invoice) return;
  const onInvoice = await succeededSum(db, payment.merchantId, eq(refunds.invoiceId, invoice.id));
  await db
    .update(invoices)
    .set({ amountRefunded: onInvoice, updatedAt: now })
    .where(and(eq(invoices.merchantId, invoice.merchantId), eq(invoices.id, invoice.id)));
}

/*
 * The status is filtered in the aggregate, not in WHERE: with `status = 'succeeded'` there, PostgreSQL chose the
 * partial index of the merchant's succeeded refunds (refunds_merchant_succeeded_idx, for statistics) and read every
 * one of them to find the payment's few — a cost growing with the merchant's refunds (BENCHMARKS.md, case 13).
 * Without it, the payment's (or invoice's) own index finds its handful of refunds.
 */
async function succeededSum(db: Executor, merchantId: string, of: ReturnType<typeof eq>): Promise<string> {
  const [row] = await db
    .select({ sum: sql<string>`coalesce(sum(${refunds.amount}) filter (where ${refunds.status} = 'succeeded'), 0)::text` })
    .from(refunds)
    .where(and(eq(refunds.merchantId, merchantId), of));
  return row!.sum;
}

export function refundStateOf(amount: string, refunded: string): RefundState {
  if (compareDecimals(refunded, "0") === 0) return "none";
  return compareDecimals(refunded, amount) >= 0 ? "full" : "partial";
}
