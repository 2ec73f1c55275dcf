import { sql } from "drizzle-orm";
import type { Database } from "../../src/server/db/types";
import { rowsOf } from "./dump";

/**
 * A function that counts the rows of every table in one round trip: cheap enough to run after each
 * fuzzed request, to prove that a refused request wrote nothing.
 */
export async function rowCounter(db: Database): Promise<() => Promise<Record<string, number>>> {
  const tables = rowsOf<{ table_name: string }>(
    await db.execute(sql`
      select table_name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`),
  ).map((row) => row.table_name);
  const query = sql.raw(`select ${tables.map((table) => `(select count(*)::int from "${table}") as "${table}"`).join(", ")}`);
  return async () => rowsOf<Record<string, number>>(await db.execute(query))[0]!;
}
