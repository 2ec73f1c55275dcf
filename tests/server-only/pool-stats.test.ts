import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openServerDatabase, SERVER_TIMEOUTS } from "../../src/server/db/open";
import type { DatabaseHandle } from "../../src/server/db/types";
import { isDatabaseUnavailable } from "../../src/server/db/unavailable";
import { createServerDatabase } from "../support/server-admin";

let database: Awaited<ReturnType<typeof createServerDatabase>>;
let handle: DatabaseHandle;

beforeAll(async () => {
  database = await createServerDatabase("poolstats");
  handle = await openServerDatabase(database.url, { max: 2 });
});
afterAll(async () => {
  await handle?.close();
  await database?.drop();
});

/** Two transactions holding both connections until `release()`. */
function holdBothConnections() {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const holders = [0, 1].map(() =>
    handle.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await held;
    }),
  );
  return { holders, release };
}

// The pool gauges (docs/operations.md) read node-postgres's pool counts.
describe("the pool's state on the PostgreSQL server", () => {
  it("counts connections in use, idle, and statements waiting for one", async () => {
    expect(handle.poolStats!()).toEqual({ max: 2, inUse: 0, idle: 0, waiting: 0 });
    const { holders, release } = holdBothConnections();
    await expect.poll(() => handle.poolStats!().inUse).toBe(2);
    // drizzle's queries are lazy: `then` sends them.
    const queued = [0, 1, 2].map(() => handle.db.execute(sql`select 1`).then((result) => result));
    await expect.poll(() => handle.poolStats!().waiting).toBe(3);
    release();
    await Promise.all([...holders, ...queued]);
    await expect.poll(() => handle.poolStats!()).toEqual({ max: 2, inUse: 0, idle: 2, waiting: 0 });
  });

  it("fails a statement that waits for a connection longer than the connect timeout as unavailable (a 503)", async () => {
    const { holders, release } = holdBothConnections();
    try {
      await expect.poll(() => handle.poolStats!().inUse).toBe(2);
      const started = performance.now();
      const failure = await handle.db.execute(sql`select 1`).then(() => null, (error: unknown) => error);
      expect(isDatabaseUnavailable(failure), String(failure)).toBe(true);
      expect(performance.now() - started).toBeGreaterThanOrEqual(SERVER_TIMEOUTS.connectMs - 50);
    } finally {
      release();
      await Promise.all(holders);
    }
    expect(handle.poolStats!().waiting).toBe(0);
  }, 20_000);
});
