import { withTransaction } from "@/server/db/transaction";
import { recordAudit } from "../audit/record";
import { inTransaction, requireMerchantId, type ServiceContext } from "../context";
import { getDefaultEndpoint } from "../webhook-endpoints/fetch";
import { rotateEndpointSecret } from "../webhook-secrets/rotate";

/**
 * Replaces the merchant's signing secret: the default endpoint's (webhook-secrets/rotate.ts has the overlap
 * rule). Returns the new secret in plaintext, this once.
 */
export async function rotateWebhookSecret({ ctx }: { ctx: ServiceContext }) {
  const merchantId = requireMerchantId(ctx);
  return withTransaction(ctx.db, async (tx) => {
    const endpoint = await getDefaultEndpoint(tx, merchantId, { forUpdate: true });
    const { secret, previousSecretExpiresAt } = await rotateEndpointSecret(ctx, tx, endpoint.id);
    await recordAudit({
      ctx: inTransaction(ctx, tx),
      input: { action: "webhook_secret.rotated", targetType: "merchant", targetId: merchantId, merchantId },
    });
    return { webhookSecret: secret, previousSecretExpiresAt };
  });
}
