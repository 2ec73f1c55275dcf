import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import type { ReadRouting } from "./read-routing";
import type * as schema from "./schema";

type Schema = typeof schema;

/** Either driver (node-postgres or PGlite) behind one type: the same queries run on both. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** What service code receives: the database, or the transaction it is already inside. */
export type Executor = Database | Transaction;

export type DatabaseKind = "embedded" | "server";

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseKind;
  /** Where reads that may lag go: the replica when there is one and it is fresh enough for the reader. */
  reads: ReadRouting;
  /**
   * LISTEN on a channel (a connection of its own on the server; the instance itself when embedded): `onNotify`
   * runs for each notification; resolves with the way to stop listening. The webhook worker's wake-ups.
   */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  /** Closes the connection pool / embedded instance. */
  close(): Promise<void>;
  /**
   * The connection pool's state now (metrics); absent on the embedded database, which is one in-process
   * instance running one query at a time and exposes no queue (docs/operations.md).
   */
  poolStats?(): PoolStats;
}

export interface PoolStats {
  /** The configured maximum number of connections. */
  max: number;
  /** Connections open or opening and not idle: running a statement, held by a transaction, or connecting. */
  inUse: number;
  idle: number;
  /** Statements and transactions waiting for a connection. */
  waiting: number;
}
