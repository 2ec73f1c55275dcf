import { requireStaff, type ServiceContext } from "../context";
import { validateInput } from "../validate";
import { changeReconciliation } from "./change-reconciliation";
import { clearReconciliationInput, type StaffPayment } from "./schemas";

/** Support staff undo a reconciliation (a wrong match). The cleared note stays in the audit log. */
export async function clearPaymentReconciliation({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { paymentId: string };
}): Promise<StaffPayment> {
  const staff = requireStaff(ctx);
  const { paymentId } = validateInput(clearReconciliationInput, input);
  return changeReconciliation(ctx, staff, paymentId, (row) => ({
    columns: { reconciledAt: null, reconciledBy: null, reconciliationNote: null },
    audit: {
      action: "payment.reconciliation_cleared",
      details: { previousNote: row.reconciliationNote, previouslyReconciledAt: row.reconciledAt?.toISOString() ?? null },
    },
  }));
}
