import { sql } from "drizzle-orm";
import { boolean, index, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, livemode, timestamptz, updatedAt } from "./columns";
import { merchants } from "./merchants";
import { endpointStatuses, endpointDisabledReasons } from "../../../lib/statuses";
export { endpointStatuses, endpointDisabledReasons } from "../../../lib/statuses";

export type EndpointDisabledReason = (typeof endpointDisabledReasons)[number];

/**
 * A merchant's webhook endpoints (docs/webhooks.md, "Endpoints"). Every merchant has exactly one default endpoint
 * (`isDefault`): the profile's `webhookUrl`/`webhookEvents` and the secret returned at registration, so round-1
 * clients see no change. Its `url` is null while the profile has no webhook URL (nothing is delivered to it then);
 * every other endpoint has a URL. `eventTypes` null means every type. Signing secrets live in `webhook_secrets`,
 * one current (and at most one previous) per endpoint.
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text("id").notNull(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    /** Test endpoints receive test events only, live endpoints live events only (docs/test-mode.md); the default is live. */
    livemode: livemode(),
    url: text("url"),
    description: text("description"),
    eventTypes: text("event_types").array(),
    status: text("status", { enum: endpointStatuses }).notNull().default("enabled"),
    disabledReason: text("disabled_reason", { enum: endpointDisabledReasons }),
    isDefault: boolean("is_default").notNull().default(false),
    /** First failed attempt of the current run of failures (none answered since); null once one answers. */
    failingSince: timestamptz("failing_since"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.merchantId, table.id] }),
    // The worker names an endpoint by its id alone (webhooks/endpoint-key.ts).
    index("webhook_endpoints_id_idx").on(table.id),
    index("webhook_endpoints_merchant_idx").on(table.merchantId, table.livemode, table.createdAt, table.id),
    uniqueIndex("webhook_endpoints_default_key").on(table.merchantId).where(sql`${table.isDefault}`),
  ],
);

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
