import { mkdirSync } from "node:fs";
import path from "node:path";
import * as schema from "./schema";
import type { Database, DatabaseHandle } from "./types";

export const MIGRATIONS_FOLDER = path.join(process.cwd(), "drizzle");

/** postgres.js pool size: in-flight queries beyond it queue up inside the driver. */
export const SERVER_POOL_SIZE = 10;

export async function openServerDatabase(url: string, options: { max?: number } = {}): Promise<DatabaseHandle> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  const client = postgres(url, {
    max: options.max ?? SERVER_POOL_SIZE,
    onnotice: () => {},
  });
  const db = drizzle({ client, schema }) as unknown as Database;
  await migrate(db as never, { migrationsFolder: MIGRATIONS_FOLDER });
  return { db, kind: "server", close: () => client.end({ timeout: 5 }) };
}

/**
 * Embedded PostgreSQL (PGlite, WASM). `dataDir` undefined → in memory (tests).
 * One PGlite instance per data folder and process: callers keep the handle (see runtime.ts).
 */
export async function openEmbeddedDatabase(dataDir: string | undefined): Promise<DatabaseHandle> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  let client;
  if (dataDir) {
    const folder = path.resolve(dataDir, "pglite");
    mkdirSync(folder, { recursive: true });
    client = await PGlite.create(folder);
  } else {
    client = await PGlite.create();
  }
  const db = drizzle({ client, schema }) as unknown as Database;
  await migrate(db as never, { migrationsFolder: MIGRATIONS_FOLDER });
  return { db, kind: "embedded", close: () => client.close() };
}

export function openDatabase(config: { DATABASE_URL?: string; DATA_DIR: string }): Promise<DatabaseHandle> {
  return config.DATABASE_URL
    ? openServerDatabase(config.DATABASE_URL)
    : openEmbeddedDatabase(config.DATA_DIR);
}
