import { sql } from "drizzle-orm";

/**
 * A merchant's default webhook endpoint as a subquery, for the cases that write deliveries straight into the
 * outbox: every delivery names its endpoint (the unit of delivery isolation, docs/webhooks.md).
 */
export function defaultEndpoint(merchantId: string) {
  return sql`(select id from webhook_endpoints where merchant_id = ${merchantId} and is_default)`;
}
