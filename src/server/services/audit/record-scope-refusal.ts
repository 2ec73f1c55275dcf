import { appendAuditRowUnlessRecent } from "@/server/db/sql/staff-reads";
import { withTransaction } from "@/server/db/transaction";
import type { ServiceContext } from "../context";
import { auditRowOf } from "./record";

/** How long one audit row stands for a restricted key's repeated refusals for the same permission. */
export const SCOPE_REFUSAL_AUDIT_WINDOW_MS = 15 * 60 * 1000;

export const SCOPE_REFUSAL_ACTION = "api_key.scope_refused";

/**
 * Audits a restricted key (`rk_…`) refused for lacking `permission` (403 `insufficient_scope`), in its merchant's
 * log: the key is the actor, the permission the target, the request's method and route and the key's mode the
 * details. At most one row per key and permission within SCOPE_REFUSAL_AUDIT_WINDOW_MS, across processes (a key
 * retrying in a loop must not flood the log or the database): the first refusal of a window is written, the rest
 * are in the request log only. Never throws: a refusal is answered whether or not its audit row could be written.
 * Returns `written`, `recent` (a row of the window already stands for it) or `failed` (logged). docs/team-and-security.md.
 */
export async function recordScopeRefusal({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { permission: string; method: string; route: string };
}): Promise<"written" | "recent" | "failed"> {
  const { actor } = ctx;
  if (actor.type !== "api_key" || !actor.restrictedTo) return "recent";
  const now = ctx.now();
  const row = {
    ...auditRowOf(ctx, {
      action: SCOPE_REFUSAL_ACTION,
      targetType: "permission",
      targetId: input.permission,
      merchantId: actor.merchantId,
      details: { method: input.method, route: input.route, livemode: actor.livemode },
    }),
    actorId: actor.keyId,
    since: new Date(now.getTime() - SCOPE_REFUSAL_AUDIT_WINDOW_MS),
  };
  try {
    return (await withTransaction(ctx.db, (tx) => appendAuditRowUnlessRecent(tx, row, "scope-refusal"))) ? "written" : "recent";
  } catch (error) {
    ctx.log.warn({ err: error, requestId: ctx.requestId, keyId: actor.keyId, permission: input.permission }, "could not audit a restricted key's refusal");
    return "failed";
  }
}
