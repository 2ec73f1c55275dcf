import { z } from "zod";

/**
 * An ISO 8601 instant or day the database can take: years 1–9998 in UTC. PostgreSQL has no year 0, and a
 * JS Date past 9999 prints as `+010000-…`, which PostgreSQL cannot parse; a bound one day further (an
 * exclusive end) must still fit. Outside that range the query failed and the caller saw a 500.
 */
function inStorableRange(text: string): boolean {
  const year = new Date(text).getUTCFullYear();
  return year >= 1 && year <= 9998;
}

const RANGE_MESSAGE = "must be between the years 0001 and 9998";

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
