import { sql, type SQL } from "drizzle-orm";

/**
 * Ids as one `text[]` parameter, however many there are: a Postgres array literal. The service's ids are letters,
 * digits and `_` (lib/ids.ts), none of which the literal needs to quote.
 */
export function idArray(ids: readonly string[]): SQL {
  return sql`${`{${ids.join(",")}}`}::text[]`;
}

/**
 * `column` (a partition key) from `from` up to `to`, the bounds written as literals: the planner then leaves out
 * every partition outside them while it plans (bound parameters would prune only at run time, after the statement
 * had been planned for every day's partition: docs/operations.md, "Partitions and retention").
 */
export function partitionKeyWithin(column: string, from: Date, to: Date): SQL {
  return sql.raw(`${column} >= '${from.toISOString()}'::timestamptz and ${column} < '${to.toISOString()}'::timestamptz`);
}
