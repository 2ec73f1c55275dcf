import { and, count, eq, isNull } from "drizzle-orm";
import { apiKeys, merchants } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { apiKeyDigest, apiKeyHint, generateApiKey } from "@/server/crypto/api-key-format";
import { newId } from "@/lib/ids";
import { recordAudit } from "../audit/record";
import { inTransaction, requireMerchantWriter, requireSettingsWriter, type ServiceContext } from "../context";
import { validateInput } from "../validate";
import { ServiceError } from "../errors";
import { createApiKeyInput, MAX_ACTIVE_API_KEYS, toApiKey, type CreateApiKeyInput } from "./schemas";
import { refuseRestrictedKey } from "./restricted";
import { storedScopes } from "@/lib/restricted-key-scopes";

/**
 * Creates an API key for the context's merchant, live or test (`mode`, docs/test-mode.md); the plaintext `key` is
 * returned this once only. A live key and the dashboard make keys of either mode; a test key makes test keys
 * only, so a leaked test key (kept in CI, on laptops) cannot be turned into a live one. With `scopes`, a restricted
 * key (`rk_live_`/`rk_test_`) that may touch those resources only; a restricted key itself makes no keys.
 */
export async function createApiKey({ ctx, input }: { ctx: ServiceContext; input: CreateApiKeyInput }) {
  const merchantId = requireMerchantWriter(ctx);
  refuseRestrictedKey(ctx);
  const data = validateInput(createApiKeyInput, input);
  if (data.mode === "live") requireSettingsWriter(ctx);
  return withTransaction(ctx.db, async (tx) => {
    // Lock the merchant row: concurrent creates queue up here, so the cap below holds.
    await tx.select({ id: merchants.id }).from(merchants).where(eq(merchants.id, merchantId)).for("update");
    const [active] = await tx
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.merchantId, merchantId), isNull(apiKeys.revokedAt), isNull(apiKeys.expiresAt)));
    if ((active?.n ?? 0) >= MAX_ACTIVE_API_KEYS) {
      throw new ServiceError("too_many_keys", `A merchant can hold ${MAX_ACTIVE_API_KEYS} active API keys. Revoke one first.`);
    }
    const livemode = data.mode === "live";
    const scopes = data.scopes ? storedScopes(data.scopes) : null;
    const key = generateApiKey(livemode, scopes !== null);
    const [row] = await tx
      .insert(apiKeys)
      .values({
        id: newId("apiKey"),
        merchantId,
        name: data.name ?? null,
        digest: apiKeyDigest(key),
        hint: apiKeyHint(key),
        livemode,
        scopes,
        createdAt: ctx.now(),
      })
      .returning();
    await recordAudit({
      ctx: inTransaction(ctx, tx),
      input: { action: "api_key.created", targetType: "api_key", targetId: row!.id, merchantId, details: { mode: data.mode, ...(scopes ? { scopes } : {}) } },
    });
    return { apiKey: toApiKey(row!, ctx.now()), key };
  });
}
