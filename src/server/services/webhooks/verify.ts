import { eq } from "drizzle-orm";
import { webhookEndpoints } from "@/server/db/schema";
import { loadSigningSecretsOf } from "@/server/webhooks/secrets";
import { verifySignature } from "@/server/webhooks/signing";
import { requireMerchantId, type ServiceContext } from "../context";
import { validateInput } from "../validate";
import { verifyWebhookInput, type VerifyWebhookInput } from "./schemas";

/**
 * Checks a webhook the merchant received against the current and previous secrets of each of its endpoints
 * (a receiver may be any of them): headers well formed,
 * timestamp within ±5 min, signature matching (constant-time). Answers why not rather than throwing:
 * an invalid signature is a result, not an error.
 */
export async function verifyWebhook({ ctx, input }: { ctx: ServiceContext; input: VerifyWebhookInput }) {
  const merchantId = requireMerchantId(ctx);
  const { payload, headers } = validateInput(verifyWebhookInput, input, "body");
  const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  const now = ctx.now();
  const endpoints = await ctx.db.select({ id: webhookEndpoints.id }).from(webhookEndpoints).where(eq(webhookEndpoints.merchantId, merchantId));
  const byEndpoint = await loadSigningSecretsOf(ctx.db, { endpointIds: endpoints.map((endpoint) => endpoint.id), now, authSecret: ctx.env.AUTH_SECRET });
  const secrets = [...byEndpoint.values()].flat();
  const result = verifySignature({
    payload,
    headers: { id: lower["webhook-id"], timestamp: lower["webhook-timestamp"], signature: lower["webhook-signature"] },
    secrets,
    now,
  });
  return {
    valid: result.valid,
    reason: result.reason,
    eventId: result.eventId,
    timestamp: result.timestamp,
  };
}
