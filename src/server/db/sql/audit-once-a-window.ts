import { sql } from "drizzle-orm";
import { auditLog } from "../schema";
import type { Executor } from "../types";
import { rowsOf } from "../rows";
import { appendAuditRow, type AuditRowInput } from "./audit-chain";

/**
 * Appends an audit row unless the same actor's entry of the same action and target for the same merchant (null: of no
 * one merchant) was written since `since`: one row standing for repeated ones (staff reads; a restricted key's
 * refusals). Run in a transaction: concurrent callers (a page's parallel queries, a key retrying in a loop) take
 * turns on an advisory lock of their key, so the second one's check sees the first one's row; without it both would
 * insert.
 */
export async function appendAuditRowUnlessRecent(tx: Executor, read: AuditRowInput & { actorId: string; since: Date }, kind: string): Promise<boolean> {
  const { actorId, merchantId, action, targetId } = read;
  const since = read.since.toISOString();
  const lockKey = `${kind}:${actorId}:${merchantId ?? ""}:${action}:${targetId ?? ""}`;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${lockKey}::text, 0))`);
  const recent = rowsOf(
    await tx.execute(sql`
      select 1 from ${auditLog}
      where ${merchantId === null ? sql`merchant_id is null` : sql`merchant_id = ${merchantId}`} and created_at > ${since}::text::timestamptz
        and actor_id = ${actorId} and action = ${action} and target_id = ${targetId}
      limit 1`),
  );
  if (recent.length > 0) return false;
  const { since: _since, ...row } = read;
  await appendAuditRow(tx, row);
  return true;
}
