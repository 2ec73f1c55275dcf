import { foreignKey, index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { createdAt, timestamptz } from "./columns";
import { merchants } from "./merchants";
import { webhookEndpoints } from "./webhook-endpoints";

/**
 * Webhook signing secrets (`whsec_…`). They must be read back to sign, so they are kept encrypted
 * (AES-256-GCM, key derived from AUTH_SECRET) rather than hashed. Each belongs to one endpoint (the registration
 * secret to the merchant's default endpoint). An endpoint's current secret has no `expiresAt`; after a rotation
 * the previous one signs too until its `expiresAt` (24 h).
 */
export const webhookSecrets = pgTable(
  "webhook_secrets",
  {
    id: text("id").notNull(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    endpointId: text("endpoint_id").notNull(),
    secretCiphertext: text("secret_ciphertext").notNull(),
    expiresAt: timestamptz("expires_at"),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.merchantId, table.id] }),
    // The endpoint is the same merchant's: the key carries the merchant on both sides.
    foreignKey({ name: "webhook_secrets_endpoint_fk", columns: [table.merchantId, table.endpointId], foreignColumns: [webhookEndpoints.merchantId, webhookEndpoints.id] }).onDelete("cascade"),
    index("webhook_secrets_merchant_idx").on(table.merchantId, table.createdAt),
    index("webhook_secrets_endpoint_idx").on(table.endpointId, table.createdAt),
  ],
);

export type WebhookSecretRow = typeof webhookSecrets.$inferSelect;
