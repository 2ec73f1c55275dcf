import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openServerDatabase } from "../../src/server/db/open";
import type { DatabaseHandle } from "../../src/server/db/types";
import { createServerDatabase, serverQuery } from "../support/server-admin";

// The webhook workers' wake-ups (webhooks/wake.ts) on the PostgreSQL server: a LISTEN connection of its own.
let database: Awaited<ReturnType<typeof createServerDatabase>>;
let handle: DatabaseHandle;

beforeAll(async () => {
  database = await createServerDatabase("listen");
  handle = await openServerDatabase(database.url, { max: 2 });
});
afterAll(async () => {
  await handle?.close();
  await database?.drop();
});

const notify = (channel: string) => serverQuery(database.url, "select pg_notify($1, '')", [channel]);
const listeners = () =>
  serverQuery<{ pid: number }>(database.url, "select pid from pg_stat_activity where datname = current_database() and query ilike 'listen %'");

describe("LISTEN on the server", () => {
  it("hears notifications, comes back by itself after its connection is terminated, and hears them again", async () => {
    let heard = 0;
    const unlisten = await handle.listen("wake_test", () => heard++);
    try {
      await notify("wake_test");
      await notify("some_other_channel");
      await expect.poll(() => heard).toBe(1);

      const [listener] = await listeners();
      await serverQuery(database.url, "select pg_terminate_backend($1)", [listener!.pid]);
      // Reconnected: a new backend listens, and the caller is woken once for what it may have missed.
      await expect.poll(async () => (await listeners()).map((row) => row.pid).filter((pid) => pid !== listener!.pid), { timeout: 10_000 }).toHaveLength(1);
      await expect.poll(() => heard).toBe(2);
      await notify("wake_test");
      await expect.poll(() => heard).toBe(3);
    } finally {
      await unlisten();
    }
    await expect.poll(async () => (await listeners()).length).toBe(0);
    await notify("wake_test");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard).toBe(3);
  }, 30_000);
});
