import postgres from "postgres";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openServerDatabase } from "../../src/server/db/open";
import { databaseUrl } from "../support/server-url";

// The pool gauges (docs/operations.md) read postgres.js's queues through the patch's `sql.stats()`.
describe("the pool's state on the PostgreSQL server", () => {
  it("counts connections in use, idle and queries waiting for one", async () => {
    const serverUrl = process.env.TEST_SERVER_URL!;
    const name = `mps_test_${process.pid}_${Date.now().toString(36)}_poolstats`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${name}"`);
    try {
      const handle = await openServerDatabase(databaseUrl(serverUrl, name), { max: 2 });
      try {
        expect(handle.poolStats!()).toEqual({ max: 2, inUse: 0, idle: 0, connecting: 0, waiting: 0 });
        // Two transactions hold both connections; three more statements queue behind them.
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        const holders = [0, 1].map(() => handle.db.transaction(async (tx) => {
          await tx.execute(sql`select 1`);
          await held;
        }));
        await expect.poll(() => handle.poolStats!().inUse).toBe(2);
        // drizzle's queries are lazy: `then` sends them.
        const queued = [0, 1, 2].map(() => handle.db.execute(sql`select 1`).then((result) => result));
        await expect.poll(() => handle.poolStats!().waiting).toBe(3);
        release();
        await Promise.all([...holders, ...queued]);
        await expect.poll(() => handle.poolStats!()).toEqual({ max: 2, inUse: 0, idle: 2, connecting: 0, waiting: 0 });
      } finally {
        await handle.close();
      }
    } finally {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    }
  });
});
