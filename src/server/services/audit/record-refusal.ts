import { appendAuditRowUnlessRecent } from "@/server/db/sql/staff-reads";
import { withTransaction } from "@/server/db/transaction";
import type { ServiceContext } from "../context";
import { auditRowOf, type AuditEntry } from "./record";

/** How long one audit row stands for the same actor's repeated refusals of the same thing. */
export const REFUSAL_AUDIT_WINDOW_MS = 15 * 60 * 1000;

/**
 * Audits a refusal (docs/team-and-security.md, "Refusals in the audit log"): a restricted key outside its scope, a
 * member's call their role may not make, an invitation link reused, expired or opened by someone else. Written after
 * the refused work rolled back, in a transaction of its own, and at most once per actor, merchant, action and target
 * within REFUSAL_AUDIT_WINDOW_MS across processes, so a client retrying in a loop cannot flood the log. Never throws:
 * the refusal is answered whether or not its row could be written. Returns `written`, `recent` (a row of the window
 * already stands for it) or `failed` (logged).
 */
export async function recordRefusal({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: AuditEntry & { actorId?: string };
}): Promise<"written" | "recent" | "failed"> {
  const { actorId: actorIdOverride, ...entry } = input;
  const row = auditRowOf(ctx, entry);
  const actorId = actorIdOverride ?? row.actorId;
  if (!actorId) return "recent"; // an anonymous caller: the request log and the rate limits stand for it
  try {
    const since = new Date(ctx.now().getTime() - REFUSAL_AUDIT_WINDOW_MS);
    return (await withTransaction(ctx.db, (tx) => appendAuditRowUnlessRecent(tx, { ...row, actorId, since }, "refusal"))) ? "written" : "recent";
  } catch (error) {
    ctx.log.warn({ err: error, requestId: ctx.requestId, action: entry.action }, "could not audit a refusal");
    return "failed";
  }
}
