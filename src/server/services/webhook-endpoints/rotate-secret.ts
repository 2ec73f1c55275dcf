import { withTransaction } from "@/server/db/transaction";
import { recordAudit } from "../audit/record";
import { inTransaction, livemodeOf, requireMerchantWriter, type ServiceContext } from "../context";
import { rotateEndpointSecret } from "../webhook-secrets/rotate";
import { getEndpointForMerchant } from "./fetch";

/** A new signing secret for one endpoint, shown this once; the previous one keeps signing for 24 h. */
export async function rotateEndpointSecretOf({ ctx, input }: { ctx: ServiceContext; input: { id: string } }) {
  const merchantId = requireMerchantWriter(ctx);
  const livemode = livemodeOf(ctx);
  return withTransaction(ctx.db, async (tx) => {
    const endpoint = await getEndpointForMerchant(tx, { merchantId, livemode }, input.id, { forUpdate: true });
    const rotated = await rotateEndpointSecret(ctx, tx, endpoint.id);
    await recordAudit({
      ctx: inTransaction(ctx, tx),
      input: { action: "webhook_secret.rotated", targetType: "webhook_endpoint", targetId: endpoint.id, merchantId },
    });
    return rotated;
  });
}
