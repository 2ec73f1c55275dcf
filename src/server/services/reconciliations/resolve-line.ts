import { and, eq } from "drizzle-orm";
import { reconciliationLines } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { recordAudit } from "../audit/record";
import { inTransaction, requireMerchantScope, requireReconciler, type ServiceContext } from "../context";
import { NotFoundError, ServiceError } from "../errors";
import { validateInput } from "../validate";
import { markPaymentReconciled } from "../payments/reconcile";
import { getCompleteReconciliation } from "./get";
import { resolveLineInput, toReconciliationLine, type ReconciliationLine } from "./schemas";

/**
 * Resolves one line of a report: its payment is marked reconciled with the note (the payments verb, which
 * audit-logs it), and the line records who resolved it, in one transaction. A line without a payment
 * (`missingInLedger`, `malformed`, an ambiguous reference) has nothing to mark: 409.
 */
export async function resolveReconciliationLine({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { id: string; position: number; note: string };
}): Promise<ReconciliationLine> {
  const reconciler = requireReconciler(ctx);
  const scope = requireMerchantScope(ctx);
  const { merchantId } = scope;
  const { id, position, note } = validateInput(resolveLineInput, input);
  return withTransaction(ctx.db, async (tx) => {
    const txCtx = inTransaction(ctx, tx);
    await getCompleteReconciliation(tx, scope, id);
    const lineAt = and(eq(reconciliationLines.merchantId, merchantId), eq(reconciliationLines.reconciliationId, id), eq(reconciliationLines.position, position));
    const [line] = await tx.select().from(reconciliationLines).where(lineAt).for("update");
    if (!line) throw new NotFoundError("reconciliation line");
    if (!line.paymentId) throw new ServiceError("reconciliation_line_without_payment", "This line names no recorded payment to mark reconciled.");
    // A refund line is resolved on the report alone: the refund's payment was reconciled for its own line.
    const payment = line.kind === "refund" ? null : await markPaymentReconciled({ ctx: txCtx, input: { paymentId: line.paymentId, note } });
    const [resolved] = await tx
      .update(reconciliationLines)
      .set({ resolvedAt: payment?.reconciledAt ? new Date(payment.reconciledAt) : ctx.now(), resolvedBy: reconciler.userId, resolutionNote: note })
      .where(lineAt)
      .returning();
    await recordAudit({
      ctx: txCtx,
      input: { action: "reconciliation.line_resolved", targetType: "reconciliation", targetId: id, merchantId, details: { position, paymentId: line.paymentId, refundId: line.refundId, note } },
    });
    return toReconciliationLine(resolved!);
  });
}
