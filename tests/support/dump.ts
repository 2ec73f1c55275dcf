import { sql } from "drizzle-orm";
import { rowsOf } from "../../src/server/db/rows";
import type { Database } from "../../src/server/db/types";

// The service's own reader of a raw statement's rows (both drivers answer `db.execute()` with `{ rows }`).
export { rowsOf };

/** Every row of every table in the public schema, as one string: for "this secret is stored nowhere" checks. */
export async function dumpAllTables(db: Database): Promise<string> {
  const tables = rowsOf<{ table_name: string }>(
    await db.execute(sql`select table_name from information_schema.tables where table_schema = 'public'`),
  );
  const parts: string[] = [];
  for (const { table_name } of tables) {
    const rows = rowsOf<unknown>(await db.execute(sql.raw(`select * from "${table_name}"`)));
    parts.push(`${table_name}: ${JSON.stringify(rows)}`);
  }
  return parts.join("\n");
}
