import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, timestamptz } from "./columns";
import { merchants } from "./merchants";
import { publishedKeyStatuses } from "../../../lib/statuses";
export { publishedKeyStatuses } from "../../../lib/statuses";


/** Public keys a merchant publishes for discovery. Only the public JWK is ever stored. */
export const publishedKeys = pgTable(
  "published_keys",
  {
    id: text("id").notNull(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    kid: text("kid").notNull(),
    use: text("use", { enum: ["sig", "enc"] }).notNull(),
    label: text("label"),
    jwk: jsonb("jwk").$type<Record<string, unknown>>().notNull(),
    /** RFC 7638 JWK thumbprint (SHA-256, base64url). */
    thumbprint: text("thumbprint").notNull(),
    status: text("status", { enum: publishedKeyStatuses }).notNull().default("active"),
    createdAt: createdAt(),
    retiredAt: timestamptz("retired_at"),
    revokedAt: timestamptz("revoked_at"),
  },
  (table) => [
    primaryKey({ columns: [table.merchantId, table.id] }),
    // One active key per kid; re-publishing retires the previous one.
    uniqueIndex("published_keys_active_kid_key")
      .on(table.merchantId, table.kid)
      .where(sql`${table.status} = 'active'`),
    index("published_keys_merchant_idx").on(table.merchantId, table.createdAt),
  ],
);

export type PublishedKeyRow = typeof publishedKeys.$inferSelect;
