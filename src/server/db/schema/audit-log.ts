import { bigint, index, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { auditActorTypes } from "../../../lib/statuses";
import { createdAt } from "./columns";

/**
 * Who did what to which resource; written in the same transaction as the change. Range-partitioned by
 * `created_at`, a partition a month, kept (db/sql/log-partitions.ts); the key holds the partition key. Not
 * merchant-owned: a row may name no merchant (a staff sign-in), so its key cannot lead with one
 * (tests/unit/merchant-first-keys.test.ts lists it).
 *
 * Each merchant's rows form a hash chain (one more chain for the rows naming no merchant): `seq` is the row's
 * position in its chain, `hash` = SHA-256 of the previous row's hash and this row's canonical form, computed by the
 * SQL function `audit_entry_hash` (drizzle/0020_audit_log_chain.sql), written only through db/sql/audit-chain.ts.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: text("id").notNull(),
    actorType: text("actor_type", { enum: auditActorTypes }).notNull(),
    actorId: text("actor_id"),
    /** The merchant whose data was touched (null for actions on no merchant). */
    merchantId: text("merchant_id"),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id"),
    requestId: text("request_id"),
    /** The client's address and browser (User-Agent) when the change came from a request; null for the system. */
    ip: text("ip"),
    userAgent: text("user_agent"),
    /** Non-secret details only (a note, changed field names, old and new values); never credentials or bodies. */
    details: jsonb("details").$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    /** Position in the merchant's chain, from 1, without gaps. */
    seq: bigint("seq", { mode: "number" }).notNull(),
    /** Hex SHA-256 of (previous row's hash ‖ this row's canonical form). */
    hash: text("hash").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.id, table.createdAt] }),
    index("audit_log_merchant_created_idx").on(table.merchantId, table.createdAt),
    index("audit_log_created_idx").on(table.createdAt),
    index("audit_log_chain_idx").on(table.merchantId, table.seq),
  ],
);

export type AuditLogRow = typeof auditLog.$inferSelect;

/**
 * The last link of each chain: its position and hash. The writer locks this row in its transaction, so a
 * merchant's entries take positions one at a time; `audit:verify` compares the chain's end with it (a removed
 * last entry). `chain` is the merchant id, or '' for the entries naming no merchant.
 */
export const auditChainHeads = pgTable("audit_chain_heads", {
  chain: text("chain").primaryKey(),
  seq: bigint("seq", { mode: "number" }).notNull(),
  hash: text("hash").notNull(),
});
