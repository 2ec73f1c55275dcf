import { requireMerchantId, requireSettingsWriter, type ServiceContext } from "../context";
import { ServiceError } from "../errors";

/**
 * Publishing and revoking change what the world trusts as the merchant's keys: only the merchant (API key or
 * dashboard login) or the system may do it, and an sk_test_ key may not. Support staff see a merchant read-only (docs/api-contract.md, "Who uses it").
 */
export function requireKeyOwner(ctx: ServiceContext): string {
  if (ctx.actor.type === "staff") throw new ServiceError("forbidden", "Support staff cannot change a merchant's published keys.");
  // The system acts outside any request (no writer check applies); a test key may not change them.
  return ctx.actor.type === "system" ? requireMerchantId(ctx) : requireSettingsWriter(ctx);
}
