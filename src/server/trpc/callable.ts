import type { AnyRouter } from "@trpc/server";
import type { Permission } from "@/server/auth/permissions";
import { permissionsHere } from "@/server/auth/view-as";
import type { ProcedureMeta, TrpcContext } from "./init";

/** Each procedure of a router by its path (`webhooks.retry`) and the permission it declares (its meta). */
export function declaredPermissions(router: AnyRouter): ReadonlyMap<string, ProcedureMeta["permission"]> {
  const procedures = router._def.procedures as Record<string, { _def: { meta?: Partial<ProcedureMeta> } }>;
  return new Map(Object.entries(procedures).map(([path, procedure]) => [path, procedure._def.meta?.permission ?? []]));
}

/**
 * What the signed-in person may use here and now: their role's row of the permission table in the dashboard's mode
 * (staff always act in live mode); while staff view as a merchant, what the view allows. Empty when signed out.
 * One answer for `account.permissions` and `access.procedures` (auth/view-as.ts decides).
 */
export function sessionPermissions(ctx: Pick<TrpcContext, "session" | "livemode" | "runtime">): Permission[] {
  return permissionsHere(ctx.session, ctx.runtime.now(), ctx.livemode);
}

/**
 * The procedures whose declared permission is among `held` (or that are public): the ones the procedure's own
 * middleware lets through (merchantProcedure, staffProcedure and selfProcedure check the same table with the same
 * mode). The client offers an action only when its procedure is here, so the UI derives from the declaration the
 * server enforces rather than from a permission name typed again in each component.
 */
export function callableProcedures(declared: ReadonlyMap<string, ProcedureMeta["permission"]>, held: readonly Permission[]): string[] {
  const holds = new Set(held);
  if (holds.size === 0) return [];
  return [...declared].filter(([, permission]) => permission === "public" || permission.some((one) => holds.has(one))).map(([path]) => path);
}
