/*
 * PostgreSQL's text of a `timestamptz` → a `Date`: the one way the app reads a timestamp, through drizzle's
 * columns (schema/columns.ts).
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
  return commonDate(text) ?? fullDate(text);
}

/**
 * The shape nearly every timestamp has, read without the regular expression (a page of 20 payments reads 120
 * timestamps; this is several times faster): a year from 1000 (which `Date.UTC` reads as written), at most
 * six digits of fraction, an offset of hours or hours and minutes. Anything else returns undefined for
 * `fullDate`.
 */
function commonDate(text: string): Date | undefined {
  if (text.length < 22 || text.charCodeAt(0) === ZERO || text[4] !== "-" || text[7] !== "-" || text[10] !== " " || text[13] !== ":" || text[16] !== ":") {
    return undefined;
  }
  let at = 19;
  let millis = 0;
  if (text[at] === ".") {
    let end = at + 1;
    while (end < text.length && end < at + 7 && isDigit(text.charCodeAt(end))) end++;
    const digits = end - at - 1;
    if (digits === 0) return undefined;
    millis = digitsAt(text, at + 1, Math.min(end, at + 4)) * (digits === 1 ? 100 : digits === 2 ? 10 : 1);
    at = end;
  }
  const sign = text[at];
  const rest = text.length - at;
  if ((sign !== "+" && sign !== "-") || (rest !== 3 && (rest !== 6 || text[at + 3] !== ":"))) return undefined;
  const offsetMinutes = digitsAt(text, at + 1, at + 3) * 60 + (rest === 6 ? digitsAt(text, at + 4, at + 6) : 0);
  const time = Date.UTC(
    digitsAt(text, 0, 4),
    digitsAt(text, 5, 7) - 1,
    digitsAt(text, 8, 10),
    digitsAt(text, 11, 13),
    digitsAt(text, 14, 16) - (sign === "+" ? offsetMinutes : -offsetMinutes),
    digitsAt(text, 17, 19),
    millis,
  );
  return Number.isNaN(time) ? undefined : new Date(time);
}

const ZERO = 48;
const isDigit = (code: number) => code >= ZERO && code <= ZERO + 9;

/** The number the digits of `text` from `start` to `end` spell; NaN if one is not a digit. */
function digitsAt(text: string, start: number, end: number): number {
  let value = 0;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (!isDigit(code)) return NaN;
    value = value * 10 + code - ZERO;
  }
  return value;
}

function fullDate(text: string): Date {
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
