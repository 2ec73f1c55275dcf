import { foreignKey, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { timestamptz, updatedAt } from "./columns";
import { webhookEndpoints } from "./webhook-endpoints";

/**
 * The circuit breaker of each webhook endpoint, shared by every worker (docs/webhooks.md, "When your endpoint
 * is down"), keyed by the endpoint (webhooks/endpoint-key.ts) after its merchant. Closed: `openUntil` is null. Open:
 * `openUntil` is in the future, and none of the endpoint's scheduled deliveries is claimed. Half-open: `openUntil`
 * has passed, and one probe attempt at a time is claimed.
 */
export const webhookEndpointBreakers = pgTable(
  "webhook_endpoint_breakers",
  {
    merchantId: text("merchant_id").notNull(),
    endpointId: text("endpoint_id").notNull(),
    /** Failed attempts (network errors, timeouts, 5xx) since the last answer that was not one. */
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    openUntil: timestamptz("open_until"),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.merchantId, table.endpointId] }),
    // The claim joins a breaker by its endpoint alone (db/sql/claim-deliveries.ts).
    index("webhook_endpoint_breakers_endpoint_idx").on(table.endpointId),
    foreignKey({ name: "webhook_endpoint_breakers_endpoint_fk", columns: [table.merchantId, table.endpointId], foreignColumns: [webhookEndpoints.merchantId, webhookEndpoints.id] }).onDelete("cascade"),
  ],
);

export type WebhookEndpointBreakerRow = typeof webhookEndpointBreakers.$inferSelect;
