import type { Sql, TransactionSql } from "postgres";

/**
 * A postgres.js client whose `unsafe()` queries are prepared (named, cached per connection).
 *
 * Why: drizzle runs every statement that was not built with `.prepare(name)` through
 * `client.unsafe(sql, params, { prepare: false })`. postgres.js then sends a parameterised statement as an
 * unnamed Parse + Describe, waits for the answer, and only then Bind + Execute: two round trips, and a parse
 * and plan on the server, for every statement, every time. Prepared, the same statement is one round trip
 * after its first use on a connection and is parsed once — as postgres.js does by default for its own tagged
 * queries. Measured on a confirm (BENCHMARKS.md, case 2). drizzle generates the same text for the same query
 * shape, so the per-connection cache stays bounded by the number of query shapes.
 *
 * Deployment note (docs/decisions.md): named prepared statements need a session, or PgBouncer ≥ 1.21 with
 * `max_prepared_statements`, between the app and PostgreSQL.
 */
export function preparingClient<T extends Sql | TransactionSql>(client: T): T {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === "unsafe") {
        return (query: string, params?: unknown[], options?: Record<string, unknown>) =>
          target.unsafe(query, (params ?? []) as never[], { ...options, prepare: true });
      }
      // Transactions and savepoints hand their callback a client of their own: prepare on it too.
      if (property === "begin" || property === "savepoint") {
        const original = Reflect.get(target, property, receiver) as (...args: unknown[]) => unknown;
        return (...args: unknown[]) => {
          const callback = args.pop() as (tx: TransactionSql) => unknown;
          return original(...args, (tx: TransactionSql) => callback(preparingClient(tx)));
        };
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}
