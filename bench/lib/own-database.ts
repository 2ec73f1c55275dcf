import { randomBytes } from "node:crypto";
import { openEmbeddedDatabase, openServerDatabase } from "../../src/server/db/open";
import type { DatabaseHandle } from "../../src/server/db/types";
import { serverQuery } from "../../tests/support/server-admin";
import { databaseUrl, refuseNonLocal } from "../../tests/support/server-url";

/**
 * A database of the standalone bench scripts' own: on the local PostgreSQL server when `serverUrl` is given
 * (created here, dropped by `close`, unless BENCH_KEEP_DATABASE), else an in-memory PGlite.
 */
export async function openOwnDatabase(serverUrl: string | undefined, options: { max?: number } = {}): Promise<{ handle: DatabaseHandle; url?: string; close(): Promise<void> }> {
  if (!serverUrl) {
    const handle = await openEmbeddedDatabase(undefined);
    return { handle, close: () => handle.close() };
  }
  refuseNonLocal(serverUrl);
  const name = `mps_bench_${randomBytes(4).toString("hex")}`;
  await serverQuery(serverUrl, `create database "${name}"`);
  const url = databaseUrl(serverUrl, name);
  const handle = await openServerDatabase(url, options);
  return {
    handle,
    url,
    async close() {
      await handle.close();
      if (process.env.BENCH_KEEP_DATABASE) console.log(`kept database ${name}`);
      else await serverQuery(serverUrl, `drop database if exists "${name}" with (force)`);
    },
  };
}
