import { z } from "zod";
import { inTransaction } from "@/server/services/context";
import { createRefund } from "@/server/services/refunds/create";
import { getRefund } from "@/server/services/refunds/get";
import { listRefunds, listRefundsOfPayment } from "@/server/services/refunds/list";
import { createRefundInput, listRefundsInput, refundIdInput, refundListSchema, refundSchema, updateRefundInput } from "@/server/services/refunds/schemas";
import { createRefundAsStaff, staffCreateRefundInput } from "@/server/services/refunds/staff-create";
import { cancelRefund, updateRefundStatus } from "@/server/services/refunds/update";
import { createRouter, merchantProcedure, staffProcedure } from "../init";
import { once, submissionOf } from "../submission";

const DATABASE_ONLY = { store: "final", atomic: true } as const;

/*
 * Permissions (auth/permissions.ts): reads need `refunds.read`, the mutations `refunds.write`; staff's refund for a
 * merchant `staff.refunds.write`: each procedure names its own (trpc/init.ts).
 */

/** Refunds for the dashboard: the signed-in merchant's own, and support staff refunding for a merchant. */
export const refundsRouter = createRouter({
  list: merchantProcedure("refunds.read")
    .input(listRefundsInput)
    .output(refundListSchema)
    .query(({ ctx, input }) => listRefunds({ ctx: ctx.service, input })),
  ofPayment: merchantProcedure("refunds.read")
    .input(z.strictObject({ paymentId: z.string().min(1).max(100) }))
    .output(z.array(refundSchema))
    .query(({ ctx, input }) => listRefundsOfPayment({ ctx: ctx.service, input })),
  get: merchantProcedure("refunds.read")
    .input(refundIdInput)
    .output(refundSchema)
    .query(({ ctx, input }) => getRefund({ ctx: ctx.service, input })),
  /** Once per form submission: a double click answers the refund the first click made. */
  create: merchantProcedure("refunds.write")
    .input(submissionOf(createRefundInput))
    .output(refundSchema)
    .mutation(({ ctx, input, path }) =>
      once(ctx, path, input, async (service) => (await createRefund({ ctx: service, input: input.input })).refund, { policy: DATABASE_ONLY }),
    ),
  update: merchantProcedure("refunds.write")
    .input(submissionOf(updateRefundInput.safeExtend(refundIdInput.shape)))
    .output(refundSchema)
    .mutation(({ ctx, input, path }) => once(ctx, path, input, (service) => updateRefundStatus({ ctx: service, input: input.input }), { policy: DATABASE_ONLY })),
  cancel: merchantProcedure("refunds.write")
    .input(submissionOf(refundIdInput))
    .output(refundSchema)
    .mutation(({ ctx, input, path }) => once(ctx, path, input, (service) => cancelRefund({ ctx: service, input: input.input }), { policy: DATABASE_ONLY })),

  staff: createRouter({
    /** Support staff refund for a merchant with a required note; audit-logged with it. */
    create: staffProcedure("staff.refunds.write")
      .input(submissionOf(staffCreateRefundInput.safeExtend({ merchantId: z.string().min(1).max(64) })))
      .output(refundSchema)
      .mutation(({ ctx, input, path }) =>
        once(ctx, path, input, (service) => {
          const { merchantId, ...refund } = input.input;
          // The merchant's context on the transaction the stored answer commits in.
          return createRefundAsStaff({ ctx: inTransaction(ctx.forMerchant(merchantId), service.db), input: refund });
        }, { policy: DATABASE_ONLY }),
      ),
  }),
});
