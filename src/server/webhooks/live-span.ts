import { DAY_MS, liveSpan, type LiveSpan } from "@/server/db/sql/claim-deliveries";
import type { Executor } from "@/server/db/types";

/**
 * The days a worker's claims look in (db/sql/claim-deliveries.ts: the partitions of deliveries pending or in
 * flight), re-read once per `refreshMs` rather than by every claim. Reading them walks the live deliveries' day
 * index whenever its statistics predate a burst (12 ms at 10,000 due: more than the claim itself, which it held to
 * ~420 deliveries/s for one endpoint, BENCHMARKS.md case 5), and they change only when the oldest live day's last
 * delivery ends or a day begins. Today, by this worker's clock, is always in the span: new deliveries land there.
 * A delivery made due in a day outside the last span read (a retry of an older event's delivery, a writer whose
 * clock is past midnight before ours) is claimed after the next read, at most `refreshMs` later.
 */
export function createLiveSpanReader(refreshMs: number) {
  let read: LiveSpan | null = null;
  let readAt = -Infinity;
  return async (db: Executor, now: Date): Promise<LiveSpan> => {
    if (Math.abs(now.getTime() - readAt) >= refreshMs) {
      read = await liveSpan(db);
      readAt = now.getTime();
    }
    const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
    return {
      from: new Date(Math.min(read?.from.getTime() ?? today, today)),
      to: new Date(Math.max(read?.to.getTime() ?? today + DAY_MS, today + DAY_MS)),
    };
  };
}
