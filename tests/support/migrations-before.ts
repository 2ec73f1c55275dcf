import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { MIGRATIONS_FOLDER } from "../../src/server/db/open";
import { testDatabaseKind } from "./database";
import { createServerDatabase } from "./server-admin";

/*
 * For a migration's test on a database holding the schema before it: a fresh database (PGlite, or with
 * DATABASE_URL a server database of its own) migrated to the migration before the one named, so the test can write
 * rows the old way, then `migrateToEnd()` and check what became of them.
 */

type Query = (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

export interface DatabaseBefore {
  query: Query;
  /** The drizzle database over the same connection, for code under test that takes one. */
  drizzle: unknown;
  migrateToEnd(): Promise<void>;
  close(): Promise<void>;
}

/** Opens a database migrated up to (not including) the migration whose tag ends with `migration`. */
export async function databaseBefore(migration: string): Promise<DatabaseBefore> {
  const folder = migrationsBefore(migration);
  const database = testDatabaseKind() === "server" ? await openServer(migration) : await openEmbedded();
  await database.migrate(folder);
  return {
    query: database.query,
    drizzle: database.drizzle,
    migrateToEnd: () => database.migrate(MIGRATIONS_FOLDER),
    close: async () => {
      await database.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * A migration test file's database before `migration`: opened before its tests (every migration from the first on a
 * fresh database, no template: up to a minute on two busy cores) and closed after them. Read it inside a test.
 */
export function useDatabaseBefore(migration: string): () => DatabaseBefore {
  let database: DatabaseBefore | undefined;
  beforeAll(async () => {
    database = await databaseBefore(migration);
  }, 180_000);
  afterAll(async () => {
    await database?.close();
  });
  return () => {
    if (!database) throw new Error(`the database before ${migration} is not open`);
    return database;
  };
}

/** A copy of the migrations folder whose journal ends just before `migration`. */
function migrationsBefore(migration: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), "mps-migrations-"));
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalPath = path.join(folder, "meta/_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { tag: string }[] };
  const index = journal.entries.findIndex((entry) => entry.tag.endsWith(migration));
  if (index <= 0) throw new Error(`no migration before "${migration}" in the journal`);
  journal.entries = journal.entries.slice(0, index);
  writeFileSync(journalPath, JSON.stringify(journal));
  return folder;
}

interface Migratable {
  query: Query;
  drizzle: unknown;
  migrate(folder: string): Promise<void>;
  close(): Promise<void>;
}

async function openEmbedded(): Promise<Migratable> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  // The extensions the app's embedded database loads (db/open.ts): earlier migrations create them.
  const client = await PGlite.create({ extensions: { pg_trgm } });
  const db = drizzle({ client });
  return {
    query: async (text, params) => (await client.query<Record<string, unknown>>(text, params)).rows,
    drizzle: db,
    migrate: (folder) => migrate(db, { migrationsFolder: folder }),
    close: () => client.close(),
  };
}

async function openServer(name: string): Promise<Migratable> {
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  const database = await createServerDatabase(name.replace(/\W/g, "_").slice(0, 20));
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const db = drizzle({ client });
  return {
    query: async (text, params) => (await client.query<Record<string, unknown>>(text, params)).rows,
    drizzle: db,
    migrate: (folder) => migrate(db, { migrationsFolder: folder }),
    close: async () => {
      await client.end();
      await database.drop();
    },
  };
}
