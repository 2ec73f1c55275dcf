import { sql, type SQL } from "drizzle-orm";
import { rowsOf, tableRowOf } from "../rows";
import { payments, refunds, type RefundRow } from "../schema";
import type { Executor } from "../types";

/** A new refund's own values: everything but what comes from its payment (its invoice). */
export type NewRefund = Omit<RefundRow, "invoiceId" | "failureReason" | "destination" | "destinationNetwork" | "claimedAt" | "canceledAt">;

/**
 * A new refund and the amount it takes from its payment, in one statement (services/refunds/held.ts): the CTE raises
 * the payment's `amount_held` by `hold` where the payment is `refund`'s merchant's, in its mode, `confirmed`, in its
 * currency and has at least `refund.amount` left, and takes the row's lock; the refund is inserted only if it did,
 * naming the payment's invoice when the payment has one (`invoicePrefix`). PostgreSQL checks the condition again on
 * the row's newest version when it waited for another writer's lock (READ COMMITTED), so concurrent refunds of one
 * payment queue and each sees what the one before it took.
 *
 * Undefined when nothing was inserted: the payment did not qualify, or another refund of the merchant in this mode
 * has the same `externalId` (`ON CONFLICT DO NOTHING`, after waiting for its transaction): then the hold may have been
 * taken, and the caller recounts it under the lock it holds (`recountHeld`).
 *
 * One statement instead of the query builder's two (the conditional UPDATE, then the INSERT): the refund's CPU
 * target, within 10 % of a confirm's, was missed by the second round trip (BENCHMARKS.md, case 13).
 */
export async function insertRefundTakingPayment(
  db: Executor,
  input: { refund: NewRefund; hold: string; invoicePrefix: string },
): Promise<{ refund: RefundRow; paymentAmount: string } | undefined> {
  const { refund: r, hold } = input;
  const at = (date: Date | null) => (date === null ? null : date.toISOString());
  // A refund recorded as already succeeded adds to the payment's refunded amount in the same UPDATE.
  const refunded =
    r.status === "succeeded"
      ? sql`, ${sql.join(addRefunded(r.amount, at(r.createdAt)!), sql`, `)}`
      : sql``;
  const result = await db.execute(sql`
    with held as (
      update ${payments} set amount_held = amount_held + ${hold}::numeric${refunded}
      where merchant_id = ${r.merchantId} and id = ${r.paymentId} and livemode = ${r.livemode}
        and status = 'confirmed' and currency = ${r.currency}::text and amount - amount_held >= ${r.amount}::numeric
      returning amount, invoice_id
    ), inserted as (
      insert into ${refunds} (id, merchant_id, livemode, payment_id, invoice_id, amount, currency, status, reason, note, external_id,
        claim_token_hash, claim_expires_at, claim_instructions, metadata, succeeded_at, failed_at, created_at, updated_at)
      select ${r.id}, ${r.merchantId}, ${r.livemode}, ${r.paymentId},
        case when starts_with(held.invoice_id, ${input.invoicePrefix}::text) then held.invoice_id end,
        ${r.amount}::numeric, ${r.currency}::text, ${r.status}::text, ${r.reason}::text, ${r.note}::text, ${r.externalId}::text,
        ${r.claimTokenHash}::text, ${at(r.claimExpiresAt)}::timestamptz, ${r.claimInstructions}::text, ${JSON.stringify(r.metadata)}::text::jsonb,
        ${at(r.succeededAt)}::timestamptz, ${at(r.failedAt)}::timestamptz, ${at(r.createdAt)}::timestamptz, ${at(r.updatedAt)}::timestamptz
      from held
      on conflict (merchant_id, livemode, external_id) where external_id is not null do nothing
      returning *
    )
    select inserted.*, held.amount::text as payment_amount from inserted, held`);
  const [row] = rowsOf<Record<string, unknown>>(result);
  return row && { refund: tableRowOf(refunds, row), paymentAmount: row.payment_amount as string };
}

/**
 * Adds a refund that just succeeded to its payment's refunded amount (services/refunds/move.ts); the payment's lock
 * is held. The same assignments as a refund recorded as succeeded makes in insertRefundTakingPayment.
 */
export async function addRefundedToPayment(db: Executor, payment: { merchantId: string; id: string }, amount: string, at: Date): Promise<void> {
  await db.execute(sql`
    update ${payments} set ${sql.join(addRefunded(amount, at.toISOString()), sql`, `)}
    where merchant_id = ${payment.merchantId} and id = ${payment.id}`);
}

/**
 * The assignments that add a succeeded refund's `amount` to its payment's `amount_refunded` and set `refund_status`
 * from the sum (`none`, `partial`, `full`), in an UPDATE of the payment under its lock. A refund succeeds once and
 * never leaves `succeeded`, so adding keeps the column the sum of the succeeded refunds (docs/refunds.md). The right
 * side of each assignment reads the row as it was before the UPDATE.
 */
function addRefunded(amount: string, at: string): SQL[] {
  const after = sql`(amount_refunded + ${amount}::numeric)`;
  return [
    sql`amount_refunded = ${after}`,
    sql`refund_status = case when ${after} = 0 then 'none' when ${after} >= amount then 'full' else 'partial' end`,
    sql`updated_at = ${at}::timestamptz`,
  ];
}
