import { z } from "zod";
import { getReconciliation } from "@/server/services/reconciliations/get";
import { listReconciliations } from "@/server/services/reconciliations/list";
import { getReconciliationMapping } from "@/server/services/reconciliations/mapping";
import { resolveReconciliationLine } from "@/server/services/reconciliations/resolve-line";
import { resolveMatchedLines } from "@/server/services/reconciliations/resolve-matched";
import {
  getReconciliationInput,
  listReconciliationsInput,
  reconciliationLineSchema,
  reconciliationPageSchema,
  reconciliationSchema,
  resolveLineInput,
  resolveMatchedInput,
} from "@/server/services/reconciliations/schemas";
import { createRouter, merchantProcedure, staffProcedure } from "../init";

const forMerchant = { merchantId: z.string().min(1).max(100) };
const mappingSchema = z.record(z.string(), z.string()).nullable();
const resolvedSchema = z.object({ resolved: z.number().int() });

/**
 * Reconciliation reports for the dashboard: the signed-in merchant's own, and (under `staff`) support
 * staff's for the merchant they chose. Uploads and exports are route handlers (docs/reconciliation.md).
 */
export const reconciliationRouter = createRouter({
  list: merchantProcedure.input(listReconciliationsInput).output(reconciliationPageSchema).query(({ ctx, input }) => listReconciliations({ ctx: ctx.service, input })),
  get: merchantProcedure.input(getReconciliationInput).output(reconciliationSchema).query(({ ctx, input }) => getReconciliation({ ctx: ctx.service, input })),
  mapping: merchantProcedure.output(mappingSchema).query(({ ctx }) => getReconciliationMapping({ ctx: ctx.service })),
  resolveLine: merchantProcedure.input(resolveLineInput).output(reconciliationLineSchema).mutation(({ ctx, input }) => resolveReconciliationLine({ ctx: ctx.service, input })),
  resolveMatched: merchantProcedure.input(resolveMatchedInput).output(resolvedSchema).mutation(({ ctx, input }) => resolveMatchedLines({ ctx: ctx.service, input })),

  staff: createRouter({
    list: staffProcedure
      .input(listReconciliationsInput.extend(forMerchant))
      .output(reconciliationPageSchema)
      .query(({ ctx, input: { merchantId, ...query } }) => listReconciliations({ ctx: ctx.forMerchant(merchantId), input: query })),
    get: staffProcedure
      .input(getReconciliationInput.extend(forMerchant))
      .output(reconciliationSchema)
      .query(({ ctx, input: { merchantId, ...query } }) => getReconciliation({ ctx: ctx.forMerchant(merchantId), input: query })),
    mapping: staffProcedure
      .input(z.strictObject(forMerchant))
      .output(mappingSchema)
      .query(({ ctx, input }) => getReconciliationMapping({ ctx: ctx.forMerchant(input.merchantId) })),
    resolveLine: staffProcedure
      .input(resolveLineInput.extend(forMerchant))
      .output(reconciliationLineSchema)
      .mutation(({ ctx, input: { merchantId, ...line } }) => resolveReconciliationLine({ ctx: ctx.forMerchant(merchantId), input: line })),
    resolveMatched: staffProcedure
      .input(resolveMatchedInput.extend(forMerchant))
      .output(resolvedSchema)
      .mutation(({ ctx, input: { merchantId, ...rest } }) => resolveMatchedLines({ ctx: ctx.forMerchant(merchantId), input: rest })),
  }),
});
