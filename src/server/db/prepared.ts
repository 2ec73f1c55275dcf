import type { Executor } from "./types";

const statements = new WeakMap<Executor, Map<string, unknown>>();

/**
 * A hot statement, built by drizzle's builder with `sql.placeholder`s once per database (or transaction) it runs
 * on, then only executed with each request's values. Speed around the domain, kept for one benchmark target
 * (BENCHMARKS.md, "node-postgres against postgres.js": GET /payment/{id} and the list within 10 % of the CPU per
 * request before): building the select per request cost about 200 µs of CPU, a sixth of a GET.
 *
 * The statement is sent unnamed (drizzle's `.prepare` with an empty name, which node-postgres sends as the unnamed
 * statement, one round trip): nothing depends on a named prepared statement surviving on a connection, so poolers
 * in transaction mode work (docs/decisions.md, "Connection poolers"). `key` tells this cache's entries apart.
 */
export function preparedOn<P>(db: Executor, key: string, build: (db: Executor) => { prepare(name: string): P }): P {
  let byKey = statements.get(db);
  if (!byKey) statements.set(db, (byKey = new Map()));
  let statement = byKey.get(key) as P | undefined;
  if (statement === undefined) byKey.set(key, (statement = build(db).prepare("")));
  return statement;
}
