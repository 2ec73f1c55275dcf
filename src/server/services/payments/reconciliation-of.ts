import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { payments, users } from "@/server/db/schema";
import { requireMerchantScope, type ServiceContext } from "../context";
import { NotFoundError } from "../errors";
import { validateInput } from "../validate";

export const paymentReconciliationInput = z.strictObject({ id: z.string().min(1).max(100) });

export const paymentReconciliationSchema = z.object({
  reconciledAt: z.iso.datetime().nullable(),
  note: z.string().nullable(),
  /** Who marked it: the email of one of the merchant's users, or "support" for staff. */
  reconciledBy: z.string().nullable(),
});
export type PaymentReconciliation = z.infer<typeof paymentReconciliationSchema>;

/**
 * The reconciliation of one of the merchant's own payments for its dashboard: when, the note, and by whom
 * (support staff are named only as "support"). Another merchant's payment answers not_found.
 */
export async function getPaymentReconciliation({ ctx, input }: { ctx: ServiceContext; input: { id: string } }): Promise<PaymentReconciliation> {
  const { merchantId, livemode } = requireMerchantScope(ctx);
  const { id } = validateInput(paymentReconciliationInput, input);
  const [row] = await ctx.db
    .select({ reconciledAt: payments.reconciledAt, note: payments.reconciliationNote, byEmail: users.email, byRole: users.role })
    .from(payments)
    .leftJoin(users, eq(users.id, payments.reconciledBy))
    .where(and(eq(payments.id, id), eq(payments.merchantId, merchantId), eq(payments.livemode, livemode)))
    .limit(1);
  if (!row) throw new NotFoundError("payment");
  const reconciledBy = !row.reconciledAt ? null : row.byRole === "staff" ? "support" : (row.byEmail ?? null);
  return { reconciledAt: row.reconciledAt?.toISOString() ?? null, note: row.note, reconciledBy };
}
