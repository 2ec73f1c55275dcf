import { integer, pgTable, text } from "drizzle-orm/pg-core";
import { timestamptz, updatedAt } from "./columns";
import { webhookEndpoints } from "./webhook-endpoints";

/**
 * The circuit breaker of each webhook endpoint, shared by every worker (docs/webhooks.md, "When your endpoint
 * is down"), keyed by the endpoint (webhooks/endpoint-key.ts). Closed: `openUntil` is null. Open: `openUntil` is
 * in the future, and none of the endpoint's scheduled deliveries is claimed. Half-open: `openUntil` has passed,
 * and one probe attempt at a time is claimed.
 */
export const webhookEndpointBreakers = pgTable("webhook_endpoint_breakers", {
  endpointId: text("endpoint_id")
    .primaryKey()
    .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
  /** Failed attempts (network errors, timeouts, 5xx) since the last answer that was not one. */
  consecutiveFailures: integer("consecutive_failures").notNull().default(0),
  openUntil: timestamptz("open_until"),
  updatedAt: updatedAt(),
});

export type WebhookEndpointBreakerRow = typeof webhookEndpointBreakers.$inferSelect;
