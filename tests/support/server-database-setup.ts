import type { TestProject } from "vitest/node";
import { openServerDatabase } from "../../src/server/db/open";
import { serverQuery } from "./server-admin";
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
  await serverQuery(serverUrl, `create database "${template}"`);
  const handle = await openServerDatabase(databaseUrl(serverUrl, template), { max: 1 });
  await handle.close();
  project.provide("templateDatabase", template);

  return async () => {
    const rows = await serverQuery<{ datname: string }>(serverUrl, "select datname from pg_database where datname like $1", [`${runPrefix}%`]);
    for (const { datname } of rows) {
      await serverQuery(serverUrl, `drop database if exists "${datname}" with (force)`);
    }
  };
}
