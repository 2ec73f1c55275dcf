import { currencyExponent } from "@/lib/currencies";
import { newId } from "@/lib/ids";
import { canonicalAmount, compareDecimals } from "@/lib/money";
import { refundHolds } from "@/lib/statuses";
import type { PaymentRow, RefundRow } from "@/server/db/schema";
import { insertRefundTakingPayment } from "@/server/db/sql/refunds";
import { withTransaction } from "@/server/db/transaction";
import { refundClaimToken, refundClaimTokenDigest } from "@/server/crypto/refund-claim-token";
import { inTransaction, livemodeOf, requireMerchantScope, requireMerchantWriter, type ServiceContext } from "../context";
import { ServiceError, ValidationError } from "../errors";
import { INVOICE_REFERENCE_PREFIX } from "../invoices/attach-payment";
import { validateInput } from "../validate";
import { recordAudit } from "../audit/record";
import { addRefundedToInvoice } from "./apply";
import { recountHeld, refundableOf, type RefundedPayment } from "./held";
import { lockPayment, lockRefundByExternalId } from "./fetch";
import { emitRefundEvent, moveLockedRefund } from "./move";
import { createRefundInput, toRefund, type CreateRefundInput, type Refund } from "./schemas";

type CreateData = ReturnType<typeof createRefundInput.parse>;

/**
 * Records a refund of one of the merchant's confirmed payments, or opens a claim link for the payer
 * (docs/refunds.md). With an `externalId` the merchant already used, it answers that refund (`created: false`) and
 * moves it on like payment/confirm (`pending → succeeded | failed`; the same status changes nothing).
 *
 * Never more than was paid: the refund's amount is taken from what the payment still has refundable by the
 * statement that locks the payment's row (held.ts), in the transaction that writes the refund and its events, so
 * concurrent refunds queue and the sum of those not `failed` or `canceled` never exceeds the payment (409
 * refund_exceeds_payment, naming the refundable amount).
 */
export async function createRefund({ ctx, input }: { ctx: ServiceContext; input: CreateRefundInput }): Promise<{ refund: Refund; created: boolean }> {
  requireMerchantWriter(ctx);
  const data = validateInput(createRefundInput, input, "body");
  return withTransaction(ctx.db, async (tx) => {
    const txCtx = inTransaction(ctx, tx);
    const result = await recordRefund(txCtx, data);
    // Last in the transaction: the audit row holds the merchant's chain head until commit (audit/record.ts).
    if (result.created) await auditRefund(txCtx, "refund.created", result.refund);
    return result;
  });
}

/**
 * A refund made or moved by hand (a team member in the dashboard) in its merchant's audit log: the money, never the
 * claim link. Refunds an API key records are the merchant's server at work, like the payments it confirms: they are
 * in the event log (`refund.*`), not the audit log, whose per-merchant chain head would make one merchant's
 * concurrent API refunds take turns (docs/decisions.md, "The audit log's hash chain").
 */
export async function auditRefund(ctx: ServiceContext, action: string, refund: Refund, details: Record<string, unknown> = {}) {
  if (ctx.actor.type === "api_key") return;
  await recordAudit({
    ctx,
    input: {
      action,
      targetType: "refund",
      targetId: refund.id,
      details: { paymentId: refund.paymentId, amount: refund.amount, currency: refund.currency, status: refund.status, livemode: livemodeOf(ctx), ...details },
    },
  });
}

/**
 * The one way a refund is written, for the merchant's verb and staff's (staff-create.ts). With an amount and a
 * currency that fit, one statement takes the amount from the payment's held amount (held.ts) and inserts the refund
 * (db/sql/refunds.ts). When it inserts nothing, or either was left out, the payment is locked and read: to answer a
 * refund its externalId already names, to say what is wrong, or to learn the amount ("what is left").
 */
export async function recordRefund(ctx: ServiceContext, data: CreateData): Promise<{ refund: Refund; created: boolean }> {
  const scope = requireMerchantScope(ctx);
  return withTransaction(ctx.db, async (tx) => {
    const txCtx = inTransaction(ctx, tx);
    const sent = sentAmount(data);
    const written =
      (sent && (await insertTaking(txCtx, data, { ...scope, id: data.paymentId, currency: sent.currency }, sent.amount))) ||
      (await writeAfterLocking(txCtx, data));
    if ("existing" in written) return { refund: toRefund(written.existing, ctx.env), created: false };

    const { row } = written;
    await emitRefundEvent(txCtx, "refund.created", row);
    // The payment's refunded amount was added by the statement that inserted the refund; its invoice's is added here.
    if (row.status === "succeeded") await addRefundedToInvoice(tx, written.payment, row.amount, row.createdAt);
    if (row.status === "succeeded" || row.status === "failed") await emitRefundEvent(txCtx, `refund.${row.status}`, row);
    return { refund: toRefund(row, ctx.env), created: true };
  });
}

type Written = { row: RefundRow; payment: RefundedPayment } | { existing: RefundRow };

/**
 * The payment locked, its held amount recounted (whatever a one-statement insert that inserted nothing took), and
 * read: a refund with this externalId already (answered, moved on when a new status is reported), or why nothing can
 * be refunded, or the refund written with the amount asked or what is left.
 */
async function writeAfterLocking(ctx: ServiceContext, data: CreateData): Promise<Written> {
  const scope = requireMerchantScope(ctx);
  const locked = await lockPayment(ctx.db, scope, data.paymentId);
  if (!locked) throw paymentField("not_found", `No payment ${data.paymentId} of yours in this mode; nothing was recorded.`);
  const payment = await recountHeld(ctx.db, locked);

  const existing = data.externalId === undefined ? undefined : await lockRefundByExternalId(ctx.db, scope, data.externalId);
  if (existing) return { existing: await moveExisting(ctx, payment, existing, data) };

  if (payment.status !== "confirmed") {
    throw paymentField("payment_not_refundable", `Payment ${payment.id} is ${payment.status}; only a confirmed payment can be refunded.`);
  }
  if (data.currency !== undefined && data.currency !== payment.currency) {
    throw new ServiceError("currency_mismatch", `Payment ${payment.id} is in ${payment.currency}; this refund is in ${data.currency}.`, {
      errors: [{ path: "body.currency", message: `must be ${payment.currency}, the payment's currency` }],
    });
  }
  const refundable = refundableOf(payment);
  const amount = data.amount === undefined ? refundable : amountIn(data.amount, payment.currency);
  if (compareDecimals(refundable, "0") === 0 || compareDecimals(amount, refundable) > 0) {
    throw new ServiceError("refund_exceeds_payment", `At most ${refundable} ${payment.currency} of payment ${payment.id} is refundable; nothing was recorded.`, {
      errors: [{ path: "body.amount", message: `must be at most ${refundable}` }],
      members: { refundable },
    });
  }
  const written = await insertTaking(ctx, data, payment, amount);
  if (written) return written;
  // Under the payment's lock, with the externalId free a moment ago, only a refund of another payment can have taken
  // it since: moveExisting refuses it (409 refund_conflict) and the transaction, with what the insert took, rolls back.
  const taken = (await lockRefundByExternalId(ctx.db, scope, data.externalId!))!;
  return { existing: await moveExisting(ctx, await recountHeld(ctx.db, payment), taken, data) };
}

/** The refund inserted with the amount taken from the payment in one statement; undefined when nothing was (held.ts). */
async function insertTaking(
  ctx: ServiceContext,
  data: CreateData,
  payment: Pick<PaymentRow, "merchantId" | "livemode" | "id" | "currency">,
  amount: string,
): Promise<{ row: RefundRow; payment: RefundedPayment } | undefined> {
  const now = ctx.now();
  const id = newId("refund");
  const status = data.claim ? "requires_action" : (data.status ?? "pending");
  const written = await insertRefundTakingPayment(ctx.db, {
    hold: refundHolds(status) ? amount : "0",
    invoicePrefix: INVOICE_REFERENCE_PREFIX,
    refund: {
      id,
      merchantId: payment.merchantId,
      livemode: payment.livemode,
      paymentId: payment.id,
      amount,
      currency: payment.currency,
      status,
      reason: data.reason ?? null,
      note: data.note ?? null,
      externalId: data.externalId ?? null,
      metadata: data.metadata ?? {},
      claimTokenHash: data.claim ? refundClaimTokenDigest(refundClaimToken(ctx.env.AUTH_SECRET, id)) : null,
      claimExpiresAt: data.claim ? new Date(now.getTime() + data.claim.expiresIn * 1000) : null,
      claimInstructions: data.claim?.instructions ?? null,
      succeededAt: status === "succeeded" ? now : null,
      failedAt: status === "failed" ? now : null,
      createdAt: now,
      updatedAt: now,
    },
  });
  if (!written) return undefined;
  const { refund: row, paymentAmount } = written;
  return { row, payment: { ...payment, amount: paymentAmount, invoiceId: row.invoiceId } };
}

/** A second `POST refund` with a known externalId: the same refund, moved on when a new status is reported. */
async function moveExisting(ctx: ServiceContext, payment: RefundedPayment, existing: RefundRow, data: CreateData): Promise<RefundRow> {
  if (existing.paymentId !== payment.id) {
    throw new ServiceError("refund_conflict", `Refund ${existing.externalId} belongs to payment ${existing.paymentId}; nothing was changed.`, {
      errors: [{ path: "body.paymentId", message: `must be ${existing.paymentId}, the refund's payment` }],
    });
  }
  if (data.amount !== undefined && compareDecimals(amountIn(data.amount, existing.currency), existing.amount) !== 0) {
    throw new ServiceError("refund_conflict", `Refund ${existing.externalId} was recorded as ${existing.amount} ${existing.currency}; its amount cannot change.`, {
      errors: [{ path: "body.amount", message: `must be ${existing.amount}, the refund's amount` }],
    });
  }
  if (data.status === undefined) return existing;
  return (await moveLockedRefund(ctx, payment, existing, data.status)).refund;
}

/** `amount` in the currency's canonical form; more decimals than it has is a 400 on `body.amount`. */
function amountIn(amount: string, currency: string): string {
  const checked = canonicalAmount(amount, currencyExponent(currency) ?? 0);
  if (!checked.ok) throw new ValidationError([{ path: "body.amount", message: `${checked.message} (${currency})` }]);
  return checked.amount;
}

/**
 * The amount and currency sent, the amount in the currency's canonical form, when both were sent and the amount has at
 * most the currency's decimals; undefined otherwise (the path that reads the payment says what is wrong).
 */
function sentAmount({ amount, currency }: CreateData): { amount: string; currency: string } | undefined {
  const exponent = currency === undefined ? undefined : currencyExponent(currency);
  if (amount === undefined || currency === undefined || exponent === undefined) return undefined;
  const checked = canonicalAmount(amount, exponent);
  return checked.ok ? { amount: checked.amount, currency } : undefined;
}

/** A 404 like every unknown id (another merchant's or mode's payment must not be told apart), naming the field. */
function paymentField(code: "not_found" | "payment_not_refundable", detail: string): ServiceError {
  return new ServiceError(code, detail, { errors: [{ path: "body.paymentId", message: code === "not_found" ? "names no payment of yours" : "must be a confirmed payment" }] });
}
