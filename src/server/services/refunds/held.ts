import { and, eq, inArray, sql } from "drizzle-orm";
import { currencyExponent } from "@/lib/currencies";
import { refundHoldingStatuses } from "@/lib/statuses";
import { remainingDecimal, withDecimals } from "@/lib/money";
import { payments, refunds, type PaymentRow } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";

/*
 * Never more than was paid (docs/refunds.md): a payment's `amount_held` is the sum of its refunds that hold part of
 * it (requires_action, pending, succeeded). A new refund raises it in the statement that checks it and inserts the
 * refund (db/sql/refunds.ts); a refund that stops holding (failed, canceled) lowers it; both under the payment's row
 * lock. So the invariant is checked without reading the refunds: a SELECT … FOR UPDATE and a sum over them took two
 * statements more per refund, and missed the refund's CPU target (BENCHMARKS.md, case 13).
 */

/** The payment as a refund's writes need it: whose, which, how much and where its invoice is. */
export type RefundedPayment = Pick<PaymentRow, "merchantId" | "livemode" | "id" | "amount" | "currency" | "invoiceId">;

/** Gives `amount` back to what is refundable: a holding refund failed or was canceled. The payment's lock is held. */
export async function releaseHold(db: Executor, payment: Pick<PaymentRow, "merchantId" | "id">, amount: string): Promise<void> {
  await db
    .update(payments)
    .set({ amountHeld: sql`${payments.amountHeld} - ${amount}::numeric` })
    .where(and(eq(payments.merchantId, payment.merchantId), eq(payments.id, payment.id)));
}

/**
 * Sets a payment whose lock the caller holds to hold exactly the sum of its holding refunds, and returns it. Every
 * refund written before the lock was granted is committed and counted (this statement's snapshot is newer). The slow
 * path of a new refund (create.ts) runs it first: whatever the one-statement insert had taken, the count is right.
 */
export async function recountHeld(db: Executor, payment: Pick<PaymentRow, "merchantId" | "id">): Promise<PaymentRow> {
  const holding = db
    .select({ sum: sql`coalesce(sum(${refunds.amount}), 0)` })
    .from(refunds)
    .where(and(eq(refunds.merchantId, payment.merchantId), eq(refunds.paymentId, payment.id), inArray(refunds.status, [...refundHoldingStatuses])));
  const [row] = await db
    .update(payments)
    .set({ amountHeld: sql`(${holding})` })
    .where(and(eq(payments.merchantId, payment.merchantId), eq(payments.id, payment.id)))
    .returning();
  return row!;
}

/** What is still refundable on a payment read under its lock, with its currency's decimals. */
export function refundableOf(payment: Pick<PaymentRow, "amount" | "amountHeld" | "currency">): string {
  return withDecimals(remainingDecimal(payment.amount, payment.amountHeld), currencyExponent(payment.currency) ?? 0);
}
