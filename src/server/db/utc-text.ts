/*
 * Timestamps read as PostgreSQL's own text of the UTC time, `(column at time zone 'UTC')::text`:
 * `2026-11-22 12:00:00.1234` (the fraction without trailing zeros, absent when zero), turned into ISO strings
 * in JS by slicing.
 *
 * Why not `to_char` or a `Date`: for a page of payments, `to_char(…)` on six columns of 21 rows cost PostgreSQL
 * more than reading the rows, and the driver's `new Date(text)` for each cost the server more than the rest of
 * the mapping (docs/decisions.md, "The two payment reads are hand-written SQL"). The text is the `ISO` DateStyle's, which the server connections pin
 * (db/open.ts) and PGlite has by default; anything else fails loudly here rather than render a wrong time.
 */

/** `2026-11-22 12:00:00.1234` → `2026-11-22T12:00:00.123Z`: what `Date#toISOString()` prints (truncated, not rounded). */
export function isoMillisFromUtcText(text: string): string {
  return isoFromUtcText(text, 3);
}

/** `2026-11-22 12:00:00.1234` → `2026-11-22T12:00:00.123400Z`: every microsecond PostgreSQL keeps (keyset cursors). */
export function isoMicrosFromUtcText(text: string): string {
  return isoFromUtcText(text, 6);
}

// Four-digit years only: input takes 0100–9998 (lib/iso-input.ts), and created and updated times are now().
const UTC_TEXT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d{1,6})?$/;

function isoFromUtcText(text: string, digits: 3 | 6): string {
  if (!UTC_TEXT.test(text)) throw new Error(`Not an ISO-style UTC timestamp from PostgreSQL: ${JSON.stringify(text)}`);
  const fraction = text.length > 20 ? text.slice(20, 20 + digits).padEnd(digits, "0") : "0".repeat(digits);
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${fraction}Z`;
}
