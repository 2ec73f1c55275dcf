import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openServerDatabase } from "../../src/server/db/open";
import { rowsOf } from "../../src/server/db/rows";
import type { DatabaseHandle } from "../../src/server/db/types";
import { createServerDatabase } from "../support/server-admin";

// How node-postgres hands values to the code (db/open.ts): exact strings for money and counts that can exceed 2^53.
let database: Awaited<ReturnType<typeof createServerDatabase>>;
let handle: DatabaseHandle;

beforeAll(async () => {
  database = await createServerDatabase("types");
  handle = await openServerDatabase(database.url, { max: 1 });
});
afterAll(async () => {
  await handle?.close();
  await database?.drop();
});

describe("values read from the PostgreSQL server", () => {
  it("keeps numeric and bigint as exact strings, integers and doubles as numbers, timestamps as text for the columns", async () => {
    const [row] = rowsOf<Record<string, unknown>>(
      await handle.db.execute(sql`select 12345678901234567.89::numeric as money, 9007199254740993::bigint as big, 42::int as small,
        0.5::float8 as ratio, true as flag, '{"a":1}'::jsonb as json, '0049-06-01 00:00:00+00'::timestamptz as at`),
    );
    expect(row).toEqual({ money: "12345678901234567.89", big: "9007199254740993", small: 42, ratio: 0.5, flag: true, json: { a: 1 }, at: "0049-06-01 00:00:00+00" });
  });
});
