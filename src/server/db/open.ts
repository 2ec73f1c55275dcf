import { mkdirSync } from "node:fs";
import path from "node:path";
import { lockDataDir } from "./data-dir-lock";
import { preparingClient } from "./prepared-client";
import * as schema from "./schema";
import type { Database, DatabaseHandle, PoolStats } from "./types";

export const MIGRATIONS_FOLDER = path.join(process.cwd(), "drizzle");

/** postgres.js pool size: in-flight queries beyond it queue up inside the driver. */
export const SERVER_POOL_SIZE = 10;

/**
 * Chosen, not defaulted (docs/decisions.md, "When the database goes away"): a connection attempt gives up after
 * 5 s (postgres.js waits 30 s); a pooled connection idle for 60 s is closed; no statement runs longer than 15 s
 * and no transaction sits idle longer than 15 s (the server ends it and frees its locks). Every request's
 * statements take milliseconds; these bound what a dead peer or a stuck query can hold.
 */
export const SERVER_TIMEOUTS = { connectSeconds: 5, idleSeconds: 60, statementMs: 15_000, idleInTransactionMs: 15_000 };

/** Any fixed number: the session-level advisory lock that serialises migrations across processes. */
const MIGRATION_LOCK_ID = 724_011_3001;

export async function openServerDatabase(url: string, options: { max?: number } = {}): Promise<DatabaseHandle> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  // Web processes and workers may start together on a fresh database: migrate on one dedicated
  // connection holding an advisory lock, so the second process waits and then finds nothing to do.
  const migrator = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await migrator`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
    await migrate(drizzle({ client: migrator }), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await migrator.end({ timeout: 5 }); // ending the session releases the lock
  }
  const client = postgres(url, {
    max: options.max ?? SERVER_POOL_SIZE,
    onnotice: () => {},
    // When the server is gone, fail fast (503 + Retry-After) rather than queue requests behind a 30 s connect:
    // docs/decisions.md, "When the database goes away".
    connect_timeout: SERVER_TIMEOUTS.connectSeconds,
    idle_timeout: SERVER_TIMEOUTS.idleSeconds,
    connection: {
      // Timestamps are read as PostgreSQL's text (db/pg-timestamp.ts), which needs the ISO style, whatever the
      // server's or the database's default (a startup setting wins).
      DateStyle: "ISO, MDY",
      statement_timeout: SERVER_TIMEOUTS.statementMs,
      idle_in_transaction_session_timeout: SERVER_TIMEOUTS.idleInTransactionMs,
    },
  });
  const db = drizzle({ client: preparingClient(client), schema }) as unknown as Database;
  const listen = async (channel: string, onNotify: () => void) => (await client.listen(channel, onNotify)).unlisten;
  // `stats` is ours: patches/postgres+3.4.9.patch exposes the pool's private queues (docs/decisions.md).
  const poolStats = (client as unknown as { stats: () => PoolStats }).stats;
  return { db, kind: "server", listen, close: () => client.end({ timeout: 5 }), poolStats };
}

/**
 * Embedded PostgreSQL (PGlite, WASM). `dataDir` undefined → in memory (tests).
 * One PGlite instance per data folder and process: callers keep the handle (see runtime.ts).
 */
export async function openEmbeddedDatabase(dataDir: string | undefined): Promise<DatabaseHandle> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  // pg_trgm: the payment search's trigram indexes (docs/dashboard.md, "Search"); the migration creates the extension.
  const options = { extensions: { pg_trgm } };
  if (!dataDir) return embeddedHandle(await PGlite.create(options), drizzle, migrate);
  const folder = path.resolve(dataDir, "pglite");
  mkdirSync(folder, { recursive: true });
  // Before PGlite reads a byte: a second process on this folder refuses here (db/data-dir-lock.ts).
  const lock = lockDataDir(path.resolve(dataDir));
  try {
    const handle = await embeddedHandle(await PGlite.create(folder, options), drizzle, migrate);
    return { ...handle, close: () => handle.close().finally(() => lock.release()) };
  } catch (error) {
    lock.release();
    throw error;
  }
}

async function embeddedHandle(
  client: import("@electric-sql/pglite").PGlite,
  drizzle: typeof import("drizzle-orm/pglite").drizzle,
  migrate: typeof import("drizzle-orm/pglite/migrator").migrate,
): Promise<DatabaseHandle> {
  const db = drizzle({ client, schema }) as unknown as Database;
  await migrate(db as never, { migrationsFolder: MIGRATIONS_FOLDER });
  const listen = async (channel: string, onNotify: () => void) => {
    const unlisten = await client.listen(channel, onNotify);
    return () => unlisten();
  };
  return { db, kind: "embedded", listen, close: () => client.close() };
}

export function openDatabase(config: { DATABASE_URL?: string; DATA_DIR: string }): Promise<DatabaseHandle> {
  return config.DATABASE_URL
    ? openServerDatabase(config.DATABASE_URL)
    : openEmbeddedDatabase(config.DATA_DIR);
}
