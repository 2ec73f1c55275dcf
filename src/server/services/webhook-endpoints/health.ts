import { and, count, eq, gte, sql } from "drizzle-orm";
import { webhookDeliveries, webhookEndpoints } from "@/server/db/schema";
import { requireMerchantScope, type ServiceContext } from "../context";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Each endpoint's health for the dashboard: its deliveries of the last 24 hours by status, and since when it has
 * been failing every attempt (null when its last attempt answered). One grouped query over the merchant's index.
 */
export async function endpointHealth({ ctx }: { ctx: ServiceContext }) {
  const { merchantId, livemode } = requireMerchantScope(ctx);
  const since = new Date(ctx.now().getTime() - DAY_MS);
  const [endpoints, counts] = await Promise.all([
    ctx.db
      .select({ id: webhookEndpoints.id, failingSince: webhookEndpoints.failingSince })
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.merchantId, merchantId), eq(webhookEndpoints.livemode, livemode))),
    ctx.db
      .select({ endpointId: webhookDeliveries.endpointId, status: webhookDeliveries.status, n: count() })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.merchantId, merchantId), eq(webhookDeliveries.livemode, livemode), gte(webhookDeliveries.createdAt, since)))
      .groupBy(webhookDeliveries.endpointId, webhookDeliveries.status)
      .orderBy(sql`1`),
  ]);
  return endpoints.map((endpoint) => {
    const of = (status: string) => counts.find((row) => row.endpointId === endpoint.id && row.status === status)?.n ?? 0;
    return {
      endpointId: endpoint.id,
      failingSince: endpoint.failingSince,
      last24h: { delivered: of("delivered"), failed: of("failed"), pending: of("pending") + of("delivering") },
    };
  });
}
