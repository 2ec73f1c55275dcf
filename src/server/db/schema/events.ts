import { index, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { eventTypes } from "../../../lib/event-types";
import { createdAt, livemode } from "./columns";
import { merchants } from "./merchants";

export { eventTypes, type EventType } from "../../../lib/event-types";

/**
 * Immutable record of something that happened; written in the same transaction as the change. Range-partitioned
 * by `created_at`, a partition a day (db/sql/log-partitions.ts, docs/operations.md, "Partitions and retention"):
 * drizzle cannot declare that, so the migration that made it writes the DDL by hand. A partitioned table's keys
 * must hold the partition key, and every merchant-owned key leads with the merchant: (merchant_id, id, created_at).
 */
export const events = pgTable(
  "events",
  {
    id: text("id").notNull(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    livemode: livemode(),
    type: text("type", { enum: eventTypes }).notNull(),
    /** The `data` object of the webhook body. */
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    /** Which resource the event is about (a payment id, …), for the dashboard's detail views. */
    subjectId: text("subject_id"),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.merchantId, table.id, table.createdAt] }),
    // An event by its id alone: the deliveries' joins and the worker know the id (and the event's time), not always the merchant.
    index("events_id_idx").on(table.id),
    index("events_merchant_created_idx").on(table.merchantId, table.livemode, table.createdAt),
    index("events_subject_idx").on(table.subjectId),
    // Retention of rows outside a day's partition (the default partition's), in small batches (services/events/prune.ts).
    index("events_created_idx").on(table.createdAt),
  ],
);

export type EventRow = typeof events.$inferSelect;
