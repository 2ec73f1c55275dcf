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
import { once, submissionOf } from "../submission";

const DATABASE_ONLY = { store: "final", atomic: true } as const;

const forMerchant = { merchantId: z.string().min(1).max(100) };
const mappingSchema = z.record(z.string(), z.string()).nullable();
const resolvedSchema = z.object({ resolved: z.number().int() });

/**
 * Reconciliation reports for the dashboard: the signed-in merchant's own, and (under `staff`) support
 * staff's for the merchant they chose. Uploads and exports are route handlers (docs/reconciliation.md).
 */
export const reconciliationRouter = createRouter({
  list: merchantProcedure("reconciliation.read").input(listReconciliationsInput).output(reconciliationPageSchema).query(({ ctx, input }) => listReconciliations({ ctx: ctx.service, input })),
  get: merchantProcedure("reconciliation.read").input(getReconciliationInput).output(reconciliationSchema).query(({ ctx, input }) => getReconciliation({ ctx: ctx.service, input })),
  mapping: merchantProcedure("reconciliation.read").output(mappingSchema).query(({ ctx }) => getReconciliationMapping({ ctx: ctx.service })),
  resolveLine: merchantProcedure("reconciliation.write")
    .input(submissionOf(resolveLineInput))
    .output(reconciliationLineSchema)
    .mutation(({ ctx, input, path }) => once(ctx, path, input, (service) => resolveReconciliationLine({ ctx: service, input: input.input }), { policy: DATABASE_ONLY })),
  resolveMatched: merchantProcedure("reconciliation.write")
    .input(submissionOf(resolveMatchedInput))
    .output(resolvedSchema)
    .mutation(({ ctx, input, path }) => once(ctx, path, input, (service) => resolveMatchedLines({ ctx: service, input: input.input }), { policy: DATABASE_ONLY })),

  staff: createRouter({
    list: staffProcedure("staff.reconciliation.read")
      .input(listReconciliationsInput.extend(forMerchant))
      .output(reconciliationPageSchema)
      .query(({ ctx, input: { merchantId, ...query } }) => listReconciliations({ ctx: ctx.forMerchant(merchantId), input: query })),
    get: staffProcedure("staff.reconciliation.read")
      .input(getReconciliationInput.extend(forMerchant))
      .output(reconciliationSchema)
      .query(({ ctx, input: { merchantId, ...query } }) => getReconciliation({ ctx: ctx.forMerchant(merchantId), input: query })),
    mapping: staffProcedure("staff.reconciliation.read")
      .input(z.strictObject(forMerchant))
      .output(mappingSchema)
      .query(({ ctx, input }) => getReconciliationMapping({ ctx: ctx.forMerchant(input.merchantId) })),
    resolveLine: staffProcedure("staff.reconciliation.write")
      .input(submissionOf(resolveLineInput.extend(forMerchant)))
      .output(reconciliationLineSchema)
      .mutation(({ ctx, input, path }) => {
        const { merchantId, ...line } = input.input;
        return once({ ...ctx, service: ctx.forMerchant(merchantId) }, path, input, (service) => resolveReconciliationLine({ ctx: service, input: line }), { policy: DATABASE_ONLY });
      }),
    resolveMatched: staffProcedure("staff.reconciliation.write")
      .input(submissionOf(resolveMatchedInput.extend(forMerchant)))
      .output(resolvedSchema)
      .mutation(({ ctx, input, path }) => {
        const { merchantId, ...rest } = input.input;
        return once({ ...ctx, service: ctx.forMerchant(merchantId) }, path, input, (service) => resolveMatchedLines({ ctx: service, input: rest }), { policy: DATABASE_ONLY });
      }),
  }),
});
