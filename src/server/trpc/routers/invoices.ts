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

const forMerchant = { merchantId: z.string().min(1).max(64) };

/** Invoices for the dashboard: the signed-in merchant's own, and support staff's read-only view and marks. */
export const invoicesRouter = createRouter({
  list: merchantProcedure
    .input(listInvoicesInput)
    .output(invoiceListSchema)
    .query(({ ctx, input }) => listInvoices({ ctx: ctx.service, input })),
  get: merchantProcedure
    .input(invoiceIdInput)
    .output(invoiceWithPaymentsSchema)
    .query(({ ctx, input }) => getInvoice({ ctx: ctx.service, input })),
  stats: merchantProcedure.output(invoiceStatsSchema).query(({ ctx }) => getInvoiceStats({ ctx: ctx.service })),
  create: merchantProcedure
    .input(createInvoiceInput)
    .output(invoiceSchema)
    .mutation(({ ctx, input }) => createInvoice({ ctx: ctx.service, input })),
  void: merchantProcedure
    .input(invoiceIdInput)
    .output(invoiceSchema)
    .mutation(({ ctx, input }) => voidInvoice({ ctx: ctx.service, input })),

  staff: createRouter({
    list: staffProcedure
      .input(listInvoicesInput.extend(forMerchant))
      .output(invoiceListSchema)
      .query(({ ctx, input: { merchantId, ...query } }) => listInvoices({ ctx: ctx.forMerchant(merchantId), input: query })),
    get: staffProcedure
      .input(invoiceIdInput.extend(forMerchant))
      .output(invoiceWithPaymentsSchema)
      .query(({ ctx, input: { merchantId, id } }) => getInvoice({ ctx: ctx.forMerchant(merchantId), input: { id } })),
    markPaid: staffProcedure
      .input(staffInvoiceActionInput)
      .output(invoiceSchema)
      .mutation(({ ctx, input: { merchantId, ...rest } }) => markInvoiceAsStaff({ ctx: ctx.forMerchant(merchantId), input: { ...rest, to: "paid" } })),
    markVoid: staffProcedure
      .input(staffInvoiceActionInput)
      .output(invoiceSchema)
      .mutation(({ ctx, input: { merchantId, ...rest } }) => markInvoiceAsStaff({ ctx: ctx.forMerchant(merchantId), input: { ...rest, to: "void" } })),
  }),
});
