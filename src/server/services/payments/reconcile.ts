import { requireReconciler, type ServiceContext } from "../context";
import { validateInput } from "../validate";
import { changeReconciliation } from "./change-reconciliation";
import { reconcilePaymentInput, type StaffPayment } from "./schemas";

/**
 * Support staff, or the merchant's own users, mark a payment reconciled (matched against the bank or chain)
 * with a note. Marking it again replaces the note. Audit-logged in the same transaction.
 */
export async function markPaymentReconciled({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { paymentId: string; note: string };
}): Promise<StaffPayment> {
  const reconciler = requireReconciler(ctx);
  const { paymentId, note } = validateInput(reconcilePaymentInput, input);
  const now = ctx.now();
  return changeReconciliation(ctx, reconciler, paymentId, (row) => ({
    columns: { reconciledAt: now, reconciledBy: reconciler.userId, reconciliationNote: note },
    audit: { action: "payment.reconciled", details: { note, previousNote: row.reconciliationNote } },
  }));
}
