import { getMerchant } from "@/server/services/merchants/get";
import { merchantSchema, updateMerchantInput } from "@/server/services/merchants/schemas";
import { updateMerchant } from "@/server/services/merchants/update";
import { getPaymentMethods } from "@/server/services/payment-methods/get";
import { setPaymentMethodsInput } from "@/server/services/payment-methods/schemas";
import { setPaymentMethods } from "@/server/services/payment-methods/set";
import { getSecondFactorPolicy, secondFactorPolicyInput, setSecondFactorPolicy } from "@/server/services/merchants/second-factor-policy";
import { PROFILE_WEBHOOK_SETTINGS } from "@/server/auth/permissions";
import { createRouter, merchantProcedure } from "../init";

/** The signed-in merchant's own profile and payment methods (the merchant comes from the session, never from input). */
export const merchantsRouter = createRouter({
  profile: merchantProcedure("merchant_profile.read")
    .output(merchantSchema)
    .query(({ ctx }) => getMerchant({ ctx: ctx.service, input: { id: ctx.session.merchantId! } })),
  update: merchantProcedure("merchant_profile.write")
    .input(updateMerchantInput)
    .output(merchantSchema)
    .mutation(({ ctx, input }) => {
      ctx.requireAlso(PROFILE_WEBHOOK_SETTINGS, input);
      return updateMerchant({ ctx: ctx.service, input: { ...input, id: ctx.session.merchantId! } });
    }),
  /** The methods of the dashboard's mode (its test-mode switch), as checkout pages of that mode show them. */
  paymentMethods: merchantProcedure("merchant_profile.read").query(({ ctx }) =>
    getPaymentMethods({ ctx: ctx.service, input: { id: ctx.session.merchantId! } }),
  ),
  setPaymentMethods: merchantProcedure("merchant_profile.write")
    .input(setPaymentMethodsInput)
    .mutation(({ ctx, input }) => setPaymentMethods({ ctx: ctx.service, input: { ...input, id: ctx.session.merchantId! } })),
  /** Whether every user of the merchant must sign in with a second factor (docs/team-and-security.md). */
  secondFactorPolicy: merchantProcedure("team.read").query(({ ctx }) => getSecondFactorPolicy({ ctx: ctx.service })),
  setSecondFactorPolicy: merchantProcedure("team.ownership").input(secondFactorPolicyInput).mutation(({ ctx, input }) => setSecondFactorPolicy({ ctx: ctx.service, input })),
});
