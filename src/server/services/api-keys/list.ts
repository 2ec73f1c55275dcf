import { and, desc, eq, lt } from "drizzle-orm";
import { apiKeys } from "@/server/db/schema";
import { isId } from "@/lib/ids";
import { requireMerchantId, type ServiceContext } from "../context";
import { validateInput } from "../validate";
import { ServiceError } from "../errors";
import { listApiKeysInput, toApiKey, type ListApiKeysInput } from "./schemas";

/**
 * The merchant's API keys (revoked and expired ones too, for the record), newest first. Key ids are
 * ULIDs, so keyset paging on the id alone is paging by creation order; the cursor is the last id seen.
 */
export async function listApiKeys({ ctx, input }: { ctx: ServiceContext; input: ListApiKeysInput }) {
  const merchantId = requireMerchantId(ctx);
  const { limit, cursor } = validateInput(listApiKeysInput, input);
  if (cursor !== undefined && !isId("apiKey", cursor)) {
    throw new ServiceError("invalid_cursor", "The cursor is not one this list returned.");
  }
  const rows = await ctx.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.merchantId, merchantId), cursor ? lt(apiKeys.id, cursor) : undefined))
    .orderBy(desc(apiKeys.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  const now = ctx.now();
  return {
    data: page.map((row) => toApiKey(row, now)),
    hasMore,
    nextCursor: hasMore ? page[page.length - 1]!.id : null,
  };
}
