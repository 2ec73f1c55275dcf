import type { Actor } from "@/server/services/context";
import { insufficientScope } from "@/server/services/api-keys/restricted";
import type { AnyRoute } from "./route";

/**
 * Refuses a restricted key (`rk_…`) whose scopes do not grant the route's declared permission: 403
 * `insufficient_scope` naming it. A secret key, a dashboard user or a public route passes. One set lookup: the
 * granted permissions were computed when the key was verified (docs/team-and-security.md, "Restricted API keys";
 * its cost: bench/tools/permission-cost.ts).
 */
export function checkRouteScope(route: AnyRoute, actor: Actor): void {
  if (route.auth === "api_key" && actor.type === "api_key" && actor.restrictedTo && !actor.restrictedTo.has(route.permission)) {
    throw insufficientScope(route.permission);
  }
}
