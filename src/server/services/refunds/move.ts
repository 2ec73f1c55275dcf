import { and, eq } from "drizzle-orm";
import type { EventType } from "@/lib/event-types";
import { refundHolds } from "@/lib/statuses";
import { refunds, type RefundRow, type RefundStatus } from "@/server/db/schema";
import { isUniqueViolation } from "@/server/db/errors";
import type { ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { emitEvent } from "../events/emit";
import { applyRefundedAmounts } from "./apply";
import { releaseHold, type RefundedPayment } from "./held";
import { toRefund } from "./schemas";
import { canMove, eventOfStatus, statusFields } from "./states";

/**
 * Moves a refund whose payment and own row locks the caller holds to `to` (states.ts), in the caller's transaction:
 * the row, the payment's held amount when it stops holding (held.ts), the payment's and invoice's refunded amounts
 * when it succeeded, and its event commit together (the outbox). The same status again changes nothing and sends nothing (`changed: false`), like payment/confirm.
 */
export async function moveLockedRefund(
  ctx: ServiceContext,
  payment: RefundedPayment,
  refund: RefundRow,
  to: RefundStatus,
  options: { fields?: Partial<RefundRow>; event?: EventType } = {},
): Promise<{ refund: RefundRow; changed: boolean }> {
  if (refund.status === to) return { refund, changed: false };
  if (!canMove(refund.status, to)) throw new ServiceError("invalid_transition", `A ${refund.status} refund cannot become ${to}.`);
  const now = ctx.now();
  const updated = await updateRefund(ctx, refund, { status: to, ...statusFields(to, now), ...options.fields, updatedAt: now });
  if (refundHolds(refund.status) && !refundHolds(to)) await releaseHold(ctx.db, payment, refund.amount);
  if (to === "succeeded") await applyRefundedAmounts(ctx.db, payment, refund.amount, now);
  const event = options.event ?? eventOfStatus(to);
  if (event) await emitRefundEvent(ctx, event, updated);
  return { refund: updated, changed: true };
}

/** Writes `fields` to the refund; a processor id another refund of the merchant already has is 409 refund_conflict. */
export async function updateRefund(ctx: ServiceContext, refund: RefundRow, fields: Partial<RefundRow>): Promise<RefundRow> {
  try {
    const [updated] = await ctx.db
      .update(refunds)
      .set(fields)
      .where(and(eq(refunds.merchantId, refund.merchantId), eq(refunds.id, refund.id)))
      .returning();
    return updated!;
  } catch (error) {
    if (isUniqueViolation(error)) throw externalIdTaken();
    throw error;
  }
}

export function externalIdTaken(): ServiceError {
  return new ServiceError("refund_conflict", "Another refund of yours already has this externalId; nothing was changed.", {
    errors: [{ path: "body.externalId", message: "is another refund's" }],
  });
}

export function emitRefundEvent(ctx: ServiceContext, type: EventType, row: RefundRow) {
  return emitEvent({ ctx, input: { type, data: toRefund(row, ctx.env), subjectId: row.id, livemode: row.livemode } });
}
