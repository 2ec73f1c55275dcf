import { sql } from "drizzle-orm";
import { customType } from "drizzle-orm/pg-core";
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
