import { getTableColumns, type InferSelectModel, type Table } from "drizzle-orm";

/**
 * The rows of a raw `db.execute(sql…)`: both drivers (node-postgres and PGlite) answer with `{ rows }`, but the
 * shared `Database` type leaves the result's shape to the driver. Query builders hide this; the few hand-written
 * statements (one round trip where the builder needs several) read their results through here.
 */
export function rowsOf<T>(result: unknown): T[] {
  const rows = (result as { rows?: unknown } | null)?.rows;
  if (Array.isArray(rows)) return rows as T[];
  throw new Error("Unrecognised result of db.execute()");
}

/**
 * A row of `table` from a raw statement's row (`returning t.*` in hand-written SQL): each column read by its
 * database name and turned into its TypeScript value by the column itself, as the query builder does.
 */
export function tableRowOf<T extends Table>(table: T, raw: Record<string, unknown>): InferSelectModel<T> {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = raw[column.name];
    if (value === undefined) throw new Error(`The raw row has no column ${column.name}`);
    row[key] = value === null ? null : column.mapFromDriverValue(value);
  }
  return row as InferSelectModel<T>;
}
