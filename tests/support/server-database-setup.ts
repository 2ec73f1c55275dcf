import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { openServerDatabase } from "../../src/server/db/open";
import { databaseUrl, refuseNonLocal } from "./server-url";

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabase: string;
  }
}

/**
 * Once per run on the PostgreSQL server: create a migrated template database; each test file then
 * clones it (CREATE DATABASE … TEMPLATE, fast) and drops its clone. Teardown drops everything this run made.
 */
export default async function setup(project: TestProject) {
  // Global setup runs in the main process, where the project's `env` is not applied: read DATABASE_URL.
  const serverUrl = process.env.DATABASE_URL!;
  refuseNonLocal(serverUrl);
  const runPrefix = `mps_test_${process.pid}_${Date.now().toString(36)}`;
  const template = `${runPrefix}_tpl`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${template}"`);
  const handle = await openServerDatabase(databaseUrl(serverUrl, template), { max: 1 });
  await handle.close();
  project.provide("templateDatabase", template);

  return async () => {
    const rows = await admin<{ datname: string }[]>`
      select datname from pg_database where datname like ${runPrefix + "%"}`;
    for (const { datname } of rows) {
      await admin.unsafe(`drop database if exists "${datname}" with (force)`);
    }
    await admin.end();
  };
}
