import { index, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, livemode, timestamptz } from "./columns";
import { merchants } from "./merchants";
// Relative, not `@/`: drizzle-kit loads the schema without the tsconfig paths.
import type { StoredScopes } from "../../../lib/restricted-key-scopes";

/** API keys are stored only as a SHA-256 digest (hex) plus a display hint; the plaintext is shown once. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").notNull(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    name: text("name"),
    digest: text("digest").notNull(),
    /** "…" + last four characters, for recognising a key in lists. */
    hint: text("hint").notNull(),
    /** `sk_test_` keys act on test data only (docs/test-mode.md). */
    livemode: livemode(),
    /**
     * A restricted key's (`rk_…`) scopes, per resource `read` or `write` (a resource left out is `none`); null for
     * a secret key (`sk_…`), which has full access. Fixed at creation: a roll copies them.
     */
    scopes: jsonb("scopes").$type<StoredScopes>(),
    lastUsedAt: timestamptz("last_used_at"),
    /** Set when a key is rolled: the old key keeps working until then. */
    expiresAt: timestamptz("expires_at"),
    revokedAt: timestamptz("revoked_at"),
    createdAt: createdAt(),
  },
  (table) => [
    // Keys lead with the merchant (docs/operations.md, "Past one primary"). A request names no merchant before
    // its key is found, so the lookup is by digest alone (a SHA-256 of 32 random bytes: unique without a constraint).
    primaryKey({ columns: [table.merchantId, table.id] }),
    uniqueIndex("api_keys_merchant_digest_key").on(table.merchantId, table.digest),
    index("api_keys_digest_idx").on(table.digest),
    index("api_keys_merchant_idx").on(table.merchantId, table.createdAt),
  ],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;
