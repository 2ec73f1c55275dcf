/**
 * The rows of a raw `db.execute(sql…)`: postgres.js answers with an array of rows, PGlite with `{ rows }`.
 * Query builders hide this; the few hand-written statements (one round trip where the builder needs
 * several) read their results through here.
 */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  const rows = (result as { rows?: unknown } | null)?.rows;
  if (Array.isArray(rows)) return rows as T[];
  throw new Error("Unrecognised result of db.execute()");
}
