/*
 * PostgreSQL's text of a `timestamptz` → a `Date`, for every timestamp the app reads through drizzle's columns
 * (schema/columns.ts) and through hand-written statements (raw.ts `asDate`).
 *
 * Why not `new Date(text)`, which drizzle and PGlite use: the text is not ISO 8601 (`0049-06-01 00:00:00+00`, a
 * space and a bare hour offset), so V8 reads it with its legacy parser, which takes a year below 100 for 19xx or
 * 20xx — 0049 came back as 2049 (docs/decisions.md). Here every field is read as written.
 *
 * Accepts the `ISO` DateStyle's output, which the server connections pin (db/open.ts) and PGlite has by default:
 * `YYYY-MM-DD HH:MM:SS[.ffffff][±HH[:MM[:SS]]][ BC]`. Anything else (another DateStyle, `infinity`) throws rather
 * than become a wrong time.
 */
const PG_TIMESTAMP_TEXT =
  /^(\d{4,})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(?:([+-])(\d{2})(?::(\d{2}))?(?::(\d{2}))?)?( BC)?$/;

export function dateFromPgText(text: string): Date {
  const match = PG_TIMESTAMP_TEXT.exec(text);
  if (!match) throw new Error(`Not an ISO-style timestamp from PostgreSQL: ${JSON.stringify(text)}`);
  const [, year, month, day, hour, minute, second, fraction, sign, offsetHours, offsetMinutes, offsetSeconds, bc] = match;
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC also maps the years 0–99 to 1900–1999. 1 BC is year 0 in ISO terms.
  date.setUTCFullYear(bc ? 1 - Number(year) : Number(year), Number(month) - 1, Number(day));
  date.setUTCHours(Number(hour), Number(minute), Number(second), fraction ? Number(fraction.slice(0, 3).padEnd(3, "0")) : 0);
  if (sign) {
    const offsetMs = ((Number(offsetHours) * 60 + Number(offsetMinutes ?? 0)) * 60 + Number(offsetSeconds ?? 0)) * 1000;
    date.setTime(date.getTime() - (sign === "+" ? offsetMs : -offsetMs));
  }
  return date;
}
