import { loadSigningSecrets } from "@/server/webhooks/secrets";
import { verifySignature } from "@/server/webhooks/signing";
import { requireMerchantId, type ServiceContext } from "../context";
import { validateInput } from "../validate";
import { verifyWebhookInput, type VerifyWebhookInput } from "./schemas";

/**
 * Checks a webhook the merchant received against its current and previous secrets: headers well formed,
 * timestamp within ±5 min, signature matching (constant-time). Answers why not rather than throwing:
 * an invalid signature is a result, not an error.
 */
export async function verifyWebhook({ ctx, input }: { ctx: ServiceContext; input: VerifyWebhookInput }) {
  const merchantId = requireMerchantId(ctx);
  const { payload, headers } = validateInput(verifyWebhookInput, input, "body");
  const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  const now = ctx.now();
  const secrets = await loadSigningSecrets(ctx.db, { merchantId, now, authSecret: ctx.env.AUTH_SECRET });
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
