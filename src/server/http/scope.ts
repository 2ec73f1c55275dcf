import type { Runtime } from "@/server/runtime";
import type { Actor, ServiceContext } from "@/server/services/context";
import { insufficientScope } from "@/server/services/api-keys/restricted";
import { recordScopeRefusal, SCOPE_REFUSAL_AUDIT_WINDOW_MS } from "@/server/services/audit/record-scope-refusal";
import type { AnyRoute } from "./route";
import { processWide } from "@/server/process-wide";

/**
 * The permission a restricted key (`rk_…`) lacks for the route, or null when it may go on. A secret key, a dashboard
 * user or a public route lacks nothing. One set lookup: the granted permissions were computed when the key was
 * verified (docs/team-and-security.md, "Restricted API keys"; its cost: bench/tools/permission-cost.ts). Given the
 * parsed body, also the permission the body needs (`alsoNeeds`).
 */
export function lackedPermission(route: AnyRoute, actor: Actor, body?: unknown): string | null {
  if (route.auth !== "api_key" || actor.type !== "api_key" || !actor.restrictedTo) return null;
  if (!actor.restrictedTo.has(route.permission)) return route.permission;
  const extra = route.alsoNeeds;
  return body !== undefined && extra?.when(body) && !actor.restrictedTo.has(extra.permission) ? extra.permission : null;
}

/** Refuses a restricted key whose scopes do not grant the route's declared permission: 403 `insufficient_scope` naming it. */
export function checkRouteScope(route: AnyRoute, actor: Actor): void {
  const lacked = lackedPermission(route, actor);
  if (lacked) throw insufficientScope(lacked);
}

/** When each key and permission's refusal was last sent to the audit log, per process (and runtime). */
const audited = processWide("scopeRefusalsAudited", () => new WeakMap<Runtime, Map<string, number>>());
/** Past this many remembered pairs the memory starts again (the database's own check still holds). */
const MAX_REMEMBERED = 10_000;

/**
 * Refuses a restricted key outside its scopes (403 `insufficient_scope`), after auditing the refusal in its
 * merchant's log (services/audit/record-scope-refusal.ts: one row per key and permission per 15 minutes across
 * processes). Within that window a process remembers it has audited the pair and asks the database nothing more, so
 * a key refused in a loop costs one set lookup per request, as before. The audit write never changes the answer: if
 * it fails, the refusal is still refused (and the pair is not remembered, so the next refusal tries again).
 */
export async function refuseOutsideScope(runtime: Runtime, ctx: ServiceContext, route: AnyRoute, method: string, body?: unknown): Promise<void> {
  const lacked = lackedPermission(route, ctx.actor, body);
  if (!lacked || ctx.actor.type !== "api_key") return;
  let remembered = audited.get(runtime);
  if (!remembered) audited.set(runtime, (remembered = new Map()));
  const pair = `${ctx.actor.keyId}\u0000${lacked}`;
  const now = ctx.now().getTime();
  const last = remembered.get(pair);
  if (last === undefined || now - last >= SCOPE_REFUSAL_AUDIT_WINDOW_MS) {
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    remembered.set(pair, now);
    const outcome = await recordScopeRefusal({ ctx, input: { permission: lacked, method, route: route.path } });
    if (outcome === "failed") remembered.delete(pair);
  }
  throw insufficientScope(lacked);
}
