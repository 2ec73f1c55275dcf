import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { KeysetPosition } from "@/lib/cursor";

/**
 * SQL for keyset pagination on `(created_at, id)`, newest first (src/lib/cursor.ts signs the positions).
 * Timestamps travel as text with microseconds, the precision PostgreSQL stores, so no row is skipped or
 * repeated when several share a millisecond.
 */
export function keysetTimestamp(createdAt: AnyColumn): SQL<string> {
  return sql<string>`to_char(${createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/** Rows strictly after `position` in newest-first order; a row comparison the (…, created_at desc, id desc) index serves. */
export function afterPosition(createdAt: AnyColumn, id: AnyColumn, position: KeysetPosition): SQL {
  return sql`(${createdAt}, ${id}) < (${position.createdAt}::timestamptz, ${position.id})`;
}
