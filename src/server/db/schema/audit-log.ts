import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

/** Who did what to which resource; written in the same transaction as the change. */
export const auditLog = pgTable(
  "audit_log",
  {
    id: text("id").primaryKey(),
    actorType: text("actor_type", {
      enum: ["api_key", "user", "staff", "system", "anonymous"],
    }).notNull(),
    actorId: text("actor_id"),
    /** The merchant whose data was touched (null for actions on no merchant). */
    merchantId: text("merchant_id"),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id"),
    requestId: text("request_id"),
    /** Non-secret details only (a note, changed field names); never credentials or bodies. */
    details: jsonb("details").$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (table) => [
    index("audit_log_merchant_created_idx").on(table.merchantId, table.createdAt),
    index("audit_log_created_idx").on(table.createdAt),
  ],
);

export type AuditLogRow = typeof auditLog.$inferSelect;
