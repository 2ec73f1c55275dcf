import { and, eq } from "drizzle-orm";
import { apiKeys } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { verifiedKeys } from "./verified-key-cache";
import { recordAudit } from "../audit/record";
import { inTransaction, requireMerchantWriter, type ServiceContext } from "../context";
import { validateInput } from "../validate";
import { ServiceError } from "../errors";
import { createApiKey } from "./create";
import { getApiKeyForMerchant } from "./get";
import { rollApiKeyInput, toApiKey, type RollApiKeyInput } from "./schemas";
import { refuseRestrictedKey } from "./restricted";

/**
 * Replaces a key with a new one (same name and mode). The old key keeps working for `overlapSeconds` (≤ 24 h,
 * 0 = stops now) so the merchant can deploy the new one without downtime. The new key's plaintext is
 * returned this once. A restricted key's successor has its scopes.
 */
export async function rollApiKey({ ctx, input }: { ctx: ServiceContext; input: RollApiKeyInput }) {
  const merchantId = requireMerchantWriter(ctx);
  refuseRestrictedKey(ctx);
  const { id, overlapSeconds } = validateInput(rollApiKeyInput, input);
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + overlapSeconds * 1000);
  const result = await withTransaction(ctx.db, async (tx) => {
    const txCtx = inTransaction(ctx, tx);
    const old = await getApiKeyForMerchant(tx, merchantId, id, { forUpdate: true });
    // Rolling a rolled key again would let a leaked key outlive the 24 h cap; revoked keys stay dead.
    if (old.revokedAt || old.expiresAt) {
      throw new ServiceError("api_key_inactive", "This key is revoked or already rolled. Roll or create an active key.");
    }
    const [expiring] = await tx
      .update(apiKeys)
      .set({ expiresAt })
      .where(and(eq(apiKeys.id, id), eq(apiKeys.merchantId, merchantId)))
      .returning();
    // After the update: the old key no longer counts towards the cap on active keys.
    const created = await createApiKey({ ctx: txCtx, input: { name: old.name, mode: old.livemode ? "live" : "test", scopes: old.scopes ?? undefined } });
    await recordAudit({
      ctx: txCtx,
      input: {
        action: "api_key.rolled",
        targetType: "api_key",
        targetId: id,
        merchantId,
        details: { newKeyId: created.apiKey.id, overlapSeconds, expiresAt: expiresAt.toISOString() },
      },
    });
    return { previous: toApiKey(expiring!, now), apiKey: created.apiKey, key: created.key };
  });
  verifiedKeys.forgetKey(id);
  return result;
}
