import { inArray, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

/*
 * What "one endpoint" means to the worker's isolation (the per-endpoint bound, fair claiming, the breaker): a row
 * of `webhook_endpoints`, so the key is a delivery's `endpoint_id` (docs/webhooks.md, "Delivery isolation"). The
 * claim, the bound and the breaker read it from here.
 */
export const ENDPOINT_KEY_COLUMNS = ["endpoint_id"] as const;

export interface EndpointKey {
  /** The endpoint's merchant: it leads the breaker's key (docs/operations.md, "Past one primary"), not the grouping. */
  merchantId: string;
  endpointId: string;
}

/** The key as one string, for grouping in memory. */
export function endpointKeyText(key: EndpointKey): string {
  return key.endpointId;
}

/** A query-builder condition: the row of `table` belongs to one of `keys`. */
export function isOneOfEndpoints(table: { endpointId: AnyPgColumn }, keys: readonly EndpointKey[]): SQL | undefined {
  return keys.length === 0 ? undefined : inArray(table.endpointId, keys.map((key) => key.endpointId));
}

/** The endpoint a delivery goes to. */
export function endpointKeyOf(delivery: EndpointKey): EndpointKey {
  return { merchantId: delivery.merchantId, endpointId: delivery.endpointId };
}
