import { and, eq, gte, like, lt, type SQL } from "drizzle-orm";
import { afterPosition, keysetTimestamp, newestFirst } from "@/server/db/keyset";
import { auditLog } from "@/server/db/schema";
import { requireMerchantId, type ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { byCursorAt, decodeCursor, toPage } from "../pagination";
import { validateInput } from "../validate";
import { AUDIT_ACTOR_TYPES, listMerchantAuditInput, toAuditEntry, type ListMerchantAuditInput } from "./schemas";

/**
 * The merchant's own audit log, newest first, keyset-paginated on (created_at, id) (`audit_log_merchant_created_idx`):
 * the dashboard's Audit log page and `GET audit-log`. Both modes' changes: the log is the account's, not a mode's.
 * Only the context's merchant's entries, whatever the filters say.
 */
export async function listMerchantAuditLog({ ctx, input }: { ctx: ServiceContext; input: ListMerchantAuditInput }) {
  const merchantId = requireMerchantId(ctx);
  // The log holds the team's addresses and every settings change: a test key (often kept in CI) does not read it.
  if (ctx.actor.type === "api_key" && !ctx.actor.livemode) {
    throw new ServiceError("forbidden", "A test key cannot read your account's audit log; use a live key or the dashboard.");
  }
  const { limit, cursor, actor, action, since, until } = validateInput(listMerchantAuditInput, input, "query");
  const scope = `audit-log:${merchantId}`;
  const position = decodeCursor(ctx, scope, cursor);
  const conditions: (SQL | undefined)[] = [
    eq(auditLog.merchantId, merchantId),
    actor === undefined ? undefined : (AUDIT_ACTOR_TYPES as readonly string[]).includes(actor) ? eq(auditLog.actorType, actor as (typeof AUDIT_ACTOR_TYPES)[number]) : eq(auditLog.actorId, actor),
    action === undefined ? undefined : action.endsWith(".*") ? like(auditLog.action, `${action.slice(0, -1).replaceAll("_", "\\_")}%`) : eq(auditLog.action, action),
    since ? gte(auditLog.createdAt, new Date(since)) : undefined,
    until ? lt(auditLog.createdAt, new Date(until)) : undefined,
    position ? afterPosition(auditLog.createdAt, auditLog.id, position) : undefined,
  ];
  const rows = await ctx.reader
    .select({ entry: auditLog, cursorAt: keysetTimestamp(auditLog.createdAt) })
    .from(auditLog)
    .where(and(...conditions))
    .orderBy(...newestFirst(auditLog.createdAt, auditLog.id))
    .limit(limit + 1);
  return toPage(
    ctx,
    scope,
    rows.map((row) => ({ ...row, id: row.entry.id })),
    limit,
    (row) => toAuditEntry(row.entry),
    byCursorAt,
  );
}
