import type { ServiceContext } from "../context";
import { recordRefusal, REFUSAL_AUDIT_WINDOW_MS } from "./record-refusal";

/** How long one audit row stands for a restricted key's repeated refusals for the same permission. */
export const SCOPE_REFUSAL_AUDIT_WINDOW_MS = REFUSAL_AUDIT_WINDOW_MS;

export const SCOPE_REFUSAL_ACTION = "api_key.scope_refused";

/**
 * Audits a restricted key (`rk_…`) refused for lacking `permission` (403 `insufficient_scope`), in its merchant's
 * log: the key is the actor, the permission the target, the request's method and route and the key's mode the
 * details; at most once per key and permission a window (recordRefusal). docs/team-and-security.md.
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
  return recordRefusal({
    ctx,
    input: {
      action: SCOPE_REFUSAL_ACTION,
      targetType: "permission",
      targetId: input.permission,
      merchantId: actor.merchantId,
      details: { method: input.method, route: input.route, livemode: actor.livemode },
      actorId: actor.keyId,
    },
  });
}
