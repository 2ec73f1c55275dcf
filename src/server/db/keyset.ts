import { sql, type AnyColumn, type Placeholder, type SQL } from "drizzle-orm";
import type { KeysetPosition } from "@/lib/cursor";

/**
 * SQL for keyset pagination on `(created_at, id)`, newest first (src/lib/cursor.ts signs the positions).
 * Timestamps travel as text with microseconds, the precision PostgreSQL stores, so no row is skipped or
 * repeated when several share a millisecond.
 */
export function keysetTimestamp(createdAt: AnyColumn): SQL<string> {
  return sql<string>`to_char(${createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/**
 * Rows strictly after `position` in newest-first order; a row comparison the (…, created_at desc, id desc) index
 * serves. The position's values, or `sql.placeholder`s for a prepared statement.
 */
export function afterPosition(createdAt: AnyColumn, id: AnyColumn, position: KeysetPosition | { createdAt: Placeholder; id: Placeholder }): SQL {
  return sql`(${createdAt}, ${id}) < (${position.createdAt}::timestamptz, ${position.id})`;
}

/**
 * ORDER BY for newest first. `nulls last` is not decoration: drizzle declares `.desc()` index columns as
 * `DESC NULLS LAST`, while a bare `ORDER BY … DESC` means NULLS FIRST, and PostgreSQL then cannot read the
 * order from the index (it sorts the whole table instead, even for NOT NULL columns).
 */
export function newestFirst(createdAt: AnyColumn, id: AnyColumn): SQL[] {
  return [sql`${createdAt} desc nulls last`, sql`${id} desc nulls last`];
}
