import { sql } from "drizzle-orm";
import type { DeliveryStatus } from "../schema";
import { rowsOf } from "../rows";
import { partitionKeyWithin } from "./literals";
import type { Executor } from "../types";

/** An attempted delivery, as claimed (its key and lease), and the state its attempt moves it to. */
export interface AttemptedDelivery {
  merchantId: string;
  id: string;
  /** The partition key, to the millisecond its Date holds (the column may hold microseconds). */
  eventCreatedAt: Date;
  /** The lease it was claimed with: the fencing token. */
  leaseExpiresAt: Date;
  next: {
    status: DeliveryStatus;
    attemptCount: number;
    nextAttemptAt: Date | null;
    lastStatusCode: number | null;
    lastError: string | null;
    deliveredAt: Date | null;
    failedAt: Date | null;
  };
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

/**
 * Moves a batch of attempted deliveries on in one statement (the worker's record, webhooks/record.ts), each only
 * while it is still `delivering` under the lease it was claimed with: a worker that lost its claim changes nothing.
 * Resolves with the ids that moved.
 *
 * One statement for the batch, not one per delivery: each statement on the partitioned table is planned anew, and
 * the planning was most of the record's cost on the database (BENCHMARKS.md, case 5, the sixth mend). The batch's
 * partition keys, as literal bounds, let the planner leave out every day's partition but theirs; the rows come from
 * a VALUES list whose size the planner knows, so it finds each by its primary key.
 */
export async function moveAttemptedDeliveries(db: Executor, batch: readonly AttemptedDelivery[], now: Date): Promise<Set<string>> {
  if (batch.length === 0) return new Set();
  const keys = batch.map((row) => row.eventCreatedAt.getTime());
  const within = partitionKeyWithin("d.event_created_at", new Date(Math.min(...keys)), new Date(Math.max(...keys) + 1));
  const values = sql.join(
    batch.map(
      ({ merchantId, id, eventCreatedAt, leaseExpiresAt, next }) => sql`(${merchantId}::text, ${id}::text, ${iso(eventCreatedAt)}::text::timestamptz,
        ${iso(leaseExpiresAt)}::text::timestamptz, ${next.status}::text, ${next.attemptCount}::int, ${iso(next.nextAttemptAt)}::text::timestamptz,
        ${next.lastStatusCode}::int, ${next.lastError}::text, ${iso(next.deliveredAt)}::text::timestamptz, ${iso(next.failedAt)}::text::timestamptz)`,
    ),
    sql`, `,
  );
  const moved = rowsOf<{ id: string }>(
    await db.execute(sql`
      update webhook_deliveries d
      set status = v.status, attempt_count = v.attempt_count, next_attempt_at = v.next_attempt_at,
        last_status_code = v.last_status_code, last_error = v.last_error, delivered_at = v.delivered_at, failed_at = v.failed_at,
        next_trigger = 'scheduled', lease_expires_at = null, updated_at = ${now.toISOString()}::text::timestamptz
      from (values ${values}) as v(merchant_id, id, event_created_at, lease_expires_at, status, attempt_count, next_attempt_at,
        last_status_code, last_error, delivered_at, failed_at)
      where d.merchant_id = v.merchant_id and d.id = v.id
        and d.event_created_at >= v.event_created_at and d.event_created_at < v.event_created_at + interval '1 millisecond'
        and ${within}
        and d.status = 'delivering' and d.lease_expires_at = v.lease_expires_at
      returning d.id`),
  );
  return new Set(moved.map((row) => row.id));
}
