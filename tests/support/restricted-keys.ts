import { sql } from "drizzle-orm";
import { RESTRICTED_KEY_RESOURCES, type RestrictedKeyResource, type ScopeLevel } from "../../src/lib/restricted-key-scopes";
import type { Database } from "../../src/server/db/types";
import { createApiKey } from "../../src/server/services/api-keys/create";
import { revokeApiKey } from "../../src/server/services/api-keys/revoke";
import { SCOPE_REFUSAL_ACTION } from "../../src/server/services/audit/record-scope-refusal";
import { merchantUser, serviceContext } from "./context";
import { rowsOf } from "./dump";
import type { TestRuntime } from "./runtime";

export type Scopes = Partial<Record<RestrictedKeyResource, ScopeLevel>>;

/** The resource and level a permission names (`refunds.write` → refunds, write); the resource may be no scope's. */
export function scopeOf(permission: string): { resource: string; level: "read" | "write"; scopable: boolean } {
  const dot = permission.lastIndexOf(".");
  const resource = permission.slice(0, dot);
  return {
    resource,
    level: permission.slice(dot + 1) === "write" ? "write" : "read",
    scopable: (RESTRICTED_KEY_RESOURCES as readonly string[]).includes(resource),
  };
}

/**
 * The widest scopes that still lack `permission`: `write` on every other resource, and on the permission's own
 * resource one level below what it needs (`read` for a `.write`, `none` for a `.read`).
 */
export function scopesLacking(permission: string): Scopes {
  const { resource, level } = scopeOf(permission);
  return Object.fromEntries(
    RESTRICTED_KEY_RESOURCES.map((candidate) => [candidate, candidate !== resource ? "write" : level === "write" ? "read" : "none"]),
  ) as Scopes;
}

/** The narrowest scopes that grant `permission`: its resource at its level, nothing else. */
export function scopesGranting(permission: string): Scopes {
  const { resource, level } = scopeOf(permission);
  return { [resource]: level } as Scopes;
}

/**
 * Makes a restricted key for the merchant (through the service, as the dashboard does), hands it to `use`, and revokes
 * it afterwards so a suite of many routes stays under the cap on active keys.
 */
export async function withRestrictedKey<T>(
  runtime: TestRuntime,
  merchantId: string,
  options: { mode: "live" | "test"; scopes: Scopes },
  use: (key: string, keyId: string) => Promise<T>,
): Promise<T> {
  const ctx = serviceContext(runtime, merchantUser(merchantId));
  const made = await createApiKey({ ctx, input: { name: "security suite: restricted", mode: options.mode, scopes: options.scopes } });
  try {
    return await use(made.key, made.apiKey.id);
  } finally {
    await revokeApiKey({ ctx, input: { id: made.apiKey.id } });
  }
}

/**
 * Every row of every table, each table's rows sorted, for "nothing changed" checks. A key's `last_used_at` is left
 * out: authenticating records use (at most once a minute) whatever the request's fate. So are a restricted key's
 * refusals in the audit log and its partitions (`api_key.scope_refused`, the refusal's own record, checked where it is made) and the
 * chains' heads they move; any other audit row still counts as a change.
 */
export async function snapshotTables(db: Database): Promise<Record<string, string[]>> {
  const tables = rowsOf<{ table_name: string }>(
    await db.execute(sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`),
  );
  const snapshot: Record<string, string[]> = {};
  for (const { table_name } of tables) {
    const rows = rowsOf<Record<string, unknown>>(await db.execute(sql.raw(`select * from "${table_name}"`)));
    if (table_name === "audit_chain_heads") continue;
    const kept = table_name === "audit_log" || table_name.startsWith("audit_log_") ? rows.filter((row) => row.action !== SCOPE_REFUSAL_ACTION) : rows;
    snapshot[table_name] = kept.map((row) => JSON.stringify(table_name === "api_keys" ? { ...row, last_used_at: null } : row)).sort();
  }
  return snapshot;
}
