import { and, eq, isNull } from "drizzle-orm";
import { apiKeys } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { verifiedKeys } from "./verified-key-cache";
import { recordAudit } from "../audit/record";
import { inTransaction, requireMerchantWriter, type ServiceContext } from "../context";
import { validateInput } from "../validate";
import { apiKeyIdInput, toApiKey } from "./schemas";
import { getApiKeyForMerchant } from "./get";
import { refuseRestrictedKey } from "./restricted";

/**
 * Revokes one of the merchant's keys at once (also a rolled key still in its overlap). Revoking a revoked
 * key changes nothing and answers the key as it is. Other processes notice within the key cache's TTL.
 */
export async function revokeApiKey({ ctx, input }: { ctx: ServiceContext; input: { id: string } }) {
  const merchantId = requireMerchantWriter(ctx);
  refuseRestrictedKey(ctx);
  const { id } = validateInput(apiKeyIdInput, input);
  const now = ctx.now();
  const row = await withTransaction(ctx.db, async (tx) => {
    const [revoked] = await tx
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(and(eq(apiKeys.id, id), eq(apiKeys.merchantId, merchantId), isNull(apiKeys.revokedAt)))
      .returning();
    if (!revoked) return getApiKeyForMerchant(tx, merchantId, id);
    await recordAudit({
      ctx: inTransaction(ctx, tx),
      input: { action: "api_key.revoked", targetType: "api_key", targetId: id, merchantId },
    });
    return revoked;
  });
  verifiedKeys.forgetKey(id);
  return toApiKey(row, now);
}
