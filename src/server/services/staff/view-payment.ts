import { z } from "zod";
import { recordStaffRead } from "../audit/record-staff-read";
import { livemodeOf, requireStaff, type ServiceContext } from "../context";
import { NotFoundError } from "../errors";
import { unsafeGetPaymentById } from "../payments/fetch";
import { toStaffPayment, type StaffPayment } from "../payments/schemas";
import { validateInput } from "../validate";

export const viewPaymentInput = z.strictObject({ id: z.string().min(1).max(100) });

/**
 * Support staff open one payment of any merchant by its id (from the search, or a link). Audit-logged as
 * `payment.viewed` on the payment's merchant, once per staff user and payment per 15 minutes like every
 * staff read (docs/dashboard.md, "Staff console"); an unknown id answers not_found and writes nothing.
 */
export async function viewPaymentAsStaff({ ctx, input }: { ctx: ServiceContext; input: { id: string } }): Promise<StaffPayment> {
  const staff = requireStaff(ctx);
  const { id } = validateInput(viewPaymentInput, input);
  const row = await unsafeGetPaymentById(ctx.db, id);
  // Staff act in live mode (docs/test-mode.md): a test payment is not theirs to open.
  if (row.livemode !== livemodeOf(ctx)) throw new NotFoundError("payment");
  const merchantCtx: ServiceContext = { ...ctx, actor: { type: "staff", userId: staff.userId, merchantId: row.merchantId } };
  await recordStaffRead({ ctx: merchantCtx, input: { view: "payment", target: { type: "payment", id: row.id } } });
  return toStaffPayment(row);
}
