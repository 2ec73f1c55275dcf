import { z } from "zod";
import { recordStaffRead } from "../audit/record-staff-read";
import { requireStaff, type ServiceContext } from "../context";
import { getMerchant } from "../merchants/get";
import { validateInput } from "../validate";

export const viewMerchantInput = z.strictObject({ merchantId: z.string().min(1).max(64) });

/** Support staff open one merchant's profile, read-only. The look is audit-logged like any staff read. */
export async function viewMerchantAsStaff({ ctx, input }: { ctx: ServiceContext; input: { merchantId: string } }) {
  const staff = requireStaff(ctx);
  const { merchantId } = validateInput(viewMerchantInput, input);
  const merchantCtx: ServiceContext = { ...ctx, actor: { type: "staff", userId: staff.userId, merchantId } };
  const merchant = await getMerchant({ ctx: merchantCtx, input: { id: merchantId } });
  await recordStaffRead({ ctx: merchantCtx, input: { view: "merchant" } });
  return merchant;
}
