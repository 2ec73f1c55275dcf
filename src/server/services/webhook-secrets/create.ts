import { randomBytes } from "node:crypto";
import { webhookSecrets } from "@/server/db/schema";
import { sealSecret, WEBHOOK_SECRET_PURPOSE } from "@/server/crypto/secret-box";
import { newId } from "@/lib/ids";
import { requireMerchantId, type ServiceContext } from "../context";

/** `whsec_` + base64 of 32 random bytes: the Standard Webhooks secret format. */
export function generateWebhookSecret(): string {
  return "whsec_" + randomBytes(32).toString("base64");
}

/** Creates the merchant's current signing secret (stored sealed) and returns its plaintext. */
export async function createWebhookSecret({ ctx }: { ctx: ServiceContext }): Promise<string> {
  const merchantId = requireMerchantId(ctx);
  const secret = generateWebhookSecret();
  await ctx.db.insert(webhookSecrets).values({
    id: newId("webhookSecret"),
    merchantId,
    secretCiphertext: sealSecret(ctx.env.AUTH_SECRET, WEBHOOK_SECRET_PURPOSE, secret),
    createdAt: ctx.now(),
  });
  return secret;
}
