import { describe, expect, it } from "vitest";
import { openServerDatabase } from "../../src/server/db/open";
import { createServerDatabase, serverQuery } from "../support/server-admin";

// Only on the PostgreSQL server: several processes there can open one database at once (PGlite cannot).
describe("opening a fresh server database from several processes at once", () => {
  it("migrates it once, and every opener gets a working database", async () => {
    const database = await createServerDatabase("fresh");
    try {
      const handles = await Promise.all(Array.from({ length: 4 }, () => openServerDatabase(database.url, { max: 1 })));
      for (const handle of handles) await handle.close();
      const [applied] = await serverQuery<{ n: number }>(database.url, "select count(*)::int as n from drizzle.__drizzle_migrations");
      expect(applied!.n).toBeGreaterThan(0);
    } finally {
      await database.drop();
    }
  });
});
