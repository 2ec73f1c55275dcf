import { mkdirSync } from "node:fs";
import path from "node:path";
import type { ClientConfig, Pool, PoolClient, PoolConfig } from "pg";
import { lockDataDir } from "./data-dir-lock";
import { listenReconnecting } from "./listener";
import { ReadRouting } from "./read-routing";
import { watchReplica, type ReplicaHandle } from "./replica";
import * as schema from "./schema";
import type { Database, DatabaseHandle } from "./types";

export const MIGRATIONS_FOLDER = path.join(process.cwd(), "drizzle");

/** node-postgres pool size: statements beyond it wait in the pool's queue for a connection. */
export const SERVER_POOL_SIZE = 10;

/**
 * Chosen, not defaulted (docs/decisions.md, "When the database goes away"): connecting gives up after 5 s, and so
 * does waiting for a pooled connection (node-postgres waits for ever by default); a pooled connection idle for 60 s
 * is closed; no statement runs longer than 15 s and no transaction sits idle longer than 15 s (the server ends it
 * and frees its locks). Every request's statements take milliseconds; these bound what a dead peer or a stuck query
 * can hold.
 */
export const SERVER_TIMEOUTS = { connectMs: 5_000, idleMs: 60_000, statementMs: 15_000, idleInTransactionMs: 15_000 };

/** Any fixed number: the session-level advisory lock that serialises migrations across processes. */
const MIGRATION_LOCK_ID = 724_011_3001;

/** What every connection of the service starts with: the connect timeout, and TCP keepalive on an idle socket. */
function connectionConfig(url: string): ClientConfig {
  return { connectionString: url, connectionTimeoutMillis: SERVER_TIMEOUTS.connectMs, keepAlive: true, keepAliveInitialDelayMillis: 60_000 };
}

/**
 * The pool's connections. The server-side timeouts travel in the startup message (node-postgres's own options).
 * `DateStyle` is set once per new connection: timestamps are read from PostgreSQL's text (schema/columns.ts), which
 * must be the ISO style whatever the server's, database's or role's default, and DateStyle is one of the settings
 * a pooler in transaction mode carries from session to session (docs/decisions.md, "Connection poolers").
 */
function poolConfig(url: string, max: number): PoolConfig {
  return {
    ...connectionConfig(url),
    max,
    idleTimeoutMillis: SERVER_TIMEOUTS.idleMs,
    statement_timeout: SERVER_TIMEOUTS.statementMs,
    idle_in_transaction_session_timeout: SERVER_TIMEOUTS.idleInTransactionMs,
    onConnect: async (client) => {
      await client.query("set datestyle to 'ISO, MDY'");
    },
  };
}

export interface ServerDatabaseOptions {
  /** Pool size (of the replica's pool too). */
  max?: number;
  /** A session connection to the primary when `url` goes through a pooler in transaction mode: migrations, LISTEN. */
  directUrl?: string;
  /** A streaming replica for the reads that may lag (db/read-routing.ts). */
  replicaUrl?: string;
}

export async function openServerDatabase(url: string, options: ServerDatabaseOptions = {}): Promise<DatabaseHandle> {
  const { default: pg } = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  // Web processes and workers may start together on a fresh database: migrate on one dedicated connection
  // holding an advisory lock, so the second process waits and then finds nothing to do. No statement timeout
  // here: a migration (an index build) or the wait for another process's may take longer than a request.
  // A session-level lock needs a session: behind a pooler in transaction mode, the direct connection.
  const sessionUrl = options.directUrl ?? url;
  const migrator = new pg.Client(connectionConfig(sessionUrl));
  await migrator.connect();
  try {
    await migrator.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
    await migrate(drizzle({ client: migrator }), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await migrator.end(); // ending the session releases the lock
  }
  const max = options.max ?? SERVER_POOL_SIZE;
  const pool = new pg.Pool(poolConfig(url, max));
  // A connection that fails while idle in the pool is dropped by the pool, which then emits the error here; one
  // that fails while checked out fails its statements (the caller sees that) and emits it on itself. Either way
  // nothing is left to do, but an 'error' event nobody listens to would end the process.
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  // Type parsing: drizzle reads timestamps, dates and intervals as PostgreSQL's text (our columns parse them);
  // everything else is node-postgres's default: numeric and bigint as exact strings (never a float), integer and
  // double precision as numbers, json as values. tests/server-only/driver-types.test.ts pins that.
  const db = drizzle({ client: pool, schema }) as unknown as Database;
  db.transaction = transactionOnOneConnection(pool, (client) => drizzle({ client, schema }) as unknown as Database);
  let replica: ReplicaHandle | undefined;
  if (options.replicaUrl) {
    const replicaPool = new pg.Pool(poolConfig(options.replicaUrl, max));
    replicaPool.on("error", () => {});
    replicaPool.on("connect", (client) => client.on("error", () => {}));
    replica = watchReplica(pool, replicaPool, drizzle({ client: replicaPool, schema }) as unknown as Database);
  }
  return {
    db,
    kind: "server",
    reads: new ReadRouting(db, replica),
    listen: (channel, onNotify) => listenReconnecting(() => new pg.Client(connectionConfig(sessionUrl)), channel, onNotify),
    close: async () => {
      await replica?.close();
      await pool.end();
    },
    // pg-pool's public counts: `totalCount` includes connections being opened.
    poolStats: () => ({ max, inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

/**
 * `db.transaction` on the pool: check a connection out, run drizzle's transaction on that connection, give it back.
 * Not drizzle's own transaction on a pool, which sends BEGIN before its try/finally: when BEGIN fails (the connection
 * died since it was last used: a restart, `pg_terminate_backend`) the connection is never given back, and the pool
 * is one connection smaller for good (tests/server-only/database-unreachable.test.ts, pool-recovery.test.ts).
 * pg-pool drops a connection that failed when it is given back. drizzle's instance for a connection is made once
 * per connection (building one reads the whole schema) and kept while the connection lives.
 */
function transactionOnOneConnection(pool: Pool, onConnection: (client: PoolClient) => Database): Database["transaction"] {
  const instances = new WeakMap<PoolClient, Database>();
  return async (work, config) => {
    const client = await pool.connect();
    try {
      let db = instances.get(client);
      if (!db) instances.set(client, (db = onConnection(client)));
      return await db.transaction(work, config);
    } finally {
      client.release();
    }
  };
}

/**
 * Embedded PostgreSQL (PGlite, WASM). `dataDir` undefined → in memory (tests).
 * One PGlite instance per data folder and process: callers keep the handle (see runtime.ts).
 * `startFrom`: a new database begins as a copy of this data folder (PGlite's `dumpDataDir` tarball) instead of an
 * empty cluster, then migrates as usual. The tests start each file from one migrated copy: creating a cluster
 * (initdb) costs seconds of CPU (docs/testing.md).
 */
export async function openEmbeddedDatabase(dataDir: string | undefined, { startFrom }: { startFrom?: Blob } = {}): Promise<DatabaseHandle> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  // pg_trgm: the payment search's trigram indexes (docs/dashboard.md, "Search"); the migration creates the extension.
  const options = { extensions: { pg_trgm }, loadDataDir: startFrom };
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
  return { db, kind: "embedded", reads: new ReadRouting(db), listen, close: () => client.close() };
}

export function openDatabase(config: { DATABASE_URL?: string; DATABASE_DIRECT_URL?: string; DATABASE_REPLICA_URL?: string; DATA_DIR: string }): Promise<DatabaseHandle> {
  return config.DATABASE_URL
    ? openServerDatabase(config.DATABASE_URL, { directUrl: config.DATABASE_DIRECT_URL, replicaUrl: config.DATABASE_REPLICA_URL })
    : openEmbeddedDatabase(config.DATA_DIR);
}
