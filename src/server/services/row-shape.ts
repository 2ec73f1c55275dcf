import { z } from "zod";

/** Timestamps in answers: ISO 8601 UTC with milliseconds (docs/api-contract.md, "Conventions"). */
export const isoTimestamp = z.iso.datetime();

/**
 * A row as the shape `schema` describes (a schema derived from the table with drizzle-zod): the schema's fields
 * in its order, nothing else of the row. With `isoDates`, `Date`s become ISO 8601 UTC strings (REST and webhook
 * JSON); without, they stay `Date`s (tRPC carries them with superjson). Adding a column to the table and the
 * schema's derivation is all a new field needs.
 */
export function rowShape<S extends z.ZodObject, Row extends { [K in keyof z.infer<S>]: unknown }, Shape = z.infer<S>>(
  schema: S,
  options: { isoDates: boolean },
): (row: Row) => Shape {
  const fields = Object.keys(schema.shape) as (keyof Row & string)[];
  return (row) => {
    const shaped: Record<string, unknown> = {};
    for (const field of fields) {
      const value = row[field];
      shaped[field] = options.isoDates && value instanceof Date ? value.toISOString() : value;
    }
    return shaped as Shape;
  };
}
