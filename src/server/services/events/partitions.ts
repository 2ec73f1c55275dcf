import { dropExpiredDays, ensureLogPartitions } from "@/server/db/sql/log-partitions";
import type { Executor } from "@/server/db/types";
import { retentionCutoff } from "./prune";

/** Days (and months, for the audit log) made ahead: a week of runs may fail before a write lands in a default partition. */
export const PARTITION_DAYS_AHEAD = 7;
export const PARTITION_MONTHS_AHEAD = 2;
/** The longest a day's drop waits for its moment of exclusive lock on the logs before giving up until the next run. */
export const DROP_LOCK_TIMEOUT_MS = 500;

/**
 * The logs' partitions (docs/operations.md, "Partitions and retention"): makes the coming days' partitions (and
 * a partition for any period that rows in a default partition fall in), then drops every day past the retention
 * whole, carrying over the few events still being delivered. Safe in any number of processes at once. Resolves
 * with how many partitions were made and days dropped.
 */
export async function maintainLogPartitions(db: Executor, input: { now: Date; retentionDays: number }): Promise<number> {
  const cutoff = retentionCutoff(input.now, input.retentionDays);
  const made = await ensureLogPartitions(db, { now: input.now, daysAhead: PARTITION_DAYS_AHEAD, monthsAhead: PARTITION_MONTHS_AHEAD, expiredBefore: cutoff });
  const dropped = await dropExpiredDays(db, { cutoff, lockTimeoutMs: DROP_LOCK_TIMEOUT_MS });
  return made + dropped.days;
}
