import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { MIGRATIONS_FOLDER, openEmbeddedDatabase } from "../../src/server/db/open";

/**
 * One migrated embedded database, kept as a tarball of its data folder, that every test's embedded database starts
 * from (a copy: `openEmbeddedDatabase(…, { startFrom })`). Creating a PGlite cluster (initdb) costs about 7 s of
 * CPU on a loaded 2-core machine; loading this copy about 1 s. The file is named after everything that shapes the
 * database — the PGlite version, the migrations, the code that opens it — so a change to any of them makes a new
 * one, and runs in between reuse it (docs/testing.md).
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const CACHE_FOLDER = path.join(ROOT, "node_modules/.cache/embedded-test-database");

export function embeddedTemplatePath(): string {
  const hash = createHash("sha256");
  const pgliteVersion = JSON.parse(readFileSync(path.join(ROOT, "node_modules/@electric-sql/pglite/package.json"), "utf8")).version;
  hash.update(`pglite ${pgliteVersion}\n`);
  hash.update(readFileSync(path.join(ROOT, "src/server/db/open.ts")));
  for (const file of filesUnder(MIGRATIONS_FOLDER)) hash.update(file).update(readFileSync(file));
  return path.join(CACHE_FOLDER, `${hash.digest("hex").slice(0, 16)}.tar`);
}

/** Makes the tarball unless it exists; returns its path. Safe to call from several processes at once. */
export async function ensureEmbeddedTemplate(): Promise<string> {
  const file = embeddedTemplatePath();
  if (existsSync(file)) return file;
  const handle = await openEmbeddedDatabase(undefined);
  try {
    const client = (handle.db as unknown as { $client: PGlite }).$client;
    await client.exec("checkpoint");
    const tarball = Buffer.from(await (await client.dumpDataDir("none")).arrayBuffer());
    mkdirSync(CACHE_FOLDER, { recursive: true });
    // Older templates are of no further use; a process that is reading one has it in memory already.
    for (const old of readdirSync(CACHE_FOLDER)) if (path.join(CACHE_FOLDER, old) !== file) rmSync(path.join(CACHE_FOLDER, old), { force: true });
    // Written aside and renamed: a reader sees the whole file or none.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, tarball);
    renameSync(partial, file);
  } finally {
    await handle.close();
  }
  return file;
}

let loaded: Blob | undefined;

/** The template's tarball, read once per test process. */
export async function embeddedTemplate(): Promise<Blob> {
  if (!loaded) {
    const file = await ensureEmbeddedTemplate();
    // Removed in between by a run that made a newer one (the code changed): make this one again.
    const bytes = existsSync(file) ? readFileSync(file) : readFileSync(await ensureEmbeddedTemplate());
    loaded = new Blob([bytes]);
  }
  return loaded;
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/** Vitest global setup of the embedded project: make the template once, before the test files run in parallel. */
export default async function setup() {
  await ensureEmbeddedTemplate();
}
