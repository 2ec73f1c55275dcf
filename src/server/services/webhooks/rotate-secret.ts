import { and, eq, gt, isNull } from "drizzle-orm";
import { merchants, webhookSecrets } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { PREVIOUS_SECRET_TTL_MS } from "@/server/webhooks/secrets";
import { recordAudit } from "../audit/record";
import { inTransaction, requireMerchantId, type ServiceContext } from "../context";
import { createWebhookSecret } from "../webhook-secrets/create";

/**
 * Replaces the merchant's signing secret. The old one keeps signing (deliveries carry both signatures)
 * for 24 h so the merchant can deploy the new one without dropping a webhook; a secret older than that
 * stops at once. Returns the new secret in plaintext, this once.
 */
export async function rotateWebhookSecret({ ctx }: { ctx: ServiceContext }) {
  const merchantId = requireMerchantId(ctx);
  const now = ctx.now();
  const previousExpiresAt = new Date(now.getTime() + PREVIOUS_SECRET_TTL_MS);
  return withTransaction(ctx.db, async (tx) => {
    // Serialises concurrent rotations of one merchant: each sees the other's result.
    await tx.select({ id: merchants.id }).from(merchants).where(eq(merchants.id, merchantId)).for("update");
    // At most one previous secret: one still inside its window from an earlier rotation ends now.
    await tx
      .update(webhookSecrets)
      .set({ expiresAt: now })
      .where(and(eq(webhookSecrets.merchantId, merchantId), gt(webhookSecrets.expiresAt, now)));
    await tx
      .update(webhookSecrets)
      .set({ expiresAt: previousExpiresAt })
      .where(and(eq(webhookSecrets.merchantId, merchantId), isNull(webhookSecrets.expiresAt)));
    const txCtx = inTransaction(ctx, tx);
    const webhookSecret = await createWebhookSecret({ ctx: txCtx });
    await recordAudit({
      ctx: txCtx,
      input: { action: "webhook_secret.rotated", targetType: "merchant", targetId: merchantId, merchantId },
    });
    return { webhookSecret, previousSecretExpiresAt: previousExpiresAt };
  });
}
