import { z } from "zod";

/**
 * An ISO 8601 instant or day the database can store and give back unchanged: years 100–9998 in UTC.
 * - Below 100: the drivers hand timestamps over as PostgreSQL's text (`0049-06-01 00:00:00+00`), and
 *   `new Date()` reads a year under 100 in that form as 19xx or 20xx — a payment confirmed as occurring in
 *   0049 came back as 2049. (Below 1, PostgreSQL has no year 0 and the query failed with a 500.)
 * - Above 9998: a JS Date past 9999 prints as `+010000-…`, which PostgreSQL cannot parse; a bound one day
 *   further (an exclusive end) must still fit.
 */
function inStorableRange(text: string): boolean {
  const year = new Date(text).getUTCFullYear();
  return year >= 100 && year <= 9998;
}

const RANGE_MESSAGE = "must be between the years 0100 and 9998";

export function isoInstantInput(options?: { offset?: boolean }) {
  return z.iso.datetime(options).refine(inStorableRange, RANGE_MESSAGE);
}

export function isoDayInput() {
  return z.iso.date().refine(inStorableRange, RANGE_MESSAGE);
}

/**
 * Refuses a time range whose start is after its end, on the start field (as stats refuses `from` after `to`):
 * such a range matches nothing, and a silent empty answer hides the caller's mistake. Equal bounds pass.
 */
export function startNotAfterEnd<K extends string>(startKey: K, endKey: K) {
  return (range: { [key in K]?: string }, ctx: z.RefinementCtx) => {
    const start = range[startKey];
    const end = range[endKey];
    if (start !== undefined && end !== undefined && Date.parse(start) > Date.parse(end)) {
      ctx.addIssue({ code: "custom", path: [startKey], message: `must not be after \`${endKey}\`` });
    }
  };
}
