import { webhookSecrets } from "@/server/db/schema";
import { sealSecret, WEBHOOK_SECRET_PURPOSE } from "@/server/crypto/secret-box";
import { newId } from "@/lib/ids";
import { generateWebhookSecret } from "@/server/webhooks/signing";
import { requireMerchantId, type ServiceContext } from "../context";

/** Creates an endpoint's current signing secret (stored sealed) and returns its plaintext. */
export async function createWebhookSecret({ ctx, input }: { ctx: ServiceContext; input: { endpointId: string } }): Promise<string> {
  const merchantId = requireMerchantId(ctx);
  const secret = generateWebhookSecret();
  await ctx.db.insert(webhookSecrets).values({
    id: newId("webhookSecret"),
    merchantId,
    endpointId: input.endpointId,
    secretCiphertext: sealSecret(ctx.env.AUTH_SECRET, WEBHOOK_SECRET_PURPOSE, secret),
    createdAt: ctx.now(),
  });
  return secret;
}
