import { requireReconciler, type ServiceContext } from "../context";
import { validateInput } from "../validate";
import { changeReconciliation } from "./change-reconciliation";
import { clearReconciliationInput, type StaffPayment } from "./schemas";

/** Support staff or the merchant's users undo a reconciliation (a wrong match). The cleared note stays in the audit log. */
export async function clearPaymentReconciliation({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { paymentId: string };
}): Promise<StaffPayment> {
  const reconciler = requireReconciler(ctx);
  const { paymentId } = validateInput(clearReconciliationInput, input);
  return changeReconciliation(ctx, reconciler, paymentId, (row) => ({
    columns: { reconciledAt: null, reconciledBy: null, reconciliationNote: null },
    audit: {
      action: "payment.reconciliation_cleared",
      details: { previousNote: row.reconciliationNote, previouslyReconciledAt: row.reconciledAt?.toISOString() ?? null },
    },
  }));
}
