import { z } from "zod";
import { listAuditLog, listAuditLogInput } from "@/server/services/audit/list";
import { listMerchantsAsStaff, listMerchantsInput } from "@/server/services/staff/list-merchants";
import { lookUpStaffNames, staffNamesInput } from "@/server/services/staff/names";
import { viewMerchantAsStaff, viewMerchantInput } from "@/server/services/staff/view-merchant";
import { systemOverview } from "@/server/services/system/overview";
import { listFailedDeliveries } from "@/server/services/webhooks/list-failed";
import { merchantSchema } from "@/server/services/merchants/schemas";
import { deliveryListSchema, listFailedDeliveriesInput } from "@/server/services/webhooks/schemas";
import { forgetSessions } from "@/server/auth/session-lookup";
import { recordViewAsPage, startViewAs, startViewAsInput, stopViewAs, viewAsPageInput } from "@/server/services/staff/view-as";
import { createRouter, staffProcedure } from "../init";

const forMerchant = { merchantId: z.string().min(1).max(64) };

/**
 * The support console's own procedures (payment search and reconciliation are in `payments.staff`, the
 * retry of a merchant's delivery in `webhooks.staffRetry`).
 * Staff-only; acting on one merchant goes through `ctx.forMerchant`, and the verbs audit-log what staff do.
 */
export const staffRouter = createRouter({
  auditLog: staffProcedure("staff.audit.read").input(listAuditLogInput).query(({ ctx, input }) => listAuditLog({ ctx: ctx.service, input })),
  merchants: staffProcedure("staff.merchants.read").input(listMerchantsInput).query(({ ctx, input }) => listMerchantsAsStaff({ ctx: ctx.service, input })),
  names: staffProcedure("staff.merchants.read").input(staffNamesInput).query(({ ctx, input }) => lookUpStaffNames({ ctx: ctx.service, input })),
  merchant: staffProcedure("staff.merchants.read").input(viewMerchantInput).output(merchantSchema).query(({ ctx, input }) => viewMerchantAsStaff({ ctx: ctx.service, input })),
  failedDeliveries: staffProcedure("staff.merchants.read")
    .input(listFailedDeliveriesInput.extend(forMerchant))
    .output(deliveryListSchema)
    .query(({ ctx, input: { merchantId, ...query } }) => listFailedDeliveries({ ctx: ctx.forMerchant(merchantId), input: query })),
  /** The delivery engine and the database as the answering process sees them (the System page). */
  system: staffProcedure("staff.system.read").query(({ ctx }) => systemOverview({ ctx: ctx.service, pool: ctx.runtime.database.poolStats?.() ?? null })),
  // "View as merchant" (docs/team-and-security.md). This process forgets the session's cached row at once, so the
  // grant (or its end) holds from the next request; other processes within the cache's 2 s.
  startViewAs: staffProcedure("staff.view_as")
    .input(startViewAsInput)
    .mutation(async ({ ctx, input }) => {
      const grant = await startViewAs({ ctx: ctx.service, input });
      forgetSessions(ctx.runtime, { sessionId: ctx.session.sessionId });
      return grant;
    }),
  stopViewAs: staffProcedure("staff.view_as").mutation(async ({ ctx }) => {
    await stopViewAs({ ctx: ctx.service });
    forgetSessions(ctx.runtime, { sessionId: ctx.session.sessionId });
  }),
  viewAsPageViewed: staffProcedure("staff.view_as").input(viewAsPageInput).mutation(({ ctx, input }) => recordViewAsPage({ ctx: ctx.service, input })),
});
