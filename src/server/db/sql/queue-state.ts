import { sql } from "drizzle-orm";
import { rowsOf } from "../rows";
import { webhookDeliveries, webhookEndpointBreakers } from "../schema";
import type { Executor } from "../types";

export interface QueueCounts {
  due: number;
  /** Epoch seconds of the oldest due delivery's due time (null when none is due). */
  oldest: number | null;
  in_flight: number;
  open: number;
}

/**
 * Three counts in one round trip: the due rows through the claim's partial index on pending rows, the claimed ones
 * through the lease index, the breakers (one row per failing endpoint).
 */
export async function selectQueueCounts(db: Executor, at: string): Promise<QueueCounts | undefined> {
  const [row] = rowsOf<QueueCounts>(
    await db.execute(sql`
      select due.n as due, due.oldest, flight.n as in_flight, open.n as open
      from (select count(*)::int as n, extract(epoch from min(d.next_attempt_at))::float8 as oldest
            from ${webhookDeliveries} d where d.status = 'pending' and d.next_attempt_at <= ${at}::text::timestamptz) due,
           (select count(*)::int as n from ${webhookDeliveries} d where d.status = 'delivering') flight,
           (select count(*)::int as n from ${webhookEndpointBreakers} b where b.open_until > ${at}::text::timestamptz) open`),
  );
  return row;
}
