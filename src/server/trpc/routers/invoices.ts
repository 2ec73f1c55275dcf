import { z } from "zod";
import { createInvoice } from "@/server/services/invoices/create";
import { getInvoice } from "@/server/services/invoices/get";
import { listInvoices } from "@/server/services/invoices/list";
import { markInvoiceAsStaff } from "@/server/services/invoices/mark-as-staff";
import {
  createInvoiceInput,
  invoiceIdInput,
  invoiceListSchema,
  invoiceSchema,
  invoiceWithPaymentsSchema,
  listInvoicesInput,
  staffInvoiceActionInput,
} from "@/server/services/invoices/schemas";
import { getInvoiceStats, invoiceStatsSchema } from "@/server/services/invoices/stats";
import { voidInvoice } from "@/server/services/invoices/void";
import { createRouter, merchantProcedure, staffProcedure } from "../init";
import { once, submissionOf } from "../submission";

const DATABASE_ONLY = { store: "final", atomic: true } as const;

const forMerchant = { merchantId: z.string().min(1).max(64) };

/** Invoices for the dashboard: the signed-in merchant's own, and support staff's read-only view and marks. */
export const invoicesRouter = createRouter({
  list: merchantProcedure("invoices.read")
    .input(listInvoicesInput)
    .output(invoiceListSchema)
    .query(({ ctx, input }) => listInvoices({ ctx: ctx.service, input })),
  get: merchantProcedure("invoices.read")
    .input(invoiceIdInput)
    .output(invoiceWithPaymentsSchema)
    .query(({ ctx, input }) => getInvoice({ ctx: ctx.service, input })),
  stats: merchantProcedure("invoices.read").output(invoiceStatsSchema).query(({ ctx }) => getInvoiceStats({ ctx: ctx.service })),
  /** Once per form submission: a double click or a resubmission answers the invoice the first one made. */
  create: merchantProcedure("invoices.write")
    .input(submissionOf(createInvoiceInput))
    .output(invoiceSchema)
    .mutation(({ ctx, input, path }) => once(ctx, path, input, (service) => createInvoice({ ctx: service, input: input.input }), { policy: DATABASE_ONLY })),
  void: merchantProcedure("invoices.write")
    .input(invoiceIdInput)
    .output(invoiceSchema)
    .mutation(({ ctx, input }) => voidInvoice({ ctx: ctx.service, input })),

  staff: createRouter({
    list: staffProcedure("staff.merchants.read")
      .input(listInvoicesInput.extend(forMerchant))
      .output(invoiceListSchema)
      .query(({ ctx, input: { merchantId, ...query } }) => listInvoices({ ctx: ctx.forMerchant(merchantId), input: query })),
    get: staffProcedure("staff.merchants.read")
      .input(invoiceIdInput.extend(forMerchant))
      .output(invoiceWithPaymentsSchema)
      .query(({ ctx, input: { merchantId, id } }) => getInvoice({ ctx: ctx.forMerchant(merchantId), input: { id } })),
    markPaid: staffProcedure("staff.invoices.write")
      .input(submissionOf(staffInvoiceActionInput))
      .output(invoiceSchema)
      .mutation(({ ctx, input, path }) => {
        const { merchantId, ...rest } = input.input;
        return once({ ...ctx, service: ctx.forMerchant(merchantId) }, path, input, (service) => markInvoiceAsStaff({ ctx: service, input: { ...rest, to: "paid" } }), { policy: DATABASE_ONLY });
      }),
    markVoid: staffProcedure("staff.invoices.write")
      .input(submissionOf(staffInvoiceActionInput))
      .output(invoiceSchema)
      .mutation(({ ctx, input, path }) => {
        const { merchantId, ...rest } = input.input;
        return once({ ...ctx, service: ctx.forMerchant(merchantId) }, path, input, (service) => markInvoiceAsStaff({ ctx: service, input: { ...rest, to: "void" } }), { policy: DATABASE_ONLY });
      }),
  }),
});
