import { z } from "zod";
import { clearPaymentReconciliation } from "@/server/services/payments/clear-reconciliation";
import { getPayment } from "@/server/services/payments/get";
import { listPayments } from "@/server/services/payments/list";
import { markPaymentReconciled } from "@/server/services/payments/reconcile";
import {
  clearReconciliationInput,
  getPaymentInput,
  listPaymentsInput,
  paymentListSchema,
  paymentSchema,
  paymentStatsInput,
  paymentStatsSchema,
  reconcilePaymentInput,
  searchPaymentsInput,
  staffPaymentSchema,
} from "@/server/services/payments/schemas";
import { searchPayments } from "@/server/services/payments/search";
import { getPaymentStats } from "@/server/services/payments/stats";
import { createRouter, merchantProcedure, staffProcedure } from "../init";

const forMerchant = { merchantId: z.string().min(1).max(100) };

/** Payments for the dashboard: the signed-in merchant's own, and support staff's cross-merchant verbs. */
export const paymentsRouter = createRouter({
  list: merchantProcedure
    .input(listPaymentsInput)
    .output(paymentListSchema)
    .query(({ ctx, input }) => listPayments({ ctx: ctx.service, input })),
  get: merchantProcedure
    .input(getPaymentInput)
    .output(paymentSchema)
    .query(({ ctx, input }) => getPayment({ ctx: ctx.service, input })),
  stats: merchantProcedure
    .input(paymentStatsInput)
    .output(paymentStatsSchema)
    .query(({ ctx, input }) => getPaymentStats({ ctx: ctx.service, input })),

  staff: createRouter({
    search: staffProcedure
      .input(searchPaymentsInput)
      .output(z.object({ data: z.array(staffPaymentSchema) }))
      .query(({ ctx, input }) => searchPayments({ ctx: ctx.service, input })),
    /** One merchant's payments, read-only, as that merchant would see them. */
    list: staffProcedure
      .input(listPaymentsInput.extend(forMerchant))
      .output(paymentListSchema)
      .query(({ ctx, input: { merchantId, ...query } }) => listPayments({ ctx: ctx.forMerchant(merchantId), input: query })),
    stats: staffProcedure
      .input(paymentStatsInput.extend(forMerchant))
      .output(paymentStatsSchema)
      .query(({ ctx, input: { merchantId, ...query } }) => getPaymentStats({ ctx: ctx.forMerchant(merchantId), input: query })),
    markReconciled: staffProcedure
      .input(reconcilePaymentInput)
      .output(staffPaymentSchema)
      .mutation(({ ctx, input }) => markPaymentReconciled({ ctx: ctx.service, input })),
    clearReconciliation: staffProcedure
      .input(clearReconciliationInput)
      .output(staffPaymentSchema)
      .mutation(({ ctx, input }) => clearPaymentReconciliation({ ctx: ctx.service, input })),
  }),
});
