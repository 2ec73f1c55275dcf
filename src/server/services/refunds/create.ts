import { currencyExponent } from "@/lib/currencies";
import { newId } from "@/lib/ids";
import { canonicalAmount, compareDecimals } from "@/lib/money";
import { refunds, type PaymentRow, type RefundRow } from "@/server/db/schema";
import { isUniqueViolation } from "@/server/db/errors";
import { withTransaction } from "@/server/db/transaction";
import { refundClaimToken, refundClaimTokenDigest } from "@/server/crypto/refund-claim-token";
import { inTransaction, livemodeOf, requireMerchantScope, requireMerchantWriter, type ServiceContext } from "../context";
import { ServiceError, ValidationError } from "../errors";
import { namesInvoice } from "../invoices/attach-payment";
import { validateInput } from "../validate";
import { recordAudit } from "../audit/record";
import { applyRefundedAmounts, refundableOf } from "./apply";
import { lockPayment, lockRefundByExternalId } from "./fetch";
import { emitRefundEvent, externalIdTaken, moveLockedRefund } from "./move";
import { createRefundInput, toRefund, type CreateRefundInput, type Refund } from "./schemas";

type CreateData = ReturnType<typeof createRefundInput.parse>;

/**
 * Records a refund of one of the merchant's confirmed payments, or opens a claim link for the payer
 * (docs/refunds.md). With an `externalId` the merchant already used, it answers that refund (`created: false`) and
 * moves it on like payment/confirm (`pending → succeeded | failed`; the same status changes nothing).
 *
 * Never more than was paid: the payment's row is locked first, and what is still refundable is read under that lock
 * in the transaction that writes the refund and its events, so concurrent refunds queue and the sum of those not
 * `failed` or `canceled` never exceeds the payment (409 refund_exceeds_payment, naming the refundable amount).
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

/** The one way a refund is written, for the merchant's verb and staff's (staff-create.ts). */
export async function recordRefund(ctx: ServiceContext, data: CreateData): Promise<{ refund: Refund; created: boolean }> {
  const scope = requireMerchantScope(ctx);
  return withTransaction(ctx.db, async (tx) => {
    const txCtx = inTransaction(ctx, tx);
    const payment = await lockPayment(tx, scope, data.paymentId);
    if (!payment) throw paymentField("not_found", `No payment ${data.paymentId} of yours in this mode; nothing was recorded.`);

    if (data.externalId !== undefined) {
      const existing = await lockRefundByExternalId(tx, scope, data.externalId);
      if (existing) return { refund: toRefund(await moveExisting(txCtx, payment, existing, data), ctx.env), created: false };
    }

    if (payment.status !== "confirmed") {
      throw paymentField("payment_not_refundable", `Payment ${payment.id} is ${payment.status}; only a confirmed payment can be refunded.`);
    }
    if (data.currency !== undefined && data.currency !== payment.currency) {
      throw new ServiceError("currency_mismatch", `Payment ${payment.id} is in ${payment.currency}; this refund is in ${data.currency}.`, {
        errors: [{ path: "body.currency", message: `must be ${payment.currency}, the payment's currency` }],
      });
    }
    const refundable = await refundableOf(tx, payment);
    const amount = data.amount === undefined ? refundable : amountIn(data.amount, payment.currency);
    if (compareDecimals(refundable, "0") === 0 || compareDecimals(amount, refundable) > 0) {
      throw new ServiceError("refund_exceeds_payment", `At most ${refundable} ${payment.currency} of payment ${payment.id} is refundable; nothing was recorded.`, {
        errors: [{ path: "body.amount", message: `must be at most ${refundable}` }],
        members: { refundable },
      });
    }

    const row = await insertRefund(txCtx, payment, data, amount);
    await emitRefundEvent(txCtx, "refund.created", row);
    if (row.status === "succeeded") await applyRefundedAmounts(tx, payment, row.createdAt);
    if (row.status === "succeeded" || row.status === "failed") await emitRefundEvent(txCtx, `refund.${row.status}`, row);
    return { refund: toRefund(row, ctx.env), created: true };
  });
}

async function insertRefund(ctx: ServiceContext, payment: PaymentRow, data: CreateData, amount: string): Promise<RefundRow> {
  const now = ctx.now();
  const id = newId("refund");
  const status = data.claim ? "requires_action" : (data.status ?? "pending");
  try {
    const [row] = await ctx.db
      .insert(refunds)
      .values({
        id,
        merchantId: payment.merchantId,
        livemode: payment.livemode,
        paymentId: payment.id,
        invoiceId: namesInvoice(payment.invoiceId) ? payment.invoiceId : null,
        amount,
        currency: payment.currency,
        status,
        reason: data.reason ?? null,
        note: data.note ?? null,
        externalId: data.externalId ?? null,
        metadata: data.metadata ?? {},
        ...(data.claim
          ? {
              claimTokenHash: refundClaimTokenDigest(refundClaimToken(ctx.env.AUTH_SECRET, id)),
              claimExpiresAt: new Date(now.getTime() + data.claim.expiresIn * 1000),
              claimInstructions: data.claim.instructions ?? null,
            }
          : {}),
        succeededAt: status === "succeeded" ? now : null,
        failedAt: status === "failed" ? now : null,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return row!;
  } catch (error) {
    // The same processor id sent at once for two payments: the other's transaction took it first.
    if (isUniqueViolation(error)) throw externalIdTaken();
    throw error;
  }
}

/** A second `POST refund` with a known externalId: the same refund, moved on when a new status is reported. */
async function moveExisting(ctx: ServiceContext, payment: PaymentRow, existing: RefundRow, data: CreateData): Promise<RefundRow> {
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

/** A 404 like every unknown id (another merchant's or mode's payment must not be told apart), naming the field. */
function paymentField(code: "not_found" | "payment_not_refundable", detail: string): ServiceError {
  return new ServiceError(code, detail, { errors: [{ path: "body.paymentId", message: code === "not_found" ? "names no payment of yours" : "must be a confirmed payment" }] });
}
