import { loadSigningSecrets } from "@/server/webhooks/secrets";
import { recordAudit } from "../audit/record";
import { requireMerchantId, type ServiceContext } from "../context";
import { ServiceError } from "../errors";

/**
 * The merchant's current signing secret, for the dashboard's deliberate "reveal" click. Only the merchant's
 * own signed-in users may see it (not API keys, not staff); every reveal is audit-logged.
 */
export async function revealWebhookSecret({ ctx }: { ctx: ServiceContext }) {
  const merchantId = requireMerchantId(ctx);
  if (ctx.actor.type !== "user") throw new ServiceError("forbidden", "Only the merchant's own users can reveal the signing secret.");
  const [current] = await loadSigningSecrets(ctx.db, { merchantId, now: ctx.now(), authSecret: ctx.env.AUTH_SECRET });
  if (!current) throw new ServiceError("not_found", "There is no signing secret. Rotate to create one.");
  await recordAudit({
    ctx,
    input: { action: "webhook_secret.revealed", targetType: "merchant", targetId: merchantId, merchantId },
  });
  return { webhookSecret: current };
}
