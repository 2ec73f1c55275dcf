import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { openServerDatabase } from "../../src/server/db/open";
import { databaseUrl } from "../support/server-url";

// Only on the PostgreSQL server: several processes there can open one database at once (PGlite cannot).
describe("opening a fresh server database from several processes at once", () => {
  it("migrates it once, and every opener gets a working database", async () => {
    const serverUrl = process.env.TEST_SERVER_URL!;
    const name = `mps_test_${process.pid}_${Date.now().toString(36)}_fresh`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${name}"`);
    try {
      const handles = await Promise.all(Array.from({ length: 4 }, () => openServerDatabase(databaseUrl(serverUrl, name), { max: 1 })));
      for (const handle of handles) await handle.close();
      const check = postgres(databaseUrl(serverUrl, name), { max: 1, onnotice: () => {} });
      const applied = await check`select count(*)::int as n from drizzle.__drizzle_migrations`;
      await check.end();
      expect(applied[0]!.n).toBeGreaterThan(0);
    } finally {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    }
  });
});
