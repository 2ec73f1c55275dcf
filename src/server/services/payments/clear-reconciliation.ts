import { and, eq } from "drizzle-orm";
import { payments } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { recordAudit } from "../audit/record";
import { inTransaction, requireStaff, type ServiceContext } from "../context";
import { NotFoundError } from "../errors";
import { parseInput } from "../parse";
import { unsafeGetPaymentById } from "./fetch";
import { clearReconciliationInput, toStaffPayment, type StaffPayment } from "./schemas";

/** Support staff undo a reconciliation (a wrong match). The cleared note stays in the audit log. */
export async function clearPaymentReconciliation({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { paymentId: string };
}): Promise<StaffPayment> {
  const staff = requireStaff(ctx);
  const { paymentId } = parseInput(clearReconciliationInput, input);
  const now = ctx.now();
  return withTransaction(ctx.db, async (tx) => {
    const row = await unsafeGetPaymentById(tx, paymentId, { forUpdate: true });
    if (staff.merchantId && staff.merchantId !== row.merchantId) throw new NotFoundError("payment");
    const [updated] = await tx
      .update(payments)
      .set({ reconciledAt: null, reconciledBy: null, reconciliationNote: null, updatedAt: now })
      .where(and(eq(payments.id, row.id), eq(payments.merchantId, row.merchantId)))
      .returning();
    await recordAudit({
      ctx: inTransaction(ctx, tx),
      input: {
        action: "payment.reconciliation_cleared",
        targetType: "payment",
        targetId: row.id,
        merchantId: row.merchantId,
        details: { previousNote: row.reconciliationNote, previouslyReconciledAt: row.reconciledAt?.toISOString() ?? null },
      },
    });
    return toStaffPayment(updated!);
  });
}
