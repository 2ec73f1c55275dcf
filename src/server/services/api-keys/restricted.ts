import type { ServiceContext } from "../context";
import { ServiceError } from "../errors";

/**
 * 403 `insufficient_scope`: a restricted key (`rk_…`) asked for what its scopes do not grant. The problem names the
 * permission it would need (`permission` member, docs/errors.md) so the developer knows which scope to add.
 */
export function insufficientScope(permission: string): ServiceError {
  return new ServiceError("insufficient_scope", `This restricted key lacks the \`${permission}\` permission: make a key with that scope.`, {
    members: { permission },
  });
}

/** True when the context acts with a restricted key that lacks `permission` (a secret key or a user lacks nothing here). */
export function restrictedKeyLacks(ctx: ServiceContext, permission: string): boolean {
  return ctx.actor.type === "api_key" && ctx.actor.restrictedTo !== undefined && !ctx.actor.restrictedTo.has(permission);
}

/**
 * A restricted key never creates, rolls or revokes keys (`api_keys` is no resource it can be scoped to): the REST
 * route refuses it first, and the verbs refuse it again so no other caller can get round that.
 */
export function refuseRestrictedKey(ctx: ServiceContext): void {
  if (restrictedKeyLacks(ctx, "api_keys.write")) throw insufficientScope("api_keys.write");
}
