import { apiKeys } from "@/server/db/schema";
import { apiKeyDigest, apiKeyHint, generateApiKey } from "@/server/auth/api-key-format";
import { newId } from "@/lib/ids";
import { requireMerchantId, type ServiceContext } from "../context";
import { toApiKey } from "./schemas";

/** Creates an API key for the context's merchant; the plaintext `key` is returned this once only. */
export async function createApiKey({ ctx, input }: { ctx: ServiceContext; input: { name?: string | null } }) {
  const merchantId = requireMerchantId(ctx);
  const key = generateApiKey();
  const [row] = await ctx.db
    .insert(apiKeys)
    .values({
      id: newId("apiKey"),
      merchantId,
      name: input.name ?? null,
      digest: apiKeyDigest(key),
      hint: apiKeyHint(key),
      createdAt: ctx.now(),
    })
    .returning();
  return { apiKey: toApiKey(row!), key };
}
