import { z } from "zod";
import { withTransaction } from "@/server/db/transaction";
import { recordAudit } from "../audit/record";
import { inTransaction, requireMerchantScope, requireStaff, type ServiceContext } from "../context";
import { validateInput } from "../validate";
import { recordRefund } from "./create";
import { createRefundInput, type Refund } from "./schemas";

/** Staff refund for a merchant: the merchant's input, with the note required (it is the audit log's reason). */
export const staffCreateRefundInput = createRefundInput.safeExtend({
  note: z.string().trim().min(1, "a note is required: why support staff refund for the merchant").max(1000),
});
export type StaffCreateRefundInput = z.input<typeof staffCreateRefundInput>;

/**
 * Support staff record a refund for a merchant (docs/refunds.md, "Support staff"), `ctx` acting for that merchant
 * (tRPC `forMerchant`), in live mode. The refund, its events and the audit row with the note commit together.
 */
export async function createRefundAsStaff({ ctx, input }: { ctx: ServiceContext; input: StaffCreateRefundInput }): Promise<Refund> {
  requireStaff(ctx);
  const { merchantId } = requireMerchantScope(ctx);
  const data = validateInput(staffCreateRefundInput, input, "input");
  return withTransaction(ctx.db, async (tx) => {
    const txCtx = inTransaction(ctx, tx);
    const { refund } = await recordRefund(txCtx, data);
    await recordAudit({
      ctx: txCtx,
      input: {
        action: "refund.created_by_staff",
        targetType: "refund",
        targetId: refund.id,
        merchantId,
        details: { note: data.note, paymentId: refund.paymentId, amount: refund.amount, currency: refund.currency, status: refund.status },
      },
    });
    return refund;
  });
}
