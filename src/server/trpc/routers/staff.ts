import { listAuditLog, listAuditLogInput } from "@/server/services/audit/list";
import { createRouter, staffProcedure } from "../init";

/** The support console: every procedure is staff-only, and the verbs audit what staff do. */
export const staffRouter = createRouter({
  auditLog: staffProcedure.input(listAuditLogInput).query(({ ctx, input }) => listAuditLog({ ctx: ctx.service, input })),
});
