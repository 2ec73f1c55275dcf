import { getMerchant } from "@/server/services/merchants/get";
import { updateMerchantInput } from "@/server/services/merchants/schemas";
import { updateMerchant } from "@/server/services/merchants/update";
import { createRouter, merchantProcedure } from "../init";

/** The signed-in merchant's own profile (the merchant comes from the session, never from input). */
export const merchantsRouter = createRouter({
  profile: merchantProcedure.query(({ ctx }) =>
    getMerchant({ ctx: ctx.service, input: { id: ctx.session.merchantId! } }),
  ),
  update: merchantProcedure
    .input(updateMerchantInput)
    .mutation(({ ctx, input }) => updateMerchant({ ctx: ctx.service, input: { ...input, id: ctx.session.merchantId! } })),
});
