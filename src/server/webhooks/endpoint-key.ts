import { and, eq, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

/*
 * What "one endpoint" means to the worker's isolation (the per-endpoint bound, fair claiming, the breaker):
 * today a merchant's webhook URL, so the key is (merchant_id, url). When endpoints become rows of their own
 * (with ids), this file switches to `endpoint_id` and the claim, the bound and the breaker follow.
 */
export const ENDPOINT_KEY_COLUMNS = ["merchant_id", "url"] as const;

export interface EndpointKey {
  merchantId: string;
  url: string;
}

/** The key as one string, for grouping in memory. */
export function endpointKeyText(key: EndpointKey): string {
  return JSON.stringify([key.merchantId, key.url]);
}

/** The key columns of a table alias in SQL: `d.merchant_id, d.url`. */
export function endpointKeySql(alias: string): SQL {
  return sql.raw(ENDPOINT_KEY_COLUMNS.map((column) => `${alias}.${column}`).join(", "));
}

/** A query-builder condition: the row of `table` belongs to one of `keys`. */
export function isOneOfEndpoints(table: { merchantId: AnyPgColumn; url: AnyPgColumn }, keys: readonly EndpointKey[]): SQL | undefined {
  return or(...keys.map((key) => and(eq(table.merchantId, key.merchantId), eq(table.url, key.url))));
}

/** The endpoint a delivery goes to. */
export function endpointKeyOf(delivery: EndpointKey): EndpointKey {
  return { merchantId: delivery.merchantId, url: delivery.url };
}
