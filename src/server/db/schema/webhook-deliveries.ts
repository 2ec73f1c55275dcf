import { sql } from "drizzle-orm";
import { foreignKey, index, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { createdAt, livemode, timestamptz, updatedAt } from "./columns";
import { merchants } from "./merchants";
import { webhookEndpoints } from "./webhook-endpoints";
import { deliveryStatuses, attemptTriggers, errorClasses } from "../../../lib/statuses";
export { deliveryStatuses, attemptTriggers, errorClasses } from "../../../lib/statuses";

export type DeliveryStatus = (typeof deliveryStatuses)[number];

/**
 * The transactional outbox: one row per (event, endpoint), written with the change that caused the event.
 * Workers claim due rows with FOR UPDATE SKIP LOCKED and hold them under a lease (`leaseExpiresAt`).
 * Range-partitioned by its event's creation time (`eventCreatedAt`), a partition a day, like the events and the
 * attempts: an event, its deliveries and their attempts share a day's partitions and are dropped together when
 * the day passes the retention (db/sql/log-partitions.ts). The partition key is in every key; no foreign key
 * joins the three (a partition is dropped whole, not row by row).
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").notNull(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    /** The event's mode: test events go only to test endpoints (docs/test-mode.md). */
    livemode: livemode(),
    eventId: text("event_id").notNull(),
    /** Its event's `createdAt`: the partition key, so a delivery lives (and is dropped) with its event. */
    eventCreatedAt: timestamptz("event_created_at").notNull(),
    /** The endpoint it goes to: the unit of delivery isolation (webhooks/endpoint-key.ts). */
    endpointId: text("endpoint_id").notNull(),
    /** Where it is sent: the endpoint's URL (kept in step with it while queued), or a test send's own URL. */
    url: text("url").notNull(),
    status: text("status", { enum: deliveryStatuses }).notNull().default("pending"),
    attemptCount: integer("attempt_count").notNull().default(0),
    /** Next attempt when pending; null once delivered or failed. */
    nextAttemptAt: timestamptz("next_attempt_at"),
    /** How the next attempt was requested: by the schedule, a manual retry, or a test send. */
    nextTrigger: text("next_trigger", { enum: attemptTriggers }).notNull().default("scheduled"),
    leaseExpiresAt: timestamptz("lease_expires_at"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    deliveredAt: timestamptz("delivered_at"),
    failedAt: timestamptz("failed_at"),
    /** W3C traceparent of the request that wrote the row, when traced: its attempts' spans link to it. */
    traceParent: text("trace_parent"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.merchantId, table.id, table.eventCreatedAt] }),
    foreignKey({ name: "webhook_deliveries_endpoint_fk", columns: [table.merchantId, table.endpointId], foreignColumns: [webhookEndpoints.merchantId, webhookEndpoints.id] }).onDelete("cascade"),
    // The worker reads and records a delivery by its id alone.
    index("webhook_deliveries_id_idx").on(table.id),
    // The worker's claim (webhooks/claim.ts): each endpoint's pending rows in due order, so the claim visits
    // endpoints one index probe each instead of reading one endpoint's whole backlog; `id` completes the claim's
    // order, so rows due at the same instant (a bulk retry, a replay) are not all read and sorted to take a few.
    // Then expired leases.
    index("webhook_deliveries_endpoint_due_idx")
      .on(table.endpointId, table.nextAttemptAt, table.id)
      .where(sql`${table.status} = 'pending'`),
    // The oldest (UTC) day that holds a delivery pending or in flight: the claim reads no partition before it. On
    // the day, not the time: an index on the time also served the claim's bound on it, and whenever the statistics
    // predated a burst the planner read every live row by time on each claim (db/sql/claim-deliveries.ts).
    index("webhook_deliveries_live_day_idx")
      .on(sql`((${table.eventCreatedAt} at time zone 'UTC')::date)`)
      .where(sql`${table.status} in ('pending', 'delivering')`),
    index("webhook_deliveries_lease_idx")
      .on(table.leaseExpiresAt)
      .where(sql`${table.status} = 'delivering'`),
    index("webhook_deliveries_merchant_status_idx").on(
      table.merchantId,
      table.livemode,
      table.status,
      table.createdAt.desc(),
      table.id.desc(),
    ),
    // The delivery log (GET webhook/delivery): every status, newest first.
    index("webhook_deliveries_merchant_created_idx").on(table.merchantId, table.createdAt.desc(), table.id.desc()),
    index("webhook_deliveries_event_idx").on(table.eventId),
  ],
);

export const deliveryAttempts = pgTable(
  "delivery_attempts",
  {
    id: text("id").notNull(),
    deliveryId: text("delivery_id").notNull(),
    merchantId: text("merchant_id").notNull(),
    /** The delivery's event's `createdAt`: the partition key (the attempts live in their event's day). */
    eventCreatedAt: timestamptz("event_created_at").notNull(),
    trigger: text("trigger", { enum: attemptTriggers }).notNull(),
    queuedAt: timestamptz("queued_at").notNull(),
    sentAt: timestamptz("sent_at").notNull(),
    statusCode: integer("status_code"),
    errorClass: text("error_class", { enum: errorClasses }),
    errorMessage: text("error_message"),
    latencyMs: integer("latency_ms"),
    responseHeaders: jsonb("response_headers").$type<Record<string, string>>(),
    /** The first 16 KiB of the response body. */
    responseBody: text("response_body"),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.merchantId, table.id, table.eventCreatedAt] }),
    index("delivery_attempts_delivery_idx").on(table.deliveryId, table.sentAt),
    // The staff System page's last hour of attempts (services/system/overview.ts), read without a scan.
    index("delivery_attempts_sent_idx").on(table.sentAt),
  ],
);

export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type DeliveryAttemptRow = typeof deliveryAttempts.$inferSelect;
