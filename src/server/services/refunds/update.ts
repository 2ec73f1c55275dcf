import type { RefundRow, RefundStatus } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { auditChanges } from "../audit/changes";
import { auditRefund } from "./create";
import { inTransaction, requireMerchantScope, type MerchantScope, type ServiceContext } from "../context";
import { NotFoundError, ServiceError } from "../errors";
import { validateInput } from "../validate";
import { findRefund, lockPayment } from "./fetch";
import { moveLockedRefund, updateRefund } from "./move";
import { refundIdInput, toRefund, updateRefundInput, type Refund, type UpdateRefundInput } from "./schemas";

/**
 * `POST refund/{id}`: the merchant reports where a refund stands (docs/refunds.md, "States"). The same status again
 * changes nothing (200); a move the state machine does not allow is 409 invalid_transition.
 */
export async function updateRefundStatus({ ctx, input }: { ctx: ServiceContext; input: UpdateRefundInput & { id: string } }): Promise<Refund> {
  const scope = requireMerchantScope(ctx);
  const { id } = validateInput(refundIdInput, { id: input.id }, "params");
  const data = validateInput(updateRefundInput, { status: input.status, externalId: input.externalId, failureReason: input.failureReason }, "body");
  return withLockedRefund(ctx, scope, id, async (txCtx, payment, refund) => {
    let current = refund;
    if (data.externalId !== undefined && data.externalId !== refund.externalId) {
      if (refund.externalId !== null) {
        throw new ServiceError("refund_conflict", `Refund ${refund.id} already has externalId ${refund.externalId}; it cannot change.`, {
          errors: [{ path: "body.externalId", message: `must be ${refund.externalId}` }],
        });
      }
      current = await updateRefund(txCtx, refund, { externalId: data.externalId, updatedAt: txCtx.now() });
    }
    const fields = data.status === "failed" ? { failureReason: data.failureReason ?? null } : {};
    const moved = (await moveLockedRefund(txCtx, payment, current, data.status, { fields })).refund;
    return auditMove(txCtx, refund, moved);
  });
}

/** `POST refund/{id}/cancel`: from `requires_action` or `pending` (a claim link stops working at once). */
export async function cancelRefund({ ctx, input }: { ctx: ServiceContext; input: { id: string } }): Promise<Refund> {
  const scope = requireMerchantScope(ctx);
  const { id } = validateInput(refundIdInput, { id: input.id }, "params");
  return withLockedRefund(ctx, scope, id, async (txCtx, payment, refund) =>
    auditMove(txCtx, refund, (await moveLockedRefund(txCtx, payment, refund, "canceled")).refund),
  );
}

/** A move that changed something (status, externalId) is audited as `refund.updated` with what changed. */
async function auditMove(ctx: ServiceContext, before: RefundRow, after: RefundRow): Promise<RefundRow> {
  const changed = (["status", "externalId", "failureReason"] as const).filter((field) => before[field] !== after[field]);
  if (changed.length > 0) await auditRefund(ctx, "refund.updated", toRefund(after, ctx.env), auditChanges(before, after, changed));
  return after;
}

/**
 * Runs `work` on the merchant's refund under its payment's lock and then its own (fetch.ts, lock order), in one
 * transaction; another merchant's or mode's refund is 404 like an unknown one.
 */
export async function withLockedRefund(
  ctx: ServiceContext,
  scope: MerchantScope,
  id: string,
  work: (txCtx: ServiceContext, payment: NonNullable<Awaited<ReturnType<typeof lockPayment>>>, refund: RefundRow) => Promise<RefundRow>,
): Promise<Refund> {
  return withTransaction(ctx.db, async (tx) => {
    const seen = await findRefund(tx, scope, id);
    if (!seen) throw new NotFoundError("refund");
    const payment = await lockPayment(tx, scope, seen.paymentId);
    const refund = await findRefund(tx, scope, id, { forUpdate: true });
    if (!payment || !refund) throw new NotFoundError("refund");
    return toRefund(await work(inTransaction(ctx, tx), payment, refund), ctx.env);
  });
}

export type { RefundStatus };
