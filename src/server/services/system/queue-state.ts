import { sql } from "drizzle-orm";
import { webhookDeliveries, webhookEndpointBreakers } from "@/server/db/schema";
import { rowsOf } from "@/server/db/rows";
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
 * The queue's state in one round trip of three counts: the due rows through the claim's partial index on
 * pending rows, the claimed ones through the lease index, the breakers (one row per failing endpoint). Read at
 * scrape time and by the staff System page; never on a request's path.
 */
export async function readQueueState(db: Executor, now: Date): Promise<QueueState> {
  const at = now.toISOString();
  const [row] = rowsOf<{ due: number; oldest: number | null; in_flight: number; open: number }>(
    await db.execute(sql`
      select due.n as due, due.oldest, flight.n as in_flight, open.n as open
      from (select count(*)::int as n, extract(epoch from min(d.next_attempt_at))::float8 as oldest
            from ${webhookDeliveries} d where d.status = 'pending' and d.next_attempt_at <= ${at}::text::timestamptz) due,
           (select count(*)::int as n from ${webhookDeliveries} d where d.status = 'delivering') flight,
           (select count(*)::int as n from ${webhookEndpointBreakers} b where b.open_until > ${at}::text::timestamptz) open`),
  );
  const oldest = row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest);
  return {
    due: Number(row?.due ?? 0),
    inFlight: Number(row?.in_flight ?? 0),
    oldestDueSeconds: oldest === null ? 0 : Math.max(0, now.getTime() / 1000 - oldest),
    breakersOpen: Number(row?.open ?? 0),
  };
}
