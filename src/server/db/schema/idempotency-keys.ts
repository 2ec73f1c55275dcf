import { index, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { createdAt, timestamptz } from "./columns";

/**
 * Stored responses of POSTs sent with an Idempotency-Key, scoped to merchant + method + path, kept 24 h.
 * `requestDigest` is a SHA-256 of the canonical body: the body itself is never stored here.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    merchantId: text("merchant_id").notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    key: text("key").notNull(),
    requestDigest: text("request_digest").notNull(),
    state: text("state", { enum: ["in_progress", "completed"] }).notNull(),
    /** An in-progress claim older than this is considered abandoned (its process died). */
    lockedUntil: timestamptz("locked_until"),
    responseStatus: integer("response_status"),
    responseBody: jsonb("response_body"),
    createdAt: createdAt(),
    expiresAt: timestamptz("expires_at").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.merchantId, table.method, table.path, table.key] }),
    // The periodic purge of expired keys (src/server/services/idempotency/run.ts).
    index("idempotency_keys_expires_idx").on(table.expiresAt),
  ],
);
