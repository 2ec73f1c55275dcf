import { listMerchantAuditLog } from "@/server/services/audit/list-merchant";
import { auditEntryListSchema, listMerchantAuditInput } from "@/server/services/audit/schemas";
import { createRouter, merchantProcedure } from "../init";

/** The signed-in merchant's audit log (the Audit log page). */
export const auditLogRouter = createRouter({
  list: merchantProcedure("audit_log.read")
    .input(listMerchantAuditInput)
    .output(auditEntryListSchema)
    .query(({ ctx, input }) => listMerchantAuditLog({ ctx: ctx.service, input })),
});
