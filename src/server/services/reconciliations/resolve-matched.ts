import { and, eq, inArray, isNull } from "drizzle-orm";
import { payments, reconciliationLines } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { recordAudit, recordAudits } from "../audit/record";
import { inTransaction, requireMerchantScope, requireReconciler, type ServiceContext } from "../context";
import { validateInput } from "../validate";
import { getCompleteReconciliation } from "./get";
import { resolveMatchedInput } from "./schemas";

const AUDIT_BATCH = 1000;

/**
 * Marks every payment of the report's unresolved `matched` lines reconciled with one note, in one
 * transaction and two statements (a report can match 100,000 payments: no per-payment round trips). Each
 * payment still gets its own `payment.reconciled` audit row, as the single-payment verb writes, plus one
 * `reconciliation.matched_resolved` row for the action. Answers how many were resolved.
 */
export async function resolveMatchedLines({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { id: string; note: string };
}): Promise<{ resolved: number }> {
  const reconciler = requireReconciler(ctx);
  const scope = requireMerchantScope(ctx);
  const { merchantId } = scope;
  const { id, note } = validateInput(resolveMatchedInput, input);
  const now = ctx.now();
  return withTransaction(ctx.db, async (tx) => {
    await getCompleteReconciliation(tx, scope, id);
    const pending = and(eq(reconciliationLines.merchantId, merchantId), eq(reconciliationLines.reconciliationId, id), eq(reconciliationLines.status, "matched"), isNull(reconciliationLines.resolvedAt));
    const lines = await tx
      .update(reconciliationLines)
      .set({ resolvedAt: now, resolvedBy: reconciler.userId, resolutionNote: note })
      .where(pending)
      .returning({ paymentId: reconciliationLines.paymentId, kind: reconciliationLines.kind });
    // Matched refund lines are resolved on the report; only payment lines mark their payment reconciled.
    const paymentIds = lines.flatMap((line) => (line.paymentId && line.kind === "payment" ? [line.paymentId] : []));
    for (let start = 0; start < paymentIds.length; start += AUDIT_BATCH) {
      const chunk = paymentIds.slice(start, start + AUDIT_BATCH);
      const updated = await tx
        .update(payments)
        .set({ reconciledAt: now, reconciledBy: reconciler.userId, reconciliationNote: note, updatedAt: now })
        .where(and(eq(payments.merchantId, merchantId), eq(payments.livemode, scope.livemode), inArray(payments.id, chunk)))
        .returning({ id: payments.id });
      if (updated.length === 0) continue;
      await recordAudits({
        ctx: inTransaction(ctx, tx),
        inputs: updated.map((payment) => ({
          action: "payment.reconciled",
          targetType: "payment",
          targetId: payment.id,
          merchantId,
          details: { note, reconciliationId: id },
        })),
      });
    }
    await recordAudit({
      ctx: inTransaction(ctx, tx),
      input: { action: "reconciliation.matched_resolved", targetType: "reconciliation", targetId: id, merchantId, details: { resolved: paymentIds.length, note } },
    });
    return { resolved: paymentIds.length };
  });
}
