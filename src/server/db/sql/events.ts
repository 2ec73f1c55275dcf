import { sql } from "drizzle-orm";
import { rowsOf } from "../rows";
import { idArray } from "./literals";
import { deliveryAttempts, events, webhookDeliveries, webhookEndpoints, type EventRow } from "../schema";
import type { Executor } from "../types";

/**
 * The transactional outbox's write (services/events/emit.ts) in one statement: the event is inserted in a CTE and
 * one pending delivery per enabled endpoint of the merchant and mode with a URL that subscribes to the type, with
 * the ids given (`deliveryIds[n]` for the n-th endpoint by age, at most `deliveryIds.length`). Each delivery
 * inserted notifies `wakeChannel` at commit. Returns the deliveries' ids.
 */
export async function insertEventWithDeliveries(
  db: Executor,
  input: { event: EventRow; deliveryIds: readonly string[]; exceptEndpointId: string | null; traceParent: string | null; wakeChannel: string },
): Promise<string[]> {
  const { event, deliveryIds: ids } = input;
  const { merchantId, livemode } = event;
  const at = event.createdAt.toISOString();
  const result = await db.execute(sql`
    with new_event as (
      insert into ${events} (id, merchant_id, livemode, type, data, subject_id, created_at)
      values (${event.id}, ${merchantId}, ${livemode}, ${event.type}, ${JSON.stringify(event.data)}::text::jsonb, ${event.subjectId}, ${at}::text::timestamptz)
    ), targets as (
      select e.id, e.url, row_number() over (order by e.created_at, e.id) as n
      from ${webhookEndpoints} e
      where e.merchant_id = ${merchantId} and e.livemode = ${livemode} and e.url is not null and e.status = 'enabled'
        and (e.event_types is null or ${event.type}::text = any(e.event_types))
        and e.id is distinct from ${input.exceptEndpointId}::text
    )
    insert into ${webhookDeliveries} (id, merchant_id, livemode, event_id, event_created_at, endpoint_id, url, status, next_attempt_at, trace_parent, created_at, updated_at)
    select (${idArray(ids)})[t.n], ${merchantId}, ${livemode}, ${event.id}, ${at}::text::timestamptz, t.id, t.url, 'pending', ${at}::text::timestamptz, ${input.traceParent}, ${at}::text::timestamptz, ${at}::text::timestamptz
    from targets t
    where t.n <= ${ids.length}::int
    returning id, pg_notify(${input.wakeChannel}, '')::text as woke`);
  return rowsOf<{ id: string }>(result).map((row) => row.id);
}

/**
 * Deletes up to `limit` events created before `cutoff` (ISO text), oldest first, with their deliveries and attempts,
 * keeping any with a delivery still pending or in flight; skips rows another pruner holds. Returns how many it
 * deleted. The rows it finds are the few a day's partition did not hold (db/sql/log-partitions.ts): whole days go
 * by dropping partitions. One statement: the logs have no foreign keys between them to cascade.
 */
export async function deleteEventsBefore(db: Executor, input: { cutoff: string; limit: number }): Promise<number> {
  const result = await db.execute(sql`
    with doomed as (
      select e.merchant_id, e.id, e.created_at from ${events} e
      where e.created_at < ${input.cutoff}::text::timestamptz
        and not exists (
          select 1 from ${webhookDeliveries} d
          where d.merchant_id = e.merchant_id and d.event_id = e.id and d.event_created_at = e.created_at and d.status in ('pending', 'delivering')
        )
      order by e.created_at
      limit ${input.limit}::int
      for update skip locked
    ), doomed_deliveries as (
      delete from ${webhookDeliveries} d using doomed
      where d.merchant_id = doomed.merchant_id and d.event_id = doomed.id and d.event_created_at = doomed.created_at
      returning d.merchant_id, d.id, d.event_created_at
    ), doomed_attempts as (
      delete from ${deliveryAttempts} a using doomed_deliveries d
      where a.merchant_id = d.merchant_id and a.delivery_id = d.id and a.event_created_at = d.event_created_at
    )
    delete from ${events} e using doomed
    where e.merchant_id = doomed.merchant_id and e.id = doomed.id and e.created_at = doomed.created_at
    returning e.id`);
  return rowsOf<{ id: string }>(result).length;
}
