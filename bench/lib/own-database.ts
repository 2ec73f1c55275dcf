import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { openEmbeddedDatabase, openServerDatabase } from "../../src/server/db/open";
import type { DatabaseHandle } from "../../src/server/db/types";
import { databaseUrl, refuseNonLocal } from "../../tests/support/server-url";

/**
 * A database of the standalone bench scripts' own: on the local PostgreSQL server when `serverUrl` is given
 * (created here, dropped by `close`, unless BENCH_KEEP_DATABASE), else an in-memory PGlite.
 */
export async function openOwnDatabase(serverUrl: string | undefined, options: { max?: number } = {}): Promise<{ handle: DatabaseHandle; close(): Promise<void> }> {
  if (!serverUrl) {
    const handle = await openEmbeddedDatabase(undefined);
    return { handle, close: () => handle.close() };
  }
  refuseNonLocal(serverUrl);
  const name = `mps_bench_${randomBytes(4).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const handle = await openServerDatabase(databaseUrl(serverUrl, name), options);
  return {
    handle,
    async close() {
      await handle.close();
      if (process.env.BENCH_KEEP_DATABASE) console.log(`kept database ${name}`);
      else await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}
