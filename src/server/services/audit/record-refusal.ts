import { actorId as actorIdOf, type ServiceContext } from "../context";
import type { AuditEntry } from "./record";
import { AUDIT_WINDOW_MS, recordOnceAWindow } from "./record-once-a-window";

/** How long one audit row stands for the same actor's repeated refusals of the same thing. */
export const REFUSAL_AUDIT_WINDOW_MS = AUDIT_WINDOW_MS;

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
  const actorId = input.actorId ?? actorIdOf(ctx.actor);
  if (!actorId) return "recent"; // an anonymous caller: the request log and the rate limits stand for it
  try {
    return (await recordOnceAWindow(ctx, { ...input, actorId }, "refusal")) ? "written" : "recent";
  } catch (error) {
    ctx.log.warn({ err: error, requestId: ctx.requestId, action: input.action }, "could not audit a refusal");
    return "failed";
  }
}
