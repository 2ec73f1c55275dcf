import { sql } from "drizzle-orm";
import { events, webhookDeliveries } from "@/server/db/schema";
import { rowsOf } from "@/server/db/rows";
import type { Executor } from "@/server/db/types";

/** Events deleted per statement: a short transaction that locks few rows (and their deliveries and attempts). */
export const PRUNE_BATCH = 200;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes up to `limit` events older than the retention (docs/webhooks.md, "Event log"), oldest first, with their
 * deliveries and attempts (foreign keys cascade). An event with a delivery still pending or in flight (an
 * endpoint disabled for weeks defers its deliveries) is kept until that delivery ends. Rows another pruner holds
 * are skipped (SKIP LOCKED), so any number of workers prune at once without waiting on each other.
 */
export async function pruneExpiredEvents(db: Executor, input: { now: Date; retentionDays: number; limit?: number }): Promise<number> {
  const cutoff = new Date(input.now.getTime() - input.retentionDays * DAY_MS).toISOString();
  const result = await db.execute(sql`
    delete from ${events} where id in (
      select e.id from ${events} e
      where e.created_at < ${cutoff}::text::timestamptz
        and not exists (
          select 1 from ${webhookDeliveries} d where d.event_id = e.id and d.status in ('pending', 'delivering')
        )
      order by e.created_at
      limit ${input.limit ?? PRUNE_BATCH}::int
      for update skip locked
    )
    returning id`);
  return rowsOf<{ id: string }>(result).length;
}
