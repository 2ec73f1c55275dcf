import { and, eq, gt, isNull } from "drizzle-orm";
import { webhookSecrets } from "@/server/db/schema";
import type { Transaction } from "@/server/db/types";
import { PREVIOUS_SECRET_TTL_MS } from "@/server/webhooks/secrets";
import { inTransaction, type ServiceContext } from "../context";
import { createWebhookSecret } from "./create";

/**
 * Replaces an endpoint's signing secret; call it holding the endpoint's row lock (concurrent rotations then see
 * each other's result). The old secret keeps signing (deliveries carry both signatures) for 24 h so the merchant
 * can deploy the new one without dropping a webhook; a previous secret still inside its window ends at once: at
 * most one previous secret. Returns the new secret in plaintext, this once.
 */
export async function rotateEndpointSecret(ctx: ServiceContext, tx: Transaction, endpointId: string) {
  const now = ctx.now();
  const previousExpiresAt = new Date(now.getTime() + PREVIOUS_SECRET_TTL_MS);
  await tx
    .update(webhookSecrets)
    .set({ expiresAt: now })
    .where(and(eq(webhookSecrets.endpointId, endpointId), gt(webhookSecrets.expiresAt, now)));
  await tx
    .update(webhookSecrets)
    .set({ expiresAt: previousExpiresAt })
    .where(and(eq(webhookSecrets.endpointId, endpointId), isNull(webhookSecrets.expiresAt)));
  const secret = await createWebhookSecret({ ctx: inTransaction(ctx, tx), input: { endpointId } });
  return { secret, previousSecretExpiresAt: previousExpiresAt };
}
