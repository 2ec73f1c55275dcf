import { getTableColumns, type Table } from "drizzle-orm";
import { z } from "zod";

/*
 * One shape per entity (src/server/services/README.md, "Entity shapes"). An entity's shape is a zod schema
 * derived from its table in `services/<entity>/schemas.ts`:
 *
 *   createSelectSchema(table, { ...isoTimestamps(table), <refinements> })   the row, typed by its columns
 *     .omit({ <columns clients never see> }).extend({ <fields computed from the row> }).meta({ id: "<Entity>" })
 *
 * and `to<Entity> = rowShape(schema)` turns a row into it. REST answers, tRPC `.output()`, webhook `data`, the
 * OpenAPI component (named by the `id`), the SDK's types and the dashboard's (inferRouterOutputs) all come from
 * that one schema: a new column is one edit to the table (and its migration), then `npm run sdk:generate`.
 */

/** Timestamps in answers: ISO 8601 UTC with milliseconds (docs/api-contract.md, "Conventions"). */
export const isoTimestamp = z.iso.datetime();

/** A JSON object column (`metadata`, an event's `data`): drizzle-zod would allow any JSON value. */
export const jsonObject = z.record(z.string(), z.unknown());

type TimestampColumn<T extends Table> = {
  [K in keyof T["_"]["columns"]]: T["_"]["columns"][K]["_"]["data"] extends Date ? K : never;
}[keyof T["_"]["columns"]];

/**
 * The drizzle-zod refinements that show every timestamp column of `table` as an ISO 8601 string (drizzle-zod
 * sees our `timestamptz` custom type as `any`); nullable columns stay nullable.
 */
export function isoTimestamps<T extends Table>(table: T): { [K in TimestampColumn<T>]: () => typeof isoTimestamp } {
  const refinements: Record<string, () => typeof isoTimestamp> = {};
  for (const [name, column] of Object.entries(getTableColumns(table))) {
    if (column.getSQLType() === "timestamp with time zone") refinements[name] = () => isoTimestamp;
  }
  return refinements as { [K in TimestampColumn<T>]: () => typeof isoTimestamp };
}

/**
 * `schema` with a description on some of its fields, each kept in its place; for derived fields whose type
 * comes from the column (a description given inside a drizzle-zod refinement would sit under its `null` branch).
 */
export function describeFields<S extends z.ZodObject>(schema: S, descriptions: { [K in keyof S["shape"]]?: string }): S {
  const described = Object.fromEntries(
    Object.entries(descriptions).map(([field, description]) => [field, (schema.shape[field] as z.ZodType).describe(description as string)]),
  );
  return schema.extend(described) as unknown as S;
}

/**
 * A row as the shape `schema` describes: the schema's fields in its order, nothing else of the row, and every
 * `Date` as an ISO 8601 UTC string. The same value goes to REST's JSON, tRPC (superjson) and webhook `data`.
 * `Row` supplies each field: the table's row, plus the computed fields the caller adds to it.
 */
export function rowShape<S extends z.ZodObject, Row extends { [K in keyof z.infer<S>]: unknown }>(schema: S): (row: Row) => z.infer<S> {
  const fields = Object.keys(schema.shape) as (keyof Row & string)[];
  return (row) => {
    const shaped: Record<string, unknown> = {};
    for (const field of fields) {
      const value = row[field];
      shaped[field] = value instanceof Date ? value.toISOString() : value;
    }
    return shaped as z.infer<S>;
  };
}
