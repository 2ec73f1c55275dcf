import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { openEmbeddedDatabase, openServerDatabase } from "../../src/server/db/open";
import type { DatabaseHandle } from "../../src/server/db/types";
import { embeddedTemplate } from "./embedded-template";
import { serverQuery } from "./server-admin";
import { databaseUrl } from "./server-url";

export type TestDatabaseKind = "embedded" | "server";

export function testDatabaseKind(): TestDatabaseKind {
  return process.env.TEST_DATABASE === "server" ? "server" : "embedded";
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite started from a copy of the migrated template
 * (embedded-template.ts), or a clone of the run's template database on the PostgreSQL server that is dropped
 * again on close.
 */
export async function openTestDatabase(options: { poolSize?: number } = {}): Promise<DatabaseHandle & { url?: string }> {
  if (testDatabaseKind() === "embedded") return openEmbeddedDatabase(undefined, { startFrom: await embeddedTemplate() });

  const serverUrl = process.env.TEST_SERVER_URL!;
  const template = inject("templateDatabase");
  const name = `${template.replace(/_tpl$/, "")}_${randomBytes(4).toString("hex")}`;
  await createFromTemplate(serverUrl, name, template);
  const url = databaseUrl(serverUrl, name);
  const handle = await openServerDatabase(url, { max: options.poolSize ?? 10 });
  return {
    ...handle,
    url,
    async close() {
      await handle.close();
      await serverQuery(serverUrl, `drop database if exists "${name}" with (force)`);
    },
  };
}

/** CREATE DATABASE … TEMPLATE fails while another clone is being made from it; retry briefly. */
async function createFromTemplate(serverUrl: string, name: string, template: string) {
  for (let attempt = 0; ; attempt++) {
    try {
      await serverQuery(serverUrl, `create database "${name}" template "${template}"`);
      return;
    } catch (error) {
      if (attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
    }
  }
}
