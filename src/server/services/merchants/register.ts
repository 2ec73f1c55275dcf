import { eventTypes, memberships, merchants, users } from "@/server/db/schema";
import { isUniqueViolation } from "@/server/db/errors";
import { withTransaction } from "@/server/db/transaction";
import { hashPassword } from "@/server/crypto/passwords";
import { newId } from "@/lib/ids";
import { recordAudit } from "../audit/record";
import { inTransaction, type ServiceContext } from "../context";
import { validateInput } from "../validate";
import { ServiceError } from "../errors";
import { createApiKey } from "../api-keys/create";
import { createWebhookSecret } from "../webhook-secrets/create";
import { createDefaultEndpoint } from "../webhook-endpoints/default";
import { registerMerchantInput, toMerchant, type RegisterMerchantInput } from "./schemas";
import { assertUsableWebhookUrl } from "./webhook-url";

/**
 * Creates a merchant, its dashboard login, its first API key and its webhook signing secret, in one
 * transaction. The key and the secret are returned in plaintext this once.
 */
export async function registerMerchant({ ctx, input }: { ctx: ServiceContext; input: RegisterMerchantInput }) {
  const data = validateInput(registerMerchantInput, input);
  if (data.webhookUrl) await assertUsableWebhookUrl(ctx, data.webhookUrl);
  // Hash outside the transaction: argon2 is deliberately slow and must not hold a connection.
  const passwordHash = await hashPassword(data.password);
  const merchantId = newId("merchant");
  const now = ctx.now();
  try {
    return await withTransaction(ctx.db, async (tx) => {
      const txCtx = inTransaction({ ...ctx, actor: { type: "system", merchantId } }, tx);
      const [row] = await tx
        .insert(merchants)
        .values({
          id: merchantId,
          name: data.name,
          email: data.email,
          website: data.website ?? null,
          webhookUrl: data.webhookUrl ?? null,
          webhookEvents: [...eventTypes],
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      const userId = newId("user");
      await tx.insert(users).values({
        id: userId,
        email: data.email,
        passwordHash,
        role: "merchant",
        merchantId,
        name: data.name,
        createdAt: now,
        updatedAt: now,
      });
      // Whoever registers a merchant is its first owner (docs/team-and-security.md, "Roles").
      await tx.insert(memberships).values({ merchantId, userId, role: "owner", createdAt: now, updatedAt: now });
      const apiKey = await createApiKey({ ctx: txCtx, input: { name: "Default key" } });
      // The profile's webhook settings are the default endpoint, and the secret returned here is its secret.
      const endpoint = await createDefaultEndpoint(tx, { merchantId, url: row!.webhookUrl, eventTypes, now });
      const webhookSecret = await createWebhookSecret({ ctx: txCtx, input: { endpointId: endpoint.id } });
      await recordAudit({
        ctx: { ...ctx, db: tx },
        input: { action: "merchant.registered", targetType: "merchant", targetId: merchantId, merchantId },
      });
      return { merchant: toMerchant(row!), apiKey: apiKey.key, webhookSecret };
    });
  } catch (error) {
    // Same answer whether the email belongs to a merchant or to a staff login: reveal no more than needed.
    if (isUniqueViolation(error)) {
      throw new ServiceError("email_taken", "An account with this email already exists. Sign in instead.");
    }
    throw error;
  }
}
