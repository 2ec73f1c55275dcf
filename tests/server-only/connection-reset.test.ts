import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openServerDatabase } from "../../src/server/db/open";
import { rowsOf } from "../../src/server/db/rows";
import type { DatabaseHandle } from "../../src/server/db/types";
import { isDatabaseUnavailable } from "../../src/server/db/unavailable";
import { createServerDatabase } from "../support/server-admin";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy";

/**
 * A connection reset in the middle of a transaction (the socket reports ECONNRESET before it closes). postgres.js
 * 3.4.9, the driver before node-postgres, kept the dead session's in-flight query and the transaction's ROLLBACK
 * queued across the reconnect, credited the next answers to them, and a request hung for ever (issue 21's
 * pool-recovery test, about one run in three). This pins, through the service's own pool, that the dead
 * transaction fails at once as "database unavailable" (a 503 to the client) and the next transactions run on a
 * fresh connection, with a proxy that resets the client's connection.
 */
const STUCK_MS = 5_000;

let proxy: TcpProxy;
let database: Awaited<ReturnType<typeof createServerDatabase>>;

beforeAll(async () => {
  database = await createServerDatabase("reset");
  proxy = await startTcpProxy(database.url);
});
afterAll(async () => {
  await proxy?.close();
  await database?.drop();
});

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    work,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms).unref()),
  ]);
}

describe("the server pool after a connection reset in the middle of a transaction", () => {
  it("fails the dead session's transaction as unavailable and runs the next transactions on a new connection", async () => {
    let handle: DatabaseHandle | undefined;
    try {
      handle = await openServerDatabase(proxy.url, { max: 1 });
      const db = handle.db;
      await db.execute(sql`create table writes (id serial primary key, note text not null)`);
      for (let round = 0; round < 3; round++) {
        const dying = db.transaction(async (tx) => {
          await tx.execute(sql`insert into writes (note) values (${"lost"})`);
          await tx.execute(sql`select pg_sleep(2)`);
        });
        await new Promise((resolve) => setTimeout(resolve, 200));
        // A reset, not a clean close: the client sees 'error' (ECONNRESET) and only later 'close'.
        proxy.resetAll();
        const failure = await within(dying, STUCK_MS).then(
          () => new Error("the transaction committed"),
          (error: unknown) => error,
        );
        expect(isDatabaseUnavailable(failure), String(failure)).toBe(true);

        const note = `kept ${round}`;
        await within(db.transaction((tx) => tx.execute(sql`insert into writes (note) values (${note})`)), STUCK_MS);
        const stored = rowsOf<{ note: string }>(await within(db.execute(sql`select note from writes order by id`), STUCK_MS));
        expect(stored.map((row) => row.note)).toEqual(Array.from({ length: round + 1 }, (_, i) => `kept ${i}`));
      }
    } finally {
      await handle?.close();
    }
  }, 60_000);
});
