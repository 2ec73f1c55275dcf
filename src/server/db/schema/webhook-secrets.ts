import { index, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, timestamptz } from "./columns";
import { merchants } from "./merchants";

/**
 * Webhook signing secrets (`whsec_…`). They must be read back to sign, so they are kept encrypted
 * (AES-256-GCM, key derived from AUTH_SECRET) rather than hashed. The current secret has no `expiresAt`;
 * after a rotation the previous one signs too until its `expiresAt` (24 h).
 */
export const webhookSecrets = pgTable(
  "webhook_secrets",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    secretCiphertext: text("secret_ciphertext").notNull(),
    expiresAt: timestamptz("expires_at"),
    createdAt: createdAt(),
  },
  (table) => [index("webhook_secrets_merchant_idx").on(table.merchantId, table.createdAt)],
);

export type WebhookSecretRow = typeof webhookSecrets.$inferSelect;
