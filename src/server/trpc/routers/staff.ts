import { z } from "zod";
import { listAuditLog, listAuditLogInput } from "@/server/services/audit/list";
import { listMerchantsAsStaff, listMerchantsInput } from "@/server/services/staff/list-merchants";
import { lookUpStaffNames, staffNamesInput } from "@/server/services/staff/names";
import { viewMerchantAsStaff, viewMerchantInput } from "@/server/services/staff/view-merchant";
import { systemOverview } from "@/server/services/system/overview";
import { listFailedDeliveries } from "@/server/services/webhooks/list-failed";
import { listFailedDeliveriesInput } from "@/server/services/webhooks/schemas";
import { createRouter, staffProcedure } from "../init";

const forMerchant = { merchantId: z.string().min(1).max(64) };

/**
 * The support console's own procedures (payment search and reconciliation are in `payments.staff`, the
 * retry of a merchant's delivery in `webhooks.staffRetry`).
 * Staff-only; acting on one merchant goes through `ctx.forMerchant`, and the verbs audit-log what staff do.
 */
export const staffRouter = createRouter({
  auditLog: staffProcedure.input(listAuditLogInput).query(({ ctx, input }) => listAuditLog({ ctx: ctx.service, input })),
  merchants: staffProcedure.input(listMerchantsInput).query(({ ctx, input }) => listMerchantsAsStaff({ ctx: ctx.service, input })),
  names: staffProcedure.input(staffNamesInput).query(({ ctx, input }) => lookUpStaffNames({ ctx: ctx.service, input })),
  merchant: staffProcedure.input(viewMerchantInput).query(({ ctx, input }) => viewMerchantAsStaff({ ctx: ctx.service, input })),
  failedDeliveries: staffProcedure
    .input(listFailedDeliveriesInput.extend(forMerchant))
    .query(({ ctx, input: { merchantId, ...query } }) => listFailedDeliveries({ ctx: ctx.forMerchant(merchantId), input: query })),
  /** The delivery engine and the database as the answering process sees them (the System page). */
  system: staffProcedure.query(({ ctx }) => systemOverview({ ctx: ctx.service, pool: ctx.runtime.database.poolStats?.() ?? null })),
});
