import { eq, sql } from "drizzle-orm";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { openServerDatabase } from "../../src/server/db/open";
import { rowsOf } from "../../src/server/db/rows";
import { merchants } from "../../src/server/db/schema";
import { databaseUrl } from "../support/server-url";

// Only on the PostgreSQL server: PGlite runs in-process, with no round trips to save.
describe("statements on the PostgreSQL server", () => {
  it("are prepared once per connection, inside transactions too (one round trip each after the first)", async () => {
    const serverUrl = process.env.TEST_SERVER_URL!;
    const name = `mps_test_${process.pid}_${Date.now().toString(36)}_prepared`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${name}"`);
    try {
      // One connection, so the session whose prepared statements are listed is the one that ran them.
      const handle = await openServerDatabase(databaseUrl(serverUrl, name), { max: 1 });
      try {
        const byId = () => handle.db.select().from(merchants).where(eq(merchants.id, "mer_none"));
        await byId();
        await byId();
        await handle.db.transaction(async (tx) => {
          await tx.select({ id: merchants.id }).from(merchants).where(eq(merchants.email, "nobody@example.com"));
        });
        const prepared = rowsOf<{ statement: string }>(
          await handle.db.execute(sql`select statement from pg_prepared_statements`),
        ).map((row) => row.statement);
        const byIdText = prepared.filter((text) => text.includes('where "merchants"."id" = $1'));
        expect(byIdText).toHaveLength(1); // prepared on first use, reused on the second
        expect(prepared.some((text) => text.includes('where "merchants"."email" = $1'))).toBe(true);
      } finally {
        await handle.close();
      }
    } finally {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    }
  });
});
