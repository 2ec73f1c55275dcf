import { and, asc, eq } from "drizzle-orm";
import { webhookEndpoints } from "@/server/db/schema";
import { requireMerchantScope, type ServiceContext } from "../context";
import { getEndpointForMerchant } from "./fetch";
import { MAX_ENDPOINTS_PER_MERCHANT } from "./limits";
import { toEndpoint } from "./schemas";

/**
 * The merchant's endpoints of the caller's mode (docs/test-mode.md), oldest (the default one) first. At most 16 exist, so the list is one page: it has
 * the list shape of every other list, with `hasMore` always false.
 */
export async function listEndpoints({ ctx }: { ctx: ServiceContext }) {
  const { merchantId, livemode } = requireMerchantScope(ctx);
  const rows = await ctx.db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.merchantId, merchantId), eq(webhookEndpoints.livemode, livemode)))
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id))
    .limit(MAX_ENDPOINTS_PER_MERCHANT);
  return { data: rows.map(toEndpoint), hasMore: false, nextCursor: null };
}

export async function getEndpoint({ ctx, input }: { ctx: ServiceContext; input: { id: string } }) {
  return toEndpoint(await getEndpointForMerchant(ctx.db, requireMerchantScope(ctx), input.id));
}
