import { and, eq } from "drizzle-orm";
import { payments, type PaymentRow } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { recordAudit } from "../audit/record";
import { inTransaction, livemodeOf, type ServiceContext } from "../context";
import { NotFoundError } from "../errors";
import { unsafeGetPaymentById } from "./fetch";
import { toStaffPayment, type StaffPayment } from "./schemas";

type ReconciliationColumns = Pick<PaymentRow, "reconciledAt" | "reconciledBy" | "reconciliationNote">;

/**
 * The write both reconciliation verbs make (after checking the actor may reconcile), in one transaction:
 * lock the payment, keep a reconciler scoped to one merchant (a merchant's user, or staff who opened one
 * merchant) to that merchant's payments, and every reconciler to its mode's (404 otherwise), set the
 * reconciliation columns and audit the change. `change` sees the locked row, so the audit entry can say what
 * was there before.
 */
export async function changeReconciliation(
  ctx: ServiceContext,
  reconciler: { merchantId?: string },
  paymentId: string,
  change: (row: PaymentRow) => {
    columns: ReconciliationColumns;
    audit: { action: "payment.reconciled" | "payment.reconciliation_cleared"; details: Record<string, unknown> };
  },
): Promise<StaffPayment> {
  const now = ctx.now();
  return withTransaction(ctx.db, async (tx) => {
    const row = await unsafeGetPaymentById(tx, paymentId, { forUpdate: true });
    if (reconciler.merchantId && reconciler.merchantId !== row.merchantId) throw new NotFoundError("payment");
    // Only payments of the actor's mode (docs/test-mode.md; staff act in live mode).
    if (row.livemode !== livemodeOf(ctx)) throw new NotFoundError("payment");
    const { columns, audit } = change(row);
    const [updated] = await tx
      .update(payments)
      .set({ ...columns, updatedAt: now })
      .where(and(eq(payments.id, row.id), eq(payments.merchantId, row.merchantId)))
      .returning();
    await recordAudit({
      ctx: inTransaction(ctx, tx),
      input: { action: audit.action, targetType: "payment", targetId: row.id, merchantId: row.merchantId, details: audit.details },
    });
    return toStaffPayment(updated!);
  });
}
