import net from "node:net";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseUrl } from "../support/server-url";

/**
 * postgres.js 3.4.9 kept a dead session's in-flight query when its socket reported an error (ECONNRESET)
 * before closing. A transaction's ROLLBACK, issued between the error and the close, stayed queued too; on
 * the reconnected session the next transaction's answers were credited to that stale query, so its insert,
 * waiting for a Describe answer, never sent Sync, and the server waited for it with no timeout. A request
 * hung for ever (issue 21's pool-recovery test, about one run in three). patches/postgres+3.4.9.patch fails
 * the dead session's queries on close; this pins it with a proxy that resets the client's connection.
 */
const STUCK_MS = 5_000;

let proxy: net.Server;
const clientSockets = new Set<net.Socket>();
let admin: postgres.Sql;
let name: string;
let proxiedUrl: string;

beforeAll(async () => {
  const serverUrl = process.env.TEST_SERVER_URL!;
  name = `mps_test_${process.pid}_${Date.now().toString(36)}_reset`;
  admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const target = new URL(serverUrl);
  proxy = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    clientSockets.add(client);
    client.on("close", () => (clientSockets.delete(client), upstream.destroy()));
    upstream.on("close", () => client.destroy());
    client.on("error", () => {});
    upstream.on("error", () => {});
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const url = new URL(databaseUrl(serverUrl, name));
  url.host = `127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
  proxiedUrl = url.toString();
});
afterAll(async () => {
  proxy?.close();
  await admin?.unsafe(`drop database if exists "${name}" with (force)`);
  await admin?.end();
});

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    work,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms).unref()),
  ]);
}

describe("postgres.js after a connection reset in the middle of a transaction", () => {
  it("fails the dead session's queries and runs the next transactions on the reconnected session", async () => {
    const sql = postgres(proxiedUrl, { max: 1, onnotice: () => {} });
    try {
      await sql`create table writes (id serial primary key, note text not null)`;
      for (let round = 0; round < 3; round++) {
        const dying = sql.begin(async (tx) => {
          await tx`insert into writes (note) values (${"lost"})`;
          await tx`select pg_sleep(2)`;
        });
        await new Promise((resolve) => setTimeout(resolve, 200));
        // A reset, not a clean close: the client sees 'error' (ECONNRESET) and only later 'close'.
        for (const socket of clientSockets) socket.resetAndDestroy();
        await expect(within(dying, STUCK_MS)).rejects.toMatchObject({ code: expect.stringMatching(/ECONNRESET|CONNECTION_CLOSED/) });

        const note = `kept ${round}`;
        await within(sql.begin((tx) => tx`insert into writes (note) values (${note})`), STUCK_MS);
        const stored = await within(sql<{ note: string }[]>`select note from writes order by id`, STUCK_MS);
        expect(stored.map((row) => row.note)).toEqual(Array.from({ length: round + 1 }, (_, i) => `kept ${i}`));
      }
    } finally {
      await sql.end({ timeout: 1 });
    }
  }, 60_000);
});
