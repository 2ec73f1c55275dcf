import { appendAuditRowUnlessRecent } from "@/server/db/sql/audit-once-a-window";
import { withTransaction } from "@/server/db/transaction";
import type { ServiceContext } from "../context";
import { auditRowOf, type AuditEntry } from "./record";

/** How long one audit row stands for the same actor's repeats of the same action on the same target. */
export const AUDIT_WINDOW_MS = 15 * 60 * 1000;

/**
 * Writes an audit entry unless the same actor's entry of the same action, target and merchant was written within
 * AUDIT_WINDOW_MS, in a transaction of its own (one row stands for repeats: staff refetching a view, a client
 * retrying a refused call in a loop; across processes, by an advisory lock on `kind` and the entry's key). Resolves
 * whether it wrote one.
 */
export async function recordOnceAWindow(ctx: ServiceContext, entry: AuditEntry & { actorId: string }, kind: string): Promise<boolean> {
  const { actorId, ...rest } = entry;
  const since = new Date(ctx.now().getTime() - AUDIT_WINDOW_MS);
  const row = { ...auditRowOf(ctx, rest), actorId, since };
  return withTransaction(ctx.db, (tx) => appendAuditRowUnlessRecent(tx, row, kind));
}
