import { sql, type SQL } from "drizzle-orm";
import { dateFromPgText } from "./pg-timestamp";
import { rowsOf } from "./rows";
import type { Executor } from "./types";

/**
 * Hand-written SQL for the few hot paths where drizzle's query builder costs more than the query (the webhook
 * worker's claim and attempt records). `text` uses `$1…$n` placeholders; params are strings, numbers or null
 * (pass timestamps as ISO strings and cast them: `$1::timestamptz`), so both drivers bind them alike.
 *
 * On the root database the statement goes straight to the driver: postgres.js prepares it once per
 * connection (a named prepared statement, keyed by its text), PGlite runs it as is. Inside a transaction it
 * goes through drizzle's `execute`. Timestamps come back as PostgreSQL's text, json as each driver parses it —
 * read them with `asDate` / `asJson`.
 */
export type RawParam = string | number | null;

interface PostgresJsClient {
  unsafe(query: string, params: RawParam[], options: { prepare: boolean }): Promise<Record<string, unknown>[]>;
}
interface PGliteClient {
  query(query: string, params: RawParam[], options: { parsers: Record<number, (text: string) => unknown> }): Promise<{ rows: Record<string, unknown>[] }>;
}

// PGlite's own timestamp parser is `new Date(text)`, which misreads the years below 100 (db/pg-timestamp.ts):
// hand the text over as postgres.js under drizzle does, for `asDate` to read.
const asText = (text: string) => text;
const PGLITE_TEXT_TIMESTAMPS = { parsers: { 1114: asText, 1184: asText } };

export async function queryRows<T extends Record<string, unknown>>(db: Executor, text: string, params: RawParam[]): Promise<T[]> {
  const client = (db as { $client?: unknown }).$client;
  if (client && typeof (client as PostgresJsClient).unsafe === "function") {
    return [...(await (client as PostgresJsClient).unsafe(text, params, { prepare: true }))] as T[];
  }
  if (client && typeof (client as PGliteClient).query === "function") {
    return (await (client as PGliteClient).query(text, params, PGLITE_TEXT_TIMESTAMPS)).rows as T[];
  }
  return [...rowsOf<T>(await db.execute(toDrizzleSql(text, params)))];
}

/** `$n` placeholders → a drizzle SQL object with the same parameters (drizzle numbers them itself). */
function toDrizzleSql(text: string, params: RawParam[]): SQL {
  const chunks: SQL[] = [];
  let last = 0;
  for (const match of text.matchAll(/\$(\d+)/g)) {
    chunks.push(sql.raw(text.slice(last, match.index)));
    chunks.push(sql`${params[Number(match[1]) - 1]}`);
    last = match.index + match[0].length;
  }
  chunks.push(sql.raw(text.slice(last)));
  return sql.join(chunks);
}

/**
 * A timestamp column (PostgreSQL's text, as `queryRows` hands it over) as a Date. A `Date` here would have been
 * made by a driver's `new Date(text)`, the misreading `dateFromPgText` exists for: it fails instead of passing.
 */
export function asDate(value: unknown): Date {
  return dateFromPgText(value as string);
}

export function asDateOrNull(value: unknown): Date | null {
  return value === null || value === undefined ? null : asDate(value);
}

/** A json/jsonb column as a value, whichever way the driver returned it. */
export function asJson<T>(value: unknown): T {
  return (typeof value === "string" ? JSON.parse(value) : value) as T;
}
