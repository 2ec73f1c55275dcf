import { and, eq } from "drizzle-orm";
import { currencyExponent } from "@/lib/currencies";
import { newId } from "@/lib/ids";
import { canonicalAmount } from "@/lib/money";
import { payments, type PaymentRow, type PaymentStatus } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import type { Transaction } from "@/server/db/types";
import { inTransaction, requireMerchantScope, type MerchantScope, type ServiceContext } from "../context";
import { ServiceError, ValidationError } from "../errors";
import { emitEvent } from "../events/emit";
import { attachPaymentToInvoice, namesInvoice } from "../invoices/attach-payment";
import { validateInput } from "../validate";
import { confirmPaymentInput, toPayment, type ConfirmPaymentInput, type Payment } from "./schemas";

/** Merchants' clocks drift: an occurredAt this far ahead of ours still counts as "now". */
export const OCCURRED_AT_TOLERANCE_MS = 5 * 60_000;

type ConfirmData = ReturnType<typeof confirmPaymentInput.parse>;

/** The schema has already refused unknown currencies and bad amounts; this only formats. */
function canonicalAmountOf(amount: string, currency: string): string {
  const checked = canonicalAmount(amount, currencyExponent(currency) ?? 0);
  if (!checked.ok) throw new ValidationError([{ path: "body.amount", message: checked.message }]);
  return checked.amount;
}

/**
 * Records or confirms a payment, keyed by the merchant's `externalId` (docs/api-contract.md, "Endpoints"):
 * new → created (+ event); pending → confirmed|failed → updated (+ event); same status → unchanged;
 * anything else → 409 invalid_transition; other amount or currency → 409 payment_conflict. An `invoiceId`
 * starting with `inv_` attaches the payment to that invoice in the same transaction (invoices/attach-payment.ts,
 * docs/invoices.md); a replay that changes nothing leaves the invoice alone, so nothing is counted twice.
 *
 * Concurrency: `INSERT … ON CONFLICT DO NOTHING` lets exactly one of any number of concurrent first
 * requests create the row (the others wait on the unique index, then see it); the row is then read
 * `FOR UPDATE`, so racing transitions queue and each sees the winner's status. One payment, one event.
 */
export async function confirmPayment({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: ConfirmPaymentInput;
}): Promise<{ payment: Payment; created: boolean }> {
  const scope = requireMerchantScope(ctx);
  const { merchantId, livemode } = scope;
  const parsed = validateInput(confirmPaymentInput, input, "body");
  // Padded to the currency's decimals: "10" and "10.00" USD are one amount, compared as equal strings.
  const data = { ...parsed, amount: canonicalAmountOf(parsed.amount, parsed.currency) };
  const now = ctx.now();
  if (data.occurredAt && new Date(data.occurredAt).getTime() > now.getTime() + OCCURRED_AT_TOLERANCE_MS) {
    throw new ValidationError([{ path: "body.occurredAt", message: "must not be in the future" }]);
  }

  return withTransaction(ctx.db, async (tx) => {
    const txCtx = inTransaction(ctx, tx);
    const inserted = await insertIfNew(tx, scope, data, now);
    if (inserted) {
      await emitPaymentEvent(txCtx, inserted);
      if (namesInvoice(inserted.invoiceId)) await attachPaymentToInvoice(txCtx, inserted);
      return { payment: toPayment(inserted), created: true };
    }

    const [existing] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.merchantId, merchantId), eq(payments.livemode, livemode), eq(payments.externalId, data.externalId)))
      .for("update");
    // ON CONFLICT saw a committed row, so it exists; only a merchant deletion in between could remove it.
    if (!existing) throw new Error("payment vanished between insert and lock");

    if (existing.amount !== data.amount || existing.currency !== data.currency) {
      throw new ServiceError(
        "payment_conflict",
        `Payment ${data.externalId} was recorded as ${existing.amount} ${existing.currency}; amount and currency cannot change.`,
      );
    }
    if (existing.status === data.status) return { payment: toPayment(existing), created: false };
    // A payment counted on an invoice stays on it: moving it would need both invoices recomputed.
    if (namesInvoice(existing.invoiceId) && data.invoiceId !== undefined && data.invoiceId !== existing.invoiceId) {
      throw new ServiceError("payment_conflict", `Payment ${data.externalId} is attached to invoice ${existing.invoiceId}; its invoiceId cannot change.`);
    }
    if (existing.status !== "pending") {
      throw new ServiceError("invalid_transition", `A ${existing.status} payment cannot become ${data.status}.`);
    }

    const [updated] = await tx
      .update(payments)
      .set({
        status: data.status,
        ...statusTimestamps(data.status, now),
        // Details sent with the transition complete the record; omitted ones keep their value.
        ...definedOnly(detailsOf(data)),
        updatedAt: now,
      })
      .where(and(eq(payments.id, existing.id), eq(payments.merchantId, merchantId), eq(payments.livemode, livemode)))
      .returning();
    await emitPaymentEvent(txCtx, updated!);
    if (namesInvoice(updated!.invoiceId)) await attachPaymentToInvoice(txCtx, updated!);
    return { payment: toPayment(updated!), created: false };
  });
}

/** Inserts the payment unless the merchant already has this externalId in this mode; the inserted row as stored. */
async function insertIfNew(tx: Transaction, { merchantId, livemode }: MerchantScope, data: ConfirmData, now: Date): Promise<PaymentRow | undefined> {
  const [inserted] = await tx
    .insert(payments)
    .values({
      id: newId("payment"),
      merchantId,
      livemode,
      externalId: data.externalId,
      amount: data.amount,
      currency: data.currency,
      status: data.status,
      ...detailsOf(data),
      ...statusTimestamps(data.status, now),
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: [payments.merchantId, payments.livemode, payments.externalId] })
    .returning();
  return inserted;
}

/** The optional details a confirm may send; undefined where not sent (the column's default, or left as it is). */
function detailsOf(data: ConfirmData) {
  return {
    reference: data.reference,
    invoiceId: data.invoiceId,
    method: data.method,
    network: data.network,
    metadata: data.metadata,
    occurredAt: data.occurredAt ? new Date(data.occurredAt) : undefined,
  };
}

function statusTimestamps(status: PaymentStatus, now: Date) {
  if (status === "confirmed") return { confirmedAt: now };
  if (status === "failed") return { failedAt: now };
  return {};
}

function emitPaymentEvent(ctx: ServiceContext, row: PaymentRow) {
  return emitEvent({ ctx, input: { type: `payment.${row.status}`, data: toPayment(row), subjectId: row.id, livemode: row.livemode } });
}

function definedOnly<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}
