import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, livemode, timestamptz } from "./columns";
import { merchants } from "./merchants";

/** API keys are stored only as a SHA-256 digest (hex) plus a display hint; the plaintext is shown once. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    name: text("name"),
    digest: text("digest").notNull(),
    /** "…" + last four characters, for recognising a key in lists. */
    hint: text("hint").notNull(),
    /** `sk_test_` keys act on test data only (docs/test-mode.md). */
    livemode: livemode(),
    lastUsedAt: timestamptz("last_used_at"),
    /** Set when a key is rolled: the old key keeps working until then. */
    expiresAt: timestamptz("expires_at"),
    revokedAt: timestamptz("revoked_at"),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("api_keys_digest_key").on(table.digest),
    index("api_keys_merchant_idx").on(table.merchantId, table.createdAt),
  ],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;
