import { selectQueueCounts } from "@/server/db/sql/queue-state";
import type { Executor } from "@/server/db/types";

export interface QueueState {
  /** Pending deliveries whose time has come. */
  due: number;
  /** Deliveries claimed by a worker. */
  inFlight: number;
  /** Seconds the oldest due delivery has waited (0 when none). */
  oldestDueSeconds: number;
  /** Endpoints whose breaker is open now. */
  breakersOpen: number;
}

/**
 * The queue's state in one round trip of three counts (db/sql/queue-state.ts). Read at scrape time and by the staff
 * System page; never on a request's path.
 */
export async function readQueueState(db: Executor, now: Date): Promise<QueueState> {
  const row = await selectQueueCounts(db, now.toISOString());
  const oldest = row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest);
  return {
    due: Number(row?.due ?? 0),
    inFlight: Number(row?.in_flight ?? 0),
    oldestDueSeconds: oldest === null ? 0 : Math.max(0, now.getTime() / 1000 - oldest),
    breakersOpen: Number(row?.open ?? 0),
  };
}
