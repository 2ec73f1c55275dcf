import type { Executor } from "./types";

const statements = new WeakMap<Executor, Map<string, unknown>>();

/**
 * A hot statement, built by drizzle's builder with `sql.placeholder`s and `.prepare(name)`d once per database
 * (or transaction) it runs on, then only executed: no query building per request, and on the server a named
 * prepared statement (one round trip after its first use on a connection).
 */
export function preparedOn<T>(db: Executor, name: string, build: (db: Executor) => T): T {
  let byName = statements.get(db);
  if (!byName) statements.set(db, (byName = new Map()));
  let statement = byName.get(name) as T | undefined;
  if (statement === undefined) byName.set(name, (statement = build(db)));
  return statement;
}
