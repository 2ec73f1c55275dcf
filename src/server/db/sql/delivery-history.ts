import { sql } from "drizzle-orm";
import { rowsOf } from "../rows";
import { deliveryAttempts, merchants, webhookDeliveries } from "../schema";
import type { Executor } from "../types";

/*
 * The delivery engine's last hour as the staff System page shows it (services/system/overview.ts), derived from the
 * attempts (indexed by `sent_at`) and the deliveries still waiting.
 */

const ts = (date: Date) => sql`${date.toISOString()}::text::timestamptz`;

/**
 * The change in queue depth at each minute mark k (0 … 60 after `start`, k = the first mark at or after the change):
 * a wait begins (+1) when a delivery becomes due and ends (−1) when its attempt is sent, or, for one claimed now,
 * when it was claimed (`updated_at`). Waits are the window's attempts, and the deliveries still pending or claimed.
 */
export async function selectDepthChanges(db: Executor, window: { start: Date; now: Date }): Promise<{ k: number; n: number }[]> {
  const { start, now } = window;
  return rowsOf<{ k: number; n: number }>(
    await db.execute(sql`
      with changes as (
        select a.queued_at as at, 1 as d from ${deliveryAttempts} a where a.sent_at >= ${ts(start)}
        union all
        select a.sent_at, -1 from ${deliveryAttempts} a where a.sent_at >= ${ts(start)}
        union all
        select d.next_attempt_at, 1 from ${webhookDeliveries} d
        where d.status in ('pending', 'delivering') and d.next_attempt_at <= ${ts(now)}
        union all
        select d.updated_at, -1 from ${webhookDeliveries} d where d.status = 'delivering' and d.next_attempt_at <= ${ts(now)}
      )
      select greatest(0, ceil(extract(epoch from (at - ${ts(start)})) / 60))::int as k, sum(d)::int as n
      from changes where at <= ${ts(now)} group by 1`),
  );
}

export interface AttemptsInMinute {
  k: number;
  /** `ok` or the attempts' error class; null on the minute's total row. */
  outcome: string | null;
  n: number;
  lag_p99: number | null;
  lag_max: number | null;
}

/** Attempts sent in each minute k (0 … 59 after `start`) by outcome, and the minute's due → sent lag (grouping sets). */
export async function selectAttemptsByMinute(db: Executor, window: { start: Date; now: Date }): Promise<AttemptsInMinute[]> {
  const { start, now } = window;
  return rowsOf<AttemptsInMinute>(
    await db.execute(sql`
      select floor(extract(epoch from (a.sent_at - ${ts(start)})) / 60)::int as k, coalesce(a.error_class, 'ok') as outcome,
        count(*)::int as n,
        percentile_cont(0.99) within group (order by extract(epoch from (a.sent_at - a.queued_at)))::float8 * 1000 as lag_p99,
        max(extract(epoch from (a.sent_at - a.queued_at)))::float8 * 1000 as lag_max
      from ${deliveryAttempts} a
      where a.sent_at >= ${ts(start)} and a.sent_at < ${ts(now)}
      group by grouping sets ((1, 2), (1))`),
  );
}

export interface EndpointLatency {
  merchant_id: string;
  merchant_name: string;
  url: string;
  attempts: number;
  failures: number;
  p95: number;
  avg: number;
}

/** The endpoints (by merchant and URL) with the slowest answers in the window (p95 latency), test sends left out. */
export async function selectSlowestEndpoints(db: Executor, window: { start: Date; now: Date }): Promise<EndpointLatency[]> {
  const { start, now } = window;
  return rowsOf<EndpointLatency>(
    await db.execute(sql`
      select d.merchant_id, m.name as merchant_name, d.url, count(*)::int as attempts,
        count(*) filter (where a.error_class is not null)::int as failures,
        percentile_cont(0.95) within group (order by a.latency_ms)::float8 as p95, avg(a.latency_ms)::float8 as avg
      from ${deliveryAttempts} a
      join ${webhookDeliveries} d on d.id = a.delivery_id
      join ${merchants} m on m.id = d.merchant_id
      where a.sent_at >= ${ts(start)} and a.sent_at < ${ts(now)} and a.trigger <> 'test' and a.latency_ms is not null
      group by d.merchant_id, m.name, d.url
      order by p95 desc, d.url
      limit 10`),
  );
}
