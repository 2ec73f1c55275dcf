import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { eventTypes } from "../../../lib/event-types";
import { createdAt, livemode } from "./columns";
import { merchants } from "./merchants";

export { eventTypes, type EventType } from "../../../lib/event-types";

/** Immutable record of something that happened; written in the same transaction as the change. */
export const events = pgTable(
  "events",
  {
    id: text("id").primaryKey(),
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
    index("events_merchant_created_idx").on(table.merchantId, table.livemode, table.createdAt),
    index("events_subject_idx").on(table.subjectId),
    // Retention: the worker prunes the oldest events in small batches (services/events/prune.ts).
    index("events_created_idx").on(table.createdAt),
  ],
);

export type EventRow = typeof events.$inferSelect;
