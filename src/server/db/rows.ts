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
