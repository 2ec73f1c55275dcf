import { recordAudit } from "../audit/record";
import { requireMerchantId, type ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { loadSigningSecrets } from "@/server/webhooks/secrets";
import { getDefaultEndpoint } from "../webhook-endpoints/fetch";

/**
 * The merchant's current signing secret (its default endpoint's) in plaintext, for the dashboard's deliberate "reveal" click.
 * Every reveal is audited (who, when), never the secret itself.
 */
export async function revealWebhookSecret({ ctx }: { ctx: ServiceContext }) {
  const merchantId = requireMerchantId(ctx);
  const endpoint = await getDefaultEndpoint(ctx.db, merchantId);
  const [current] = await loadSigningSecrets(ctx.db, { endpointId: endpoint.id, now: ctx.now(), authSecret: ctx.env.AUTH_SECRET });
  if (!current) throw new ServiceError("not_found", "This merchant has no webhook secret yet: rotate to create one.");
  await recordAudit({ ctx, input: { action: "webhook_secret.revealed", targetType: "merchant", targetId: merchantId, merchantId } });
  return { webhookSecret: current };
}
