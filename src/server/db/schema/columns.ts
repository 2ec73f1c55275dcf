import { sql } from "drizzle-orm";
import { boolean, customType } from "drizzle-orm/pg-core";
import { dateFromPgText } from "../pg-timestamp";

/**
 * Every timestamp is `timestamptz`, surfaced as a JS Date and serialised as ISO 8601 UTC. A custom type rather
 * than drizzle's `timestamp(…, { mode: "date" })`, whose reader is `new Date(text)`: that reads the years below
 * 100 as 19xx/20xx (db/pg-timestamp.ts). The SQL type, and so the migrations, are the same.
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
