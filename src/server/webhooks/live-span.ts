import type { LiveSpan } from "@/server/db/sql/claim-deliveries";
import { nextPeriod, periodStart } from "@/server/db/sql/log-partitions";

/**
 * The days a worker's claims look in (db/sql/claim-deliveries.ts: the partitions of deliveries pending or in
 * flight): the span the worker last read, which it re-reads once a second with its lease release rather than on
 * every claim, widened to today by its own clock, where new deliveries land. Reading the span walks the live
 * deliveries' day index whenever its statistics predate a burst (12 ms at 10,000 due: more than the claim itself,
 * which it held to ~420 deliveries/s for one endpoint, BENCHMARKS.md case 5), and it changes only when the oldest
 * live day's last delivery ends or a day begins. A delivery made due in a day outside the last span read (a retry of
 * an older event's delivery, a writer whose clock is past midnight before ours) is claimed after the next read, at
 * most a second later.
 */
export function withToday(read: LiveSpan | null, now: Date): LiveSpan {
  const today = periodStart(now, "day");
  const tomorrow = nextPeriod(today, "day");
  return {
    from: read && read.from < today ? read.from : today,
    to: read && read.to > tomorrow ? read.to : tomorrow,
  };
}
