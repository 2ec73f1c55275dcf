import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openServerDatabase } from "../../src/server/db/open";
import { rowsOf } from "../../src/server/db/rows";
import type { DatabaseHandle } from "../../src/server/db/types";
import { createServerDatabase } from "../support/server-admin";

/**
 * A transaction holds one connection from BEGIN to COMMIT or ROLLBACK, and nothing else runs on it meanwhile: with
 * postgres.js 3.4.9 (the driver before node-postgres) a BEGIN sent behind a busy pipeline did not reserve its
 * connection, unrelated autocommit writes ran inside the open transaction and were lost with its rollback. Here every
 * connection is busy when the transactions start, autocommit writes race them, and every transaction rolls back.
 */
let database: Awaited<ReturnType<typeof createServerDatabase>>;
let handle: DatabaseHandle;

beforeAll(async () => {
  database = await createServerDatabase("txconn");
  handle = await openServerDatabase(database.url, { max: 3 });
  await handle.db.execute(sql`create table writes (id serial primary key)`);
});
afterAll(async () => {
  await handle?.close();
  await database?.drop();
});

const backendPid = async (executor: Pick<DatabaseHandle["db"], "execute">) =>
  rowsOf<{ pid: number }>(await executor.execute(sql`select pg_backend_pid() as pid`))[0]!.pid;

describe("transactions on the server pool", () => {
  it("run every statement on one connection, and no unrelated write runs inside them", async () => {
    const rollback = new Error("rolled back on purpose");
    const failures: string[] = [];
    let sent = 0;
    for (let round = 0; round < 5; round++) {
      // Every connection busy, so the transactions and the writes queue for one.
      const work: Promise<unknown>[] = [1, 2, 3].map(() => handle.db.execute(sql`select pg_sleep(0.05)`).then((result) => result));
      await new Promise((resolve) => setTimeout(resolve, 10));
      work.push(
        ...[1, 2, 3].map(() =>
          handle.db.transaction(async (tx) => {
            const pids = [await backendPid(tx)];
            await tx.execute(sql`insert into writes default values`);
            await new Promise((resolve) => setTimeout(resolve, 5));
            pids.push(await backendPid(tx), await backendPid(tx));
            if (new Set(pids).size !== 1) failures.push(`one transaction ran on backends ${pids.join(", ")}`);
            throw rollback;
          }),
        ),
      );
      work.push(...[1, 2, 3].map(() => handle.db.execute(sql`insert into writes default values`).then((result) => result)));
      sent += 3;
      for (const result of await Promise.allSettled(work)) {
        if (result.status === "rejected" && result.reason !== rollback) failures.push(String((result.reason as Error).message));
      }
    }
    expect(failures).toEqual([]);
    const [row] = rowsOf<{ stored: number }>(await handle.db.execute(sql`select count(*)::int as stored from writes`));
    expect(row?.stored).toBe(sent);
  });
});
