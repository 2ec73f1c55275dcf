import { inArray, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

/*
 * What "one endpoint" means to the worker's isolation (the per-endpoint bound, fair claiming, the breaker): a row
 * of `webhook_endpoints`, so the key is a delivery's `endpoint_id` (docs/webhooks.md, "Delivery isolation"). The
 * claim, the bound and the breaker read it from here.
 */
export const ENDPOINT_KEY_COLUMNS = ["endpoint_id"] as const;

export interface EndpointKey {
  endpointId: string;
}

/** The key as one string, for grouping in memory. */
export function endpointKeyText(key: EndpointKey): string {
  return key.endpointId;
}

/** The key columns of a table alias in SQL: `d.endpoint_id`. */
export function endpointKeySql(alias: string): SQL {
  return sql.raw(ENDPOINT_KEY_COLUMNS.map((column) => `${alias}.${column}`).join(", "));
}

/** A query-builder condition: the row of `table` belongs to one of `keys`. */
export function isOneOfEndpoints(table: { endpointId: AnyPgColumn }, keys: readonly EndpointKey[]): SQL | undefined {
  return keys.length === 0 ? undefined : inArray(table.endpointId, keys.map((key) => key.endpointId));
}

/** The endpoint a delivery goes to. */
export function endpointKeyOf(delivery: EndpointKey): EndpointKey {
  return { endpointId: delivery.endpointId };
}
