import { z } from "zod";
import { clearPaymentReconciliation } from "@/server/services/payments/clear-reconciliation";
import { getPayment } from "@/server/services/payments/get";
import { countPayments, listPayments } from "@/server/services/payments/list";
import { markPaymentReconciled } from "@/server/services/payments/reconcile";
import { getPaymentReconciliation, paymentReconciliationInput, paymentReconciliationSchema } from "@/server/services/payments/reconciliation-of";
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
  type Payment,
  type StaffPayment,
} from "@/server/services/payments/schemas";
import { searchPayments } from "@/server/services/payments/search";
import { getPaymentStats } from "@/server/services/payments/stats";
import { viewPaymentAsStaff, viewPaymentInput } from "@/server/services/staff/view-payment";
import { createRouter, merchantProcedure, staffProcedure } from "../init";
import { once, submissionOf } from "../submission";

const DATABASE_ONLY = { store: "final", atomic: true } as const;

const forMerchant = { merchantId: z.string().min(1).max(100) };

/** A merchant sees its payment as the API shows it: the staff-only columns (who reconciled, the note) stay out. */
function toMerchantView({ merchantId: _merchantId, reconciledBy: _reconciledBy, reconciliationNote: _note, ...payment }: StaffPayment): Payment {
  return payment;
}

/** Payments for the dashboard: the signed-in merchant's own, and support staff's cross-merchant verbs. */
export const paymentsRouter = createRouter({
  list: merchantProcedure("payments.read")
    .input(listPaymentsInput)
    .output(paymentListSchema)
    .query(({ ctx, input }) => listPayments({ ctx: ctx.service, input })),
  /** The result count beside the list: the same filters, counted up to 10,000. */
  count: merchantProcedure("payments.read")
    .input(listPaymentsInput)
    .output(z.object({ count: z.number().int(), capped: z.boolean() }))
    .query(({ ctx, input }) => countPayments({ ctx: ctx.service, input })),
  get: merchantProcedure("payments.read")
    .input(getPaymentInput)
    .output(paymentSchema)
    .query(({ ctx, input }) => getPayment({ ctx: ctx.service, input })),
  reconciliation: merchantProcedure("reconciliation.read")
    .input(paymentReconciliationInput)
    .output(paymentReconciliationSchema)
    .query(({ ctx, input }) => getPaymentReconciliation({ ctx: ctx.service, input })),
  /** The merchant's own users reconcile their payments (docs/reconciliation.md); audit-logged like staff's. */
  markReconciled: merchantProcedure("reconciliation.write")
    .input(submissionOf(reconcilePaymentInput))
    .output(paymentSchema)
    .mutation(({ ctx, input, path }) =>
      once(ctx, path, input, async (service) => toMerchantView(await markPaymentReconciled({ ctx: service, input: input.input })), { policy: DATABASE_ONLY }),
    ),
  clearReconciliation: merchantProcedure("reconciliation.write")
    .input(clearReconciliationInput)
    .output(paymentSchema)
    .mutation(async ({ ctx, input }) => toMerchantView(await clearPaymentReconciliation({ ctx: ctx.service, input }))),
  stats: merchantProcedure("payments.read")
    .input(paymentStatsInput)
    .output(paymentStatsSchema)
    .query(({ ctx, input }) => getPaymentStats({ ctx: ctx.service, input })),

  staff: createRouter({
    search: staffProcedure("staff.payments.read")
      .input(searchPaymentsInput)
      .output(z.object({ data: z.array(staffPaymentSchema) }))
      .query(({ ctx, input }) => searchPayments({ ctx: ctx.service, input })),
    /** One payment of any merchant, opened by id: audit-logged as `payment.viewed`. */
    get: staffProcedure("staff.payments.read")
      .input(viewPaymentInput)
      .output(staffPaymentSchema)
      .query(({ ctx, input }) => viewPaymentAsStaff({ ctx: ctx.service, input })),
    /** One merchant's payments, read-only, as that merchant would see them. */
    list: staffProcedure("staff.payments.read")
      .input(listPaymentsInput.extend(forMerchant))
      .output(paymentListSchema)
      .query(({ ctx, input: { merchantId, ...query } }) => listPayments({ ctx: ctx.forMerchant(merchantId), input: query })),
    stats: staffProcedure("staff.payments.read")
      .input(paymentStatsInput.extend(forMerchant))
      .output(paymentStatsSchema)
      .query(({ ctx, input: { merchantId, ...query } }) => getPaymentStats({ ctx: ctx.forMerchant(merchantId), input: query })),
    markReconciled: staffProcedure("staff.reconciliation.write")
      .input(submissionOf(reconcilePaymentInput))
      .output(staffPaymentSchema)
      .mutation(({ ctx, input, path }) => once(ctx, path, input, (service) => markPaymentReconciled({ ctx: service, input: input.input }), { policy: DATABASE_ONLY })),
    clearReconciliation: staffProcedure("staff.reconciliation.write")
      .input(clearReconciliationInput)
      .output(staffPaymentSchema)
      .mutation(({ ctx, input }) => clearPaymentReconciliation({ ctx: ctx.service, input })),
  }),
});
