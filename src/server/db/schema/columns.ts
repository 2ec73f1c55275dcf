import { sql } from "drizzle-orm";
import { boolean, customType } from "drizzle-orm/pg-core";
import parsePostgresDate from "postgres-date";

/**
 * PostgreSQL's text of a `timestamptz` → a `Date`, with node-postgres's own reader (postgres-date). Not
 * `new Date(text)`, drizzle's and PGlite's reader: the text is not ISO 8601 (`0049-06-01 00:00:00+00`), so V8
 * reads it with its legacy parser, which takes a year below 100 for 19xx or 20xx (0049 came back as 2049:
 * docs/decisions.md). The text is the ISO DateStyle's, which server connections pin (db/open.ts) and PGlite has by
 * default; a text of another style, or `infinity`, throws rather than become a wrong time or a non-Date.
 */
export function dateFromPgText(text: string): Date {
  const date = parsePostgresDate(text);
  if (date instanceof Date && !Number.isNaN(date.getTime())) return date;
  throw new Error(`Not an ISO-style timestamp from PostgreSQL: ${JSON.stringify(text)}`);
}

/**
 * Every timestamp is `timestamptz`, surfaced as a JS Date and serialised as ISO 8601 UTC. A custom type rather
 * than drizzle's `timestamp(…, { mode: "date" })`, whose reader is `new Date(text)` (above). The SQL type, and so
 * the migrations, are the same.
 */
const timestamptzType = customType<{ data: Date; driverData: string }>({
  dataType: () => "timestamp with time zone",
  // Both drivers hand drizzle the text (drizzle turns their timestamp parsers off).
  fromDriver: dateFromPgText,
  toDriver: (value) => value.toISOString(),
});

export const timestamptz = (name: string) => timestamptzType(name);

export const createdAt = () => timestamptz("created_at").notNull().default(sql`now()`);
export const updatedAt = () => timestamptz("updated_at").notNull().default(sql`now()`);

/**
 * Test mode (docs/test-mode.md): `false` on everything made with an `sk_test_` key or in the dashboard's test
 * mode. Rows from before test mode existed are live. Every merchant-scoped read filters on it next to merchant_id.
 */
export const livemode = () => boolean("livemode").notNull().default(true);
