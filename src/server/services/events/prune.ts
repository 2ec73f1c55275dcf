import { deleteEventsBefore } from "@/server/db/sql/events";
import type { Executor } from "@/server/db/types";

/** Events deleted per statement: a short transaction that locks few rows (and their deliveries and attempts). */
export const PRUNE_BATCH = 200;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The instant before which events are past the retention. */
export const retentionCutoff = (now: Date, retentionDays: number) => new Date(now.getTime() - retentionDays * DAY_MS);

/**
 * Deletes up to `limit` events older than the retention (docs/webhooks.md, "Event log"), oldest first, with their
 * deliveries and attempts. Whole days go by dropping their partitions (services/events/partitions.ts); this
 * deletes the rest row by row: rows of a default partition (written for a day whose partition was not made yet)
 * and events carried over from a dropped day because a delivery was still pending. An event with a delivery
 * still pending or in flight (an endpoint disabled for weeks defers its deliveries) is kept until that delivery
 * ends. Rows another pruner holds are skipped (SKIP LOCKED), so any number of workers prune at once.
 */
export async function pruneExpiredEvents(db: Executor, input: { now: Date; retentionDays: number; limit?: number }): Promise<number> {
  const cutoff = retentionCutoff(input.now, input.retentionDays).toISOString();
  return deleteEventsBefore(db, { cutoff, limit: input.limit ?? PRUNE_BATCH });
}
