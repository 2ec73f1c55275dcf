import { and, eq } from "drizzle-orm";
import { webhookEndpoints } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { recordAudit } from "../audit/record";
import { inTransaction, livemodeOf, requireMerchantWriter, type ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { getEndpointForMerchant } from "./fetch";

/**
 * Deletes an endpoint with its secrets and its deliveries (their history goes with it; the events stay in the
 * event log). The default endpoint is the profile's webhook settings and cannot be deleted (409
 * `default_endpoint`): clear its URL in the profile, or disable it.
 */
export async function deleteEndpoint({ ctx, input }: { ctx: ServiceContext; input: { id: string } }) {
  const merchantId = requireMerchantWriter(ctx);
  const livemode = livemodeOf(ctx);
  await withTransaction(ctx.db, async (tx) => {
    const endpoint = await getEndpointForMerchant(tx, { merchantId, livemode }, input.id, { forUpdate: true });
    if (endpoint.isDefault) {
      throw new ServiceError("default_endpoint", "The default endpoint cannot be deleted: remove its URL in the profile, or disable it.");
    }
    await tx.delete(webhookEndpoints).where(and(eq(webhookEndpoints.id, endpoint.id), eq(webhookEndpoints.merchantId, merchantId)));
    await recordAudit({
      ctx: inTransaction(ctx, tx),
      input: { action: "webhook_endpoint.deleted", targetType: "webhook_endpoint", targetId: endpoint.id, merchantId },
    });
  });
}
