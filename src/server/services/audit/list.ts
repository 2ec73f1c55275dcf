import { and, desc, eq, getTableColumns, type SQL } from "drizzle-orm";
import { z } from "zod";
import { afterPosition, keysetTimestamp } from "@/server/db/keyset";
import { auditLog, type AuditLogRow } from "@/server/db/schema";
import { requireStaff, type ServiceContext } from "../context";
import { byCursorAt, decodeCursor, pageQuery, toPage } from "../pagination";
import { validateInput } from "../validate";

export const listAuditLogInput = z.strictObject({
  ...pageQuery,
  limit: pageQuery.limit.default(50),
  merchantId: z.string().min(1).max(64).optional(),
  action: z.string().min(1).max(100).optional(),
  actorId: z.string().min(1).max(64).optional(),
});
export type ListAuditLogInput = z.input<typeof listAuditLogInput>;

export type AuditEntryView = AuditLogRow;

/**
 * The audit log, newest first, for support staff only; filterable by merchant, action and actor.
 * Keyset-paginated on (created_at, id) with the shared signed cursors.
 */
export async function listAuditLog({ ctx, input }: { ctx: ServiceContext; input: ListAuditLogInput }) {
  const staff = requireStaff(ctx);
  const query = validateInput(listAuditLogInput, input);
  // Cursors are bound to the staff member's view of the log and its filters' list.
  const scope = `audit:${staff.userId}`;
  const position = decodeCursor(ctx, scope, query.cursor);
  const conditions: (SQL | undefined)[] = [
    query.merchantId ? eq(auditLog.merchantId, query.merchantId) : undefined,
    query.action ? eq(auditLog.action, query.action) : undefined,
    query.actorId ? eq(auditLog.actorId, query.actorId) : undefined,
    position ? afterPosition(auditLog.createdAt, auditLog.id, position) : undefined,
  ];
  const rows = await ctx.reader
    .select({ ...getTableColumns(auditLog), cursorAt: keysetTimestamp(auditLog.createdAt) })
    .from(auditLog)
    .where(and(...conditions))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(query.limit + 1);
  return toPage(ctx, scope, rows, query.limit, ({ cursorAt: _cursorAt, ...entry }): AuditEntryView => entry, byCursorAt);
}
