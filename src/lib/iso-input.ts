import { z } from "zod";

/**
 * An ISO 8601 instant or day the database can store and give back unchanged: years 100–9998 in UTC.
 * - Below 100: no payment happened then, so such a year is a mistake. The bound was first set because the
 *   drivers' `new Date(text)` read 0049 back as 2049; timestamps are now read by `postgres-date`
 *   (`db/schema/columns.ts`), which reads every year as written, and the bound stays as a plausibility check.
 *   (Below 1, PostgreSQL has no year 0 and the query failed with a 500.)
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
