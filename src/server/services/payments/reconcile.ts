import { and, eq } from "drizzle-orm";
import { payments } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { recordAudit } from "../audit/record";
import { inTransaction, requireStaff, type ServiceContext } from "../context";
import { NotFoundError } from "../errors";
import { parseInput } from "../parse";
import { unsafeGetPaymentById } from "./fetch";
import { reconcilePaymentInput, toStaffPayment, type StaffPayment } from "./schemas";

/**
 * Support staff mark a payment reconciled (matched against the bank or chain) with a note. Marking it
 * again replaces the note. Audit-logged in the same transaction.
 */
export async function markPaymentReconciled({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { paymentId: string; note: string };
}): Promise<StaffPayment> {
  const staff = requireStaff(ctx);
  const { paymentId, note } = parseInput(reconcilePaymentInput, input);
  const now = ctx.now();
  return withTransaction(ctx.db, async (tx) => {
    const row = await unsafeGetPaymentById(tx, paymentId, { forUpdate: true });
    // Staff viewing one merchant act on that merchant's payments only.
    if (staff.merchantId && staff.merchantId !== row.merchantId) throw new NotFoundError("payment");
    const [updated] = await tx
      .update(payments)
      .set({ reconciledAt: now, reconciledBy: staff.userId, reconciliationNote: note, updatedAt: now })
      .where(and(eq(payments.id, row.id), eq(payments.merchantId, row.merchantId)))
      .returning();
    await recordAudit({
      ctx: inTransaction(ctx, tx),
      input: {
        action: "payment.reconciled",
        targetType: "payment",
        targetId: row.id,
        merchantId: row.merchantId,
        details: { note, previousNote: row.reconciliationNote },
      },
    });
    return toStaffPayment(updated!);
  });
}
